// Cursors as the VM sees them: one interface over B-tree cursors (tables,
// indexes, temporary trees), sorters and pseudo-tables. A cursor caches the
// decoded header of its current record so that successive Column reads of
// one row parse the header once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "exec/int_set.h"
#include "exec/program.h"
#include "record/record.h"
#include "record/value.h"

namespace basalt {

class Btree;
class BtCursor;
class Sorter;
class Vfs;
class VtabCursor;

enum class SeekOp : uint8_t { kGE, kGT, kLE, kLT };

class VmCursor {
 public:
  enum class Kind : uint8_t { kBtree, kSorter, kPseudo, kConstList, kVtab, kRowSet };

  // A cursor on B-tree `root` of `bt`. `write_gen` points at the VM's write
  // counter: every write through any cursor bumps it, and row caches compare.
  // `reuse` (optional): a cursor given back by Recycle(), whose buffers are
  // kept, so that a statement run again and again allocates nothing.
  static Result<std::unique_ptr<VmCursor>> OpenBtree(Btree* bt, uint32_t root, bool write,
                                                     const CursorInfo* info, uint64_t* write_gen,
                                                     std::unique_ptr<VmCursor> reuse = nullptr,
                                                     uint8_t enc = kUtf8);
  // Closes a B-tree cursor on a database tree and returns it for OpenBtree
  // to reuse; other cursors are destroyed (null is returned).
  static std::unique_ptr<VmCursor> Recycle(std::unique_ptr<VmCursor> c);
  // A cursor on a new temporary B-tree: an index tree if key_info is given
  // (keys compared with it), else a table tree. With spill_vfs its pages
  // past cache_pages spill to a temporary file of that VFS.
  static Result<std::unique_ptr<VmCursor>> OpenEphemeral(const KeyInfo* key_info, int n_columns,
                                                         uint64_t* write_gen,
                                                         Vfs* spill_vfs = nullptr,
                                                         size_t cache_pages = 0);
  // A second cursor on the same temporary tree as `other`.
  static Result<std::unique_ptr<VmCursor>> OpenDup(VmCursor* other, uint64_t* write_gen);
  // budget/vfs: Sorter::SetSpill (budget 0: all in memory).
  static std::unique_ptr<VmCursor> OpenSorter(const KeyInfo* key_info, uint64_t* write_gen,
                                              size_t budget = 0, Vfs* vfs = nullptr);
  static std::unique_ptr<VmCursor> OpenPseudo(const Value* reg, int n_columns, uint64_t* write_gen);
  static std::unique_ptr<VmCursor> OpenConstList(const ConstList* list);
  // A set of integers (OpenRowSet, RowSetAdd, RowSetTest).
  static std::unique_ptr<VmCursor> OpenRowSet();
  IntSet* rowset() const { return rowset_.get(); }
  // A virtual table's cursor (Vtab::Open), driven by the V* opcodes.
  static std::unique_ptr<VmCursor> OpenVtab(std::unique_ptr<VtabCursor> c);
  VtabCursor* vtab() const { return vtab_.get(); }
  ~VmCursor();
  VmCursor(const VmCursor&) = delete;
  VmCursor& operator=(const VmCursor&) = delete;

  Kind kind() const { return kind_; }
  bool is_table() const { return key_info_ == nullptr; }
  bool eof() const { return eof_; }
  uint32_t root() const { return root_; }

  Status Rewind(bool* empty);
  Status Last(bool* empty);
  Status Next(bool* more);
  Status Prev(bool* more);
  // Table cursors.
  Status SeekRowid(int64_t rowid, bool* found);
  Status Rowid(int64_t* out);
  // Positions at the entry that satisfies `op` against the key prefix
  // (index) or rowid key[0] (table, integer or real); found = false at EOF.
  Status Seek(SeekOp op, const Value* key, int n, bool* found);
  // Sign of (current index entry − key) over the key's n fields.
  Status CompareKey(const Value* key, int n, int* cmp);
  // Whether the index has an entry whose first n fields equal the key;
  // leaves the cursor on it if so.
  Status Found(const Value* key, int n, bool* found);
  // Whether the index has an entry equal to the whole record `rec`.
  Status FoundRecord(const Value& rec, bool* found);

  Status Column(int i, Value* out, const Value* dflt);
  // The whole current record (sorter data, pseudo, RowData).
  Status RecordData(Value* out);

  Status InsertRow(int64_t rowid, const Value& record, bool append);
  Status InsertKey(const Value& record);
  // Adds an index record that sorts after every key in the tree (a build
  // from sorted keys): straight onto the last leaf, no seek.
  Status AppendKey(const Value& record);
  Status Delete();
  Status NewRowid(int64_t* out);
  Status Count(int64_t* out);
  Status Clear();

  // Sorter.
  Status SorterInsert(const Value& record);
  Sorter* sorter() const { return sorter_.get(); }  // null unless a sorter
  Status SorterSort(bool* empty);
  Status SorterNext(bool* more);

  // Column's fast path, inline in the VM: the current row is loaded (the
  // LoadRow cache holds) and field i's type and offset are parsed. False
  // when Column must do the work (nothing is written then).
  bool ColumnFast(int i, Value* out) {
    if (!row_valid_ || null_row_ || row_gen_ != *write_gen_ || kind_ == Kind::kPseudo ||
        static_cast<uint32_t>(i) >= n_parsed_ || IsUtf16(enc_)) {
      return false;
    }
    if (static_cast<uint32_t>(i) > row_max_) row_max_ = static_cast<uint32_t>(i);
    DecodeSerial(payload_ + offsets_[static_cast<size_t>(i)], types_[static_cast<size_t>(i)], out,
                 false);
    return true;
  }

  void SetNullRow() { null_row_ = true; }
  void ClearNullRow() { null_row_ = false; }
  bool null_row() const { return null_row_; }
  int64_t NextSequence() { return seq_++; }

  // Shared temporary tree (OpenDup).
  std::shared_ptr<Btree> ephemeral() const { return eph_; }
  // OpenDup of `other` into the slot holding *c: when *c is already a dup
  // of the same tree, its B-tree cursor is reopened in place (as new, no
  // allocation); otherwise a new cursor replaces it.
  static Status ReopenDup(std::unique_ptr<VmCursor>* c, VmCursor* other, uint64_t* write_gen);

 private:
  VmCursor() = default;
  Status LoadRow();
  Status ParseHeaderThrough(int i);  // fills payload_/types_/offsets_ for the current entry
  // Decodes a record into unpacked_ (borrowing its bytes); field count or -1.
  int Unpack(const Value& record);
  std::vector<Value> unpacked_;
  void Moved() {
    row_valid_ = false;
    null_row_ = false;
  }

  Kind kind_ = Kind::kBtree;
  const KeyInfo* key_info_ = nullptr;
  int n_columns_ = 0;
  uint32_t root_ = 0;
  bool write_ = false;
  bool eof_ = true;
  bool null_row_ = false;
  int64_t seq_ = 0;
  uint64_t* write_gen_ = nullptr;

  Btree* bt_ = nullptr;
  std::shared_ptr<Btree> eph_;  // temporary tree, shared with OpenDup cursors
  std::unique_ptr<BtCursor> cur_;
  std::unique_ptr<Sorter> sorter_;
  const Value* pseudo_reg_ = nullptr;
  const ConstList* const_list_ = nullptr;
  int const_pos_ = 0;
  std::unique_ptr<VtabCursor> vtab_;
  std::unique_ptr<IntSet> rowset_;

  // Row cache.
  bool row_valid_ = false;
  uint64_t row_gen_ = 0;
  const uint8_t* payload_ = nullptr;
  uint32_t payload_len_ = 0;
  std::string overflow_buf_;
  uint32_t header_len_ = 0;
  uint32_t header_pos_ = 0;  // bytes of header parsed so far
  uint32_t n_parsed_ = 0;    // columns whose type/offset are known
  uint32_t body_pos_ = 0;    // offset of field n_parsed_'s body
  // types_[0..n_parsed_) and offsets_[0..n_parsed_) are the current row's;
  // the vectors only grow (entries past n_parsed_ are stale).
  std::vector<uint32_t> types_;
  std::vector<uint32_t> offsets_;
  // The largest field index Column read on this row, and on the previous
  // one (capped): a new row's header is parsed that far at the first read.
  static constexpr uint32_t kMaxParseAhead = 64;
  uint32_t row_max_ = 0;
  uint32_t parse_ahead_ = 0;

  // A cursor on a UTF-16 database converts text at its boundary: records in
  // and out, columns, and index keys (see PrepareKeyForEncoding).
  const Value* EncodedKey(const Value* key, int n);
  uint8_t enc_ = kUtf8;
  KeyInfo ki_enc_;
  std::vector<Value> key_copy_;
  std::string encoded_;
};

}  // namespace basalt

// SQLite-format B-trees over a Pager (fileformat2 sections 1.3 - 1.6).
//
// A Btree is one database: page 1 holds the 100-byte database header and the
// root of sqlite_schema; every other table or index is a tree identified by
// its root page number, which never changes while the tree exists.
//
//   * Table trees (TreeKind::kTable) map a signed 64-bit rowid to a payload.
//   * Index trees (TreeKind::kIndex) hold keys only. Keys are opaque byte
//     strings; their order is defined by comparator callbacks the caller
//     supplies (SearchComparator for seeks and inserts, KeyComparator for
//     re-seeking a cursor whose tree was changed by another cursor).
//
// Cursors: any number per tree. A cursor that is positioned when another
// cursor (or ClearTree, or a savepoint rollback) changes its tree saves its
// key and re-seeks on next use; Next()/Prev() then continue from there, and
// if its entry was deleted Next() lands on the entry that followed it.
//
// Errors are Status values with SQLite result codes. Corrupt pages yield
// SQLITE_CORRUPT, never an out-of-bounds access.
//
// Auto-vacuum databases (pointer-map pages) are maintained: see
// SetAutoVacuum, DropTree(root, &moved_from) and IncrementalVacuum.
// Databases with a newer write version open read-only.
// A Btree and its cursors are used from one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "pager/pager.h"

namespace basalt {

struct BtShared;
class BtCursor;
class Vfs;
class Balancer;

// Sign of (stored key - search key); the search key is whatever ctx holds.
using SearchComparator = int (*)(void* ctx, const uint8_t* key, uint32_t n);
// Sign of (a - b) for two stored keys.
using KeyComparator = int (*)(void* ctx, const uint8_t* a, uint32_t na, const uint8_t* b,
                              uint32_t nb);

// Compares two keys bytewise (memcmp, then the shorter key first).
int MemcmpKeyCompare(void* ctx, const uint8_t* a, uint32_t na, const uint8_t* b, uint32_t nb);

// kUnknown: only for OpenCursor (read the root page to find out).
enum class TreeKind : uint8_t { kTable, kIndex, kUnknown };

// The 4-byte header fields at offset 40 + 4 * i.
enum class Meta : int {
  kSchemaCookie = 0,
  kSchemaFormat = 1,
  kDefaultCacheSize = 2,
  kLargestRootPage = 3,
  kTextEncoding = 4,
  kUserVersion = 5,
  kIncrementalVacuum = 6,
  kApplicationId = 7,
};

// A tree to verify in Btree::IntegrityCheck; cmp (optional) orders index keys.
struct IntegrityRoot {
  Pgno root = 0;
  KeyComparator cmp = nullptr;
  void* ctx = nullptr;
};

namespace btree_detail {
// A parsed b-tree page, pinned.
struct Node {
  PageRef ref;
  uint8_t* data = nullptr;
  Pgno pgno = 0;
  uint16_t ncell = 0;
  uint16_t ptrs = 0;       // offset of the cell pointer array
  uint16_t max_local = 0;  // X of the payload rules for this page type
  uint8_t hdr = 0;         // offset of the page header: 100 on page 1, else 0
  uint8_t type = 0;        // btfmt::kTableLeaf, ...
  bool leaf = false;
  bool intkey = false;  // table tree page
  int32_t nfree = -1;   // free bytes on the page; -1 until computed
};

// One decoded cell.
struct CellInfo {
  int64_t key = 0;                   // rowid (table cells)
  const uint8_t* payload = nullptr;  // first local payload byte
  uint32_t payload_size = 0;         // total, including overflow
  uint32_t local = 0;                // bytes of payload on the page
  uint16_t size = 0;                 // bytes the cell occupies on the page
};

// The overflow pages of one payload, found so far (so that reads at large
// offsets do not walk the chain from its start each time).
struct OverflowCache {
  uint64_t seq = 0;  // BtShared::change_seq when filled
  Pgno first = 0;    // first overflow page of the payload
  std::vector<Pgno> pages;
};
}  // namespace btree_detail

// One b-tree page as the DBSTAT virtual table reports it (page_layout.cc).
struct PageLayout {
  struct Cell {
    Pgno child = 0;           // left child (interior pages), else 0
    uint32_t payload = 0;     // payload bytes in all (0 on table interior pages)
    uint32_t local = 0;       // of which stored on this page
    Pgno overflow = 0;        // first overflow page, 0 when none
    uint32_t n_overflow = 0;  // pages in the overflow chain
  };
  uint8_t type = 0;      // btfmt::kTableLeaf, ...
  Pgno right_child = 0;  // interior pages
  // Bytes the page does not use: the gap between the cell pointers and the
  // cell content area, the freeblocks and the fragmented bytes (reserved
  // bytes at the end of the page are not counted).
  int64_t unused = 0;
  std::vector<Cell> cells;
};

class Btree {
 public:
  // An empty in-memory database (":memory:"). Page 1 is created by the first
  // write transaction; until then the page size may be changed.
  static Result<std::unique_ptr<Btree>> OpenInMemory(uint32_t page_size = kDefaultPageSize);
  // A scratch database for temporary/ephemeral trees: no rollback journal,
  // always inside a write transaction, page 1 (an empty table tree usable as
  // root 1) created at once. With a VFS its pages spill to a temporary file
  // of that VFS past `cache_pages` pages in memory (TempPager); without one
  // they all stay in memory.
  static Result<std::unique_ptr<Btree>> OpenEphemeral(uint32_t page_size = kDefaultPageSize,
                                                      Vfs* spill_vfs = nullptr,
                                                      size_t cache_pages = 0);
  // A database over an existing pager (its page 1, if any, is validated).
  static Result<std::unique_ptr<Btree>> Open(std::unique_ptr<Pager> pager);
  // An in-memory database holding a copy of a database file's bytes.
  static Result<std::unique_ptr<Btree>> OpenImage(std::string_view bytes);
  ~Btree();
  Btree(const Btree&) = delete;
  Btree& operator=(const Btree&) = delete;

  // Transactions. Commit of a write transaction that changed anything bumps
  // the change counter and updates the in-header size, version-valid-for and
  // version number; in auto-vacuum FULL mode it first moves pages from the
  // end of the file into free pages and truncates the file, so that the
  // freelist is empty. Rollback makes open cursors fail with SQLITE_ABORT.
  // A transaction that starts re-reads page 1's header when another
  // connection changed it (reserved bytes, auto-vacuum mode, write
  // version); a page size the pager cannot follow gives SQLITE_SCHEMA.
  Status BeginTransaction(bool write);
  Status Commit();
  // Commit in two phases (Pager::CommitPhaseOne / CommitPhaseTwo), for a
  // transaction over several databases.
  Status CommitPhaseOne(std::string_view super_journal);
  Status CommitPhaseTwo();
  Status Rollback();
  bool in_transaction() const;
  bool in_write_transaction() const;

  // Savepoints (see Pager): OpenSavepoints(n) opens until n are open.
  int savepoint_count() const;
  Status OpenSavepoints(int n);
  Status ReleaseSavepoint(int i);
  Status RollbackToSavepoint(int i);

  // Trees. DropTree frees every page of the tree (not page 1); ClearTree
  // empties it (keeping the root) and reports how many entries it held.
  // In an auto-vacuum database CreateTree takes the page after the largest
  // root (moving what lives there), and DropTree moves the tree whose root
  // is the largest into the freed root page: *moved_from is then that
  // tree's old root (its new root is `root`), else 0. The caller updates
  // sqlite_schema's rootpage column (old root -> root). The one-argument
  // form refuses (SQLITE_MISUSE) a drop that would move a root.
  Result<Pgno> CreateTree(TreeKind kind);
  Status DropTree(Pgno root);
  Status DropTree(Pgno root, Pgno* moved_from);
  Status ClearTree(Pgno root, int64_t* entries = nullptr);

  Status GetMeta(Meta field, uint32_t* value);
  Status SetMeta(Meta field, uint32_t value);

  uint32_t page_size() const;
  uint32_t usable_size() const;
  Pgno page_count() const;
  Status FreelistCount(uint32_t* n);
  // Only while the database has no pages (before the first write).
  Status SetPageSize(uint32_t page_size);

  // Auto-vacuum mode: 0 NONE, 1 FULL, 2 INCREMENTAL. Any mode may be set
  // while the database has no pages (page 1 records it when created). On
  // a database with pages only FULL <-> INCREMENTAL is possible (it writes
  // the header flag: in the caller's write transaction, or in one of its
  // own when no transaction is open; SQLITE_MISUSE in a read transaction);
  // switching auto-vacuum on or off gives SQLITE_READONLY, which the
  // pragma ignores as SQLite does (VACUUM into a database built with the
  // new mode, see CopyContentFrom, changes it). Opening a database, or a
  // transaction seeing another connection's change, adopts the file's mode.
  Status SetAutoVacuum(int mode);
  int auto_vacuum() const;
  // The text encoding (1 UTF-8, 2 UTF-16le, 3 UTF-16be) page 1 records when
  // this database is created; an existing database keeps its own.
  void SetNewDatabaseEncoding(uint8_t enc);
  // Bytes reserved at the end of every page of a database not yet created
  // (VACUUM keeps the reserve of the database it rebuilds); SQLITE_MISUSE
  // once the database has pages.
  Status SetReservedBytes(uint8_t n);
  // PRAGMA incremental_vacuum(n): inside a write transaction, removes up to
  // n free pages (0: all) from the end of the file, moving live pages from
  // there into free pages lower down. No-op when auto-vacuum is off.
  Status IncrementalVacuum(uint32_t n);
  // sqlite3_autovacuum_pages: asked before each FULL auto-vacuum commit how
  // many free pages to remove (0: none; at least the free count: all).
  // Null restores the default (all).
  void SetAutoVacuumPages(std::function<uint32_t(uint32_t pages, uint32_t free, uint32_t size)> fn);

  // Tests only: treat `pgno` as the lock-byte page (normally the page
  // holding file offset 2^30), so that the rules about it can be exercised
  // in small databases.
  void SetLockBytePageForTesting(Pgno pgno);

  // Opens `cur` on the tree rooted at `root`. Index cursors need a
  // KeyComparator to re-seek after other cursors change the tree (memcmp
  // order when none is given). The Btree must outlive its cursors. A caller
  // that knows the kind of tree (from the schema) says so, and the root page
  // is read only when the cursor first moves (a root of the other kind is
  // then SQLITE_CORRUPT).
  Status OpenCursor(Pgno root, bool write, BtCursor* cur, KeyComparator cmp = nullptr,
                    void* cmp_ctx = nullptr, TreeKind kind = TreeKind::kUnknown);

  // Verifies the trees at `roots` (page 1 is always included), the freelist
  // and that every page is used exactly once. Problems are appended to
  // *msgs, SQLite-style ("Page 5: ..."), at most max_errors of them. A
  // `partial` check (of one table's trees) verifies only `roots`: no page
  // 1, freelist, largest-root or never-used checks, as SQLite's.
  Status IntegrityCheck(std::span<const IntegrityRoot> roots, int max_errors,
                        std::vector<std::string>* msgs, bool partial = false);

  // VACUUM. Inside this database's write transaction, replaces its whole
  // content by src's pages (src: a freshly built database, e.g. an
  // in-memory one, not inside a write transaction; its page size,
  // reserved bytes and auto-vacuum mode may differ and are adopted). Every
  // page goes through the pager (journaled: crash-safe), the file grows or
  // is truncated to src's size. Page 1 comes from src (meta values,
  // freelist, sqlite_schema) except the journal-format bytes (18, 19) and
  // the change counter, which Commit maintains as usual. Open cursors on
  // this database fail with SQLITE_ABORT afterwards. A different page size
  // needs the pager to rewrite the file (Pager::RewriteWithPageSize: a file
  // database in a rollback-journal mode; SQLITE_MISUSE elsewhere).
  Status CopyContentFrom(Btree* src);
  // Copies every entry of src's tree src_root, in order, into this
  // database's (empty) tree dst_root of the same kind, appending: table
  // rows keep their rowids, index keys are appended (AppendKey). Inside
  // this database's write transaction.
  Status CopyTree(Btree* src, Pgno src_root, Pgno dst_root);

  // Read-only page inspection (DBSTAT). ReadPageLayout decodes the b-tree
  // page pgno (SQLITE_CORRUPT when it is not a sound b-tree page);
  // ReadOverflowNext gives the page after `pgno` in an overflow chain (0
  // after the last). Each opens a read transaction if none is open.
  Status ReadPageLayout(Pgno pgno, PageLayout* out);
  Status ReadOverflowNext(Pgno pgno, Pgno* next);

  // The database file bytes (in-memory pagers only; for tests and tools).
  Status CopyImage(std::string* out);

  Pager* pager();

 private:
  explicit Btree(std::unique_ptr<BtShared> s);
  Status CopyResized(Btree* src);  // vacuum_copy.cc
  std::unique_ptr<BtShared> s_;
};

// "ok", or SQLite's integrity_check text for these messages.
std::string FormatIntegrityReport(const std::vector<std::string>& msgs,
                                  std::string_view db_name = "main");

class BtCursor {
 public:
  BtCursor() = default;
  ~BtCursor() { Close(); }
  BtCursor(const BtCursor&) = delete;
  BtCursor& operator=(const BtCursor&) = delete;

  bool is_open() const { return bt_ != nullptr; }
  void Close();
  Pgno root() const { return root_; }
  bool is_table() const { return intkey_; }

  // Movement. Afterwards eof() tells whether the cursor is on an entry.
  Status First();
  Status Last();
  Status Next() {
    // Within a leaf: the common case, inline.
    if (state_ == State::kValid && skip_next_ == 0) {
      Level& lv = path_[depth_];
      if (lv.node.leaf && lv.idx + 1 < lv.node.ncell) {
        ++lv.idx;
        info_valid_ = false;
        hint_valid_ = false;
        return Status();
      }
    }
    return NextFull();
  }
  Status Prev();
  bool eof() const { return state_ == State::kInvalid || state_ == State::kFault; }

  // Positions on `rowid` (table trees). *res == 0: on that row; *res < 0: on
  // the largest entry smaller than rowid; *res > 0: on the smallest entry
  // larger than rowid. An empty tree gives eof() and *res = -1.
  Status SeekRowid(int64_t rowid, int* res);
  // The same for index trees; cmp(ctx, stored, n) orders stored keys against
  // the search key. *res == 0 when cmp returned 0 for the entry found; when
  // several entries compare equal it is any one of them (bias the
  // comparator, as SQLite's default_rc does, to find the first or last).
  // int_first (optional): the search key's first field is this integer and
  // cmp orders every stored key whose first field is a different integer
  // by that field alone, ascending; the descent then decides such steps
  // itself (records with a 1..4-byte integer first) without calling cmp.
  Status SeekIndex(SearchComparator cmp, void* ctx, int* res, const int64_t* int_first = nullptr);

  // True when the tree changed under the cursor since it was positioned (it
  // then re-seeks lazily). Restore() re-seeks now; *gone tells whether the
  // entry it was on no longer exists (the cursor is then on a neighbour).
  bool has_moved() const { return state_ != State::kValid; }
  Status Restore(bool* gone = nullptr);

  // The current entry (requires !eof() && !has_moved()); rowid() is for
  // table cursors (payload_size() is the key size on index cursors).
  int64_t rowid() { return info_valid_ && state_ == State::kValid ? info_.key : RowidSlow(); }
  uint32_t payload_size() {
    return info_valid_ && state_ == State::kValid ? info_.payload_size : PayloadSizeSlow();
  }
  // The current leaf entry's payload when it lies whole on its page (the
  // common case), without decoding the rest of the cell: true with *data
  // and *size (size > 0; zero-copy, valid as local_payload()). False
  // otherwise (overflow, an empty or damaged cell, an interior entry, not
  // on an entry): use payload_size(), local_payload() and ReadPayload().
  bool WholeLocalPayload(const uint8_t** data, uint32_t* size);
  // The part of the payload stored on the b-tree page (zero-copy; valid
  // until the cursor moves or the tree changes).
  std::span<const uint8_t> local_payload() {
    if (info_valid_ && state_ == State::kValid) return {info_.payload, info_.local};
    return LocalPayloadSlow();
  }
  // SQLITE_CORRUPT when the current entry's cell cannot be decoded (in a
  // damaged file; rowid(), payload_size() and local_payload() then give 0
  // and nothing).
  Status CheckEntry() { return ParseCurrent(); }
  // Copies payload bytes [offset, offset + n), following overflow pages.
  Status ReadPayload(uint32_t offset, uint32_t n, uint8_t* buf);

  // Writes (write cursors, inside a write transaction). After an insert the
  // cursor is on the new entry. Inserting an existing rowid (or a key that
  // compares equal) replaces that entry.
  Status InsertRow(int64_t rowid, const uint8_t* data, uint32_t n);
  Status InsertKey(const uint8_t* key, uint32_t n, SearchComparator cmp, void* ctx,
                   const int64_t* int_first = nullptr);  // int_first: as SeekIndex
  // Index trees: adds a key the caller guarantees to be larger than every
  // key in the tree, at its end, without comparing keys (building an index
  // from sorted input). Left pages are kept full, as for appended rowids.
  Status AppendKey(const uint8_t* key, uint32_t n);
  // Deletes the current entry. Next() then moves to the entry that followed
  // it, Prev() to the one before it.
  Status Delete();

  // Number of entries in the tree (does not move the cursor).
  Status Count(int64_t* n);

 private:
  using Node = btree_detail::Node;
  using CellInfo = btree_detail::CellInfo;
  friend class Btree;
  friend class Balancer;
  friend struct BtShared;

  enum class State : uint8_t { kInvalid, kValid, kRequireSeek, kFault };
  static constexpr int kMaxDepth = 20;

  // cursor.cc
  Status EnsureRestored();
  // keep_path: deeper levels stay pinned for MoveToChild to reuse until
  // TrimPath() releases the ones the new path does not use.
  Status MoveToRoot(bool keep_path = false);
  void TrimPath(bool failed);
  Status MoveToChild(Pgno child);
  Status DescendAt(int lo, uint32_t cell_min, uint32_t span);
  Status DescendLeftmost();
  Status DescendRightmost();
  Status NextFull();
  Status NextSlow();
  Status PrevSlow();
  Status SeekRowidInternal(int64_t rowid, int* res);
  Status DescendToRowid(int64_t rowid, int* res);
  Status DescendToKey(SearchComparator cmp, void* ctx, int* res, const int64_t* int_first);
  Status SeekInLeaf(int64_t rowid, int* res, bool* done);
  Status SeekIndexInternal(SearchComparator cmp, void* ctx, int* res,
                           const int64_t* int_first = nullptr);
  Status CompareCell(const Node& n, const uint8_t* cell, SearchComparator cmp, void* ctx, int* c);
  Status ParseCurrent();
  bool DecodeCurrent();  // ParseCurrent, false when the cell is corrupt
  int64_t RowidSlow();
  uint32_t PayloadSizeSlow();
  std::span<const uint8_t> LocalPayloadSlow();
  Status CurrentKey(std::vector<uint8_t>* out);
  void ReleasePath();
  Status SavePosition();
  void Trip(int code);
  // modify.cc
  Status DoInsertRow(int64_t rowid, const uint8_t* data, uint32_t n);
  Status DoInsertKey(const uint8_t* key, uint32_t n, SearchComparator cmp, void* ctx,
                     const int64_t* int_first);
  Status InsertPointNearby(SearchComparator cmp, void* ctx, bool* near);
  Status DoAppendKey(const uint8_t* key, uint32_t n);
  Status DoDelete();
  Status AfterFailure(Status st);
  Status SaveOtherCursors();
  Status CheckWritable();
  Status InsertCellAtLeaf(const uint8_t* cell, uint32_t size, bool replace);
  Status ReplaceCell(int level, const uint8_t* cell, uint32_t size);
  Status AfterBalance();
  bool AtLastEntry() const;

  BtShared* bt_ = nullptr;
  BtCursor* next_ = nullptr;  // BtShared's list of open cursors
  BtCursor* prev_ = nullptr;
  // The open cursors on the same tree form a ring through peer_ (DropTree
  // leaves its cursors on root 0, where the ring is not used).
  BtCursor* peer_ = this;
  Pgno root_ = 0;
  State state_ = State::kInvalid;
  bool intkey_ = false;
  bool write_ = false;
  bool info_valid_ = false;
  int8_t skip_next_ = 0;  // after a re-seek: >0 Next() stays, <0 Prev() stays
  int depth_ = -1;        // deepest level in path_, -1 when not positioned
  int fault_ = 0;         // result code while state_ == kFault
  CellInfo info_;         // the current cell when info_valid_
  // The entry a saved cursor re-seeks to.
  int64_t saved_rowid_ = 0;
  std::vector<uint8_t> saved_key_;
  KeyComparator key_cmp_ = nullptr;
  void* key_ctx_ = nullptr;
  std::vector<uint8_t> key_buf_;  // assembles keys that spill to overflow pages
  btree_detail::OverflowCache ovfl_cache_;
  // Result of the last SeekRowid, reused by an InsertRow of the same rowid.
  bool hint_valid_ = false;
  int hint_res_ = 0;
  int64_t hint_rowid_ = 0;
  struct Level {
    Node node;
    int idx = 0;  // cell index (leaf, or the entry on an index interior page) or child index
  };
  Level path_[kMaxDepth];
};

}  // namespace basalt

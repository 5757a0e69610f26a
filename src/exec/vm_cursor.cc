#include "exec/vm_cursor.h"

#include "catalog/vtab.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>

#include "btree/btree.h"
#include "common/coding.h"
#include "exec/sorter.h"
#include "exec/vm_seek.h"
#include "record/affinity.h"
#include "record/value_ops.h"

namespace basalt {

namespace {

int KeyCompare(void* ctx, const uint8_t* a, uint32_t na, const uint8_t* b, uint32_t nb) {
  Status st;
  return CompareRecords(a, na, b, nb, *static_cast<const KeyInfo*>(ctx), &st);
}

}  // namespace

VmCursor::~VmCursor() {
  cur_.reset();  // close the B-tree cursor before a temporary tree goes away
}

std::unique_ptr<VmCursor> VmCursor::OpenRowSet() {
  std::unique_ptr<VmCursor> v(new VmCursor());
  v->kind_ = Kind::kRowSet;
  v->rowset_ = std::make_unique<IntSet>();
  return v;
}

std::unique_ptr<VmCursor> VmCursor::OpenVtab(std::unique_ptr<VtabCursor> c) {
  std::unique_ptr<VmCursor> v(new VmCursor());
  v->kind_ = Kind::kVtab;
  v->vtab_ = std::move(c);
  return v;
}

std::unique_ptr<VmCursor> VmCursor::Recycle(std::unique_ptr<VmCursor> c) {
  if (!c || c->kind_ != Kind::kBtree || c->eph_ || !c->cur_) return nullptr;
  c->cur_->Close();
  c->bt_ = nullptr;
  c->eof_ = true;
  c->null_row_ = false;
  c->seq_ = 0;
  c->row_valid_ = false;
  c->row_gen_ = 0;
  c->payload_ = nullptr;
  c->payload_len_ = 0;
  c->header_len_ = 0;
  c->header_pos_ = 0;
  c->n_parsed_ = 0;
  c->body_pos_ = 0;
  if (c->overflow_buf_.capacity() > 65536) std::string().swap(c->overflow_buf_);
  return c;
}

Result<std::unique_ptr<VmCursor>> VmCursor::OpenBtree(Btree* bt, uint32_t root, bool write,
                                                      const CursorInfo* info, uint64_t* write_gen,
                                                      std::unique_ptr<VmCursor> reuse,
                                                      uint8_t enc) {
  std::unique_ptr<VmCursor> c =
      reuse ? std::move(reuse) : std::unique_ptr<VmCursor>(new VmCursor());
  c->kind_ = Kind::kBtree;
  c->bt_ = bt;
  c->root_ = root;
  c->write_ = write;
  c->write_gen_ = write_gen;
  c->key_info_ = info ? info->key_info : nullptr;
  c->n_columns_ = info ? info->n_columns : 0;
  c->enc_ = enc;
  if (IsUtf16(enc) && c->key_info_ != nullptr) {
    c->ki_enc_ = *c->key_info_;
    c->ki_enc_.enc = enc;
    c->key_info_ = &c->ki_enc_;
  }
  if (!c->cur_) c->cur_ = std::make_unique<BtCursor>();
  // The schema tells the kind of tree; its root page is read at the first move.
  TreeKind kind = info == nullptr             ? TreeKind::kUnknown
                  : info->key_info != nullptr ? TreeKind::kIndex
                                              : TreeKind::kTable;
  TRY(bt->OpenCursor(root, write, c->cur_.get(), c->key_info_ ? KeyCompare : nullptr,
                     const_cast<KeyInfo*>(c->key_info_), kind));
  return c;
}

Result<std::unique_ptr<VmCursor>> VmCursor::OpenEphemeral(const KeyInfo* key_info, int n_columns,
                                                          uint64_t* write_gen, Vfs* spill_vfs,
                                                          size_t cache_pages) {
  ASSIGN_OR_RETURN(std::unique_ptr<Btree> bt,
                   Btree::OpenEphemeral(kDefaultPageSize, spill_vfs, cache_pages));
  std::unique_ptr<VmCursor> c(new VmCursor());
  c->kind_ = Kind::kBtree;
  c->eph_ = std::shared_ptr<Btree>(std::move(bt));
  c->bt_ = c->eph_.get();
  c->write_ = true;
  c->write_gen_ = write_gen;
  c->key_info_ = key_info;
  c->n_columns_ = n_columns;
  ASSIGN_OR_RETURN(Pgno root,
                   c->bt_->CreateTree(key_info != nullptr ? TreeKind::kIndex : TreeKind::kTable));
  c->root_ = root;
  c->cur_ = std::make_unique<BtCursor>();
  TRY(c->bt_->OpenCursor(c->root_, true, c->cur_.get(), key_info ? KeyCompare : nullptr,
                         const_cast<KeyInfo*>(key_info)));
  return c;
}

Result<std::unique_ptr<VmCursor>> VmCursor::OpenDup(VmCursor* other, uint64_t* write_gen) {
  std::unique_ptr<VmCursor> c(new VmCursor());
  c->kind_ = Kind::kBtree;
  c->eph_ = other->eph_;
  c->bt_ = other->bt_;
  c->root_ = other->root_;
  c->write_ = true;
  c->write_gen_ = write_gen;
  c->key_info_ = other->key_info_;
  c->n_columns_ = other->n_columns_;
  c->cur_ = std::make_unique<BtCursor>();
  TRY(c->bt_->OpenCursor(c->root_, true, c->cur_.get(), c->key_info_ ? KeyCompare : nullptr,
                         const_cast<KeyInfo*>(c->key_info_)));
  return c;
}

Status VmCursor::ReopenDup(std::unique_ptr<VmCursor>* c, VmCursor* other, uint64_t* write_gen) {
  VmCursor* old = c->get();
  if (old == nullptr || old->kind_ != Kind::kBtree || old->eph_ == nullptr ||
      old->eph_ != other->eph_ || old->root_ != other->root_ || old->cur_ == nullptr) {
    auto dup = OpenDup(other, write_gen);
    if (!dup.ok()) return std::move(dup).status();
    *c = std::move(dup).value();
    return Status();
  }
  // The state of a fresh OpenDup cursor.
  old->write_gen_ = write_gen;
  old->key_info_ = other->key_info_;
  old->n_columns_ = other->n_columns_;
  old->eof_ = true;
  old->seq_ = 0;
  old->Moved();
  return old->bt_->OpenCursor(old->root_, true, old->cur_.get(),
                              old->key_info_ ? KeyCompare : nullptr,
                              const_cast<KeyInfo*>(old->key_info_));
}

std::unique_ptr<VmCursor> VmCursor::OpenSorter(const KeyInfo* key_info, uint64_t* write_gen,
                                               size_t budget, Vfs* vfs) {
  std::unique_ptr<VmCursor> c(new VmCursor());
  c->kind_ = Kind::kSorter;
  c->key_info_ = key_info;
  c->write_gen_ = write_gen;
  c->sorter_ = std::make_unique<Sorter>(key_info);
  c->sorter_->SetSpill(budget, vfs);
  return c;
}

std::unique_ptr<VmCursor> VmCursor::OpenPseudo(const Value* reg, int n_columns,
                                               uint64_t* write_gen) {
  std::unique_ptr<VmCursor> c(new VmCursor());
  c->kind_ = Kind::kPseudo;
  c->pseudo_reg_ = reg;
  c->n_columns_ = n_columns;
  c->write_gen_ = write_gen;
  c->eof_ = false;
  return c;
}

std::unique_ptr<VmCursor> VmCursor::OpenConstList(const ConstList* list) {
  std::unique_ptr<VmCursor> c(new VmCursor());
  c->kind_ = Kind::kConstList;
  c->const_list_ = list;
  return c;
}

// ---- movement ------------------------------------------------------------------

Status VmCursor::Rewind(bool* empty) {
  Moved();
  if (kind_ == Kind::kConstList) {
    const_pos_ = 0;
    eof_ = const_list_->n == 0;
    *empty = eof_;
    return Status();
  }
  TRY(cur_->First());
  eof_ = cur_->eof();
  *empty = eof_;
  return Status();
}

Status VmCursor::Last(bool* empty) {
  Moved();
  TRY(cur_->Last());
  eof_ = cur_->eof();
  *empty = eof_;
  return Status();
}

Status VmCursor::Next(bool* more) {
  Moved();
  if (kind_ == Kind::kConstList) {
    ++const_pos_;
    eof_ = const_pos_ >= const_list_->n;
    *more = !eof_;
    return Status();
  }
  if (kind_ != Kind::kBtree || (eof_ && !cur_->has_moved())) {
    *more = false;
    return Status();
  }
  TRY(cur_->Next());
  eof_ = cur_->eof();
  *more = !eof_;
  return Status();
}

Status VmCursor::Prev(bool* more) {
  Moved();
  if (kind_ != Kind::kBtree || (eof_ && !cur_->has_moved())) {
    *more = false;
    return Status();
  }
  TRY(cur_->Prev());
  eof_ = cur_->eof();
  *more = !eof_;
  return Status();
}

Status VmCursor::SeekRowid(int64_t rowid, bool* found) {
  Moved();
  int res = 0;
  TRY(cur_->SeekRowid(rowid, &res));
  eof_ = cur_->eof();
  *found = !eof_ && res == 0;
  return Status();
}

Status VmCursor::Rowid(int64_t* out) {
  if (kind_ == Kind::kBtree && is_table()) {
    if (cur_->has_moved()) TRY(cur_->Restore());
    if (cur_->eof()) {
      *out = 0;
      return Status();
    }
    *out = cur_->rowid();
    return Status();
  }
  // Index (or sorter/pseudo) record: the rowid is the last field.
  TRY(LoadRow());
  Value v;
  if (payload_len_ > 0) TRY(ParseHeaderThrough(INT_MAX - 1));
  int n = static_cast<int>(n_parsed_);
  if (n == 0) {
    *out = 0;
    return Status();
  }
  DecodeSerial(payload_ + offsets_[static_cast<size_t>(n - 1)], types_[static_cast<size_t>(n - 1)],
               &v, true);
  *out = v.is_int() ? v.int_value() : ValueToInt64(v);
  return Status();
}

Status VmCursor::Seek(SeekOp op, const Value* key, int n, bool* found) {
  Moved();
  if (is_table()) {
    // Rowid seeks: key[0] may be a real or text.
    Value k;
    k.ShallowCopyFrom(key[0]);
    if (k.is_string_like()) ApplyAffinity(&k, Affinity::kNumeric);
    int64_t target;
    bool inclusive = op == SeekOp::kGE || op == SeekOp::kLE;
    if (k.is_int()) {
      target = k.int_value();
    } else if (k.is_real()) {
      double r = k.real_value();
      bool up = op == SeekOp::kGE || op == SeekOp::kLT;  // round toward the boundary
      double t = up ? std::ceil(r) : std::floor(r);
      if (t != r) inclusive = (op == SeekOp::kGE || op == SeekOp::kLE) ? true : false;
      if (t != r) {
        // GE/GT r → GE ceil(r); LE/LT r → LE floor(r)
        if (op == SeekOp::kGT) {
          t = std::ceil(r);
          op = SeekOp::kGE;
        } else if (op == SeekOp::kLT) {
          t = std::floor(r);
          op = SeekOp::kLE;
        } else if (op == SeekOp::kGE) {
          t = std::ceil(r);
        } else {
          t = std::floor(r);
        }
        inclusive = true;
      }
      if (t >= 9223372036854775808.0) {
        if (op == SeekOp::kGE || op == SeekOp::kGT) {
          eof_ = true;
          *found = false;
          return Status();
        }
        bool empty;
        TRY(Last(&empty));
        *found = !empty;
        return Status();
      }
      if (t < -9223372036854775808.0) {
        if (op == SeekOp::kLE || op == SeekOp::kLT) {
          eof_ = true;
          *found = false;
          return Status();
        }
        bool empty;
        TRY(Rewind(&empty));
        *found = !empty;
        return Status();
      }
      target = static_cast<int64_t>(t);
    } else if (k.is_null()) {
      eof_ = true;
      *found = false;
      return Status();
    } else {
      // Text or blob: greater than every integer.
      if (op == SeekOp::kGE || op == SeekOp::kGT) {
        eof_ = true;
        *found = false;
        return Status();
      }
      bool empty;
      TRY(Last(&empty));
      *found = !empty;
      return Status();
    }
    (void)inclusive;
    int res = 0;
    TRY(cur_->SeekRowid(target, &res));
    if (cur_->eof()) {
      eof_ = true;
      *found = false;
      return Status();
    }
    switch (op) {
      case SeekOp::kGE:
        if (res < 0) TRY(cur_->Next());
        break;
      case SeekOp::kGT:
        if (res <= 0) TRY(cur_->Next());
        break;
      case SeekOp::kLE:
        if (res > 0) TRY(cur_->Prev());
        break;
      case SeekOp::kLT:
        if (res >= 0) TRY(cur_->Prev());
        break;
    }
    eof_ = cur_->eof();
    *found = !eof_;
    return Status();
  }
  Status st;
  if (IsUtf16(enc_)) key = EncodedKey(key, n);
  SeekCtx ctx(key, n, key_info_, (op == SeekOp::kGE || op == SeekOp::kLT) ? 1 : -1, &st);
  int res = 0;
  int64_t first;
  TRY(cur_->SeekIndex(SeekCompare(ctx), &ctx, &res, SeekIntFirst(ctx, &first)));
  TRY(st);
  if (cur_->eof()) {
    eof_ = true;
    *found = false;
    return Status();
  }
  if (op == SeekOp::kGE || op == SeekOp::kGT) {
    if (res < 0) TRY(cur_->Next());
  } else {
    if (res > 0) TRY(cur_->Prev());
  }
  eof_ = cur_->eof();
  *found = !eof_;
  return Status();
}

Status VmCursor::CompareKey(const Value* key, int n, int* cmp) {
  TRY(LoadRow());
  Status st;
  if (IsUtf16(enc_)) key = EncodedKey(key, n);
  *cmp = ChooseRecordComparator(key, n, *key_info_)(payload_, payload_len_, key, n, *key_info_, 0,
                                                    &st);
  return st;
}

Status VmCursor::Found(const Value* key, int n, bool* found) {
  if (!is_table()) {
    // One descent that stops at an entry whose leading fields equal the
    // key (the comparator's default result 0 says "equal").
    Moved();
    Status st;
    if (IsUtf16(enc_)) key = EncodedKey(key, n);
    SeekCtx ctx(key, n, key_info_, 0, &st);
    int res = 0;
    int64_t first;
    TRY(cur_->SeekIndex(SeekCompare(ctx), &ctx, &res, SeekIntFirst(ctx, &first)));
    TRY(st);
    eof_ = cur_->eof();
    *found = !eof_ && res == 0;
    return Status();
  }
  bool any;
  TRY(Seek(SeekOp::kGE, key, n, &any));
  if (!any) {
    *found = false;
    return Status();
  }
  int c;
  TRY(CompareKey(key, n, &c));
  *found = c == 0;
  return Status();
}

Status VmCursor::FoundRecord(const Value& rec, bool* found) {
  Moved();
  Status st;
  int n = Unpack(rec);
  if (n < 0) return CORRUPT();
  PrepareKeyForEncoding(unpacked_.data(), n, *key_info_);
  SeekCtx ctx(unpacked_.data(), n, key_info_, 0, &st);
  int res = 0;
  int64_t first;
  TRY(cur_->SeekIndex(SeekCompare(ctx), &ctx, &res, SeekIntFirst(ctx, &first)));
  TRY(st);
  eof_ = cur_->eof();
  *found = !eof_ && res == 0;
  return Status();
}

// ---- rows --------------------------------------------------------------------

Status VmCursor::LoadRow() {
  if (row_valid_ && row_gen_ == *write_gen_ && kind_ != Kind::kPseudo) return Status();
  row_valid_ = false;
  switch (kind_) {
    case Kind::kBtree: {
      if (cur_->has_moved()) TRY(cur_->Restore());
      if (cur_->eof()) {
        payload_ = nullptr;
        payload_len_ = 0;
        break;
      }
      const uint8_t* whole;
      uint32_t size;
      if (cur_->WholeLocalPayload(&whole, &size)) {
        payload_ = whole;
        payload_len_ = size;
        break;
      }
      size = cur_->payload_size();
      if (size == 0) TRY(cur_->CheckEntry());  // empty, or a cell that is damaged
      std::span<const uint8_t> local = cur_->local_payload();
      if (local.size() >= size) {
        payload_ = local.data();
      } else {
        overflow_buf_.resize(size);
        TRY(cur_->ReadPayload(0, size, reinterpret_cast<uint8_t*>(overflow_buf_.data())));
        payload_ = reinterpret_cast<const uint8_t*>(overflow_buf_.data());
      }
      payload_len_ = size;
      break;
    }
    case Kind::kSorter:
      if (!sorter_->Valid()) {
        payload_ = nullptr;
        payload_len_ = 0;
      } else {
        payload_ = sorter_->data();
        payload_len_ = sorter_->size();
      }
      break;
    case Kind::kPseudo:
      payload_ = reinterpret_cast<const uint8_t*>(pseudo_reg_->data());
      payload_len_ = pseudo_reg_->is_blob() ? pseudo_reg_->size() : 0;
      break;
    case Kind::kConstList:
    case Kind::kVtab:  // read through the V* opcodes, never as records
    case Kind::kRowSet:
      payload_ = nullptr;
      payload_len_ = 0;
      break;
  }
  header_len_ = 0;
  header_pos_ = 0;
  n_parsed_ = 0;
  body_pos_ = 0;
  parse_ahead_ = std::min<uint32_t>(row_max_, kMaxParseAhead);
  row_max_ = 0;
  if (payload_len_ > 0) {
    uint32_t h;
    int k = GetVarint32(payload_, &h);
    if (h > payload_len_ || h < static_cast<uint32_t>(k) || h > 98307) return CORRUPT();
    header_len_ = h;
    header_pos_ = static_cast<uint32_t>(k);
    body_pos_ = h;
  }
  row_valid_ = true;
  row_gen_ = *write_gen_;
  return Status();
}

// Parses the loaded record's header up to field i (or its end).
Status VmCursor::ParseHeaderThrough(int i) {
  uint32_t n = n_parsed_;
  if (static_cast<int64_t>(n) > i || header_pos_ >= header_len_) return Status();
  // Each field takes at least one header byte: room for every field the
  // rest of the header can describe, up to field i.
  uint64_t want =
      std::min<uint64_t>(static_cast<uint64_t>(i) + 1, uint64_t{n} + (header_len_ - header_pos_));
  if (types_.size() < want) {
    types_.resize(want);
    offsets_.resize(want);
  }
  uint32_t* ty = types_.data();
  uint32_t* off = offsets_.data();
  // Locals: the stores through ty/off could alias the members otherwise.
  const uint8_t* const rec = payload_;
  const uint32_t hdr_len = header_len_, rec_len = payload_len_;
  const uint32_t last = static_cast<uint32_t>(i);
  uint32_t pos = header_pos_, body = body_pos_;
  bool bad = false;
  while (n <= last && pos < hdr_len) {
    const uint32_t start = pos;
    uint32_t t = rec[pos];
    if (t < 0x80) {
      ++pos;
    } else {
      pos += static_cast<uint32_t>(GetVarint32(rec + pos, &t));
    }
    uint32_t sz = SerialTypeLen(t);
    if (pos > hdr_len || body + sz > rec_len) {
      // The fields before stay parsed; this one fails again if asked for.
      pos = start;
      bad = true;
      break;
    }
    ty[n] = t;
    off[n] = body;
    body += sz;
    ++n;
  }
  header_pos_ = pos;
  body_pos_ = body;
  n_parsed_ = n;
  if (bad) return CORRUPT();
  return Status();
}

Status VmCursor::Column(int i, Value* out, const Value* dflt) {
  if (kind_ == Kind::kConstList) {
    if (i == 0 && const_pos_ < const_list_->n) {
      out->ShallowCopyFrom(const_list_->values[const_pos_]);
    } else {
      out->SetNull();
    }
    return Status();
  }
  if (null_row_) {
    out->SetNull();
    return Status();
  }
  TRY(LoadRow());
  if (payload_len_ == 0) {
    if (dflt) {
      out->CopyFrom(*dflt);
    } else {
      out->SetNull();
    }
    return Status();
  }
  // Every field takes at least one header byte: a column past what the
  // unparsed rest of the header could describe is absent from this record
  // (a row written before ALTER TABLE ADD COLUMN) without parsing further.
  if (static_cast<uint32_t>(i) >= n_parsed_ + (header_len_ - header_pos_)) {
    if (dflt) {
      out->CopyFrom(*dflt);
    } else {
      out->SetNull();
    }
    return Status();
  }
  // The header is parsed through the last field the previous row read too,
  // so this row's other columns take ColumnFast; a damaged field after
  // field i is reported only when read.
  if (static_cast<uint32_t>(i) > row_max_) row_max_ = static_cast<uint32_t>(i);
  if (static_cast<int64_t>(i) >= n_parsed_) {
    Status st = ParseHeaderThrough(std::max(i, static_cast<int>(parse_ahead_)));
    if (!st.ok() && i >= static_cast<int>(n_parsed_)) return st;
  }
  if (i >= static_cast<int>(n_parsed_)) {
    if (dflt) {
      out->CopyFrom(*dflt);
    } else {
      out->SetNull();
    }
    return Status();
  }
  if (IsUtf16(enc_)) {
    DecodeSerialEnc(payload_ + offsets_[static_cast<size_t>(i)], types_[static_cast<size_t>(i)],
                    out, enc_);
    return Status();
  }
  DecodeSerial(payload_ + offsets_[static_cast<size_t>(i)], types_[static_cast<size_t>(i)], out,
               false);
  return Status();
}

Status VmCursor::RecordData(Value* out) {
  TRY(LoadRow());
  if (IsUtf16(enc_)) {
    // Records leave a UTF-16 database as UTF-8, the VM's encoding.
    encoded_.clear();
    TRY(TranscodeRecord(payload_, payload_len_, enc_, kUtf8, &encoded_));
    out->SetBlob(reinterpret_cast<const uint8_t*>(encoded_.data()),
                 static_cast<uint32_t>(encoded_.size()));
    return Status();
  }
  out->SetBlob(payload_, payload_len_);
  return Status();
}

const Value* VmCursor::EncodedKey(const Value* key, int n) {
  if (static_cast<size_t>(n) > key_copy_.size()) key_copy_.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) key_copy_[static_cast<size_t>(i)].ShallowCopyFrom(key[i]);
  PrepareKeyForEncoding(key_copy_.data(), n, *key_info_);
  return key_copy_.data();
}

Status VmCursor::InsertRow(int64_t rowid, const Value& record, bool append) {
  (void)append;
  Moved();
  if (IsUtf16(enc_)) {
    encoded_.clear();
    TRY(TranscodeRecord(reinterpret_cast<const uint8_t*>(record.data()), record.size(), kUtf8, enc_,
                        &encoded_));
    TRY(cur_->InsertRow(rowid, reinterpret_cast<const uint8_t*>(encoded_.data()),
                        static_cast<uint32_t>(encoded_.size())));
    eof_ = cur_->eof();
    return Status();
  }
  TRY(cur_->InsertRow(rowid, reinterpret_cast<const uint8_t*>(record.data()), record.size()));
  eof_ = cur_->eof();
  return Status();
}

int VmCursor::Unpack(const Value& record) {
  const uint8_t* rec = reinterpret_cast<const uint8_t*>(record.data());
  uint32_t len = record.size();
  int n = 0;
  if (len == 0) return 0;
  uint32_t hdr;
  int k = GetVarint32(rec, &hdr);
  if (hdr > len) return -1;
  uint32_t pos = static_cast<uint32_t>(k), body = hdr;
  while (pos < hdr) {
    uint32_t st;
    pos += static_cast<uint32_t>(GetVarint32(rec + pos, &st));
    uint32_t sz = SerialTypeLen(st);
    if (body + sz > len) return -1;
    if (static_cast<size_t>(n) >= unpacked_.size()) unpacked_.resize(static_cast<size_t>(n) + 1);
    DecodeSerial(rec + body, st, &unpacked_[static_cast<size_t>(n)], true);
    body += sz;
    ++n;
  }
  return n;
}

Status VmCursor::InsertKey(const Value& record) {
  Moved();
  Status st;
  int n = Unpack(record);
  if (n < 0) return CORRUPT();
  const uint8_t* data = reinterpret_cast<const uint8_t*>(record.data());
  uint32_t size = record.size();
  if (IsUtf16(enc_)) {
    PrepareKeyForEncoding(unpacked_.data(), n, *key_info_);
    encoded_.clear();
    TRY(TranscodeRecord(data, size, kUtf8, enc_, &encoded_));
    data = reinterpret_cast<const uint8_t*>(encoded_.data());
    size = static_cast<uint32_t>(encoded_.size());
  }
  SeekCtx ctx(unpacked_.data(), n, key_info_, 0, &st);
  int64_t first;
  TRY(cur_->InsertKey(data, size, SeekCompare(ctx), &ctx, SeekIntFirst(ctx, &first)));
  eof_ = cur_->eof();
  return st;
}

Status VmCursor::AppendKey(const Value& record) {
  // UTF-16 keys order by their stored bytes, not as the sorter ordered
  // them: those go in through a seek.
  if (IsUtf16(enc_)) return InsertKey(record);
  Moved();
  TRY(cur_->AppendKey(reinterpret_cast<const uint8_t*>(record.data()), record.size()));
  eof_ = cur_->eof();
  return Status();
}

Status VmCursor::Delete() {
  Moved();
  if (cur_->has_moved()) TRY(cur_->Restore());
  TRY(cur_->Delete());
  return Status();
}

Status VmCursor::NewRowid(int64_t* out) {
  Moved();
  TRY(cur_->Last());
  if (cur_->eof()) {
    *out = 1;
    return Status();
  }
  int64_t last = cur_->rowid();
  if (last < INT64_MAX) {
    *out = last + 1;
    return Status();
  }
  // The largest rowid is taken: look for an unused one at random.
  uint64_t x = 88172645463325252ULL;
  for (int tries = 0; tries < 100; ++tries) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    int64_t cand = static_cast<int64_t>(x & 0x7fffffffffffffffULL);
    if (cand <= 0) continue;
    int res;
    TRY(cur_->SeekRowid(cand, &res));
    if (res != 0) {
      *out = cand;
      return Status();
    }
  }
  return Status(kFull, "database or disk is full");
}

Status VmCursor::Count(int64_t* out) { return cur_->Count(out); }

Status VmCursor::Clear() {
  Moved();
  eof_ = true;
  if (bt_ == nullptr) return Status();
  return bt_->ClearTree(root_);
}

// ---- sorter --------------------------------------------------------------------

Status VmCursor::SorterInsert(const Value& record) {
  return sorter_->Add(reinterpret_cast<const uint8_t*>(record.data()), record.size());
}

Status VmCursor::SorterSort(bool* empty) {
  Moved();
  TRY(sorter_->Sort());
  eof_ = !sorter_->Valid();
  *empty = eof_;
  return Status();
}

Status VmCursor::SorterNext(bool* more) {
  Moved();
  TRY(sorter_->Next());
  eof_ = !sorter_->Valid();
  *more = !eof_;
  return Status();
}

}  // namespace basalt

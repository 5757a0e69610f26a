#include "exec/sorter.h"

#include <algorithm>
#include <cstring>

#include "common/coding.h"
#include "record/value_ops.h"

namespace basalt {

namespace {

// Walks the fields of one record.
struct FieldReader {
  const uint8_t* rec;
  uint32_t len;
  uint32_t hdr_pos = 0, hdr_end = 0, body = 0;
  bool Init() {
    if (len == 0) return false;
    uint32_t h;
    int n = GetVarint32(rec, &h);
    if (h > len || h < static_cast<uint32_t>(n)) return false;
    hdr_pos = static_cast<uint32_t>(n);
    hdr_end = h;
    body = h;
    return true;
  }
  // Returns false at the end (or on corruption, with *bad set).
  bool Next(Value* out, bool* bad) {
    if (hdr_pos >= hdr_end) return false;
    uint32_t st;
    hdr_pos += static_cast<uint32_t>(GetVarint32(rec + hdr_pos, &st));
    uint32_t sz = SerialTypeLen(st);
    if (hdr_pos > hdr_end || body + sz > len) {
      *bad = true;
      return false;
    }
    DecodeSerial(rec + body, st, out, true);
    body += sz;
    return true;
  }
  // The next field's integer value when it is an integer (serial types
  // 1..6, 8, 9), without consuming it.
  bool PeekInt(int64_t* out) const {
    if (hdr_pos >= hdr_end) return false;
    uint8_t st = rec[hdr_pos];  // a one-byte varint for these types
    if (st == 0 || st == 7 || st > 9) return false;
    uint32_t sz = SerialTypeLen(st);
    if (body + sz > len) return false;
    const uint8_t* p = rec + body;
    if (st >= 8) {
      *out = st - 8;
      return true;
    }
    uint64_t v = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(p[0])));
    for (uint32_t k = 1; k < sz; ++k) v = (v << 8) | p[k];
    *out = static_cast<int64_t>(v);
    return true;
  }
  // Steps over the next field; false at the end or on corruption.
  bool Skip() {
    if (hdr_pos >= hdr_end) return false;
    uint32_t st;
    hdr_pos += static_cast<uint32_t>(GetVarint32(rec + hdr_pos, &st));
    body += SerialTypeLen(st);
    return hdr_pos <= hdr_end && body <= len;
  }
};

}  // namespace

namespace {

// Fields i.. of two records whose earlier fields compared equal, with
// Values (any types).
int CompareFieldsSlow(FieldReader* ra, FieldReader* rb, const KeyInfo& ki, int i, Status* status) {
  Value fa, fb;
  bool bad = false;
  for (; i < ki.n_fields; ++i) {
    bool ha = ra->Next(&fa, &bad);
    bool hb = rb->Next(&fb, &bad);
    if (!ha || !hb) break;
    const Collation* coll = ki.colls ? ki.colls[i] : nullptr;
    int c = CompareValues(fa, fb, coll);
    if (c != 0) return (ki.desc && ki.desc[i]) ? -c : c;
  }
  if (bad) *status = CORRUPT();
  return 0;
}

// Compares fields start.. of the key (the fields before are known equal);
// integer fields are compared straight from the record bytes.
int CompareFieldsFrom(const uint8_t* a, uint32_t na, const uint8_t* b, uint32_t nb,
                      const KeyInfo& ki, int start, Status* status) {
  FieldReader ra{a, na}, rb{b, nb};
  if (!ra.Init() || !rb.Init()) {
    *status = CORRUPT();
    return 0;
  }
  for (int i = 0; i < start; ++i) {
    if (!ra.Skip() || !rb.Skip()) return CompareFieldsSlow(&ra, &rb, ki, ki.n_fields, status);
  }
  for (int i = start; i < ki.n_fields; ++i) {
    int64_t ia, ib;
    if (!ra.PeekInt(&ia) || !rb.PeekInt(&ib)) return CompareFieldsSlow(&ra, &rb, ki, i, status);
    if (ia != ib) return ((ia < ib) != (ki.desc && ki.desc[i])) ? -1 : 1;
    ra.Skip();
    rb.Skip();
  }
  return 0;
}

}  // namespace

int CompareRecordPrefix(const uint8_t* a, uint32_t na, const uint8_t* b, uint32_t nb,
                        const KeyInfo& ki, Status* status) {
  return CompareFieldsFrom(a, na, b, nb, ki, 0, status);
}

uint8_t* Sorter::Store(const uint8_t* rec, uint32_t n) {
  while (chunks_.empty() || chunk_used_ + n > chunks_[chunk_idx_].cap) {
    if (!chunks_.empty() && chunk_idx_ + 1 < chunks_.size()) {
      // A chunk kept from before a spill.
      ++chunk_idx_;
      chunk_used_ = 0;
      continue;
    }
    size_t last = chunks_.empty() ? 0 : chunks_.back().cap;
    size_t cap = std::max<size_t>(n, last ? last * 2 : 16384);
    if (cap > (1u << 22) && n < (1u << 22)) cap = 1u << 22;
    // A spilling sorter holds at most budget_ bytes of records: once it is
    // past small sorts, one chunk of that size, whose pages are touched only
    // as rows fill it.
    if (budget_ != 0 && last >= 65536) cap = std::max<size_t>(n, budget_);
    Chunk chunk{std::unique_ptr<uint8_t[]>(new uint8_t[cap]),
                cap};  // not leaked if push_back throws
    chunks_.push_back(std::move(chunk));
    chunk_idx_ = chunks_.size() - 1;
    chunk_used_ = 0;
  }
  uint8_t* dst = chunks_[chunk_idx_].p.get() + chunk_used_;
  std::memcpy(dst, rec, n);
  chunk_used_ += n;
  stored_bytes_ += n;
  return dst;
}

namespace {
// The integer of serial type st (1..6, 8, 9) at p.
inline int64_t IntOfSerial(const uint8_t* p, uint32_t st) {
  if (st >= 8) return st - 8;
  uint32_t sz = SerialTypeLen(st);
  uint64_t v = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(p[0])));
  for (uint32_t k = 1; k < sz; ++k) v = (v << 8) | p[k];
  return static_cast<int64_t>(v);
}
}  // namespace

// Reads the first key field straight from the record bytes (as
// DecodeSerial would, without a Value): this runs once per row added and
// once per row read back from a run.
Sorter::Entry Sorter::MakeEntry(const uint8_t* data, uint32_t n) const {
  Entry e;
  e.data = data;
  e.size = n;
  e.type = static_cast<uint8_t>(Type::kNull);
  e.len = 0;
  e.i = 0;
  e.has_i2 = false;
  e.i2 = 0;
  e.pfx = 0;
  if (n == 0) return e;
  uint32_t h;
  uint32_t pos = static_cast<uint32_t>(GetVarint32(data, &h));
  if (h > n || pos >= h) return e;  // no field (or a damaged header): NULL
  uint32_t st;
  pos += static_cast<uint32_t>(GetVarint32(data + pos, &st));
  uint32_t sz = SerialTypeLen(st);
  if (pos > h || h + sz > n) return e;
  const uint8_t* p = data + h;
  if (st >= 12) {
    e.type = static_cast<uint8_t>((st & 1) ? Type::kText : Type::kBlob);
    e.z = reinterpret_cast<const char*>(p);
    e.len = sz;
    if (sz >= 8) {
      e.pfx = Get64(p);  // big-endian: byte order is value order
    } else {
      for (uint32_t j = 0; j < sz; ++j) e.pfx |= uint64_t{p[j]} << (56 - 8 * j);
    }
  } else if (st == 7) {
    uint64_t bits = 0;
    for (int j = 0; j < 8; ++j) bits = (bits << 8) | p[j];
    double r;
    std::memcpy(&r, &bits, sizeof r);
    if (r == r) {  // a stored NaN reads as NULL
      e.type = static_cast<uint8_t>(Type::kReal);
      e.r = r;
    }
  } else if (st != 0 && st != 10 && st != 11) {
    e.type = static_cast<uint8_t>(Type::kInteger);
    e.i = IntOfSerial(p, st);
  }
  // An integer second key field is kept too (window and multi-key sorts).
  if (key_info_->n_fields >= 2 && pos < h) {
    uint8_t st2 = data[pos];  // a one-byte varint for the integer types
    uint32_t at = h + sz;
    if (st2 != 0 && st2 != 7 && st2 <= 9 && at + SerialTypeLen(st2) <= n) {
      e.has_i2 = true;
      e.i2 = IntOfSerial(data + at, st2);
    }
  }
  return e;
}

Status Sorter::Add(const uint8_t* rec, uint32_t n) {
  if (bound_ > 0) {
    AddBounded(rec, n);
    return Status();
  }
  if (budget_ != 0 && entries_.size() == entries_.capacity() && entries_.size() >= 1024) {
    // Past small sorts: room for every entry a run can have, so the array
    // is not copied as it grows, and its pages are touched only as it fills.
    entries_.reserve(std::max(entries_.size() + 1, budget_ / sizeof(Entry) + 1));
  }
  entries_.push_back(MakeEntry(Store(rec, n), n));
  mem_ += n + sizeof(Entry);
  if (budget_ != 0 && mem_ > budget_) return Spill();
  return Status();
}

namespace {
bool BinaryFirst(const KeyInfo& ki) {
  return ki.colls == nullptr || ki.colls[0] == nullptr || ki.colls[0] == BinaryCollation();
}
}  // namespace

int Sorter::CompareEntries(const Entry& a, const Entry& b, Status* st) const {
  const KeyInfo& ki = *key_info_;
  int c = 0;
  Type ta = static_cast<Type>(a.type), tb = static_cast<Type>(b.type);
  if (ta == Type::kInteger && tb == Type::kInteger) {
    c = a.i < b.i ? -1 : (a.i > b.i ? 1 : 0);
  } else if (ta == Type::kReal && tb == Type::kReal) {
    c = a.r < b.r ? -1 : (a.r > b.r ? 1 : 0);  // no NaN: a stored NaN reads as NULL
  } else if (ta == tb && (ta == Type::kBlob || (ta == Type::kText && BinaryFirst(ki)))) {
    // Blobs compare by memcmp under any collation; text under BINARY.
    if (a.pfx != b.pfx) return ((a.pfx < b.pfx) != (ki.desc && ki.desc[0])) ? -1 : 1;
    uint32_t m = a.len < b.len ? a.len : b.len;
    c = m ? std::memcmp(a.z, b.z, m) : 0;
    if (c == 0) c = a.len < b.len ? -1 : (a.len > b.len ? 1 : 0);
  } else {
    Value va, vb;
    auto load = [](const Entry& e, Value* v) {
      switch (static_cast<Type>(e.type)) {
        case Type::kInteger:
          v->SetInt(e.i);
          break;
        case Type::kReal:
          v->SetReal(e.r);
          break;
        case Type::kText:
          v->SetTextStatic(std::string_view(e.z, e.len));
          break;
        case Type::kBlob:
          v->SetBlobStatic(e.z, e.len);
          break;
        case Type::kNull:
          v->SetNull();
          break;
      }
    };
    load(a, &va);
    load(b, &vb);
    c = CompareValues(va, vb, ki.colls ? ki.colls[0] : nullptr);
  }
  if (c != 0) return (ki.desc && ki.desc[0]) ? (c < 0 ? 1 : -1) : c;
  if (ki.n_fields <= 1) return 0;
  if (a.has_i2 && b.has_i2) {
    if (a.i2 != b.i2) return ((a.i2 < b.i2) != (ki.desc && ki.desc[1])) ? -1 : 1;
    if (ki.n_fields == 2) return 0;
    return CompareFieldsFrom(a.data, a.size, b.data, b.size, ki, 2, st);
  }
  return CompareFieldsFrom(a.data, a.size, b.data, b.size, ki, 1, st);
}

Status Sorter::SortEntries() {
  Status st;
  const KeyInfo& ki = *key_info_;
  // No key (a window without PARTITION BY or ORDER BY): input order. Input
  // already in order (a scan in key order) needs no sort.
  auto less = [&](const Entry& x, const Entry& y) { return CompareEntries(x, y, &st) < 0; };
  if (ki.n_fields == 0 || std::is_sorted(entries_.begin(), entries_.end(), less)) return st;
  std::stable_sort(entries_.begin(), entries_.end(), less);
  return st;
}

Status Sorter::Sort() {
  if (bound_ > 0 && !heap_.empty()) {
    // The heap's rows in ascending (key, arrival) order: already the
    // stable order.
    std::sort_heap(heap_.begin(), heap_.end(),
                   [this](const Ranked& x, const Ranked& y) { return RankLess(x, y); });
    entries_.reserve(heap_.size());
    for (const Ranked& r : heap_) entries_.push_back(r.e);
    heap_.clear();
    heap_.shrink_to_fit();
  }
  TRY(add_status_);
  pos_ = 0;
  TRY(SortEntries());
  if (!runs_.empty()) return StartMerge();
  return Status();
}

}  // namespace basalt

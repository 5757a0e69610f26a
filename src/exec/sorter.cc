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
};

}  // namespace

int CompareRecordPrefix(const uint8_t* a, uint32_t na, const uint8_t* b, uint32_t nb,
                        const KeyInfo& ki, Status* status) {
  FieldReader ra{a, na}, rb{b, nb};
  if (!ra.Init() || !rb.Init()) {
    *status = CORRUPT();
    return 0;
  }
  Value fa, fb;
  bool bad = false;
  for (int i = 0; i < ki.n_fields; ++i) {
    bool ha = ra.Next(&fa, &bad);
    bool hb = rb.Next(&fb, &bad);
    if (!ha || !hb) break;
    const Collation* coll = ki.colls ? ki.colls[i] : nullptr;
    int c = CompareValues(fa, fb, coll);
    if (c != 0) return (ki.desc && ki.desc[i]) ? -c : c;
  }
  if (bad) *status = CORRUPT();
  return 0;
}

void Sorter::Add(const uint8_t* rec, uint32_t n) {
  if (chunk_used_ + n > chunk_cap_) {
    size_t cap = std::max<size_t>(n, chunk_cap_ ? chunk_cap_ * 2 : 16384);
    if (cap > (1u << 22) && n < (1u << 22)) cap = 1u << 22;
    std::unique_ptr<uint8_t[]> chunk(new uint8_t[cap]);  // not leaked if push_back throws
    chunks_.push_back(std::move(chunk));
    chunk_cap_ = cap;
    chunk_used_ = 0;
  }
  uint8_t* dst = chunks_.back().get() + chunk_used_;
  std::memcpy(dst, rec, n);
  chunk_used_ += n;
  Entry e;
  e.data = dst;
  e.size = n;
  e.type = static_cast<uint8_t>(Type::kNull);
  e.len = 0;
  e.i = 0;
  FieldReader r{dst, n};
  Value v;
  bool bad = false;
  if (r.Init() && r.Next(&v, &bad)) {
    e.type = static_cast<uint8_t>(v.type());
    switch (v.type()) {
      case Type::kInteger:
        e.i = v.int_value();
        break;
      case Type::kReal:
        e.r = v.real_value();
        break;
      case Type::kText:
      case Type::kBlob:
        e.z = v.data();
        e.len = v.size();
        break;
      case Type::kNull:
        break;
    }
  }
  entries_.push_back(e);
}

int Sorter::CompareEntries(const Entry& a, const Entry& b, Status* st) const {
  const KeyInfo& ki = *key_info_;
  int c = 0;
  Type ta = static_cast<Type>(a.type), tb = static_cast<Type>(b.type);
  if (ta == Type::kInteger && tb == Type::kInteger) {
    c = a.i < b.i ? -1 : (a.i > b.i ? 1 : 0);
  } else if (ta == Type::kText && tb == Type::kText &&
             (ki.colls == nullptr || ki.colls[0] == nullptr || ki.colls[0] == BinaryCollation())) {
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
  return CompareRecordPrefix(a.data, a.size, b.data, b.size, ki, st);
}

Status Sorter::Sort() {
  Status st;
  const KeyInfo& ki = *key_info_;
  // No key (a window without PARTITION BY or ORDER BY): input order. Input
  // already in order (a scan in key order) needs no sort.
  auto less = [&](const Entry& x, const Entry& y) { return CompareEntries(x, y, &st) < 0; };
  if (ki.n_fields == 0 || std::is_sorted(entries_.begin(), entries_.end(), less)) {
    pos_ = 0;
    return st;
  }
  std::stable_sort(entries_.begin(), entries_.end(),
                   [&](const Entry& x, const Entry& y) { return CompareEntries(x, y, &st) < 0; });
  pos_ = 0;
  return st;
}

}  // namespace basalt

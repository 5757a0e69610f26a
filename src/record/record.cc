// Record codec (fileformat2 section 2.1; serial types in record.h).
//
// Record layout:
//   varint  header size H (bytes, including this varint)
//   varint  serial type of column 0, 1, ... (until H bytes are used)
//   bodies  column 0, 1, ... back to back (lengths from SerialTypeLen)
#include "record/record.h"

#include "common/utf.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "common/assert.h"
#include "common/coding.h"
#include "record/value_ops.h"

namespace basalt {

namespace {

// Largest magnitudes (as ~v for negatives) stored in 1..6-byte bodies.
constexpr uint64_t kMax6Byte = 0x00007fffffffffffULL;

inline uint32_t IntSerialType(int64_t i) {
  uint64_t u = i < 0 ? ~static_cast<uint64_t>(i) : static_cast<uint64_t>(i);
  if (u <= 127) return (i == 0 || i == 1) ? 8 + static_cast<uint32_t>(i) : 1;
  if (u <= 32767) return 2;
  if (u <= 8388607) return 3;
  if (u <= 2147483647) return 4;
  if (u <= kMax6Byte) return 5;
  return 6;
}

inline uint32_t Load32BE(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return __builtin_bswap32(v);
}

// Big-endian signed integer of n bytes (the sizes of serial types 1..6).
inline int64_t GetSigned(const uint8_t* p, int n) {
  switch (n) {
    case 1:
      return static_cast<int8_t>(p[0]);
    case 2:
      return static_cast<int16_t>(static_cast<uint16_t>((p[0] << 8) | p[1]));
    case 3:
      return static_cast<int32_t>(
                 static_cast<uint32_t>((p[0] << 24) | (p[1] << 16) | (p[2] << 8))) >>
             8;
    case 4:
      return static_cast<int32_t>(Load32BE(p));
    case 6: {
      int64_t hi = static_cast<int16_t>(static_cast<uint16_t>((p[0] << 8) | p[1]));
      return static_cast<int64_t>(static_cast<uint64_t>(hi) << 32) + Load32BE(p + 2);
    }
    case 8: {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<int64_t>(__builtin_bswap64(v));
    }
    default: {
      uint64_t v = (p[0] & 0x80) ? ~uint64_t(0) : 0;
      for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
      return static_cast<int64_t>(v);
    }
  }
}

inline void PutSigned(uint8_t* p, int64_t v, int n) {
  uint64_t u = static_cast<uint64_t>(v);
  for (int i = n - 1; i >= 0; --i) {
    p[i] = static_cast<uint8_t>(u);
    u >>= 8;
  }
}

// Iterates the columns of a record without allocating.
class RecordReader {
 public:
  RecordReader(const uint8_t* rec, uint32_t len) : rec_(rec), len_(len) {}

  // Reads the header size; false if the record is malformed.
  bool Init() {
    if (len_ == 0) return false;
    uint32_t hdr;
    int n = ReadVarint32(0, &hdr);
    if (n == 0 || hdr < static_cast<uint32_t>(n) || hdr > len_) return false;
    hdr_pos_ = static_cast<uint32_t>(n);
    hdr_end_ = hdr;
    body_pos_ = hdr;
    return true;
  }
  bool AtEnd() const { return hdr_pos_ >= hdr_end_; }
  // Next column: its serial type and body offset. False at the end or on
  // corruption (*corrupt set).
  bool Next(uint32_t* st, uint32_t* offset, bool* corrupt) {
    if (hdr_pos_ >= hdr_end_) return false;
    int n = ReadVarint32(hdr_pos_, st);
    if (n == 0 || hdr_pos_ + static_cast<uint32_t>(n) > hdr_end_) {
      *corrupt = true;
      return false;
    }
    hdr_pos_ += static_cast<uint32_t>(n);
    uint64_t end = uint64_t(body_pos_) + SerialTypeLen(*st);
    if (end > len_) {
      *corrupt = true;
      return false;
    }
    *offset = body_pos_;
    body_pos_ = static_cast<uint32_t>(end);
    return true;
  }
  const uint8_t* at(uint32_t off) const { return rec_ + off; }

 private:
  // Reads a varint at pos without running past the record; 0 if truncated.
  int ReadVarint32(uint32_t pos, uint32_t* v) const {
    if (pos >= len_) return 0;
    if (len_ - pos >= 9) return GetVarint32(rec_ + pos, v);
    uint8_t tmp[9] = {0};
    std::memcpy(tmp, rec_ + pos, len_ - pos);
    int n = GetVarint32(tmp, v);
    return static_cast<uint32_t>(n) <= len_ - pos ? n : 0;
  }

  const uint8_t* rec_;
  uint32_t len_;
  uint32_t hdr_pos_ = 0;
  uint32_t hdr_end_ = 0;
  uint32_t body_pos_ = 0;
};

inline const Collation* KeyColl(const KeyInfo& ki, int i) {
  return (i < ki.n_fields && ki.colls != nullptr) ? ki.colls[i] : nullptr;
}
inline bool KeyDesc(const KeyInfo& ki, int i) {
  return i < ki.n_fields && ki.desc != nullptr && ki.desc[i] != 0;
}

}  // namespace

uint32_t SerialTypeOf(const Value& v) {
  switch (v.type()) {
    case Type::kNull:
      return v.is_nochange() ? 10 : 0;
    case Type::kInteger:
      return IntSerialType(v.int_value());
    case Type::kReal:
      return 7;
    case Type::kText:
      return v.size() * 2 + 13;
    case Type::kBlob:
      return v.size() * 2 + 12;
  }
  return 0;
}

void DecodeSerial(const uint8_t* p, uint32_t st, Value* out, bool borrow) {
  switch (st) {
    case 0:
    case 11:
      out->SetNull();
      return;
    case 10:
      out->SetNoChange();  // only ever written by UPDATE of a virtual table
      return;
    case 1:
      return out->SetInt(static_cast<int8_t>(p[0]));
    case 2:
      return out->SetInt(static_cast<int16_t>(Get16(p)));
    case 3:
      return out->SetInt(GetSigned(p, 3));
    case 4:
      return out->SetInt(static_cast<int32_t>(Get32(p)));
    case 5:
      return out->SetInt(GetSigned(p, 6));
    case 6:
      return out->SetInt(static_cast<int64_t>(Get64(p)));
    case 7: {
      uint64_t bits = Get64(p);
      double r;
      std::memcpy(&r, &bits, sizeof r);
      if (std::isnan(r)) return out->SetNull();  // SQLite reads a stored NaN as NULL
      return out->SetReal(r);
    }
    case 8:
      return out->SetInt(0);
    case 9:
      return out->SetInt(1);
    default:
      break;
  }
  uint32_t n = (st - 12) / 2;
  if (st & 1) {
    if (borrow) return out->SetTextStatic(std::string_view(reinterpret_cast<const char*>(p), n));
    return out->SetText(std::string_view(reinterpret_cast<const char*>(p), n));
  }
  if (borrow) return out->SetBlobStatic(p, n);
  out->SetBlob(p, n);
}

namespace {

// Pass 1 of encoding: the serial types (into types[0..n)) and the header
// length (which counts its own varint); returns the record's total size.
// The integer a REAL column stores for r, if r is an exact integer.
bool RealStoredAsInt(double r, int64_t* out) {
  // The bounds keep the conversion defined (NaN fails them too).
  if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0)) return false;
  int64_t ix = static_cast<int64_t>(r);
  if (static_cast<double>(ix) != r || ix == INT64_MIN || ix == INT64_MAX) return false;
  *out = ix;
  return true;
}

uint64_t RecordLayout(const Value* vals, int n, uint32_t* types, uint64_t* hdr_out,
                      const char* real_mask) {
  uint64_t hdr = 0, body = 0;
  bool mask = real_mask != nullptr;
  for (int i = 0; i < n; ++i) {
    types[i] = SerialTypeOf(vals[i]);
    if (mask) {
      if (real_mask[i] == '\0') {
        mask = false;
      } else if (real_mask[i] == 'E' && types[i] == 7) {
        int64_t ix;
        if (RealStoredAsInt(vals[i].real_value(), &ix)) types[i] = IntSerialType(ix);
      }
    }
    hdr += static_cast<uint64_t>(VarintLen(types[i]));
    body += SerialTypeLen(types[i]);
  }
  if (hdr <= 126) {
    hdr += 1;
  } else {
    int k = VarintLen(hdr);
    hdr += static_cast<uint64_t>(k);
    if (k < VarintLen(hdr)) ++hdr;
  }
  *hdr_out = hdr;
  return hdr + body;
}

// Pass 2: writes the record laid out by RecordLayout at base.
void WriteRecord(const Value* vals, int n, const uint32_t* types, uint64_t hdr, uint8_t* base) {
  uint8_t* h = base;
  uint8_t* b = base + hdr;
  h += PutVarint(h, hdr);
  for (int i = 0; i < n; ++i) {
    uint32_t st = types[i];
    h += PutVarint(h, st);
    const Value& v = vals[i];
    switch (st) {
      case 0:
      case 8:
      case 9:
      case 10:
        break;
      case 1:
      case 2:
      case 3:
      case 4:
      case 5:
      case 6: {
        int len = static_cast<int>(SerialTypeLen(st));
        // A REAL here is one RecordLayout found to be an exact integer.
        int64_t iv = v.type() == Type::kReal ? static_cast<int64_t>(v.real_value()) : v.int_value();
        PutSigned(b, iv, len);
        b += len;
        break;
      }
      case 7: {
        double r = v.real_value();
        uint64_t bits;
        std::memcpy(&bits, &r, sizeof bits);
        Put64(b, bits);
        b += 8;
        break;
      }
      default:
        if (v.size()) std::memcpy(b, v.data(), v.size());
        b += v.size();
        break;
    }
  }
}

// Serial-type scratch: on the stack for up to 32 fields.
class TypeBuffer {
 public:
  explicit TypeBuffer(int n) {
    if (n > kSmall) big_.resize(static_cast<size_t>(n));
  }
  uint32_t* get() { return big_.empty() ? small_ : big_.data(); }

 private:
  static constexpr int kSmall = 32;
  uint32_t small_[kSmall];
  std::vector<uint32_t> big_;
};

}  // namespace

void EncodeRecord(const Value* vals, int n, std::string* out, const char* real_mask) {
  TypeBuffer types(n);
  uint64_t hdr;
  uint64_t size = RecordLayout(vals, n, types.get(), &hdr, real_mask);
  size_t start = out->size();
  out->resize(start + size);
  WriteRecord(vals, n, types.get(), hdr, reinterpret_cast<uint8_t*>(out->data()) + start);
}

void EncodeRecordInto(const Value* vals, int n, Value* out, const char* real_mask) {
  BASALT_DCHECK(out < vals || out >= vals + n);
  TypeBuffer types(n);
  uint64_t hdr;
  uint64_t size = RecordLayout(vals, n, types.get(), &hdr, real_mask);
  uint8_t* base = reinterpret_cast<uint8_t*>(out->Reserve(Type::kBlob, size));
  WriteRecord(vals, n, types.get(), hdr, base);
}

namespace {

// memcmp order, then the shorter first: BINARY collation.
inline int CompareBytes(const void* a, uint32_t na, const void* b, uint32_t nb) {
  uint32_t m = na < nb ? na : nb;
  int c = m ? std::memcmp(a, b, m) : 0;
  if (c != 0) return c;
  return na < nb ? -1 : (na > nb ? 1 : 0);
}

// Compares one stored field (serial type st, body p of sz bytes) with v, in
// CompareValues order, without building a Value for the common cases.
inline int CompareField(uint32_t st, const uint8_t* p, uint32_t sz, const Value& v,
                        const Collation* coll, uint8_t enc = kUtf8) {
  if ((st >= 1 && st <= 6) || st == 8 || st == 9) {
    int64_t x = st == 8 ? 0 : st == 9 ? 1 : GetSigned(p, static_cast<int>(sz));
    if (v.is_int()) return x < v.int_value() ? -1 : (x > v.int_value() ? 1 : 0);
    if (v.is_null()) return 1;
    if (v.is_real()) {
      Value t;
      t.SetInt(x);
      return CompareValues(t, v, nullptr);
    }
    return -1;
  }
  if (st == 7 && v.is_real()) {
    uint64_t bits = Get64(p);
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (x == x) {  // a stored NaN reads as NULL: the general path handles it
      double y = v.real_value();
      return x < y ? -1 : (x > y ? 1 : 0);
    }
  }
  if (st >= 12) {
    if (st & 1) {  // text
      if (v.is_text()) {
        if (coll == nullptr || coll == BinaryCollation()) {
          return CompareBytes(p, sz, v.data(), v.size());
        }
        if (IsUtf16(enc)) {
          std::string u = Utf16ToUtf8(p, sz, enc == kUtf16be);
          return coll->compare(coll->arg, static_cast<int>(u.size()), u.data(),
                               static_cast<int>(v.size()), v.data());
        }
        return coll->compare(coll->arg, static_cast<int>(sz), p, static_cast<int>(v.size()),
                             v.data());
      }
      return v.is_blob() ? -1 : 1;
    }
    if (v.is_blob()) return CompareBytes(p, sz, v.data(), v.size());
    return 1;
  }
  Value t;
  DecodeSerial(p, st, &t, true);
  return CompareValues(t, v, coll);
}

}  // namespace

int CompareRecordWithKey(const uint8_t* rec, uint32_t len, const Value* vals, int n,
                         const KeyInfo& ki, int default_rc, Status* status) {
  uint32_t hdr = 0;
  uint32_t hpos = 0;
  if (len > 0 && rec[0] < 0x80) {
    hdr = rec[0];
    hpos = 1;
  } else {
    RecordReader r(rec, len);
    if (!r.Init()) {
      *status = CORRUPT();
      return 0;
    }
    bool corrupt = false;
    uint32_t st, off;
    for (int i = 0; i < n && r.Next(&st, &off, &corrupt); ++i) {
      int c = CompareField(st, r.at(off), SerialTypeLen(st), vals[i], KeyColl(ki, i), ki.enc);
      if (c != 0) return KeyDesc(ki, i) ? -c : c;
    }
    if (corrupt) {
      *status = CORRUPT();
      return 0;
    }
    return default_rc;
  }
  if (hdr > len || hdr < 1) {
    *status = CORRUPT();
    return 0;
  }
  uint32_t body = hdr;
  for (int i = 0; i < n; ++i) {
    if (hpos >= hdr) return default_rc;
    uint32_t st;
    if (rec[hpos] < 0x80) {
      st = rec[hpos++];
    } else {
      uint8_t tmp[9] = {0};
      uint32_t avail = hdr - hpos;
      std::memcpy(tmp, rec + hpos, avail < 9 ? avail : 9);
      int k = GetVarint32(tmp, &st);
      hpos += static_cast<uint32_t>(k);
      if (hpos > hdr) {
        *status = CORRUPT();
        return 0;
      }
    }
    uint32_t sz = SerialTypeLen(st);
    if (uint64_t(body) + sz > len) {
      *status = CORRUPT();
      return 0;
    }
    int c = CompareField(st, rec + body, sz, vals[i], KeyColl(ki, i), ki.enc);
    body += sz;
    if (c != 0) return KeyDesc(ki, i) ? -c : c;
  }
  return default_rc;
}

namespace {

// First key value a text under BINARY, first field ascending.
int CompareRecordTextFirst(const uint8_t* rec, uint32_t len, const Value* vals, int n,
                           const KeyInfo& ki, int default_rc, Status* status) {
  if (len >= 3 && rec[0] < 0x80) {
    uint32_t hdr = rec[0];
    uint32_t st;
    int k = 1;
    if (rec[1] < 0x80) {
      st = rec[1];
    } else if (hdr >= 3 && rec[2] < 0x80) {
      st = (static_cast<uint32_t>(rec[1] & 0x7f) << 7) | rec[2];
      k = 2;
    } else {
      return CompareRecordWithKey(rec, len, vals, n, ki, default_rc, status);
    }
    if (hdr >= 1u + static_cast<uint32_t>(k)) {
      if (st >= 13 && (st & 1)) {
        uint32_t sz = (st - 13) / 2;
        if (hdr + sz <= len) {
          int c =
              CompareBytes(rec + hdr, sz, vals[0].data(), static_cast<uint32_t>(vals[0].size()));
          if (c != 0) return c;
          if (n == 1) return default_rc;
        }
      } else if (st < 12 && st != 10 && st != 11) {
        return -1;  // NULL and numbers sort before text
      } else if (st >= 12 && !(st & 1)) {
        return 1;  // blobs sort after text
      }
    }
  }
  return CompareRecordWithKey(rec, len, vals, n, ki, default_rc, status);
}

}  // namespace

RecordKeyComparator ChooseRecordComparator(const Value* vals, int n, const KeyInfo& ki) {
  if (n < 1 || KeyDesc(ki, 0)) return CompareRecordWithKey;
  if (vals[0].is_int()) return CompareRecordIntFirst;
  if (vals[0].is_text()) {
    const Collation* c = KeyColl(ki, 0);
    if (c == nullptr || c == BinaryCollation()) return CompareRecordTextFirst;
  }
  return CompareRecordWithKey;
}

int CompareRecords(const uint8_t* a, uint32_t na, const uint8_t* b, uint32_t nb, const KeyInfo& ki,
                   Status* status) {
  RecordReader ra(a, na), rb(b, nb);
  if (!ra.Init() || !rb.Init()) {
    *status = CORRUPT();
    return 0;
  }
  bool corrupt = false;
  uint32_t sta, offa, stb, offb;
  Value fa, fb;
  for (int i = 0;; ++i) {
    if (!ra.Next(&sta, &offa, &corrupt) || !rb.Next(&stb, &offb, &corrupt)) break;
    const Collation* coll = KeyColl(ki, i);
    if (IsUtf16(ki.enc) && coll != nullptr && coll != BinaryCollation()) {
      // Other collations compare UTF-8 text; BINARY compares the bytes.
      DecodeSerialEnc(ra.at(offa), sta, &fa, ki.enc);
      DecodeSerialEnc(rb.at(offb), stb, &fb, ki.enc);
    } else {
      DecodeSerial(ra.at(offa), sta, &fa, true);
      DecodeSerial(rb.at(offb), stb, &fb, true);
    }
    int c = CompareValues(fa, fb, coll);
    if (c != 0) return KeyDesc(ki, i) ? -c : c;
  }
  if (corrupt) *status = CORRUPT();
  return 0;
}

std::string EncodeUtf16Bytes(std::string_view utf8, uint8_t enc) {
  std::u16string u16 = Utf8ToUtf16(utf8);
  std::string bytes(u16.size() * 2, '\0');
  int lo = enc == kUtf16be ? 1 : 0;
  for (size_t i = 0; i < u16.size(); ++i) {
    auto c = static_cast<uint16_t>(u16[i]);
    bytes[2 * i + static_cast<size_t>(lo)] = static_cast<char>(c & 0xff);
    bytes[2 * i + static_cast<size_t>(1 - lo)] = static_cast<char>(c >> 8);
  }
  return bytes;
}

void DecodeSerialEnc(const uint8_t* p, uint32_t st, Value* out, uint8_t enc) {
  if (st >= 13 && (st & 1) && IsUtf16(enc)) {
    uint32_t n = (st - 13) / 2;
    std::string u = Utf16ToUtf8(p, n, enc == kUtf16be);
    out->SetText(u);
    return;
  }
  DecodeSerial(p, st, out, false);
}

Status TranscodeRecord(const uint8_t* rec, uint32_t len, uint8_t from, uint8_t to,
                       std::string* out) {
  RecordReader r(rec, len);
  if (!r.Init()) return CORRUPT();
  std::vector<Value> vals;
  bool corrupt = false;
  uint32_t st, off;
  while (r.Next(&st, &off, &corrupt)) {
    vals.emplace_back();
    Value& v = vals.back();
    if (st >= 13 && (st & 1)) {
      uint32_t n = (st - 13) / 2;
      std::string u8 = IsUtf16(from) ? Utf16ToUtf8(r.at(off), n, from == kUtf16be)
                                     : std::string(reinterpret_cast<const char*>(r.at(off)), n);
      if (IsUtf16(to)) {
        v.SetText(EncodeUtf16Bytes(u8, to));
      } else {
        v.SetText(u8);
      }
    } else {
      DecodeSerial(r.at(off), st, &v, true);
    }
  }
  if (corrupt) return CORRUPT();
  EncodeRecord(vals.data(), static_cast<int>(vals.size()), out);
  return Status();
}

void PrepareKeyForEncoding(Value* vals, int n, const KeyInfo& ki) {
  if (!IsUtf16(ki.enc)) return;
  for (int i = 0; i < n; ++i) {
    if (!vals[i].is_text()) continue;
    const Collation* coll = KeyColl(ki, i);
    if (coll != nullptr && coll != BinaryCollation()) continue;
    vals[i].SetText(EncodeUtf16Bytes(vals[i].text(), ki.enc));
  }
}

Result<int> ParseRecordHeader(const uint8_t* rec, uint32_t len, std::vector<uint32_t>* types,
                              std::vector<uint32_t>* offsets) {
  types->clear();
  offsets->clear();
  RecordReader r(rec, len);
  if (!r.Init()) return CORRUPT();
  bool corrupt = false;
  uint32_t st, off;
  while (r.Next(&st, &off, &corrupt)) {
    types->push_back(st);
    offsets->push_back(off);
  }
  if (corrupt) return CORRUPT();
  return static_cast<int>(types->size());
}

}  // namespace basalt

// The record format (fileformat2 section 2.1): a header of varints (header
// size, then one serial type per column) followed by the column bodies.
//
//   serial type  body bytes  meaning
//   0            0           NULL
//   1..6         1,2,3,4,6,8 big-endian two's-complement integer
//   7            8           IEEE 754 big-endian double
//   8, 9         0           the integers 0 and 1 (schema format 4)
//   10, 11       -           reserved (corrupt)
//   N>=12 even   (N-12)/2    BLOB
//   N>=13 odd    (N-13)/2    TEXT (database encoding; UTF-8 here)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "record/collation.h"
#include "record/value.h"

namespace basalt {

// Serial type used to store v (8/9 for the integers 0/1 with format 4, the
// smallest integer width otherwise).
uint32_t SerialTypeOf(const Value& v);
// Body length in bytes of a serial type.
inline uint32_t SerialTypeLen(uint32_t st) {
  static constexpr uint8_t kLen[12] = {0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0};
  return st >= 12 ? (st - 12) / 2 : kLen[st];
}
// Decodes a body of serial type st at p into *out. Text and blobs are copied
// into out's buffer unless `borrow` is true, in which case out points at p
// (valid only while the bytes at p are). A stored NaN reads as NULL, as in
// SQLite; serial type 10 reads as the unchanged NULL (Value::SetNoChange)
// and 11 as NULL.
void DecodeSerial(const uint8_t* p, uint32_t st, Value* out, bool borrow = false);

// DecodeSerial for a record of a database in encoding `enc`: UTF-16 text is
// converted to UTF-8 (into out's own buffer).
void DecodeSerialEnc(const uint8_t* p, uint32_t st, Value* out, uint8_t enc);

// Rewrites a record with its text fields converted from encoding `from` to
// `to` (appended to *out). kCorrupt for a malformed record.
Status TranscodeRecord(const uint8_t* rec, uint32_t len, uint8_t from, uint8_t to,
                       std::string* out);

// Encodes n values as a record, appending to *out.
// real_mask, when given, has 'E' at each field that is a REAL column's: a
// REAL there with an exact integer value (INT64_MIN and INT64_MAX aside) is
// stored as that integer, as SQLite stores it (readers of a REAL column
// turn it back into a REAL). The mask may end (NUL) before field n.
void EncodeRecord(const Value* vals, int n, std::string* out, const char* real_mask = nullptr);
// The same, as the blob value *out (in its own buffer, reused when large
// enough). out must not be one of vals[0..n).
void EncodeRecordInto(const Value* vals, int n, Value* out, const char* real_mask = nullptr);

// A database's text encoding (header offset 56). Values in the VM are
// always UTF-8; records of a UTF-16 database hold UTF-16 text.
enum TextEncoding : uint8_t { kUtf8 = 1, kUtf16le = 2, kUtf16be = 3 };
inline bool IsUtf16(uint8_t enc) { return enc == kUtf16le || enc == kUtf16be; }

// UTF-8 text as the bytes of a UTF-16 encoding (little or big endian).
std::string EncodeUtf16Bytes(std::string_view utf8, uint8_t enc);

// Sort order and collation per key column for comparing index keys.

struct KeyInfo {
  int n_fields = 0;
  const Collation* const* colls = nullptr;  // n_fields entries; null = BINARY
  const uint8_t* desc = nullptr;            // n_fields entries; 1 = DESC; null = all ASC
  // Encoding of the records compared. In a UTF-16 database BINARY compares
  // the stored UTF-16 bytes (as SQLite does), so the text of an unpacked key
  // must first go through PrepareKeyForEncoding; other collations see UTF-8.
  uint8_t enc = kUtf8;
};

// Makes unpacked UTF-8 key values comparable with records of encoding
// ki.enc: text under BINARY becomes the encoded bytes (still typed text).
// Values that change are rewritten in place (they then own their bytes).
void PrepareKeyForEncoding(Value* vals, int n, const KeyInfo& ki);

// Compares the record at rec (len bytes) with the unpacked key vals[0..n)
// field by field (CompareValues with KeyInfo's collation, negated for DESC
// columns). If all n fields are equal (the record may have more fields),
// returns `default_rc`. Returns kCorrupt via *status for a malformed record
// (then the result is meaningless).
int CompareRecordWithKey(const uint8_t* rec, uint32_t len, const Value* vals, int n,
                         const KeyInfo& ki, int default_rc, Status* status);

// The same comparison, specialised on the first key value: for integer and
// text first values the first field is compared straight from the record
// bytes (the general path takes over when it is equal or unusual). Pick one
// per seek with ChooseRecordComparator; all give CompareRecordWithKey's
// answer.
using RecordKeyComparator = int (*)(const uint8_t* rec, uint32_t len, const Value* vals, int n,
                                    const KeyInfo& ki, int default_rc, Status* status);
RecordKeyComparator ChooseRecordComparator(const Value* vals, int n, const KeyInfo& ki);

// The specialisation for an integer first key value (ascending), inline so
// that seek loops can compile it into their comparator.
inline int CompareRecordIntFirst(const uint8_t* rec, uint32_t len, const Value* vals, int n,
                                 const KeyInfo& ki, int default_rc, Status* status) {
  uint32_t st = len >= 2 ? rec[1] : 0;
  uint32_t hdr = len >= 2 ? rec[0] : 0;  // an empty record may have no bytes at all
  if (st - 1u < 6u && hdr >= 2 && hdr < 0x80) {
    uint32_t sz = SerialTypeLen(st);
    if (hdr + sz <= len) {
      const uint8_t* p = rec + hdr;
      int64_t x;
      switch (st) {
        case 1:
          x = static_cast<int8_t>(p[0]);
          break;
        case 2:
          x = static_cast<int16_t>(static_cast<uint16_t>((p[0] << 8) | p[1]));
          break;
        case 3:
          x = static_cast<int32_t>(
                  static_cast<uint32_t>((p[0] << 24) | (p[1] << 16) | (p[2] << 8))) >>
              8;
          break;
        case 4:
          x = static_cast<int32_t>((uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) |
                                   (uint32_t(p[2]) << 8) | p[3]);
          break;
        default:
          x = 0;
          for (uint32_t i = 0; i < sz; ++i) x = int64_t(uint64_t(x) << 8 | p[i]);
          if (st == 5 && (p[0] & 0x80)) x = int64_t(uint64_t(x) | 0xffff000000000000ull);
          break;
      }
      int64_t y = vals[0].int_value();
      if (x < y) return -1;
      if (x > y) return 1;
      if (n == 1) return default_rc;
    }
  }
  return CompareRecordWithKey(rec, len, vals, n, ki, default_rc, status);
}

// Compares two records field by field over min(fields) columns, KeyInfo
// giving collations/orders for the first n_fields (BINARY ASC beyond); if
// equal on common fields, returns 0.
int CompareRecords(const uint8_t* a, uint32_t na, const uint8_t* b, uint32_t nb, const KeyInfo& ki,
                   Status* status);

// Parses a record header: fills types[i] (serial type) and offsets[i] (byte
// offset of column i's body within rec) for every column and returns how
// many columns the record has, or a corrupt Status when the header or a body
// runs past len. Serial types 10 and 11 read as NULL.
Result<int> ParseRecordHeader(const uint8_t* rec, uint32_t len, std::vector<uint32_t>* types,
                              std::vector<uint32_t>* offsets);

}  // namespace basalt

// Helpers shared by the B-tree tests.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "btree/btree.h"
#include "common/coding.h"

namespace basalt::testing {

#define ASSERT_OK(expr)                                                           \
  do {                                                                            \
    ::basalt::Status _st = (expr);                                                \
    ASSERT_TRUE(_st.ok()) << #expr << ": " << _st.code() << " " << _st.message(); \
  } while (0)
#define EXPECT_OK(expr)                                                           \
  do {                                                                            \
    ::basalt::Status _st = (expr);                                                \
    EXPECT_TRUE(_st.ok()) << #expr << ": " << _st.code() << " " << _st.message(); \
  } while (0)

inline std::unique_ptr<Btree> NewDb(uint32_t page_size = 1024) {
  auto r = Btree::OpenInMemory(page_size);
  EXPECT_TRUE(r.ok());
  return std::move(r).value();
}

// memcmp order over std::string search keys.
inline int StringSearch(void* ctx, const uint8_t* key, uint32_t n) {
  const std::string& s = *static_cast<const std::string*>(ctx);
  return MemcmpKeyCompare(nullptr, key, n, reinterpret_cast<const uint8_t*>(s.data()),
                          uint32_t(s.size()));
}

inline std::string Payload(BtCursor& c) {
  std::string s(c.payload_size(), '\0');
  Status st = c.ReadPayload(0, uint32_t(s.size()), reinterpret_cast<uint8_t*>(s.data()));
  EXPECT_TRUE(st.ok());
  return s;
}

// A payload that encodes its rowid and length so corruption shows.
inline std::string MakeValue(int64_t key, size_t len) {
  std::string v(len, '\0');
  for (size_t i = 0; i < len; ++i) v[i] = char('a' + (uint64_t(key) * 7 + i) % 26);
  return v;
}

inline std::vector<std::string> Check(Btree& bt, std::vector<IntegrityRoot> roots) {
  std::vector<std::string> msgs;
  Status st = bt.IntegrityCheck(roots, 100, &msgs);
  EXPECT_TRUE(st.ok());
  return msgs;
}

#define EXPECT_INTEGRITY(bt, ...)                                         \
  do {                                                                    \
    auto _msgs = ::basalt::testing::Check(bt, __VA_ARGS__);               \
    EXPECT_TRUE(_msgs.empty()) << ::basalt::FormatIntegrityReport(_msgs); \
  } while (0)

// ---- A tiny record encoder (fileformat2 2.1) for the compatibility tests.
struct Field {
  enum Kind { kNull, kInt, kText };
  Kind kind = kNull;
  int64_t i = 0;
  std::string s;
  static Field Null() { return Field(); }
  static Field Int(int64_t v) {
    Field f;
    f.kind = kInt;
    f.i = v;
    return f;
  }
  static Field Text(std::string v) {
    Field f;
    f.kind = kText;
    f.s = std::move(v);
    return f;
  }
};

inline void PutVarintTo(std::string* out, uint64_t v) {
  uint8_t buf[9];
  int n;
  if (v <= 0x7f) {
    buf[0] = uint8_t(v);
    n = 1;
  } else {
    uint8_t tmp[10];
    int k = 0;
    if (v > 0x00ffffffffffffffULL) {
      // 9-byte form: last byte holds 8 bits.
      tmp[k++] = uint8_t(v);
      v >>= 8;
      for (int i = 0; i < 8; ++i) {
        tmp[k++] = uint8_t((v & 0x7f) | 0x80);
        v >>= 7;
      }
    } else {
      tmp[k++] = uint8_t(v & 0x7f);
      v >>= 7;
      while (v) {
        tmp[k++] = uint8_t((v & 0x7f) | 0x80);
        v >>= 7;
      }
    }
    n = k;
    for (int i = 0; i < k; ++i) buf[i] = tmp[k - 1 - i];
  }
  out->append(reinterpret_cast<char*>(buf), n);
}

inline std::string EncodeRecordForTest(const std::vector<Field>& fields) {
  std::string types, body;
  for (const Field& f : fields) {
    if (f.kind == Field::kNull) {
      PutVarintTo(&types, 0);
    } else if (f.kind == Field::kText) {
      PutVarintTo(&types, 13 + 2 * f.s.size());
      body += f.s;
    } else {
      int64_t v = f.i;
      if (v == 0) {
        PutVarintTo(&types, 8);
      } else if (v == 1) {
        PutVarintTo(&types, 9);
      } else {
        int type, len;
        if (v >= -128 && v <= 127)
          type = 1, len = 1;
        else if (v >= -32768 && v <= 32767)
          type = 2, len = 2;
        else if (v >= -8388608 && v <= 8388607)
          type = 3, len = 3;
        else if (v >= -2147483648LL && v <= 2147483647LL)
          type = 4, len = 4;
        else if (v >= -140737488355328LL && v <= 140737488355327LL)
          type = 5, len = 6;
        else
          type = 6, len = 8;
        PutVarintTo(&types, type);
        for (int i = len - 1; i >= 0; --i) body += char(uint64_t(v) >> (8 * i));
      }
    }
  }
  // Header size includes its own varint (small headers: 1 byte).
  std::string rec;
  uint64_t hsize = types.size() + 1;
  if (hsize > 127) hsize += 1;
  PutVarintTo(&rec, hsize);
  return rec + types + body;
}

}  // namespace basalt::testing

namespace basalt::testing {

// Decodes a record of NULL / integer / text fields (enough for the tests).
inline bool DecodeRecordForTest(const uint8_t* p, uint32_t n, std::vector<Field>* out) {
  out->clear();
  uint64_t hsize;
  uint32_t h = uint32_t(GetVarint(p, &hsize));
  if (hsize > n) return false;
  uint32_t body = uint32_t(hsize);
  while (h < hsize) {
    uint64_t st;
    h += uint32_t(GetVarint(p + h, &st));
    if (st == 0) {
      out->push_back(Field::Null());
    } else if (st == 8 || st == 9) {
      out->push_back(Field::Int(int64_t(st - 8)));
    } else if (st >= 1 && st <= 6) {
      static const int kLen[7] = {0, 1, 2, 3, 4, 6, 8};
      int len = kLen[st];
      if (body + len > n) return false;
      int64_t v = int8_t(p[body]);
      for (int i = 1; i < len; ++i) v = (v << 8) | p[body + i];
      body += len;
      out->push_back(Field::Int(v));
    } else if (st >= 13 && st % 2 == 1) {
      uint32_t len = uint32_t((st - 13) / 2);
      if (body + len > n) return false;
      out->push_back(Field::Text(std::string(reinterpret_cast<const char*>(p + body), len)));
      body += len;
    } else {
      return false;
    }
  }
  return true;
}

// SQLite's order for such records: NULL < integers < text (BINARY).
inline int CompareFieldsForTest(const std::vector<Field>& a, const std::vector<Field>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i].kind != b[i].kind) return a[i].kind < b[i].kind ? -1 : 1;
    if (a[i].kind == Field::kInt && a[i].i != b[i].i) return a[i].i < b[i].i ? -1 : 1;
    if (a[i].kind == Field::kText && a[i].s != b[i].s) return a[i].s < b[i].s ? -1 : 1;
  }
  return 0;
}

inline int RecordKeyCompare(void*, const uint8_t* a, uint32_t na, const uint8_t* b, uint32_t nb) {
  std::vector<Field> fa, fb;
  DecodeRecordForTest(a, na, &fa);
  DecodeRecordForTest(b, nb, &fb);
  return CompareFieldsForTest(fa, fb);
}

// Search comparator over a record held in a std::string.
inline int RecordSearch(void* ctx, const uint8_t* key, uint32_t n) {
  const std::string& s = *static_cast<const std::string*>(ctx);
  return RecordKeyCompare(nullptr, key, n, reinterpret_cast<const uint8_t*>(s.data()),
                          uint32_t(s.size()));
}

}  // namespace basalt::testing

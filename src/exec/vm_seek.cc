#include "exec/vm_seek.h"

#include <algorithm>

namespace basalt {

int SeekCompareGeneric(void* ctx, const uint8_t* key, uint32_t n) {
  auto* c = static_cast<SeekCtx*>(ctx);
  return c->cmp(key, n, c->key, c->n, *c->ki, c->default_rc, c->status);
}

namespace {

[[gnu::noinline]] int SeekCompareIntSlow(void* ctx, const uint8_t* key, uint32_t n) {
  auto* c = static_cast<const SeekCtx*>(ctx);
  return CompareRecordIntFirst(key, n, c->key, c->n, *c->ki, c->default_rc, c->status);
}

// The integer of serial type st (1..6, 8, 9) stored at p.
inline int64_t DecodeIntField(const uint8_t* p, uint32_t st) {
  switch (st) {
    case 1:
      return static_cast<int8_t>(p[0]);
    case 2:
      return static_cast<int16_t>(static_cast<uint16_t>((p[0] << 8) | p[1]));
    case 3:
      return static_cast<int32_t>((uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) |
                                  (uint32_t(p[2]) << 8)) >>
             8;
    case 4:
      return static_cast<int32_t>((uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) |
                                  (uint32_t(p[2]) << 8) | p[3]);
    case 5: {
      uint64_t v = 0;
      for (int i = 0; i < 6; ++i) v = (v << 8) | p[i];
      return static_cast<int64_t>(v << 16) >> 16;
    }
    case 6: {
      uint64_t v = 0;
      for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
      return static_cast<int64_t>(v);
    }
    default:
      return st == 9 ? 1 : 0;  // 8: the constant 0, 9: the constant 1
  }
}

// Bytes of an integer field of serial type st (1..6, 8, 9).
inline uint32_t IntFieldSize(uint32_t st) {
  static constexpr uint8_t kSize[10] = {0, 1, 2, 3, 4, 6, 8, 0, 0, 0};
  return kSize[st];
}

inline bool IsIntSerialType(uint32_t st) { return (st >= 1 && st <= 6) || st == 8 || st == 9; }

// An integer first key value: the leading integer fields (ascending ones:
// an index key and its rowid) are compared here (no registers saved on this
// path); anything else goes to the general code, which starts over.
int SeekCompareIntRest(SeekCtx* c, const uint8_t* key, uint32_t n, uint32_t off);

}  // namespace

int SeekCompareIntFirst(void* ctx, const uint8_t* key, uint32_t n) {
  auto* c = static_cast<SeekCtx*>(ctx);
  const uint32_t hdr = key[0];
  if (n < 2 || hdr - 2u >= 126u || hdr > n) return SeekCompareIntSlow(ctx, key, n);
  // The first field inline: most seeks decide on it (1..4-byte integers are
  // the common case: their serial type is their size).
  const uint32_t st0 = key[1];
  uint32_t size;
  int64_t x;
  if (st0 - 1u < 4u) {
    size = st0;
    const uint8_t* p = key + hdr;
    if (st0 == 4) {
      x = static_cast<int32_t>((uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) |
                               (uint32_t(p[2]) << 8) | p[3]);
    } else if (st0 == 3) {
      x = static_cast<int32_t>((uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) |
                               (uint32_t(p[2]) << 8)) >>
          8;
    } else if (st0 == 2) {
      x = static_cast<int16_t>(static_cast<uint16_t>((p[0] << 8) | p[1]));
    } else {
      x = static_cast<int8_t>(p[0]);
    }
  } else if (IsIntSerialType(st0)) {
    size = IntFieldSize(st0);
    x = DecodeIntField(key + hdr, st0);
  } else {
    return SeekCompareIntSlow(ctx, key, n);
  }
  if (hdr + size > n) return SeekCompareIntSlow(ctx, key, n);
  const int64_t y0 = c->key[0].int_value();
  if (x != y0) return x < y0 ? -1 : 1;
  if (c->n == 1) return c->default_rc;
  return SeekCompareIntRest(c, key, n, hdr + size);
}

namespace {

// SeekCompareIntFirst once the first fields are equal: the following
// integer fields (ascending ones: an index key and its rowid), from byte
// `off` of the record, then the general code.
[[gnu::noinline]] int SeekCompareIntRest(SeekCtx* c, const uint8_t* key, uint32_t n, uint32_t off) {
  if (c->int_prefix < 0) {
    const KeyInfo* info = c->ki;
    int k = 0;
    while (k < c->n && c->key[k].is_int() &&
           (k == 0 || info->desc == nullptr || k >= info->n_fields || info->desc[k] == 0)) {
      ++k;
    }
    c->int_prefix = k;
  }
  const uint32_t hdr = key[0];
  const int fields = std::min<int>(c->int_prefix, static_cast<int>(hdr) - 1);
  for (int i = 1; i < fields; ++i) {
    const uint32_t st = key[1 + i];
    if (!IsIntSerialType(st)) break;
    const uint32_t sz = IntFieldSize(st);
    if (off + sz > n) break;
    const int64_t xi = DecodeIntField(key + off, st);
    const int64_t yi = c->key[i].int_value();
    if (xi != yi) return xi < yi ? -1 : 1;
    off += sz;
    if (i + 1 == c->n) return c->default_rc;
  }
  return SeekCompareIntSlow(c, key, n);
}

// The B-tree's callback for a seek: the integer case compiled in.

}  // namespace

}  // namespace basalt

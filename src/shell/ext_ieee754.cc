// ieee754(X), ieee754(M,E), ieee754_mantissa(X), ieee754_exponent(X),
// ieee754_to_blob(X), ieee754_from_blob(B): a REAL as an exact mantissa and
// power of two, as the sqlite3 3.40.1 shell offers them.
//
// Decomposition reads the bits of |X| (an 8-byte blob is read as a big-endian
// double): with biased exponent e and fraction f, the mantissa is f with the
// implicit bit (or f*2 when e is 0) and trailing zero bits are shifted out
// while e < 1075; the exponent shown is e - 1075. The reference reads the
// exponent with an arithmetic shift of the signed bits, so -0.0 (whose sign
// survives r<0 being false) decomposes as ieee754(1,-3071): kept here.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "shell/shell_ext.h"

namespace shell {
namespace {

enum Part { kText = 0, kMantissa = 1, kExponent = 2 };

double ArgAsDouble(sqlite3_value* v) {
  if (sqlite3_value_type(v) == SQLITE_BLOB && sqlite3_value_bytes(v) == 8) {
    const auto* x = static_cast<const unsigned char*>(sqlite3_value_blob(v));
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = (bits << 8) | x[i];
    double r;
    std::memcpy(&r, &bits, sizeof r);
    return r;
  }
  return sqlite3_value_double(v);
}

void Decompose(sqlite3_context* ctx, sqlite3_value* arg, int part) {
  double r = ArgAsDouble(arg);
  const bool neg = r < 0.0;
  if (neg) r = -r;
  int64_t bits;
  std::memcpy(&bits, &r, sizeof bits);
  int64_t m = 0, e = 0;
  if (bits != 0) {
    e = bits >> 52;  // arithmetic: a set sign bit makes it negative
    m = bits & ((int64_t{1} << 52) - 1);
    if (e == 0) {
      m <<= 1;
    } else {
      m |= int64_t{1} << 52;
    }
    while (e < 1075 && m > 0 && (m & 1) == 0) {
      m >>= 1;
      ++e;
    }
    if (neg) m = -m;
  }
  if (part == kMantissa) {
    sqlite3_result_int64(ctx, m);
  } else if (part == kExponent) {
    sqlite3_result_int(ctx, static_cast<int>(e - 1075));
  } else {
    char buf[64];
    std::snprintf(buf, sizeof buf, "ieee754(%lld,%d)", static_cast<long long>(m),
                  static_cast<int>(e - 1075));
    sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
  }
}

// ieee754(M,E): M * 2^E rounded toward zero into a double's 53 bits.
void Compose(sqlite3_context* ctx, sqlite3_value** argv) {
  int64_t m = sqlite3_value_int64(argv[0]);
  int64_t e = sqlite3_value_int64(argv[1]);
  if (e > 10000) e = 10000;
  if (e < -10000) e = -10000;
  bool neg = false;
  if (m < 0) {
    if (m == INT64_MIN) return;
    neg = true;
    m = -m;
  } else if (m == 0 && e > -1000 && e < 1000) {
    sqlite3_result_double(ctx, 0.0);
    return;
  }
  while (((m >> 32) & 0xffe00000) != 0) {
    m >>= 1;
    ++e;
  }
  while (m != 0 && ((m >> 32) & 0xfff00000) == 0) {
    m <<= 1;
    --e;
  }
  e += 1075;
  if (e <= 0) {  // subnormal
    m = (1 - e >= 64) ? 0 : m >> (1 - e);
    e = 0;
  } else if (e > 0x7ff) {
    e = 0x7ff;
  }
  uint64_t bits = static_cast<uint64_t>(m) & ((uint64_t{1} << 52) - 1);
  bits |= static_cast<uint64_t>(e) << 52;
  if (neg) bits |= uint64_t{1} << 63;
  double r;
  std::memcpy(&r, &bits, sizeof r);
  sqlite3_result_double(ctx, r);
}

void Ieee754Func(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc == 2) {
    Compose(ctx, argv);
  } else {
    Decompose(ctx, argv[0], *static_cast<int*>(sqlite3_user_data(ctx)));
  }
}

void ToBlob(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const int t = sqlite3_value_type(argv[0]);
  if (t != SQLITE_FLOAT && t != SQLITE_INTEGER) return;
  const double r = sqlite3_value_double(argv[0]);
  uint64_t bits;
  std::memcpy(&bits, &r, sizeof bits);
  unsigned char out[8];
  for (int i = 7; i >= 0; --i, bits >>= 8) out[i] = static_cast<unsigned char>(bits & 0xff);
  sqlite3_result_blob(ctx, out, 8, SQLITE_TRANSIENT);
}

void FromBlob(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) != SQLITE_BLOB || sqlite3_value_bytes(argv[0]) != 8) return;
  sqlite3_result_double(ctx, ArgAsDouble(argv[0]));
}

}  // namespace

void RegisterIeee754(sqlite3* db) {
  static int parts[3] = {kText, kMantissa, kExponent};
  const int f = SQLITE_UTF8 | SQLITE_INNOCUOUS;
  sqlite3_create_function(db, "ieee754", 1, f, &parts[0], Ieee754Func, nullptr, nullptr);
  sqlite3_create_function(db, "ieee754", 2, f, &parts[0], Ieee754Func, nullptr, nullptr);
  sqlite3_create_function(db, "ieee754_mantissa", 1, f, &parts[1], Ieee754Func, nullptr, nullptr);
  sqlite3_create_function(db, "ieee754_exponent", 1, f, &parts[2], Ieee754Func, nullptr, nullptr);
  sqlite3_create_function(db, "ieee754_to_blob", 1, f, nullptr, ToBlob, nullptr, nullptr);
  sqlite3_create_function(db, "ieee754_from_blob", 1, f, nullptr, FromBlob, nullptr, nullptr);
}

}  // namespace shell

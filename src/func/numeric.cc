// Numeric functions: abs, round, sign, random, randomblob (lang_corefunc).
#include <random>

#include "common/printf.h"
#include "func/func_internal.h"

namespace basalt::func {
namespace {

// abs(X): integers stay integers (abs of INT64_MIN is an error), NULL stays
// NULL, everything else goes through sqlite3_value_double.
void AbsFunc(FuncContext* ctx, int, Value** argv) {
  const Value& v = *argv[0];
  if (v.is_int()) {
    int64_t i = v.int_value();
    if (i < 0) {
      if (i == INT64_MIN) {
        SetFuncError(ctx, "integer overflow");
        return;
      }
      i = -i;
    }
    ctx->result->SetInt(i);
    return;
  }
  if (v.is_null()) {
    ctx->result->SetNull();
    return;
  }
  double r = ValueToDouble(v);
  if (r < 0) r = -r;
  ResultReal(ctx, r);
}

// round(X[,Y]): always REAL. Y is clamped to 0..30. Values beyond 2^52 have
// no fraction and are returned as they are; Y == 0 rounds half away from
// zero through an int64; otherwise the value is printed with "%.*f" by the
// SQLite printf engine and read back (which is where round(1.005,2) = 1.01
// comes from).
void RoundFunc(FuncContext* ctx, int argc, Value** argv) {
  int digits = 0;
  if (argc == 2) {
    if (argv[1]->is_null()) {
      ctx->result->SetNull();
      return;
    }
    digits = ValueToInt32(*argv[1]);
    if (digits > 30) digits = 30;
    if (digits < 0) digits = 0;
  }
  if (argv[0]->is_null()) {
    ctx->result->SetNull();
    return;
  }
  double r = ValueToDouble(*argv[0]);
  if (r < -4503599627370496.0 || r > 4503599627370496.0) {
    // Nothing to round.
  } else if (digits == 0) {
    r = static_cast<double>(static_cast<int64_t>(r + (r < 0 ? -0.5 : 0.5)));
  } else {
    char buf[96];
    SqlSnprintf(sizeof buf, buf, "%.*f", digits, r);
    int64_t i;
    double d = 0.0;
    int kind = ParseNumericText(buf, std::strlen(buf), &i, &d);
    r = kind == 1 ? static_cast<double>(i) : d;
  }
  ResultReal(ctx, r);
}

// sign(X): -1, 0 or +1 for numbers and numeric text; NULL otherwise.
void SignFunc(FuncContext* ctx, int, Value** argv) {
  int64_t i = 0;
  double r = 0.0;
  Type t = NumericType(*argv[0], &i, &r);
  if (t == Type::kInteger) {
    r = static_cast<double>(i);
  } else if (t != Type::kReal) {
    ctx->result->SetNull();
    return;
  }
  ctx->result->SetInt(r < 0.0 ? -1 : r > 0.0 ? 1 : 0);
}

// The pseudo-random source: xoshiro256** seeded once per thread from the
// system's entropy source.
class Prng {
 public:
  Prng() {
    std::random_device rd;
    for (auto& w : s_) w = (static_cast<uint64_t>(rd()) << 32) ^ rd();
    if ((s_[0] | s_[1] | s_[2] | s_[3]) == 0) s_[0] = 1;
  }
  uint64_t Next() {
    uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  void Fill(char* out, size_t n) {
    while (n >= 8) {
      uint64_t w = Next();
      std::memcpy(out, &w, 8);
      out += 8;
      n -= 8;
    }
    if (n > 0) {
      uint64_t w = Next();
      std::memcpy(out, &w, n);
    }
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

Prng& ThreadPrng() {
  thread_local Prng prng;
  return prng;
}

// random(): any int64 except INT64_MIN (negative draws have their sign bit
// masked off and are negated, as SQLite does).
void RandomFunc(FuncContext* ctx, int, Value**) {
  int64_t r = static_cast<int64_t>(ThreadPrng().Next());
  if (r < 0) r = -(r & INT64_MAX);
  ctx->result->SetInt(r);
}

// randomblob(N): N random bytes, at least 1.
void RandomblobFunc(FuncContext* ctx, int, Value** argv) {
  int64_t n = ValueToInt64(*argv[0]);
  if (n < 1) n = 1;
  if (n > MaxLength(ctx)) {
    ResultTooBig(ctx);
    return;
  }
  char* out = ctx->result->Reserve(Type::kBlob, static_cast<size_t>(n));
  ThreadPrng().Fill(out, static_cast<size_t>(n));
}

constexpr BuiltinSpec kTable[] = {
    Scalar("abs", 1, kPure, AbsFunc),         Scalar("round", 1, kPure, RoundFunc),
    Scalar("round", 2, kPure, RoundFunc),     Scalar("sign", 1, kPure, SignFunc),
    Scalar("random", 0, kImpure, RandomFunc), Scalar("randomblob", 1, kImpure, RandomblobFunc),
};

}  // namespace

std::span<const BuiltinSpec> NumericFunctions() { return kTable; }

}  // namespace basalt::func

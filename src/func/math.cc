// Math functions (lang_mathfunc; the referee is built with
// SQLITE_ENABLE_MATH_FUNCTIONS). Arguments are classified like
// sqlite3_value_numeric_type(): numbers and numeric text are accepted, any
// other argument gives NULL. Results are REAL except ceil/floor/trunc of an
// INTEGER (returned unchanged); a NaN result is NULL.
#include <cmath>
#include <numbers>

#include "func/func_internal.h"

namespace basalt::func {
namespace {

using Fn1 = double (*)(double);
using Fn2 = double (*)(double, double);

// Reads a numeric argument as a double; false when it is not numeric.
bool NumericArg(const Value& v, double* out) {
  int64_t i = 0;
  double r = 0.0;
  switch (NumericType(v, &i, &r)) {
    case Type::kInteger:
      *out = static_cast<double>(i);
      return true;
    case Type::kReal:
      *out = r;
      return true;
    default:
      return false;
  }
}

template <Fn1 kFn>
void Math1(FuncContext* ctx, int, Value** argv) {
  double x;
  if (!NumericArg(*argv[0], &x)) {
    ctx->result->SetNull();
    return;
  }
  ResultReal(ctx, kFn(x));
}

template <Fn2 kFn>
void Math2(FuncContext* ctx, int, Value** argv) {
  double x, y;
  if (!NumericArg(*argv[0], &x) || !NumericArg(*argv[1], &y)) {
    ctx->result->SetNull();
    return;
  }
  ResultReal(ctx, kFn(x, y));
}

// ceil, ceiling, floor, trunc: INTEGER in, the same INTEGER out.
template <Fn1 kFn>
void Rounding(FuncContext* ctx, int, Value** argv) {
  int64_t i = 0;
  double r = 0.0;
  switch (NumericType(*argv[0], &i, &r)) {
    case Type::kInteger:
      ctx->result->SetInt(i);
      return;
    case Type::kReal:
      ResultReal(ctx, kFn(r));
      return;
    default:
      ctx->result->SetNull();
      return;
  }
}

// ln(X), log(X) = log10, log10(X), log2(X): NULL for X <= 0.
template <Fn1 kFn>
void Log1(FuncContext* ctx, int, Value** argv) {
  double x;
  if (!NumericArg(*argv[0], &x) || x <= 0.0) {
    ctx->result->SetNull();
    return;
  }
  ResultReal(ctx, kFn(x));
}

// log(B,X): ln(X)/ln(B); NULL unless B is numeric with ln(B) > 0 and X > 0.
// X is read with sqlite3_value_double (not type-checked), as SQLite does, so
// log(2,'8abc') is 3.0.
void Log2Args(FuncContext* ctx, int, Value** argv) {
  double b;
  if (!NumericArg(*argv[0], &b) || b <= 0.0) {
    ctx->result->SetNull();
    return;
  }
  double lb = std::log(b);
  double x = ValueToDouble(*argv[1]);
  if (lb <= 0.0 || x <= 0.0) {
    ctx->result->SetNull();
    return;
  }
  ResultReal(ctx, std::log(x) / lb);
}

void PiFunc(FuncContext* ctx, int, Value**) { ctx->result->SetReal(std::numbers::pi); }

double Ceil(double x) { return std::ceil(x); }
double Floor(double x) { return std::floor(x); }
double Trunc(double x) { return std::trunc(x); }
double Ln(double x) { return std::log(x); }
// SQLite divides the natural logarithm rather than calling log10()/log2(),
// which differs in the last bit for many inputs.
double Log10(double x) { return std::log(x) / std::numbers::ln10; }
double Log2(double x) { return std::log(x) / std::numbers::ln2; }
double Exp(double x) { return std::exp(x); }
double Sqrt(double x) { return std::sqrt(x); }
double Sin(double x) { return std::sin(x); }
double Cos(double x) { return std::cos(x); }
double Tan(double x) { return std::tan(x); }
double Asin(double x) { return std::asin(x); }
double Acos(double x) { return std::acos(x); }
double Atan(double x) { return std::atan(x); }
double Sinh(double x) { return std::sinh(x); }
double Cosh(double x) { return std::cosh(x); }
double Tanh(double x) { return std::tanh(x); }
double Asinh(double x) { return std::asinh(x); }
double Acosh(double x) { return std::acosh(x); }
double Atanh(double x) { return std::atanh(x); }
double Degrees(double x) { return x * (180.0 / std::numbers::pi); }
double Radians(double x) { return x * (std::numbers::pi / 180.0); }
double Atan2(double y, double x) { return std::atan2(y, x); }
double Pow(double x, double y) { return std::pow(x, y); }
double Fmod(double x, double y) { return std::fmod(x, y); }

constexpr BuiltinSpec kTable[] = {
    Scalar("ceil", 1, kPure, Rounding<Ceil>),
    Scalar("ceiling", 1, kPure, Rounding<Ceil>),
    Scalar("floor", 1, kPure, Rounding<Floor>),
    Scalar("trunc", 1, kPure, Rounding<Trunc>),
    Scalar("ln", 1, kPure, Log1<Ln>),
    Scalar("log", 1, kPure, Log1<Log10>),
    Scalar("log10", 1, kPure, Log1<Log10>),
    Scalar("log2", 1, kPure, Log1<Log2>),
    Scalar("log", 2, kPure, Log2Args),
    Scalar("exp", 1, kPure, Math1<Exp>),
    Scalar("pow", 2, kPure, Math2<Pow>),
    Scalar("power", 2, kPure, Math2<Pow>),
    Scalar("mod", 2, kPure, Math2<Fmod>),
    Scalar("acos", 1, kPure, Math1<Acos>),
    Scalar("asin", 1, kPure, Math1<Asin>),
    Scalar("atan", 1, kPure, Math1<Atan>),
    Scalar("atan2", 2, kPure, Math2<Atan2>),
    Scalar("cos", 1, kPure, Math1<Cos>),
    Scalar("sin", 1, kPure, Math1<Sin>),
    Scalar("tan", 1, kPure, Math1<Tan>),
    Scalar("cosh", 1, kPure, Math1<Cosh>),
    Scalar("sinh", 1, kPure, Math1<Sinh>),
    Scalar("tanh", 1, kPure, Math1<Tanh>),
    Scalar("acosh", 1, kPure, Math1<Acosh>),
    Scalar("asinh", 1, kPure, Math1<Asinh>),
    Scalar("atanh", 1, kPure, Math1<Atanh>),
    Scalar("sqrt", 1, kPure, Math1<Sqrt>),
    Scalar("radians", 1, kPure, Math1<Radians>),
    Scalar("degrees", 1, kPure, Math1<Degrees>),
    Scalar("pi", 0, kPure, PiFunc),
};

}  // namespace

std::span<const BuiltinSpec> MathFunctions() { return kTable; }

}  // namespace basalt::func

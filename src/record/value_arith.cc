// The arithmetic, bitwise and concatenation operators (value_ops.h).
//
// Arithmetic follows SQLite's two-path scheme:
//   1. Both operands numeric-as-INTEGER (integers, or text that converts to an
//      integer by ToNumericForArith): 64-bit integer math; overflow, and
//      INT64_MIN / -1, fall through to path 2.
//   2. Otherwise (or on overflow): both operands as doubles (ValueToDouble);
//      a NaN result is NULL. Remainder on this path truncates both operands
//      with ValueToInt64 and yields a REAL.
#include <cmath>
#include <cstring>

#include "record/numeric_text.h"
#include "record/value_ops.h"

namespace basalt {

namespace {

enum class Op { kAdd, kSub, kMul, kDiv, kRem };

// Integer path; false if the result does not fit (or needs the real path).
inline bool IntOp(Op op, int64_t a, int64_t b, Value* out, bool* is_null) {
  int64_t r;
  switch (op) {
    case Op::kAdd:
      if (__builtin_add_overflow(a, b, &r)) return false;
      break;
    case Op::kSub:
      if (__builtin_sub_overflow(a, b, &r)) return false;
      break;
    case Op::kMul:
      if (__builtin_mul_overflow(a, b, &r)) return false;
      break;
    case Op::kDiv:
      if (b == 0) {
        *is_null = true;
        return true;
      }
      if (b == -1 && a == INT64_MIN) return false;
      r = a / b;
      break;
    case Op::kRem:
      if (b == 0) {
        *is_null = true;
        return true;
      }
      r = b == -1 ? 0 : a % b;
      break;
  }
  out->SetInt(r);
  return true;
}

void RealOp(Op op, const Value& a, const Value& b, Value* out) {
  double r;
  if (op == Op::kRem) {
    int64_t ia = ValueToInt64(a), ib = ValueToInt64(b);
    if (ib == 0) return out->SetNull();
    if (ib == -1) ib = 1;
    r = static_cast<double>(ia % ib);
  } else {
    double x = ValueToDouble(a), y = ValueToDouble(b);
    switch (op) {
      case Op::kAdd:
        r = x + y;
        break;
      case Op::kSub:
        r = x - y;
        break;
      case Op::kMul:
        r = x * y;
        break;
      default:
        if (y == 0.0) return out->SetNull();
        r = x / y;
        break;
    }
  }
  if (std::isnan(r)) return out->SetNull();
  out->SetReal(r);
}

// Numeric class of an operand for the path choice: 0 NULL, 1 INTEGER (value
// in *i), 2 REAL.
inline int ArithClass(const Value& v, int64_t* i) {
  switch (v.type()) {
    case Type::kInteger:
      *i = v.int_value();
      return 1;
    case Type::kReal:
      return 2;
    case Type::kNull:
      return 0;
    default: {
      Value n;
      ToNumericForArith(v, &n);
      if (!n.is_int()) return 2;
      *i = n.int_value();
      return 1;
    }
  }
}

void Arith(Op op, const Value& a, const Value& b, Value* out) {
  if (a.is_int() && b.is_int()) {
    bool is_null = false;
    if (IntOp(op, a.int_value(), b.int_value(), out, &is_null)) {
      if (is_null) out->SetNull();
      return;
    }
    double x = static_cast<double>(a.int_value()), y = static_cast<double>(b.int_value());
    // Overflow (or INT64_MIN / -1): the real path on the same values.
    double r = op == Op::kAdd ? x + y : op == Op::kSub ? x - y : op == Op::kMul ? x * y : x / y;
    out->SetReal(r);
    return;
  }
  int64_t ia = 0, ib = 0;
  int ca = ArithClass(a, &ia), cb = ArithClass(b, &ib);
  if (ca == 0 || cb == 0) return out->SetNull();
  if (ca == 1 && cb == 1) {
    bool is_null = false;
    if (IntOp(op, ia, ib, out, &is_null)) {
      if (is_null) out->SetNull();
      return;
    }
  }
  RealOp(op, a, b, out);
}

// Renders a number into buf (>= 32 bytes) or points at a string's bytes.
inline std::string_view TextOf(const Value& v, char* buf) {
  if (v.is_int()) return std::string_view(buf, static_cast<size_t>(IntToText(v.int_value(), buf)));
  if (v.is_real())
    return std::string_view(buf, static_cast<size_t>(RealToText(v.real_value(), buf)));
  return v.text();
}

inline bool Overlaps(std::string_view s, const Value& v) {
  return !s.empty() && s.data() < v.data() + v.size() + 1 && v.data() < s.data() + s.size();
}

}  // namespace

void AddSlow(const Value& a, const Value& b, Value* out) { Arith(Op::kAdd, a, b, out); }
void SubtractSlow(const Value& a, const Value& b, Value* out) { Arith(Op::kSub, a, b, out); }
void MultiplySlow(const Value& a, const Value& b, Value* out) { Arith(Op::kMul, a, b, out); }
void Divide(const Value& a, const Value& b, Value* out) { Arith(Op::kDiv, a, b, out); }
void Remainder(const Value& a, const Value& b, Value* out) { Arith(Op::kRem, a, b, out); }

void Negate(const Value& a, Value* out) {
  if (a.is_int() && a.int_value() != INT64_MIN) return out->SetInt(-a.int_value());
  Value zero = Value::Int(0);
  Arith(Op::kSub, zero, a, out);
}

void BitAnd(const Value& a, const Value& b, Value* out) {
  if (a.is_null() || b.is_null()) return out->SetNull();
  out->SetInt(ValueToInt64(a) & ValueToInt64(b));
}

void BitOr(const Value& a, const Value& b, Value* out) {
  if (a.is_null() || b.is_null()) return out->SetNull();
  out->SetInt(ValueToInt64(a) | ValueToInt64(b));
}

namespace {

// a << n (left) or a >> n (arithmetic right); a negative n shifts the other
// way; shifting by 64 or more gives 0, or -1 for a right shift of a negative.
int64_t Shift(int64_t a, int64_t n, bool left) {
  if (n < 0) {
    left = !left;
    n = n > -64 ? -n : 64;
  }
  if (n >= 64) return (a >= 0 || left) ? 0 : -1;
  uint64_t u = static_cast<uint64_t>(a);
  if (left) return static_cast<int64_t>(u << n);
  u >>= n;
  if (a < 0 && n > 0) u |= ~uint64_t(0) << (64 - n);
  return static_cast<int64_t>(u);
}

}  // namespace

void ShiftLeft(const Value& a, const Value& b, Value* out) {
  if (a.is_null() || b.is_null()) return out->SetNull();
  out->SetInt(Shift(ValueToInt64(a), ValueToInt64(b), true));
}

void ShiftRight(const Value& a, const Value& b, Value* out) {
  if (a.is_null() || b.is_null()) return out->SetNull();
  out->SetInt(Shift(ValueToInt64(a), ValueToInt64(b), false));
}

void BitNot(const Value& a, Value* out) {
  if (a.is_null()) return out->SetNull();
  out->SetInt(~ValueToInt64(a));
}

void Concat(const Value& a, const Value& b, Value* out) {
  if (a.is_null() || b.is_null()) return out->SetNull();
  char abuf[32], bbuf[32];
  std::string_view x = TextOf(a, abuf), y = TextOf(b, bbuf);
  if (out == &a || out == &b ||
      (out->is_string_like() && (Overlaps(x, *out) || Overlaps(y, *out)))) {
    // The result buffer may hold an operand's bytes: build aside first.
    Value tmp;
    char* p = tmp.Reserve(Type::kText, x.size() + y.size());
    if (!x.empty()) std::memcpy(p, x.data(), x.size());
    if (!y.empty()) std::memcpy(p + x.size(), y.data(), y.size());
    *out = std::move(tmp);
    return;
  }
  char* p = out->Reserve(Type::kText, x.size() + y.size());
  if (!x.empty()) std::memcpy(p, x.data(), x.size());
  if (!y.empty()) std::memcpy(p + x.size(), y.data(), y.size());
}

}  // namespace basalt

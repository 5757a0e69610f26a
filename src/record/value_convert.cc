// Conversions between storage classes (value_ops.h, "Conversions").
#include <cstring>

#include "common/printf.h"
#include "record/numeric_text.h"
#include "record/value_ops.h"

namespace basalt {

int64_t ValueToInt64(const Value& v) {
  switch (v.type()) {
    case Type::kInteger:
      return v.int_value();
    case Type::kReal:
      return RealToInt64Saturating(v.real_value());
    case Type::kText:
    case Type::kBlob: {
      int64_t i = 0;
      ScanInt64(v.data(), v.size(), &i);
      return i;
    }
    default:
      return 0;
  }
}

double ValueToDouble(const Value& v) {
  switch (v.type()) {
    case Type::kInteger:
      return static_cast<double>(v.int_value());
    case Type::kReal:
      return v.real_value();
    case Type::kText:
    case Type::kBlob: {
      double r;
      ScanReal(v.data(), v.size(), &r);
      return r;
    }
    default:
      return 0.0;
  }
}

void ToNumericForArith(const Value& in, Value* out) {
  if (!in.is_string_like()) {
    if (out != &in) out->ShallowCopyFrom(in);
    return;
  }
  double r;
  int64_t i = 0;
  int kind = ScanReal(in.data(), in.size(), &r);
  bool as_int;
  if (kind == kRealNotNumber) {
    as_int = ScanInt64(in.data(), in.size(), &i) <= kIntTrailing;
  } else if (kind == kRealPureInteger) {
    as_int = ScanInt64(in.data(), in.size(), &i) == kIntOk;
  } else {
    as_int = false;
  }
  if (as_int) {
    out->SetInt(i);
  } else {
    out->SetReal(r);
  }
}

int ValueTruth(const Value& v) {
  switch (v.type()) {
    case Type::kNull:
      return -1;
    case Type::kInteger:
      return v.int_value() != 0;
    case Type::kReal:
      return v.real_value() != 0.0;
    default:
      return ValueToDouble(v) != 0.0;
  }
}

int RealToText(double r, char* buf) { return FormatRealSql(r, buf); }

int IntToText(int64_t v, char* buf) {
  char tmp[24];
  char* p = tmp + sizeof tmp;
  uint64_t mag = v < 0 ? uint64_t(0) - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  do {
    *--p = static_cast<char>('0' + mag % 10);
    mag /= 10;
  } while (mag != 0);
  if (v < 0) *--p = '-';
  int n = static_cast<int>(tmp + sizeof tmp - p);
  std::memcpy(buf, p, static_cast<size_t>(n));
  buf[n] = '\0';
  return n;
}

void Stringify(Value* v) {
  char buf[32];
  int n;
  if (v->is_int()) {
    n = IntToText(v->int_value(), buf);
  } else if (v->is_real()) {
    n = RealToText(v->real_value(), buf);
  } else {
    return;
  }
  std::memcpy(v->Reserve(Type::kText, static_cast<size_t>(n)), buf, static_cast<size_t>(n));
}

int ParseNumericText(const char* s, size_t n, int64_t* i, double* r) {
  double d;
  int kind = ScanReal(s, n, &d);
  if (kind <= 0) return 0;
  if (kind == kRealPureInteger) {
    // Small exact values need no second scan; otherwise the integer scanner
    // decides whether it fits.
    int64_t t = RealToInt64Saturating(d);
    if (RealIsSmallInt(d, t)) {
      *i = t;
      return 1;
    }
    if (ScanInt64(s, n, &t) == kIntOk) {
      *i = t;
      return 1;
    }
  }
  *r = d;
  return 2;
}

}  // namespace basalt

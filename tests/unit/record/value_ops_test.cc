// Rule-by-rule tests of value_ops.h and affinity.h; every expected value was
// produced by the system sqlite3 3.40.1.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "record/affinity.h"
#include "record/value_ops.h"
#include "sqlite_ref.h"

namespace basalt {
namespace {

using testing::Describe;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

Value T(const char* s) { return Value::Text(s); }
Value I(int64_t i) { return Value::Int(i); }
Value R(double r) { return Value::Real(r); }

Value Cast(Value v, Affinity a) {
  CastValue(&v, a);
  return v;
}

#define EXPECT_VALUE(want, got)                                 \
  do {                                                          \
    Value w_ = (want), g_ = (got);                              \
    EXPECT_TRUE(testing::SameValue(w_, g_))                     \
        << "want " << Describe(w_) << ", got " << Describe(g_); \
  } while (0)

TEST(CastTest, ToInteger) {
  EXPECT_VALUE(I(12), Cast(T("  12  "), Affinity::kInteger));
  EXPECT_VALUE(I(1), Cast(T("1e2"), Affinity::kInteger));  // integer prefix only
  EXPECT_VALUE(I(0), Cast(T("0x10"), Affinity::kInteger));
  EXPECT_VALUE(I(kMax), Cast(T("9223372036854775808"), Affinity::kInteger));
  EXPECT_VALUE(I(kMin), Cast(T("-9223372036854775809"), Affinity::kInteger));
  EXPECT_VALUE(I(kMax), Cast(T("99999999999999999999"), Affinity::kInteger));
  EXPECT_VALUE(I(kMax), Cast(R(9.9e18), Affinity::kInteger));
  EXPECT_VALUE(I(kMin), Cast(R(-1e30), Affinity::kInteger));
  EXPECT_VALUE(I(-1), Cast(R(-1.9), Affinity::kInteger));
  EXPECT_VALUE(I(0), Cast(T(""), Affinity::kInteger));
  EXPECT_VALUE(I(0), Cast(T("-"), Affinity::kInteger));
  EXPECT_VALUE(I(12), Cast(T("12.5e-1x"), Affinity::kInteger));
  Value blob;
  blob.SetBlob("12", 2);
  EXPECT_VALUE(I(12), Cast(blob, Affinity::kInteger));
  EXPECT_VALUE(Value(), Cast(Value(), Affinity::kInteger));
}

TEST(CastTest, ToRealNumericTextBlob) {
  EXPECT_VALUE(R(12.0), Cast(T("12e"), Affinity::kReal));
  EXPECT_VALUE(R(0.0), Cast(T("abc"), Affinity::kReal));
  EXPECT_VALUE(I(1), Cast(T("1.0"), Affinity::kNumeric));
  EXPECT_VALUE(I(1000), Cast(T("1e3"), Affinity::kNumeric));
  EXPECT_VALUE(I(1), Cast(T("1.0x"), Affinity::kNumeric));
  EXPECT_VALUE(R(1.5), Cast(R(1.5), Affinity::kNumeric));
  EXPECT_VALUE(R(1.0), Cast(R(1.0), Affinity::kNumeric));  // reals stay REAL
  EXPECT_VALUE(R(9223372036854775808.0), Cast(T("9223372036854775808"), Affinity::kNumeric));
  EXPECT_VALUE(R(12345678901234568.0), Cast(T("12345678901234567.5"), Affinity::kNumeric));
  EXPECT_VALUE(T("12"), Cast(I(12), Affinity::kText));
  EXPECT_VALUE(T("0.1"), Cast(R(0.1), Affinity::kText));
  Value b = Cast(I(12), Affinity::kBlob);
  EXPECT_TRUE(b.is_blob());
  EXPECT_EQ(b.text(), "12");
  Value t;
  t.SetBlob("12", 2);
  EXPECT_VALUE(T("12"), Cast(t, Affinity::kText));
}

std::string Text(double r) {
  char buf[32];
  int n = RealToText(r, buf);
  EXPECT_EQ(static_cast<size_t>(n), std::strlen(buf));
  return std::string(buf, static_cast<size_t>(n));
}

TEST(RealToTextTest, MatchesPercentBang15g) {
  EXPECT_EQ(Text(0.1), "0.1");
  EXPECT_EQ(Text(1e20), "1.0e+20");
  EXPECT_EQ(Text(1.0), "1.0");
  EXPECT_EQ(Text(123456789012345678.0), "1.23456789012346e+17");
  EXPECT_EQ(Text(1e-5), "1.0e-05");
  EXPECT_EQ(Text(-0.0), "0.0");
  EXPECT_EQ(Text(1.7976931348623157e308), "1.79769313486232e+308");
  EXPECT_EQ(Text(5e-324), "4.94065645841247e-324");
  EXPECT_EQ(Text(std::numeric_limits<double>::infinity()), "Inf");
  EXPECT_EQ(Text(-std::numeric_limits<double>::infinity()), "-Inf");
  EXPECT_EQ(Text(1e15), "1.0e+15");
  EXPECT_EQ(Text(1e14), "100000000000000.0");
  EXPECT_EQ(Text(123456789012345.0), "123456789012345.0");
  EXPECT_EQ(Text(1234567890123456.0), "1.23456789012346e+15");
}

TEST(IntToTextTest, Extremes) {
  char buf[24];
  IntToText(kMin, buf);
  EXPECT_STREQ(buf, "-9223372036854775808");
  IntToText(kMax, buf);
  EXPECT_STREQ(buf, "9223372036854775807");
  IntToText(0, buf);
  EXPECT_STREQ(buf, "0");
}

Value Bin(void (*op)(const Value&, const Value&, Value*), Value a, Value b) {
  Value out;
  op(a, b, &out);
  return out;
}

TEST(ArithmeticTest, TextOperands) {
  EXPECT_VALUE(R(1.5), Bin(Add, T("1.5"), I(0)));
  EXPECT_VALUE(I(7), Bin(Multiply, T(" 7"), I(1)));
  EXPECT_VALUE(I(1), Bin(Add, T("abc"), I(1)));
  EXPECT_VALUE(I(12), Bin(Add, T("12"), I(0)));
  EXPECT_VALUE(R(1.0), Bin(Add, T("1.0"), I(0)));
  EXPECT_VALUE(R(1000.0), Bin(Add, T("1e3"), I(0)));
  EXPECT_VALUE(I(1), Bin(Add, T("1ex"), I(0)));
  EXPECT_VALUE(R(2.5), Bin(Add, T("1.5x"), I(1)));
  EXPECT_VALUE(R(9223372036854775808.0), Bin(Add, T("9223372036854775808"), I(0)));
  EXPECT_VALUE(I(0), Bin(Add, T("  "), I(0)));
}

TEST(ArithmeticTest, OverflowAndZero) {
  EXPECT_VALUE(R(9223372036854775808.0), Bin(Add, I(kMax), I(1)));
  EXPECT_VALUE(R(9223372036854775808.0), Bin(Divide, I(kMin), I(-1)));
  EXPECT_VALUE(R(18446744073709551614.0), Bin(Multiply, I(kMax), I(2)));
  EXPECT_VALUE(R(-9223372036854775808.0), Bin(Subtract, I(kMin), I(1)));
  EXPECT_VALUE(Value(), Bin(Remainder, I(5), I(0)));
  EXPECT_VALUE(Value(), Bin(Divide, I(7), R(0.0)));
  EXPECT_VALUE(I(0), Bin(Remainder, I(kMin), I(-1)));
  EXPECT_VALUE(I(3), Bin(Divide, I(7), I(2)));
  EXPECT_VALUE(R(3.5), Bin(Divide, R(7.0), I(2)));
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_VALUE(Value(), Bin(Subtract, R(inf), R(inf)));
  EXPECT_VALUE(R(inf), Bin(Multiply, R(1e308), I(10)));
  EXPECT_VALUE(Value(), Bin(Add, Value(), I(1)));
}

TEST(ArithmeticTest, Remainder) {
  EXPECT_VALUE(R(1.0), Bin(Remainder, R(5.5), I(2)));
  EXPECT_VALUE(I(-1), Bin(Remainder, I(-7), I(3)));
  EXPECT_VALUE(R(1.0), Bin(Remainder, T("1e3"), I(7)));  // integer prefix of the text
  EXPECT_VALUE(R(6.0), Bin(Remainder, R(1e3), I(7)));
  EXPECT_VALUE(R(0.0), Bin(Remainder, R(1e30), I(7)));  // saturates to INT64_MAX
  EXPECT_VALUE(Value(), Bin(Remainder, R(1.5), R(0.4)));
  EXPECT_VALUE(R(-1.0), Bin(Remainder, R(-5.5), I(2)));
}

TEST(BitTest, ShiftsAndNot) {
  EXPECT_VALUE(I(0), Bin(ShiftLeft, I(1), I(64)));
  EXPECT_VALUE(I(0), Bin(ShiftLeft, I(1), I(-1)));
  EXPECT_VALUE(I(-1), Bin(ShiftRight, I(-1), I(70)));
  EXPECT_VALUE(I(-4), Bin(ShiftRight, I(-16), I(2)));
  EXPECT_VALUE(I(4), Bin(ShiftLeft, I(16), I(-2)));
  EXPECT_VALUE(I(1), Bin(BitOr, T("1e3"), I(0)));
  EXPECT_VALUE(I(1500), Bin(BitOr, R(1.5e3), I(0)));
  EXPECT_VALUE(I(1), Bin(BitAnd, I(3), T("5")));
  Value out;
  BitNot(I(5), &out);
  EXPECT_VALUE(I(-6), out);
  BitNot(T("12x"), &out);
  EXPECT_VALUE(I(-13), out);
  BitNot(R(1.9), &out);
  EXPECT_VALUE(I(-2), out);
  BitNot(Value(), &out);
  EXPECT_VALUE(Value(), out);
}

TEST(UnaryTest, Negate) {
  Value out;
  Negate(I(kMin), &out);
  EXPECT_VALUE(R(9223372036854775808.0), out);
  Negate(T("abc"), &out);
  EXPECT_VALUE(I(0), out);
  Negate(T("1.5"), &out);
  EXPECT_VALUE(R(-1.5), out);
  Negate(Value(), &out);
  EXPECT_VALUE(Value(), out);
}

TEST(ConcatTest, RendersAndAliases) {
  EXPECT_VALUE(T("1.5"), Bin(Concat, T(""), R(1.5)));
  EXPECT_VALUE(T("12"), Bin(Concat, I(1), I(2)));
  EXPECT_VALUE(T("1.0e+15"), Bin(Concat, R(1e15), T("")));
  Value blob;
  blob.SetBlob("A", 1);
  EXPECT_VALUE(T("Ab"), Bin(Concat, blob, T("b")));
  EXPECT_VALUE(Value(), Bin(Concat, Value(), T("a")));
  Value a = T("ab");
  Concat(a, a, &a);
  EXPECT_VALUE(T("abab"), a);
}

TEST(TruthTest, Values) {
  EXPECT_EQ(ValueTruth(Value()), -1);
  EXPECT_EQ(ValueTruth(T("0.5")), 1);
  EXPECT_EQ(ValueTruth(T("abc")), 0);
  EXPECT_EQ(ValueTruth(R(0.0)), 0);
  EXPECT_EQ(ValueTruth(I(-3)), 1);
}

TEST(CompareTest, TotalOrder) {
  EXPECT_LT(CompareValues(I(kMax), R(9223372036854775808.0), nullptr), 0);
  EXPECT_GT(CompareValues(I(9007199254740993), R(9007199254740992.0), nullptr), 0);
  EXPECT_EQ(CompareValues(I(3), R(3.0), nullptr), 0);
  EXPECT_LT(CompareValues(I(2), R(2.5), nullptr), 0);
  EXPECT_LT(CompareValues(I(-3), R(-2.5), nullptr), 0);
  EXPECT_LT(CompareValues(Value(), I(kMin), nullptr), 0);
  EXPECT_LT(CompareValues(R(1e300), T(""), nullptr), 0);
  Value blob;
  blob.SetBlob("", 0);
  EXPECT_LT(CompareValues(T("zzz"), blob, nullptr), 0);
  EXPECT_EQ(CompareValues(T("abc"), T("ABC"), NocaseCollation()), 0);
  EXPECT_LT(CompareValues(T("ab"), T("abc"), nullptr), 0);
}

TEST(AffinityTest, DeclTypes) {
  EXPECT_EQ(AffinityFromDeclType("INT"), Affinity::kInteger);
  EXPECT_EQ(AffinityFromDeclType("floating point"), Affinity::kInteger);  // "INT" wins
  EXPECT_EQ(AffinityFromDeclType("VARCHAR(10)"), Affinity::kText);
  EXPECT_EQ(AffinityFromDeclType("clob"), Affinity::kText);
  EXPECT_EQ(AffinityFromDeclType(""), Affinity::kBlob);
  EXPECT_EQ(AffinityFromDeclType("blob"), Affinity::kBlob);
  EXPECT_EQ(AffinityFromDeclType("DOUBLE PRECISION"), Affinity::kReal);
  EXPECT_EQ(AffinityFromDeclType("FLOAT"), Affinity::kReal);
  EXPECT_EQ(AffinityFromDeclType("DECIMAL(10,5)"), Affinity::kNumeric);
  EXPECT_EQ(AffinityFromDeclType("STRING"), Affinity::kNumeric);
  EXPECT_EQ(AffinityFromDeclType("CHARINT"), Affinity::kInteger);
}

Value Apply(Value v, Affinity a) {
  ApplyAffinity(&v, a);
  return v;
}

TEST(AffinityTest, Apply) {
  EXPECT_VALUE(I(12), Apply(T(" 12 "), Affinity::kNumeric));
  EXPECT_VALUE(I(1), Apply(T("1.0"), Affinity::kInteger));
  EXPECT_VALUE(I(100), Apply(T("1e2"), Affinity::kNumeric));
  EXPECT_VALUE(T("0x10"), Apply(T("0x10"), Affinity::kNumeric));
  EXPECT_VALUE(T("12abc"), Apply(T("12abc"), Affinity::kInteger));
  EXPECT_VALUE(I(kMax), Apply(T("9223372036854775807"), Affinity::kNumeric));
  EXPECT_VALUE(R(9223372036854775808.0), Apply(T("9223372036854775808"), Affinity::kNumeric));
  EXPECT_VALUE(R(12.0), Apply(T("12"), Affinity::kReal));
  EXPECT_VALUE(R(5.0), Apply(I(5), Affinity::kReal));
  EXPECT_VALUE(I(3), Apply(R(3.0), Affinity::kInteger));
  EXPECT_VALUE(R(9223372036854775808.0), Apply(R(9223372036854775808.0), Affinity::kInteger));
  EXPECT_VALUE(T("1.5"), Apply(R(1.5), Affinity::kText));
  EXPECT_VALUE(T("12"), Apply(T("12"), Affinity::kBlob));
  EXPECT_VALUE(I(0), Apply(T("-0.0"), Affinity::kNumeric));
}

TEST(AffinityTest, Comparison) {
  EXPECT_EQ(ComparisonAffinity(Affinity::kInteger, Affinity::kText), Affinity::kNumeric);
  EXPECT_EQ(ComparisonAffinity(Affinity::kBlob, Affinity::kReal), Affinity::kNumeric);
  EXPECT_EQ(ComparisonAffinity(Affinity::kText, Affinity::kBlob), Affinity::kText);
  EXPECT_EQ(ComparisonAffinity(Affinity::kBlob, Affinity::kBlob), Affinity::kBlob);
}

TEST(ParseNumericTextTest, Kinds) {
  int64_t i = 0;
  double r = 0;
  EXPECT_EQ(ParseNumericText(" 12 ", 4, &i, &r), 1);
  EXPECT_EQ(i, 12);
  EXPECT_EQ(ParseNumericText("1.5", 3, &i, &r), 2);
  EXPECT_EQ(r, 1.5);
  EXPECT_EQ(ParseNumericText("1.0", 3, &i, &r), 2);
  EXPECT_EQ(ParseNumericText("9223372036854775808", 19, &i, &r), 2);
  EXPECT_EQ(ParseNumericText("0x10", 4, &i, &r), 0);
  EXPECT_EQ(ParseNumericText("1e", 2, &i, &r), 0);
  EXPECT_EQ(ParseNumericText("", 0, &i, &r), 0);
  EXPECT_EQ(ParseNumericText(".5", 2, &i, &r), 2);
  EXPECT_EQ(ParseNumericText("5.", 2, &i, &r), 2);
  EXPECT_EQ(ParseNumericText(".", 1, &i, &r), 0);
  EXPECT_EQ(ParseNumericText("1e999", 5, &i, &r), 2);
  EXPECT_TRUE(std::isinf(r));
}

TEST(ConversionTest, IntAndDouble) {
  EXPECT_EQ(ValueToInt64(T("1e3")), 1);
  EXPECT_EQ(ValueToInt64(T("  -42abc")), -42);
  EXPECT_EQ(ValueToInt64(R(std::nan(""))), 0);
  EXPECT_EQ(ValueToDouble(T("1e3")), 1000.0);
  EXPECT_EQ(ValueToDouble(T(".5e1x")), 5.0);
  EXPECT_EQ(ValueToDouble(Value()), 0.0);
}

}  // namespace
}  // namespace basalt

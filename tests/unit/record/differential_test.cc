// Differential tests: random operands through the system sqlite3 and through
// the record layer must agree on storage class and value (reals bit-exact).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "random_values.h"
#include "record/affinity.h"
#include "record/numeric_text.h"
#include "record/value_ops.h"
#include "sqlite_ref.h"

namespace basalt {
namespace {

using testing::Describe;
using testing::RandomValues;
using testing::SameValue;
using testing::SqliteRef;

class Differential : public ::testing::Test {
 protected:
  void SetUp() override {
    ref_ = SqliteRef::Open();
    if (!ref_) GTEST_SKIP() << "system libsqlite3 not available";
  }

  // Evaluates sql in the referee; fails the test on an SQL error.
  Value Ref(const std::string& sql, const std::vector<Value>& args) {
    Value out;
    std::string err;
    EXPECT_TRUE(ref_->Eval(sql, args, &out, &err)) << sql << ": " << err;
    return out;
  }

  // Compares and counts; reports only the first few mismatches per test.
  void Check(const std::string& what, const std::vector<Value>& args, const Value& want,
             const Value& got) {
    ++cases_;
    if (SameValue(want, got)) return;
    if (++failures_ <= 20) {
      std::string a;
      for (const Value& v : args) {
        a += ' ';
        a += Describe(v);
      }
      ADD_FAILURE() << what << " with" << a << ": sqlite " << Describe(want) << ", ours "
                    << Describe(got);
    }
  }

  void TearDown() override {
    if (ref_) std::printf("[ stats ] %d cases, %d mismatches\n", cases_, failures_);
  }

  std::unique_ptr<SqliteRef> ref_;
  int cases_ = 0;
  int failures_ = 0;
};

using BinaryFn = std::function<void(const Value&, const Value&, Value*)>;

Value CompareOp(const std::string& op, const Value& a, const Value& b, const Collation* coll) {
  if (op == "IS" || op == "IS NOT") {
    bool same = (a.is_null() && b.is_null()) ||
                (!a.is_null() && !b.is_null() && CompareValues(a, b, coll) == 0);
    return Value::Int(op == "IS" ? same : !same);
  }
  if (a.is_null() || b.is_null()) return Value();
  int c = CompareValues(a, b, coll);
  bool r = op == "<"    ? c < 0
           : op == "<=" ? c <= 0
           : op == ">"  ? c > 0
           : op == ">=" ? c >= 0
           : op == "="  ? c == 0
                        : c != 0;
  return Value::Int(r);
}

TEST_F(Differential, BinaryOperators) {
  const std::vector<std::pair<std::string, BinaryFn>> ops = {
      {"+", Add},    {"-", Subtract}, {"*", Multiply},   {"/", Divide},      {"%", Remainder},
      {"&", BitAnd}, {"|", BitOr},    {"<<", ShiftLeft}, {">>", ShiftRight}, {"||", Concat},
  };
  const char* cmps[] = {"<", "<=", ">", ">=", "=", "<>", "IS", "IS NOT"};
  RandomValues rv(1234);
  for (int iter = 0; iter < 2500; ++iter) {
    std::vector<Value> args = {rv.Any(), rv.Any()};
    if (rv.Chance(30)) args[1] = Value::Int(rv.Chance(50) ? rv.Int() : int64_t(rv.Below(130)) - 65);
    for (const auto& [op, fn] : ops) {
      Value got;
      fn(args[0], args[1], &got);
      Check("?1 " + op + " ?2", args, Ref("SELECT ?1 " + op + " ?2", args), got);
    }
    for (const char* op : cmps) {
      Check(std::string("?1 ") + op + " ?2", args,
            Ref(std::string("SELECT ?1 ") + op + " ?2", args),
            CompareOp(op, args[0], args[1], nullptr));
    }
    Check("?1 < ?2 COLLATE NOCASE", args, Ref("SELECT ?1 < ?2 COLLATE NOCASE", args),
          CompareOp("<", args[0], args[1], NocaseCollation()));
    Check("?1 = ?2 COLLATE RTRIM", args, Ref("SELECT ?1 = ?2 COLLATE RTRIM", args),
          CompareOp("=", args[0], args[1], RtrimCollation()));
  }
  EXPECT_EQ(failures_, 0);
}

TEST_F(Differential, UnaryAndCast) {
  RandomValues rv(99);
  const std::pair<const char*, Affinity> casts[] = {{"INTEGER", Affinity::kInteger},
                                                    {"REAL", Affinity::kReal},
                                                    {"NUMERIC", Affinity::kNumeric},
                                                    {"TEXT", Affinity::kText},
                                                    {"BLOB", Affinity::kBlob}};
  for (int iter = 0; iter < 4000; ++iter) {
    std::vector<Value> args = {rv.Any()};
    const Value& a = args[0];
    Value got;
    Negate(a, &got);
    Check("-?1", args, Ref("SELECT -?1", args), got);
    BitNot(a, &got);
    Check("~?1", args, Ref("SELECT ~?1", args), got);
    int t = ValueTruth(a);
    Check("NOT ?1", args, Ref("SELECT NOT ?1", args), t < 0 ? Value() : Value::Int(!t));
    for (const auto& [name, aff] : casts) {
      got = a;
      CastValue(&got, aff);
      Check(std::string("CAST(?1 AS ") + name + ")", args,
            Ref(std::string("SELECT CAST(?1 AS ") + name + ")", args), got);
    }
  }
  EXPECT_EQ(failures_, 0);
}

// Text to number: every numeric-looking string, bit-exact doubles.
TEST_F(Differential, TextToNumber) {
  RandomValues rv(7);
  for (int iter = 0; iter < 6000; ++iter) {
    std::vector<Value> args = {Value::Text(rv.NumericText())};
    Value got = Value::Real(ValueToDouble(args[0]));
    Check("CAST(?1 AS REAL)", args, Ref("SELECT CAST(?1 AS REAL)", args), got);
    got = Value::Int(ValueToInt64(args[0]));
    Check("CAST(?1 AS INTEGER)", args, Ref("SELECT CAST(?1 AS INTEGER)", args), got);
    Value n;
    ToNumericForArith(args[0], &n);
    Value zero = Value::Int(0);
    Add(n, zero, &got);
    Check("?1 + 0", args, Ref("SELECT ?1 + 0", args), got);
  }
  EXPECT_EQ(failures_, 0);
}

// Long significands (digits past the 18th only move the exponent) and huge
// exponents (Inf, 0, the 308..341 two-step scaling).
TEST_F(Differential, TextToNumberExtremes) {
  RandomValues rv(8);
  for (int iter = 0; iter < 3000; ++iter) {
    std::string s = rv.Chance(50) ? "-" : "";
    int digits = 1 + static_cast<int>(rv.Below(rv.Chance(50) ? 400 : 40));
    for (int i = 0; i < digits; ++i) s += static_cast<char>('0' + rv.Below(10));
    if (rv.Chance(50)) {
      size_t at = s.size() - rv.Below(static_cast<uint64_t>(digits));
      s = s.substr(0, at) + "." + s.substr(at);  // (insert() trips a GCC 12 false warning)
    }
    if (rv.Chance(80)) {
      int e = static_cast<int>(rv.Below(rv.Chance(50) ? 800 : 100000)) - (rv.Chance(50) ? 0 : 400);
      s += 'e';
      s += std::to_string(rv.Chance(50) ? e : -e);
    }
    std::vector<Value> args = {Value::Text(s)};
    Check("CAST(?1 AS REAL)", args, Ref("SELECT CAST(?1 AS REAL)", args),
          Value::Real(ValueToDouble(args[0])));
    Value got = args[0];
    CastValue(&got, Affinity::kNumeric);
    Check("CAST(?1 AS NUMERIC)", args, Ref("SELECT CAST(?1 AS NUMERIC)", args), got);
  }
  EXPECT_EQ(failures_, 0);
}

// REAL to text and back: "%!.15g" and its round trip.
TEST_F(Differential, RealToTextRoundTrip) {
  RandomValues rv(4242);
  char buf[32];
  for (int iter = 0; iter < 6000; ++iter) {
    std::vector<Value> args = {Value::Real(rv.Real())};
    int n = RealToText(args[0].real_value(), buf);
    Value got = Value::Text(std::string_view(buf, static_cast<size_t>(n)));
    Check("CAST(?1 AS TEXT)", args, Ref("SELECT CAST(?1 AS TEXT)", args), got);
    Value back = got;
    CastValue(&back, Affinity::kReal);
    Check("CAST(CAST(?1 AS TEXT) AS REAL)", args,
          Ref("SELECT CAST(CAST(?1 AS TEXT) AS REAL)", args), back);
  }
  EXPECT_EQ(failures_, 0);
}

// Column affinity on insert, and comparisons against columns.
TEST_F(Differential, AffinityAndColumnComparisons) {
  ASSERT_TRUE(ref_->Exec("CREATE TABLE t(i INTEGER, r REAL, n NUMERIC, t TEXT, b BLOB, x)"));
  const std::pair<const char*, Affinity> cols[] = {
      {"i", Affinity::kInteger}, {"r", Affinity::kReal}, {"n", Affinity::kNumeric},
      {"t", Affinity::kText},    {"b", Affinity::kBlob}, {"x", Affinity::kBlob}};
  const char* cmps[] = {"<", "=", ">="};
  RandomValues rv(555);
  for (int iter = 0; iter < 1500; ++iter) {
    std::vector<Value> args = {rv.Any(), rv.Any()};
    Value ignored;
    ref_->Eval("DELETE FROM t", {}, &ignored);
    ASSERT_TRUE(ref_->Eval("INSERT INTO t VALUES(?1,?1,?1,?1,?1,?1)", {args[0]}, &ignored));
    for (const auto& [col, aff] : cols) {
      Value stored = args[0];
      ApplyAffinity(&stored, aff);
      Check(std::string("column ") + col, {args[0]},
            Ref(std::string("SELECT ") + col + " FROM t", {}), stored);
      for (const char* op : cmps) {
        Value lhs = stored, rhs = args[1];
        Affinity ca = ComparisonAffinity(aff, Affinity::kBlob);
        if (IsNumericAffinity(ca)) {
          ApplyAffinity(&lhs, Affinity::kNumeric);
          ApplyAffinity(&rhs, Affinity::kNumeric);
        } else {
          ApplyAffinity(&lhs, ca);
          ApplyAffinity(&rhs, ca);
        }
        std::string sql = std::string("SELECT ") + col + " " + op + " ?2 FROM t";
        Check(sql, args, Ref(sql, {Value(), args[1]}), CompareOp(op, lhs, rhs, nullptr));
      }
    }
  }
  EXPECT_EQ(failures_, 0);
}

}  // namespace
}  // namespace basalt

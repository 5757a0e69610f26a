// Differential tests of the printf engine against the system sqlite3: the SQL
// printf() function with random formats and values, and sqlite3_mprintf with
// C varargs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/printf.h"
#include "random_values.h"
#include "record/value_printf_args.h"
#include "sqlite_ref.h"

namespace basalt {
namespace {

using testing::Describe;
using testing::RandomValues;
using testing::SqliteRef;

// A random conversion spec: flags, width, precision, length, letter.
std::string RandomSpec(RandomValues* rv, const char* letters, bool allow_star) {
  std::string s = "%";
  const char* flags = "-+ #!0,";
  for (int i = 0; i < 7; ++i) {
    if (rv->Chance(12)) s += flags[i];
  }
  if (rv->Chance(40)) {
    if (allow_star && rv->Chance(15)) {
      s += '*';
    } else {
      s += std::to_string(rv->Chance(90) ? rv->Below(30) : rv->Below(120));
    }
  }
  if (rv->Chance(50)) {
    s += '.';
    if (allow_star && rv->Chance(15)) {
      s += '*';
    } else if (rv->Chance(90)) {
      s += std::to_string(rv->Chance(80) ? rv->Below(20) : rv->Below(400));
    }
  }
  if (rv->Chance(10)) s += rv->Chance(50) ? "l" : "ll";
  s += letters[rv->Below(std::strlen(letters))];
  return s;
}

class PrintfDifferential : public ::testing::Test {
 protected:
  void SetUp() override {
    ref_ = SqliteRef::Open();
    if (!ref_) GTEST_SKIP() << "system libsqlite3 not available";
    // Keeps random '*' widths from building gigabyte strings on either side.
    ref_->SetLengthLimit(kLimit);
  }
  static constexpr int kLimit = 100000;
  std::unique_ptr<SqliteRef> ref_;
};

TEST_F(PrintfDifferential, SqlFunction) {
  RandomValues rv(2024);
  int cases = 0, failures = 0;
  for (int iter = 0; iter < 12000; ++iter) {
    std::string fmt;
    int n_conv = 1 + static_cast<int>(rv.Below(3));
    for (int i = 0; i < n_conv; ++i) {
      if (rv.Chance(30)) fmt += "ab|";
      fmt += RandomSpec(&rv, rv.Chance(3) ? "diuxXofeEgGcsqQwzpr%nyT" : "diuxXofeEgGcsqQwr%", true);
    }
    if (rv.Chance(5)) fmt += "%";
    // SQLite loops once per repeated character even past its length limit,
    // so a random '*' precision on %c could take minutes there.
    if (fmt.find(".*") != std::string::npos && fmt.find('c') != std::string::npos) continue;
    std::vector<Value> args = {Value::Text(fmt)};
    for (int i = 0; i < 6; ++i) {
      if (rv.Chance(50)) {
        args.push_back(Value::Real(rv.Real()));
      } else {
        args.push_back(rv.Any());
      }
    }
    Value want;
    std::string err;
    ASSERT_TRUE(ref_->Eval("SELECT printf(?1, ?2, ?3, ?4, ?5, ?6, ?7)", args, &want, &err))
        << fmt << ": " << err;
    ValuePrintfArgs pa(args.data() + 1, 6);
    std::string got;
    // Too big: SQLite's printf() returns NULL.
    if (!SqlFormat(fmt.c_str(), &pa, kLimit, &got)) got = "<null>";
    if (want.is_null()) want = Value::Text("<null>");
    ++cases;
    if (want.text() != got && ++failures <= 25) {
      std::string a;
      for (size_t i = 1; i < args.size(); ++i) {
        a += ' ';
        a += Describe(args[i]);
      }
      ADD_FAILURE() << "printf('" << fmt << "'," << a << "): sqlite '" << want.text() << "', ours '"
                    << got << "'";
    }
  }
  std::printf("[ stats ] %d printf() cases, %d mismatches\n", cases, failures);
  EXPECT_EQ(failures, 0);
}

// Float conversions with precisions up to 40 over edge-heavy reals.
TEST_F(PrintfDifferential, FloatConversions) {
  RandomValues rv(77);
  int cases = 0, failures = 0;
  for (int iter = 0; iter < 15000; ++iter) {
    std::string fmt = RandomSpec(&rv, "feEgG", false);
    std::vector<Value> args = {Value::Text(fmt), Value::Real(rv.Real())};
    Value want;
    ASSERT_TRUE(ref_->Eval("SELECT printf(?1, ?2)", args, &want));
    ValuePrintfArgs pa(args.data() + 1, 1);
    std::string got;
    ASSERT_TRUE(SqlFormat(fmt.c_str(), &pa, kLimit, &got));
    ++cases;
    if (want.text() != got && ++failures <= 25) {
      ADD_FAILURE() << "printf('" << fmt << "', " << Describe(args[1]) << "): sqlite '"
                    << want.text() << "', ours '" << got << "'";
    }
  }
  std::printf("[ stats ] %d float cases, %d mismatches\n", cases, failures);
  EXPECT_EQ(failures, 0);
}

// C varargs: sqlite3_mprintf against SqlPrintf, one conversion per format.
TEST_F(PrintfDifferential, Varargs) {
  using MPrintf = char* (*)(const char*, ...);
  using Free = void (*)(void*);
  auto mprintf = reinterpret_cast<MPrintf>(ref_->Symbol("sqlite3_mprintf"));
  auto sfree = reinterpret_cast<Free>(ref_->Symbol("sqlite3_free"));
  ASSERT_TRUE(mprintf && sfree);
  RandomValues rv(31337);
  int cases = 0, failures = 0;
  for (int iter = 0; iter < 8000; ++iter) {
    std::string fmt = RandomSpec(&rv, "diuxXofeEgGcsqQw%", false);
    char conv = fmt.back();
    std::string got;
    char* want = nullptr;
    std::string text = rv.Chance(70) ? rv.NumericText() : "it's \"q\" é";
    const char* str = rv.Chance(10) ? nullptr : text.c_str();
    bool ll = fmt.find("ll") != std::string::npos;
    bool l = !ll && fmt.find('l') != std::string::npos;
    if (std::strchr("diuxXo", conv)) {
      int64_t v = rv.Int();
      if (ll || l) {
        want = mprintf(fmt.c_str(), static_cast<long long>(v));
        got = SqlPrintf(fmt.c_str(), static_cast<long long>(v));
      } else {
        want = mprintf(fmt.c_str(), static_cast<int>(v));
        got = SqlPrintf(fmt.c_str(), static_cast<int>(v));
      }
    } else if (std::strchr("feEgG", conv)) {
      double d = rv.Real();
      want = mprintf(fmt.c_str(), d);
      got = SqlPrintf(fmt.c_str(), d);
    } else if (conv == 'c') {
      unsigned ch = rv.Chance(70) ? 32 + static_cast<unsigned>(rv.Below(95))
                                  : static_cast<unsigned>(rv.Below(0x10ffff));
      want = mprintf(fmt.c_str(), ch);
      got = SqlPrintf(fmt.c_str(), ch);
    } else if (conv == '%') {
      want = mprintf(fmt.c_str());
      got = SqlPrintf(fmt.c_str());
    } else {
      want = mprintf(fmt.c_str(), str);
      got = SqlPrintf(fmt.c_str(), str);
    }
    ++cases;
    std::string w = want ? want : "<null>";
    sfree(want);
    if (w != got && ++failures <= 25) {
      ADD_FAILURE() << "mprintf('" << fmt << "'): sqlite '" << w << "', ours '" << got << "'";
    }
  }
  std::printf("[ stats ] %d varargs cases, %d mismatches\n", cases, failures);
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace basalt

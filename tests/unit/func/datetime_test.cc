// Date and time functions: fixed cases, then a random differential run over
// generated time values, modifier chains and strftime formats, repeated
// under several TZ settings (localtime/utc go through localtime_r in both
// engines, which share the process's time zone).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "check.h"
#include "func/builtins.h"
#include "gen.h"
#include "harness.h"

namespace basalt::functest {
namespace {

std::string Two(Gen* g, int lo, int hi) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02d", lo + static_cast<int>(g->Below(hi - lo + 1)));
  return buf;
}

std::string RandomTime(Gen* g) {
  std::string s = Two(g, 0, 25);
  s += ':';
  s += Two(g, 0, 61);
  if (g->Chance(60)) {
    s += ':';
    s += Two(g, 0, 60);
    if (g->Chance(50)) {
      s += ".";
      int n = 1 + static_cast<int>(g->Below(6));
      for (int k = 0; k < n; ++k) s += static_cast<char>('0' + g->Below(10));
    }
  }
  if (g->Chance(30)) {
    static const char* kZones[] = {"Z",        "z",      " Z",     "+05:00", "-04:30",
                                   "+14:00",   "+15:00", "-00:00", "+5:00",  "+05:60",
                                   " +01:00 ", "Zx",     "+0500"};
    s += g->Pick(kZones);
  }
  if (g->Chance(5)) s += g->Chance(50) ? " " : "x";
  return s;
}

std::string RandomDate(Gen* g) {
  std::string s;
  if (g->Chance(10)) s += '-';
  char buf[16];
  static const int kYears[] = {0,    1,    4,    100,  1582, 1600, 1800, 1899, 1900, 1969, 1970,
                               1971, 1999, 2000, 2001, 2004, 2037, 2038, 2100, 4713, 9999, 5000};
  int y = g->Chance(50) ? g->Pick(kYears) : static_cast<int>(g->Below(10000));
  std::snprintf(buf, sizeof buf, "%04d", y);
  s += buf;
  s += '-';
  s += Two(g, 0, 13);
  s += '-';
  s += Two(g, 0, 32);
  if (g->Chance(60)) {
    static const char* kSeps[] = {" ", "T", "  ", "TT", "\t", "t"};
    s += g->Pick(kSeps);
    s += RandomTime(g);
  } else if (g->Chance(10)) {
    s += g->Chance(50) ? " " : "T";
  }
  return s;
}

Value RandomTimeValue(Gen* g) {
  switch (g->Below(8)) {
    case 0:
    case 1:
    case 2:
      return Value::Text(RandomDate(g));
    case 3:
      return Value::Text(RandomTime(g));
    case 4: {
      static const double kJd[] = {2451545.0,
                                   2451544.5,
                                   0.0,
                                   -0.5,
                                   1721059.5,
                                   5373484.49,
                                   5373484.5,
                                   2440587.5,
                                   2460000.25,
                                   1092941466.0,
                                   -1e10,
                                   253402300799.0,
                                   253402300800.0,
                                   -210866760000.0,
                                   -210866760001.0,
                                   86400.0 * 63,
                                   1e15,
                                   2451545.123456789};
      return Value::Real(g->Pick(kJd));
    }
    case 5:
      return Value::Int(g->Chance(50) ? static_cast<int64_t>(g->Below(5373485))
                                      : static_cast<int64_t>(g->Below(4000000000ULL)) - 1000000000);
    case 6:
      return Value::Real(static_cast<double>(g->Below(5373484)) +
                         static_cast<double>(g->Below(1000000)) / 1e6);
    default: {
      static const char* kOdd[] = {"2451545",
                                   " 2451545 ",
                                   "2451545.5",
                                   "1e6",
                                   "abc",
                                   "",
                                   "12:00",
                                   "2000-01-01",
                                   "2000-02-30",
                                   "0000-01-01",
                                   "-4713-11-24 12:00:00",
                                   "9999-12-31 23:59:59.999",
                                   "2000-01-01 24:00:00",
                                   "2000-13-01",
                                   "1970-01-01T00:00:00Z",
                                   "2000-01-01 12:00:00.",
                                   "2000-01-01 12:00:00.5Z",
                                   "NOW ",
                                   "nowx"};
      return g->Chance(80) ? Value::Text(g->Pick(kOdd)) : g->Any();
    }
  }
}

std::string RandomModifier(Gen* g) {
  static const char* kUnits[] = {"day",    "days",    "hour",  "hours",  "minute", "minutes",
                                 "second", "seconds", "month", "months", "year",   "years",
                                 "DAYS",   "Month",   "s",     "weeks",  "dayss",  "secondss"};
  static const char* kNums[] = {"1",       "+1",     "-1",         "0",      "1.5",     "-1.5",
                                "+12",     "-13",    "400",        "0.25",   "1e2",     "+100000",
                                "-176545", "176546", "14712",      "-14713", "5373484", "1e9",
                                "-0.5",    "2.75",   "+4.6427e14", "1e13"};
  static const char* kFixed[] = {"start of month", "start of year", "start of day", "start of week",
                                 "START OF MONTH", "unixepoch",     "julianday",    "auto",
                                 "localtime",      "utc",           "UTC",          "weekday 0",
                                 "weekday 3",      "weekday 6",     "weekday 7",    "weekday 1.5",
                                 "weekday  2 ",    "WEEKDAY 5",     "weekday -1",   "",
                                 " +1 day",        "+1day",         "+1 day ",      "start of",
                                 "Localtime",      "unixepoch "};
  switch (g->Below(4)) {
    case 0:
    case 1: {
      std::string s = g->Pick(kNums);
      s += g->Chance(90) ? " " : "   ";
      s += g->Pick(kUnits);
      return s;
    }
    case 2: {
      static const char* kSign[] = {"+", "-", ""};
      std::string s = g->Pick(kSign);
      s += Two(g, 0, 25);
      s += ':';
      s += Two(g, 0, 60);
      if (g->Chance(50)) {
        s += ':';
        s += Two(g, 0, 59);
      }
      if (g->Chance(30)) s += ".125";
      return s;
    }
    default:
      return g->Pick(kFixed);
  }
}

std::string RandomFormat(Gen* g) {
  static const char* kPieces[] = {"%d", "%f", "%H", "%j", "%J", "%m",      "%M", "%s",
                                  "%S", "%w", "%W", "%Y", "%%", "-",       " ",  "x",
                                  "%e", "%",  "é",  "%F", "T",  "%Y-%m-%d"};
  std::string s;
  int n = 1 + static_cast<int>(g->Below(5));
  for (int k = 0; k < n; ++k) s += g->Pick(kPieces);
  return s;
}

class DateTimeTest : public ::testing::Test {
 protected:
  void TearDown() override { SetTz(nullptr); }
  static void SetTz(const char* tz) {
    if (tz) {
      setenv("TZ", tz, 1);
    } else {
      unsetenv("TZ");
    }
    tzset();
  }
  int RunRandom(uint64_t seed, int iterations, int* calls) {
    FuncHarness h;
    Gen g(seed + DiffSeed());
    int failures = 0;
    static const char* kFuncs[] = {"date",      "time",      "datetime",
                                   "julianday", "unixepoch", "strftime"};
    for (int k = 0; k < iterations; ++k) {
      std::string f = g.Pick(kFuncs);
      std::vector<Value> args;
      if (f == "strftime") args.push_back(Value::Text(RandomFormat(&g)));
      args.push_back(RandomTimeValue(&g));
      int nmods = static_cast<int>(g.Below(4));
      for (int m = 0; m < nmods; ++m) args.push_back(Value::Text(RandomModifier(&g)));
      std::string diff = CompareCall(&h, f, args);
      ++*calls;
      if (!diff.empty() && ++failures <= 30) ADD_FAILURE() << diff;
    }
    return failures;
  }
};

TEST_F(DateTimeTest, FixedCases) {
  FuncHarness h;
  auto text = [&](const std::string& f, std::vector<Value> args) {
    CallResult r = h.Call(f, args);
    EXPECT_FALSE(r.error) << r.message;
    return r.value.is_null() ? std::string("NULL") : std::string(r.value.text());
  };
  EXPECT_EQ(text("date", {T("2023-02-31")}), "2023-02-31");
  EXPECT_EQ(text("date", {R(1600000.5)}), "-0332-07-20");
  EXPECT_EQ(text("strftime", {T("%Y"), T("-0001-01-01")}), "-001");
  EXPECT_EQ(text("date", {I(0), T("+1 day"), T("unixepoch")}), "NULL");
  EXPECT_EQ(text("datetime", {I(1092941466), T("unixepoch")}), "2004-08-19 18:51:06");
  EXPECT_EQ(text("date", {T("2001-03-31"), T("+1 month")}), "2001-05-01");
  EXPECT_EQ(text("datetime", {T("2000-01-01 12:00:00+05:00")}), "2000-01-01 07:00:00");
  EXPECT_EQ(text("strftime", {T("abc%")}), "NULL");
  EXPECT_EQ(text("strftime", {T("%J %s %f %j %W %w %%"), T("2000-03-05 12:34:56.789")}),
            "2451609.024268391 952259696 56.789 065 09 0 %");
}

TEST_F(DateTimeTest, FixedCasesAgainstReferee) {
  FuncHarness h;
  std::vector<std::pair<std::string, std::vector<Value>>> cases = {
      {"date", {R(1721059.5)}},
      {"datetime", {R(0)}},
      {"date", {R(-0.5)}},
      {"time", {R(0.25)}},
      {"strftime", {T("%f"), T("2000-01-01 12:00:59.9999")}},
      {"strftime", {T("%J"), R(2451545.123456789012)}},
      {"julianday", {T("2000-01-01 12:00:00.123456")}},
      {"date", {T("2000-01-01"), T("julianday")}},
      {"date", {I(2451545), T("auto"), T("+1 day")}},
      {"date", {R(1e10), T("auto")}},
      {"date", {I(-1), T("auto")}},
      {"datetime", {T("2000-01-31"), T("+1 month")}},
      {"datetime", {T("2000-02-29"), T("+1 year")}},
      {"datetime", {T("2000-01-01"), T("+1.5 months")}},
      {"datetime", {T("2000-01-01"), T("-01:30")}},
      {"datetime", {T("2000-01-01"), T("+1:30:15.5")}},
      {"date", {T("2000-01-01"), T("+1e1 days")}},
      {"unixepoch", {T("2000-01-01 00:00:01.9")}},
      {"datetime", {T("2000-01-01TT 12:00")}},
      {"datetime", {T(" 2000-01-01")}},
      {"strftime", {T("%Y-%m-%d"), T("2000-01-01"), T("weekday 1"), T("start of month")}},
      {"date", {B("2000-01-01")}},
      {"date", {T("2000-01-01"), I(5)}},
      {"date", {T("2000-01-01"), N()}},
      {"date", {N()}},
      {"strftime", {N(), T("2000-01-01")}},
      {"strftime", {T("%Y"), N()}},
      {"strftime", {T("")}},
      {"julianday", {T(std::string_view("2000-01-01\0junk", 15))}},
  };
  for (auto& [f, args] : cases) EXPECT_EQ(CompareCall(&h, f, args), "");
}

TEST_F(DateTimeTest, NowIsCurrentAndStableWithinAStep) {
  FuncHarness h;
  StepClock clock;
  Value a = h.Call("julianday", {T("now")}).value;
  Value b = h.Call("julianday", {}).value;
  ASSERT_TRUE(a.is_real());
  EXPECT_EQ(a.real_value(), b.real_value());
  Oracle* o = SharedOracle();
  if (o == nullptr) return;
  Value ref;
  std::string err;
  ASSERT_TRUE(o->Eval("SELECT julianday('now')", {}, &ref, &err));
  EXPECT_NEAR(ref.real_value(), a.real_value(), 5.0 / 86400);
  EXPECT_EQ(h.Call("current_date", {}).value.text(), h.Call("date", {}).value.text());
  EXPECT_EQ(h.Call("current_timestamp", {}).value.text(),
            h.Call("datetime", {T("now")}).value.text());
}

TEST_F(DateTimeTest, DifferentialUtc) {
  if (SharedOracle() == nullptr) GTEST_SKIP() << "libsqlite3 not available";
  SetTz("UTC");
  int calls = 0;
  int failures = RunRandom(1, 20000 * DiffScale(), &calls);
  std::printf("[differential] %d date/time calls (UTC), %d mismatches\n", calls, failures);
  EXPECT_EQ(failures, 0);
}

TEST_F(DateTimeTest, DifferentialOtherZones) {
  if (SharedOracle() == nullptr) GTEST_SKIP() << "libsqlite3 not available";
  const char* zones[] = {"America/New_York", "Australia/Lord_Howe", "Asia/Kolkata",
                         "Europe/London"};
  int calls = 0, failures = 0;
  uint64_t seed = 100;
  for (const char* z : zones) {
    SetTz(z);
    failures += RunRandom(seed++, 5000 * DiffScale(), &calls);
  }
  std::printf("[differential] %d date/time calls (4 zones), %d mismatches\n", calls, failures);
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace basalt::functest

// Rule-by-rule tests of the printf engine; expected strings come from the
// system sqlite3 3.40.1 (printf() SQL function or sqlite3_mprintf).
#include "common/printf.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/mem.h"
#include "record/value_printf_args.h"

namespace basalt {
namespace {

// printf() as the SQL function sees it.
std::string Sql(const char* fmt, std::vector<Value> args = {}) {
  ValuePrintfArgs pa(args.data(), static_cast<int>(args.size()));
  std::string out;
  if (!SqlFormat(fmt, &pa, kPrintfMaxLength, &out)) return "<null>";
  return out;
}

Value T(const char* s) { return Value::Text(s); }
Value I(int64_t i) { return Value::Int(i); }
Value R(double r) { return Value::Real(r); }

TEST(PrintfTest, FloatDigitsLikeSqlite340) {
  EXPECT_EQ(SqlPrintf("%.3f", -9223372036854775808.0), "-9223372036854775000.000");
  EXPECT_EQ(SqlPrintf("%.20f", 0.1), "0.10000000000000000000");
  EXPECT_EQ(SqlPrintf("%!.20f", 0.1), "0.10000000000000000556");
  EXPECT_EQ(SqlPrintf("%e", 12345.678), "1.234568e+04");
  EXPECT_EQ(SqlPrintf("%g", 1e-5), "1e-05");
  EXPECT_EQ(SqlPrintf("%.30g", 1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(SqlPrintf("%.2f", 2.675), "2.68");
  EXPECT_EQ(SqlPrintf("%.0f", 0.5), "1");
  EXPECT_EQ(SqlPrintf("%.0f %#.0f", 2.5, 2.5), "3 3.");
  EXPECT_EQ(SqlPrintf("%.0e %#.0e", 12345.0, 12345.0), "1e+04 1.e+04");
  EXPECT_EQ(SqlPrintf("%e %E %g %G", 0.000123456, 123456789.0, 1e100, 1e-10),
            "1.234560e-04 1.234568E+08 1e+100 1E-10");
  EXPECT_EQ(SqlPrintf("%#g %g %#.3g", 1.0, 100000.0, 1.0), "1.00000 100000 1.00");
  EXPECT_EQ(SqlPrintf("%.15g %!.15g", 0.1, 1e15), "0.1 1.0e+15");
  EXPECT_EQ(SqlPrintf("%f", -0.0), "0.000000");
  EXPECT_EQ(SqlPrintf("%f %f", std::numeric_limits<double>::infinity(),
                      -std::numeric_limits<double>::infinity()),
            "Inf -Inf");
  EXPECT_EQ(SqlPrintf("%+08.2f|%-8.1f|% f", 3.14159, 2.5, 1.0), "+0003.14|2.5     | 1.000000");
  EXPECT_EQ(SqlPrintf("%5.2f|%-8d|%08.3f", 3.14159, 42, -2.5), " 3.14|42      |-002.500");
}

TEST(PrintfTest, RealToTextFormat) {
  char buf[32];
  EXPECT_EQ(FormatRealSql(1e20, buf), 7);
  EXPECT_STREQ(buf, "1.0e+20");
  FormatRealSql(100.0, buf);
  EXPECT_STREQ(buf, "100.0");
  FormatRealSql(-1.5e-7, buf);
  EXPECT_STREQ(buf, "-1.5e-07");
}

TEST(PrintfTest, Integers) {
  EXPECT_EQ(SqlPrintf("%+d % d %x %X %o %#x %#o", 5, 5, 255, 255, 8, 255, 8),
            "+5  5 ff FF 10 0xff 010");
  EXPECT_EQ(SqlPrintf("%lld %lld", std::numeric_limits<long long>::max(),
                      std::numeric_limits<long long>::min()),
            "9223372036854775807 -9223372036854775808");
  EXPECT_EQ(SqlPrintf("%u %x", -1, -1), "4294967295 ffffffff");
  EXPECT_EQ(SqlPrintf("%,d %,d %,d", 1234567, -1000, 999), "1,234,567 -1,000 999");
  EXPECT_EQ(SqlPrintf("%.5d|%5.3d|%-5d|%05d", 42, 7, -3, -42), "00042|  007|-3   |-0042");
  EXPECT_EQ(SqlPrintf("%*d|%-*d|%.*d", 4, 1, 4, 2, 3, 3), "   1|2   |003");
  EXPECT_EQ(SqlPrintf("%*d", -4, 1), "1   ");
  EXPECT_EQ(Sql("%u %x", {I(-1), I(-1)}), "18446744073709551615 ffffffffffffffff");
  EXPECT_EQ(Sql("%r %r %r %r %r", {I(1), I(2), I(3), I(11), I(22)}), "1st 2nd 3rd 11th 22nd");
  EXPECT_EQ(Sql("%p", {I(255)}), "FF");
}

TEST(PrintfTest, Strings) {
  EXPECT_EQ(SqlPrintf("%10s|%-10s|%.2s", "abc", "abc", "abc"), "       abc|abc       |ab");
  EXPECT_EQ(SqlPrintf("%s", static_cast<const char*>(nullptr)), "");
  EXPECT_EQ(SqlPrintf("%q %Q %w", "it's", "it's", "a\"b"), "it''s 'it''s' a\"\"b");
  EXPECT_EQ(SqlPrintf("%q|%Q|%w", static_cast<const char*>(nullptr),
                      static_cast<const char*>(nullptr), static_cast<const char*>(nullptr)),
            "(NULL)|NULL|(NULL)");
  EXPECT_EQ(Sql("%!.3s|%.3s", {T("éèêë"), T("éèêë")}), "éèê|é\xc3");
  EXPECT_EQ(Sql("%!5s|%5s", {T("é"), T("é")}), "    é|   é");
  EXPECT_EQ(Sql("%c%c", {T("hello"), T("é!")}), "hé");
  EXPECT_EQ(Sql("%5c|%-5c|%.3c", {T("x"), T("y"), T("z")}), "    x|y    |zzz");
  EXPECT_EQ(SqlPrintf("%c%c", 'A', 0x20ac), "A\xe2\x82\xac");
  char* dyn = static_cast<char*>(mem::Malloc(4));  // %z's argument is sqlite3_malloc'ed
  std::memcpy(dyn, "dyn", 4);
  EXPECT_EQ(SqlPrintf("<%z>", dyn), "<dyn>");  // and frees it
}

TEST(PrintfTest, SqlValueMapping) {
  EXPECT_EQ(Sql("%s %d %f", {Value(), Value(), Value()}), " 0 0.000000");
  EXPECT_EQ(Sql("%d %s", {R(1.9), R(2.5)}), "1 2.5");
  EXPECT_EQ(Sql("%d %d", {T("1e3"), T("12abc")}), "1 12");
  EXPECT_EQ(Sql("%s|%q|%Q|%w", {Value(), Value(), Value(), Value()}), "|(NULL)|NULL|(NULL)");
  EXPECT_EQ(Sql("%s %s", {R(1e20), I(-5)}), "1.0e+20 -5");
  EXPECT_EQ(Sql("%d %d", {I(1)}), "1 0");  // missing arguments act as NULL
  std::string nul = Sql("%c", {Value()});
  EXPECT_EQ(nul, std::string(1, '\0'));
}

TEST(PrintfTest, SpecialCases) {
  EXPECT_EQ(Sql("%5%|%-5%|"), "    %|%    |");
  EXPECT_EQ(Sql("ab%"), "ab%");
  EXPECT_EQ(Sql("ab%ycd"), "ab");  // unknown conversion ends the output
  EXPECT_EQ(Sql(""), "<null>");    // nothing emitted: NULL
  EXPECT_EQ(Sql("%y"), "<null>");
  EXPECT_EQ(Sql("%s", {T("")}), "");
  EXPECT_EQ(Sql("%n"), "");
  int count = -1;
  EXPECT_EQ(SqlPrintf("abc%n|", &count), "abc|");
  EXPECT_EQ(count, 3);
  EXPECT_EQ(SqlPrintf("%ld %lu", -5L, 5UL), "-5 5");
}

TEST(PrintfTest, LimitsGiveNull) {
  EXPECT_EQ(Sql("ab%*d", {I(2000000000), I(1)}), "<null>");
  std::string out;
  std::vector<Value> args = {R(1.0)};
  ValuePrintfArgs pa(args.data(), 1);
  EXPECT_FALSE(SqlFormat("%.50f", &pa, 20, &out));
}

TEST(PrintfTest, Snprintf) {
  char buf[8];
  SqlSnprintf(sizeof buf, buf, "%s", "abcdefghijk");
  EXPECT_STREQ(buf, "abcdefg");
  std::memcpy(buf, "zz", 3);
  SqlSnprintf(0, buf, "%d", 5);
  EXPECT_STREQ(buf, "zz");
  SqlSnprintf(1, buf, "%d", 5);
  EXPECT_STREQ(buf, "");
}

}  // namespace
}  // namespace basalt

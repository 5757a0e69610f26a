// LIKE and GLOB: rule checks and a random differential run over patterns
// dense in wildcards, sets, escapes and non-ASCII characters.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "check.h"
#include "gen.h"
#include "harness.h"

namespace basalt::functest {
namespace {

std::string RandomPiece(Gen* g, bool pattern) {
  static const char* kPattern[] = {"a",  "b",     "A",    "B",   "%", "_",    "é",    "É", "[",
                                   "]",  "^",     "-",    "*",   "?", "\\",   "x",    "c", "ä",
                                   "%%", "[a-c]", "[^b]", "[]]", "z", "\xc3", "\xff", "0", "9"};
  static const char* kString[] = {"a", "b", "A", "B", "é", "É",  "x", "c", "ä",    "]",  "[",
                                  "-", "%", "_", "*", "?", "\\", "z", "0", "\xc3", "abc"};
  return pattern ? g->Pick(kPattern) : g->Pick(kString);
}

std::string RandomString(Gen* g, bool pattern, int max_pieces) {
  std::string s;
  int n = static_cast<int>(g->Below(static_cast<uint64_t>(max_pieces)));
  for (int k = 0; k < n; ++k) s += RandomPiece(g, pattern);
  return s;
}

TEST(Like, Rules) {
  FuncHarness h;
  auto like = [&](std::vector<Value> args) { return h.Call("like", args); };
  EXPECT_EQ(like({T("a%"), T("ABC")}).value.int_value(), 1);
  EXPECT_EQ(like({T("é"), T("É")}).value.int_value(), 0);  // ASCII folding only
  EXPECT_EQ(like({B("a"), N()}).value.int_value(), 0);     // blobs never match
  EXPECT_TRUE(like({T("a"), N()}).value.is_null());
  EXPECT_TRUE(like({T("a"), T("a"), N()}).value.is_null());
  CallResult r = like({T("a"), T("a"), T("ab")});
  EXPECT_TRUE(r.error);
  EXPECT_EQ(r.message, "ESCAPE expression must be a single character");
  EXPECT_EQ(like({T("a\\%"), T("a%"), T("\\")}).value.int_value(), 1);
  EXPECT_EQ(like({T("a\\%"), T("ab"), T("\\")}).value.int_value(), 0);
  std::string long_pattern(50001, 'a');
  r = like({T(long_pattern), T("a")});
  EXPECT_TRUE(r.error);
  EXPECT_EQ(r.message, "LIKE or GLOB pattern too complex");
  EXPECT_FALSE(like({T(std::string(50000, '%')), T("a")}).error);

  FuncHarness cs(/*case_sensitive_like=*/true);
  EXPECT_EQ(cs.Call("like", {T("a%"), T("ABC")}).value.int_value(), 0);
  EXPECT_EQ(cs.Call("like", {T("A%"), T("ABC")}).value.int_value(), 1);

  EXPECT_EQ(h.Call("glob", {T("[a-c]*"), T("bxx")}).value.int_value(), 1);
  EXPECT_EQ(h.Call("glob", {T("A*"), T("abc")}).value.int_value(), 0);
  EXPECT_EQ(h.Call("glob", {T("*[]]"), T("a]")}).value.int_value(), 1);
  EXPECT_EQ(h.Call("glob", {T("[^a]"), T("a")}).value.int_value(), 0);
}

TEST(Like, Differential) {
  if (SharedOracle() == nullptr) GTEST_SKIP() << "libsqlite3 not available";
  FuncHarness h;
  Gen g(77 + DiffSeed());
  int calls = 0, failures = 0;
  auto check = [&](const std::string& name, const std::vector<Value>& args) {
    std::string diff = CompareCall(&h, name, args);
    ++calls;
    if (!diff.empty() && ++failures <= 40) ADD_FAILURE() << diff;
  };
  for (int k = 0; k < 6000 * DiffScale(); ++k) {
    Value pat = g.Chance(95) ? T(RandomString(&g, true, 7)) : g.Any();
    Value str = g.Chance(95) ? T(RandomString(&g, false, 8)) : g.Any();
    check("like", {pat, str});
    check("glob", {pat, str});
    static const char* kEsc[] = {"\\", "%", "_", "a", "é", "x", "[", "", "ab"};
    Value esc = g.Chance(95) ? T(g.Pick(kEsc)) : g.Any();
    check("like", {pat, str, esc});
  }
  std::printf("[differential] %d LIKE/GLOB calls, %d mismatches\n", calls, failures);
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace basalt::functest

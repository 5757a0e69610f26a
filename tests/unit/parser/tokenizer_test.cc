#include "parser/tokenizer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace basalt::parser {
namespace {

struct Tok {
  Tk type;
  std::string text;
};

std::vector<Tok> Lex(std::string_view sql) {
  std::vector<Tok> out;
  const char* z = sql.data();
  const char* end = z + sql.size();
  for (;;) {
    Tk t;
    uint32_t n = ScanToken(z, end, &t);
    if (t == Tk::kEof) break;
    if (t != Tk::kSpace) out.push_back({t, std::string(z, n)});
    z += n;
  }
  return out;
}

Tok One(std::string_view sql) {
  auto v = Lex(sql);
  EXPECT_EQ(v.size(), 1u) << sql;
  return v.empty() ? Tok{Tk::kEof, ""} : v[0];
}

TEST(Tokenizer, Keywords) {
  EXPECT_EQ(One("select").type, Tk::kSelect);
  EXPECT_EQ(One("SeLeCt").type, Tk::kSelect);
  EXPECT_EQ(One("temporary").type, Tk::kTemp);
  EXPECT_EQ(One("current_timestamp").type, Tk::kCurrentTimestamp);
  EXPECT_EQ(One("selects").type, Tk::kId);
  EXPECT_EQ(One("select1").type, Tk::kId);
  EXPECT_EQ(One("_select").type, Tk::kId);
  EXPECT_EQ(One("a$b").type, Tk::kId);
  EXPECT_EQ(One("\xc3\xa9t\xc3\xa9").type, Tk::kId);
  EXPECT_EQ(KeywordCount(), 147);
  // Every keyword round-trips through the lookup.
  for (int i = 0; i < static_cast<int>(Tk::kCount); ++i) {
    std::string_view text = KeywordText(static_cast<Tk>(i));
    if (text.empty()) continue;
    EXPECT_EQ(LookupKeyword(text.data(), text.size()), static_cast<Tk>(i)) << text;
  }
}

TEST(Tokenizer, QuotedIdentifiersAndStrings) {
  EXPECT_EQ(One("\"a\"\"b\"").type, Tk::kId);
  EXPECT_EQ(One("[a b]").type, Tk::kId);
  EXPECT_EQ(One("`a``b`").type, Tk::kId);
  EXPECT_EQ(One("'it''s'").type, Tk::kString);
  EXPECT_EQ(One("'abc").type, Tk::kIllegal);
  EXPECT_EQ(One("\"abc").type, Tk::kIllegal);
  EXPECT_EQ(One("[abc").type, Tk::kIllegal);
}

TEST(Tokenizer, Blobs) {
  EXPECT_EQ(One("x'0aFF'").type, Tk::kBlob);
  EXPECT_EQ(One("X''").type, Tk::kBlob);
  EXPECT_EQ(One("x'abc'").type, Tk::kIllegal);
  EXPECT_EQ(One("x'zz'").type, Tk::kIllegal);
  EXPECT_EQ(One("x'ab").type, Tk::kIllegal);
  EXPECT_EQ(One("xyz").type, Tk::kId);
}

TEST(Tokenizer, Numbers) {
  EXPECT_EQ(One("123").type, Tk::kInteger);
  EXPECT_EQ(One("0x1F").type, Tk::kInteger);
  EXPECT_EQ(One("1.").type, Tk::kFloat);
  EXPECT_EQ(One(".5").type, Tk::kFloat);
  EXPECT_EQ(One("1e5").type, Tk::kFloat);
  EXPECT_EQ(One("1.5E-3").type, Tk::kFloat);
  EXPECT_EQ(One("12abc").type, Tk::kIllegal);
  EXPECT_EQ(One("1.5e").type, Tk::kIllegal);
  EXPECT_EQ(One("0x").type, Tk::kIllegal);
  auto v = Lex("0x1g");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].text, "0x1");
  EXPECT_EQ(v[1].type, Tk::kId);
  v = Lex("1.e");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].type, Tk::kIllegal);
}

TEST(Tokenizer, Parameters) {
  EXPECT_EQ(One("?").type, Tk::kVariable);
  EXPECT_EQ(One("?12").type, Tk::kVariable);
  EXPECT_EQ(One(":name").type, Tk::kVariable);
  EXPECT_EQ(One("@x1").type, Tk::kVariable);
  EXPECT_EQ(One("$a::b(c)").type, Tk::kVariable);
  EXPECT_EQ(One("#a").type, Tk::kVariable);
  EXPECT_EQ(One("$").type, Tk::kIllegal);
  EXPECT_EQ(One("$a(b").type, Tk::kIllegal);
  auto v = Lex("?abc");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].text, "?");
}

TEST(Tokenizer, Operators) {
  std::vector<Tk> expect = {Tk::kConcat, Tk::kPtr,    Tk::kPtr,   Tk::kEq,     Tk::kEq,
                            Tk::kNe,     Tk::kNe,     Tk::kLe,    Tk::kGe,     Tk::kLshift,
                            Tk::kRshift, Tk::kBitAnd, Tk::kBitOr, Tk::kBitNot, Tk::kRem,
                            Tk::kSlash,  Tk::kStar,   Tk::kLt,    Tk::kGt};
  auto v = Lex("|| -> ->> = == != <> <= >= << >> & | ~ % / * < >");
  ASSERT_EQ(v.size(), expect.size());
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i].type, expect[i]) << i;
  EXPECT_EQ(One("!").type, Tk::kIllegal);
  EXPECT_EQ(One("\\").type, Tk::kIllegal);
}

TEST(Tokenizer, Comments) {
  auto v = Lex("a -- comment\n b /* c */ c /* unterminated");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[2].text, "c");
  v = Lex("1 /*");  // "/*" at the very end is a slash and a star
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[1].type, Tk::kSlash);
  EXPECT_EQ(v[2].type, Tk::kStar);
  EXPECT_EQ(One("\v").type, Tk::kIllegal);
}

TEST(Tokenizer, NulEndsInput) {
  std::string sql("a\0b", 3);
  auto v = Lex(sql);
  ASSERT_EQ(v.size(), 1u);
}

}  // namespace
}  // namespace basalt::parser

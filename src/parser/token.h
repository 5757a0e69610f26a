// Token types produced by the tokenizer, and the keyword list.
//
// Every keyword has its own token type. Groups the grammar treats alike
// (join keywords, LIKE/GLOB/REGEXP, CURRENT_TIME/DATE/TIMESTAMP) are told apart
// by the per-token flags in TokenFlags(). A keyword marked kFallbackId may
// also serve as an identifier wherever the keyword itself would not fit (the
// list is SQLite's; it was checked keyword by keyword against sqlite3).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace basalt::parser {

// X(Name, "TEXT", flags). TEMPORARY is an alternate spelling of TEMP and maps
// to Tk::kTemp (see keywords.cc).
#define BASALT_KEYWORDS(X)                                         \
  X(Abort, "ABORT", kFallbackId)                                   \
  X(Action, "ACTION", kFallbackId)                                 \
  X(Add, "ADD", 0)                                                 \
  X(After, "AFTER", kFallbackId)                                   \
  X(All, "ALL", 0)                                                 \
  X(Alter, "ALTER", 0)                                             \
  X(Always, "ALWAYS", kFallbackId)                                 \
  X(Analyze, "ANALYZE", kFallbackId)                               \
  X(And, "AND", 0)                                                 \
  X(As, "AS", 0)                                                   \
  X(Asc, "ASC", kFallbackId)                                       \
  X(Attach, "ATTACH", kFallbackId)                                 \
  X(Autoincrement, "AUTOINCREMENT", 0)                             \
  X(Before, "BEFORE", kFallbackId)                                 \
  X(Begin, "BEGIN", kFallbackId)                                   \
  X(Between, "BETWEEN", 0)                                         \
  X(By, "BY", kFallbackId)                                         \
  X(Cascade, "CASCADE", kFallbackId)                               \
  X(Case, "CASE", 0)                                               \
  X(Cast, "CAST", kFallbackId)                                     \
  X(Check, "CHECK", 0)                                             \
  X(Collate, "COLLATE", 0)                                         \
  X(Column, "COLUMN", kFallbackId)                                 \
  X(Commit, "COMMIT", 0)                                           \
  X(Conflict, "CONFLICT", kFallbackId)                             \
  X(Constraint, "CONSTRAINT", 0)                                   \
  X(Create, "CREATE", 0)                                           \
  X(Cross, "CROSS", kJoinKw)                                       \
  X(Current, "CURRENT", kFallbackId)                               \
  X(CurrentDate, "CURRENT_DATE", kFallbackId | kCtimeKw)           \
  X(CurrentTime, "CURRENT_TIME", kFallbackId | kCtimeKw)           \
  X(CurrentTimestamp, "CURRENT_TIMESTAMP", kFallbackId | kCtimeKw) \
  X(Database, "DATABASE", kFallbackId)                             \
  X(Default, "DEFAULT", 0)                                         \
  X(Deferrable, "DEFERRABLE", 0)                                   \
  X(Deferred, "DEFERRED", kFallbackId)                             \
  X(Delete, "DELETE", 0)                                           \
  X(Desc, "DESC", kFallbackId)                                     \
  X(Detach, "DETACH", kFallbackId)                                 \
  X(Distinct, "DISTINCT", 0)                                       \
  X(Do, "DO", kFallbackId)                                         \
  X(Drop, "DROP", 0)                                               \
  X(Each, "EACH", kFallbackId)                                     \
  X(Else, "ELSE", 0)                                               \
  X(End, "END", kFallbackId)                                       \
  X(Escape, "ESCAPE", 0)                                           \
  X(Except, "EXCEPT", 0)                                           \
  X(Exclude, "EXCLUDE", kFallbackId)                               \
  X(Exclusive, "EXCLUSIVE", kFallbackId)                           \
  X(Exists, "EXISTS", 0)                                           \
  X(Explain, "EXPLAIN", kFallbackId)                               \
  X(Fail, "FAIL", kFallbackId)                                     \
  X(Filter, "FILTER", kContextual)                                 \
  X(First, "FIRST", kFallbackId)                                   \
  X(Following, "FOLLOWING", kFallbackId)                           \
  X(For, "FOR", kFallbackId)                                       \
  X(Foreign, "FOREIGN", 0)                                         \
  X(From, "FROM", 0)                                               \
  X(Full, "FULL", kJoinKw)                                         \
  X(Generated, "GENERATED", kFallbackId)                           \
  X(Glob, "GLOB", kFallbackId | kLikeKw)                           \
  X(Group, "GROUP", 0)                                             \
  X(Groups, "GROUPS", kFallbackId)                                 \
  X(Having, "HAVING", 0)                                           \
  X(If, "IF", kFallbackId)                                         \
  X(Ignore, "IGNORE", kFallbackId)                                 \
  X(Immediate, "IMMEDIATE", kFallbackId)                           \
  X(In, "IN", 0)                                                   \
  X(Index, "INDEX", 0)                                             \
  X(Indexed, "INDEXED", 0)                                         \
  X(Initially, "INITIALLY", kFallbackId)                           \
  X(Inner, "INNER", kJoinKw)                                       \
  X(Insert, "INSERT", 0)                                           \
  X(Instead, "INSTEAD", kFallbackId)                               \
  X(Intersect, "INTERSECT", 0)                                     \
  X(Into, "INTO", 0)                                               \
  X(Is, "IS", 0)                                                   \
  X(Isnull, "ISNULL", 0)                                           \
  X(Join, "JOIN", 0)                                               \
  X(Key, "KEY", kFallbackId)                                       \
  X(Last, "LAST", kFallbackId)                                     \
  X(Left, "LEFT", kJoinKw)                                         \
  X(Like, "LIKE", kFallbackId | kLikeKw)                           \
  X(Limit, "LIMIT", 0)                                             \
  X(Match, "MATCH", kFallbackId)                                   \
  X(Materialized, "MATERIALIZED", kFallbackId)                     \
  X(Natural, "NATURAL", kJoinKw)                                   \
  X(No, "NO", kFallbackId)                                         \
  X(Not, "NOT", 0)                                                 \
  X(Nothing, "NOTHING", 0)                                         \
  X(Notnull, "NOTNULL", 0)                                         \
  X(Null, "NULL", 0)                                               \
  X(Nulls, "NULLS", kFallbackId)                                   \
  X(Of, "OF", kFallbackId)                                         \
  X(Offset, "OFFSET", kFallbackId)                                 \
  X(On, "ON", 0)                                                   \
  X(Or, "OR", 0)                                                   \
  X(Order, "ORDER", 0)                                             \
  X(Others, "OTHERS", kFallbackId)                                 \
  X(Outer, "OUTER", kJoinKw)                                       \
  X(Over, "OVER", kContextual)                                     \
  X(Partition, "PARTITION", kFallbackId)                           \
  X(Plan, "PLAN", kFallbackId)                                     \
  X(Pragma, "PRAGMA", kFallbackId)                                 \
  X(Preceding, "PRECEDING", kFallbackId)                           \
  X(Primary, "PRIMARY", 0)                                         \
  X(Query, "QUERY", kFallbackId)                                   \
  X(Raise, "RAISE", kFallbackId)                                   \
  X(Range, "RANGE", kFallbackId)                                   \
  X(Recursive, "RECURSIVE", kFallbackId)                           \
  X(References, "REFERENCES", 0)                                   \
  X(Regexp, "REGEXP", kFallbackId | kLikeKw)                       \
  X(Reindex, "REINDEX", kFallbackId)                               \
  X(Release, "RELEASE", kFallbackId)                               \
  X(Rename, "RENAME", kFallbackId)                                 \
  X(Replace, "REPLACE", kFallbackId)                               \
  X(Restrict, "RESTRICT", kFallbackId)                             \
  X(Returning, "RETURNING", 0)                                     \
  X(Right, "RIGHT", kJoinKw)                                       \
  X(Rollback, "ROLLBACK", kFallbackId)                             \
  X(Row, "ROW", kFallbackId)                                       \
  X(Rows, "ROWS", kFallbackId)                                     \
  X(Savepoint, "SAVEPOINT", kFallbackId)                           \
  X(Select, "SELECT", 0)                                           \
  X(Set, "SET", 0)                                                 \
  X(Table, "TABLE", 0)                                             \
  X(Temp, "TEMP", kFallbackId)                                     \
  X(Then, "THEN", 0)                                               \
  X(Ties, "TIES", kFallbackId)                                     \
  X(To, "TO", 0)                                                   \
  X(Transaction, "TRANSACTION", 0)                                 \
  X(Trigger, "TRIGGER", kFallbackId)                               \
  X(Unbounded, "UNBOUNDED", kFallbackId)                           \
  X(Union, "UNION", 0)                                             \
  X(Unique, "UNIQUE", 0)                                           \
  X(Update, "UPDATE", 0)                                           \
  X(Using, "USING", 0)                                             \
  X(Vacuum, "VACUUM", kFallbackId)                                 \
  X(Values, "VALUES", 0)                                           \
  X(View, "VIEW", kFallbackId)                                     \
  X(Virtual, "VIRTUAL", kFallbackId)                               \
  X(When, "WHEN", 0)                                               \
  X(Where, "WHERE", 0)                                             \
  X(Window, "WINDOW", kContextual)                                 \
  X(With, "WITH", kFallbackId)                                     \
  X(Without, "WITHOUT", kFallbackId)

// Token flags.
enum TokenFlag : uint8_t {
  kFallbackId = 1 << 0,  // keyword usable as an identifier where it fits no rule
  kJoinKw = 1 << 1,      // NATURAL LEFT RIGHT FULL INNER OUTER CROSS
  kLikeKw = 1 << 2,      // LIKE GLOB REGEXP
  kCtimeKw = 1 << 3,     // CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP
  kContextual = 1 << 4,  // WINDOW OVER FILTER: keywords only in context (tokenizer decides)
  kIsKeyword = 1 << 5,   // any keyword
};

enum class Tk : uint8_t {
  kEof,       // end of input (or a NUL byte)
  kIllegal,   // unrecognised token; its text is reported
  kSpace,     // whitespace or comment (never returned by the token stream)
  kId,        // identifier: bare, "double", [bracket] or `grave` quoted
  kString,    // 'string'
  kInteger,   // 123, 0x1F
  kFloat,     // 1.5, .5, 1e5
  kBlob,      // x'AB'
  kVariable,  // ? ?1 :a @a $a #a
  kLp,
  kRp,
  kSemi,
  kComma,
  kDot,
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kRem,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kLshift,
  kRshift,
  kBitAnd,
  kBitOr,
  kBitNot,
  kConcat,
  kPtr,
#define BASALT_TK_ENUM(name, text, flags) k##name,
  BASALT_KEYWORDS(BASALT_TK_ENUM)
#undef BASALT_TK_ENUM
      kCount
};

// Per-token flags (TokenFlag bits), indexed by token type.
inline constexpr std::array<uint8_t, static_cast<int>(Tk::kCount)> kTokenFlags = [] {
  std::array<uint8_t, static_cast<int>(Tk::kCount)> f{};
#define BASALT_TK_FLAGS(name, text, flags) \
  f[static_cast<int>(Tk::k##name)] = static_cast<uint8_t>((flags) | kIsKeyword);
  BASALT_KEYWORDS(BASALT_TK_FLAGS)
#undef BASALT_TK_FLAGS
  return f;
}();

inline uint8_t TokenFlags(Tk t) { return kTokenFlags[static_cast<int>(t)]; }

// The keyword token for z[0..n) (ASCII letters and '_' only, any case), or
// Tk::kId when it is not a keyword.
Tk LookupKeyword(const char* z, size_t n);

// Upper-case text of a keyword token (for tests and diagnostics); "" otherwise.
std::string_view KeywordText(Tk t);

// Number of keywords (147 in SQLite 3.40).
int KeywordCount();
// The i-th keyword (0 <= i < KeywordCount(), in SQLite's sqlite3_keyword_name
// order), upper case; "" out of range.
std::string_view KeywordAt(int i);

}  // namespace basalt::parser

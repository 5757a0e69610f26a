// Keyword lookup: an open-addressing hash table built at compile time from
// BASALT_KEYWORDS. The hash mixes the length with the first two and the last
// character (case folded), so almost every lookup is one probe and a short
// byte comparison; no strings are built.
#include <array>
#include <cstddef>

#include "parser/token.h"

namespace basalt::parser {

namespace {

struct Keyword {
  std::string_view text;  // upper case
  Tk tok;
};

constexpr Keyword kKeywordList[] = {
#define BASALT_KW_ENTRY(name, text, flags) {text, Tk::k##name},
    BASALT_KEYWORDS(BASALT_KW_ENTRY)
#undef BASALT_KW_ENTRY
        {"TEMPORARY", Tk::kTemp},
};
constexpr int kNumKeywords = sizeof(kKeywordList) / sizeof(kKeywordList[0]);

constexpr int kTableBits = 9;
constexpr uint32_t kTableSize = 1u << kTableBits;

// Case folding for keyword characters: letters to upper case; '_' is kept.
constexpr char Upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c; }

constexpr uint32_t Hash(const char* z, size_t n) {
  uint32_t h = static_cast<uint32_t>(n) * 97u;
  h += static_cast<uint8_t>(Upper(z[0])) * 31u;
  h ^= static_cast<uint8_t>(Upper(z[n - 1])) * 7u;
  if (n > 1) h += static_cast<uint8_t>(Upper(z[1])) * 3u;
  return (h * 2654435761u) >> (32 - kTableBits);
}

struct Table {
  // slot -> index into kKeywordList + 1; 0 = empty.
  std::array<uint8_t, kTableSize> slot{};
};

constexpr Table BuildTable() {
  Table t;
  for (int i = 0; i < kNumKeywords; ++i) {
    const std::string_view s = kKeywordList[i].text;
    uint32_t h = Hash(s.data(), s.size());
    while (t.slot[h] != 0) h = (h + 1) & (kTableSize - 1);
    t.slot[h] = static_cast<uint8_t>(i + 1);
  }
  return t;
}

constexpr Table kTable = BuildTable();

}  // namespace

Tk LookupKeyword(const char* z, size_t n) {
  if (n < 2 || n > 17) return Tk::kId;
  uint32_t h = Hash(z, n);
  while (uint8_t s = kTable.slot[h]) {
    const Keyword& k = kKeywordList[s - 1];
    if (k.text.size() == n) {
      size_t i = 0;
      // Keyword characters are letters and '_'; clearing bit 0x20 upper-cases
      // a letter and leaves '_' (0x5F) unchanged.
      while (i < n && (z[i] & ~0x20) == k.text[i]) ++i;
      if (i == n) return k.tok;
    }
    h = (h + 1) & (kTableSize - 1);
  }
  return Tk::kId;
}

std::string_view KeywordText(Tk t) {
  for (const Keyword& k : kKeywordList) {
    if (k.tok == t) return k.text;
  }
  return {};
}

int KeywordCount() { return kNumKeywords; }

// The keywords in the order sqlite3_keyword_name numbers them in SQLite
// 3.40 (the order of its generated keyword table, which applications and
// the shell's completion table expose).
constexpr std::string_view kApiOrder[] = {
    "REINDEX",      "INDEXED",
    "INDEX",        "DESC",
    "ESCAPE",       "EACH",
    "CHECK",        "KEY",
    "BEFORE",       "FOREIGN",
    "FOR",          "IGNORE",
    "REGEXP",       "EXPLAIN",
    "INSTEAD",      "ADD",
    "DATABASE",     "AS",
    "SELECT",       "TABLE",
    "LEFT",         "THEN",
    "END",          "DEFERRABLE",
    "ELSE",         "EXCLUDE",
    "DELETE",       "TEMPORARY",
    "TEMP",         "OR",
    "ISNULL",       "NULLS",
    "SAVEPOINT",    "INTERSECT",
    "TIES",         "NOTNULL",
    "NOT",          "NO",
    "NULL",         "LIKE",
    "EXCEPT",       "TRANSACTION",
    "ACTION",       "ON",
    "NATURAL",      "ALTER",
    "RAISE",        "EXCLUSIVE",
    "EXISTS",       "CONSTRAINT",
    "INTO",         "OFFSET",
    "OF",           "SET",
    "TRIGGER",      "RANGE",
    "GENERATED",    "DETACH",
    "HAVING",       "GLOB",
    "BEGIN",        "INNER",
    "REFERENCES",   "UNIQUE",
    "QUERY",        "WITHOUT",
    "WITH",         "OUTER",
    "RELEASE",      "ATTACH",
    "BETWEEN",      "NOTHING",
    "GROUPS",       "GROUP",
    "CASCADE",      "ASC",
    "DEFAULT",      "CASE",
    "COLLATE",      "CREATE",
    "CURRENT_DATE", "IMMEDIATE",
    "JOIN",         "INSERT",
    "MATCH",        "PLAN",
    "ANALYZE",      "PRAGMA",
    "MATERIALIZED", "DEFERRED",
    "DISTINCT",     "IS",
    "UPDATE",       "VALUES",
    "VIRTUAL",      "ALWAYS",
    "WHEN",         "WHERE",
    "RECURSIVE",    "ABORT",
    "AFTER",        "RENAME",
    "AND",          "DROP",
    "PARTITION",    "AUTOINCREMENT",
    "TO",           "IN",
    "CAST",         "COLUMN",
    "COMMIT",       "CONFLICT",
    "CROSS",        "CURRENT_TIMESTAMP",
    "CURRENT_TIME", "CURRENT",
    "PRECEDING",    "FAIL",
    "LAST",         "FILTER",
    "REPLACE",      "FIRST",
    "FOLLOWING",    "FROM",
    "FULL",         "LIMIT",
    "IF",           "ORDER",
    "RESTRICT",     "OTHERS",
    "OVER",         "RETURNING",
    "RIGHT",        "ROLLBACK",
    "ROWS",         "ROW",
    "UNBOUNDED",    "UNION",
    "USING",        "VACUUM",
    "VIEW",         "WINDOW",
    "DO",           "BY",
    "INITIALLY",    "ALL",
    "PRIMARY",
};
static_assert(sizeof(kApiOrder) / sizeof(kApiOrder[0]) == kNumKeywords);

std::string_view KeywordAt(int i) {
  return i >= 0 && i < kNumKeywords ? kApiOrder[i] : std::string_view();
}

}  // namespace basalt::parser

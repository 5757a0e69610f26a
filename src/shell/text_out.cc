// Quoting and escaping helpers shared by the output modes and .dump. Each
// writes exactly what sqlite3 writes for the same value.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>

#include "shell/shell.h"

namespace shell {
namespace {

// SQLite's 147 keywords: a name equal to one of them is quoted by
// QuoteIdentIfNeeded. Sorted, for binary search.
const char* const kKeywords[] = {
    "ABORT",
    "ACTION",
    "ADD",
    "AFTER",
    "ALL",
    "ALTER",
    "ALWAYS",
    "ANALYZE",
    "AND",
    "AS",
    "ASC",
    "ATTACH",
    "AUTOINCREMENT",
    "BEFORE",
    "BEGIN",
    "BETWEEN",
    "BY",
    "CASCADE",
    "CASE",
    "CAST",
    "CHECK",
    "COLLATE",
    "COLUMN",
    "COMMIT",
    "CONFLICT",
    "CONSTRAINT",
    "CREATE",
    "CROSS",
    "CURRENT",
    "CURRENT_DATE",
    "CURRENT_TIME",
    "CURRENT_TIMESTAMP",
    "DATABASE",
    "DEFAULT",
    "DEFERRABLE",
    "DEFERRED",
    "DELETE",
    "DESC",
    "DETACH",
    "DISTINCT",
    "DO",
    "DROP",
    "EACH",
    "ELSE",
    "END",
    "ESCAPE",
    "EXCEPT",
    "EXCLUDE",
    "EXCLUSIVE",
    "EXISTS",
    "EXPLAIN",
    "FAIL",
    "FILTER",
    "FIRST",
    "FOLLOWING",
    "FOR",
    "FOREIGN",
    "FROM",
    "FULL",
    "GENERATED",
    "GLOB",
    "GROUP",
    "GROUPS",
    "HAVING",
    "IF",
    "IGNORE",
    "IMMEDIATE",
    "IN",
    "INDEX",
    "INDEXED",
    "INITIALLY",
    "INNER",
    "INSERT",
    "INSTEAD",
    "INTERSECT",
    "INTO",
    "IS",
    "ISNULL",
    "JOIN",
    "KEY",
    "LAST",
    "LEFT",
    "LIKE",
    "LIMIT",
    "MATCH",
    "MATERIALIZED",
    "NATURAL",
    "NO",
    "NOT",
    "NOTHING",
    "NOTNULL",
    "NULL",
    "NULLS",
    "OF",
    "OFFSET",
    "ON",
    "OR",
    "ORDER",
    "OTHERS",
    "OUTER",
    "OVER",
    "PARTITION",
    "PLAN",
    "PRAGMA",
    "PRECEDING",
    "PRIMARY",
    "QUERY",
    "RAISE",
    "RANGE",
    "RECURSIVE",
    "REFERENCES",
    "REGEXP",
    "REINDEX",
    "RELEASE",
    "RENAME",
    "REPLACE",
    "RESTRICT",
    "RETURNING",
    "RIGHT",
    "ROLLBACK",
    "ROW",
    "ROWS",
    "SAVEPOINT",
    "SELECT",
    "SET",
    "TABLE",
    "TEMP",
    "TEMPORARY",
    "THEN",
    "TIES",
    "TO",
    "TRANSACTION",
    "TRIGGER",
    "UNBOUNDED",
    "UNION",
    "UNIQUE",
    "UPDATE",
    "USING",
    "VACUUM",
    "VALUES",
    "VIEW",
    "VIRTUAL",
    "WHEN",
    "WHERE",
    "WINDOW",
    "WITH",
    "WITHOUT",
};

bool IsKeyword(const char* name) {
  std::string up(name);
  for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return std::binary_search(std::begin(kKeywords), std::end(kKeywords), up,
                            [](const std::string& a, const std::string& b) { return a < b; });
}

// The first of `a`, `b`, "(a1)", "(a2)", ... that does not occur in z.
std::string UnusedString(const char* z, const char* a, const char* b) {
  if (!std::strstr(z, a)) return a;
  if (!std::strstr(z, b)) return b;
  for (unsigned i = 1;; ++i) {
    std::string s = "(" + std::string(a) + std::to_string(i) + ")";
    if (!std::strstr(z, s.c_str())) return s;
  }
}

}  // namespace

bool NeedsQuote(const char* name) {
  const unsigned char* z = reinterpret_cast<const unsigned char*>(name);
  if (!std::isalpha(z[0]) && z[0] != '_') return true;
  for (size_t i = 0; z[i]; ++i) {
    if (!std::isalnum(z[i]) && z[i] != '_') return true;
  }
  return IsKeyword(name);
}

std::string QuoteIdent(const std::string& name) {
  std::string r = "\"";
  for (char c : name) {
    r += c;
    if (c == '"') r += c;
  }
  return r + "\"";
}

std::string QuoteIdentIfNeeded(const std::string& name) {
  return NeedsQuote(name.c_str()) ? QuoteIdent(name) : name;
}

std::string QuoteLiteral(const std::string& s) {
  std::string r = "'";
  for (char c : s) {
    r += c;
    if (c == '\'') r += c;
  }
  return r + "'";
}

void OutQuoted(FILE* out, const char* z) {
  putc_unlocked('\'', out);
  while (const char* q = std::strchr(z, '\'')) {  // each quote doubled
    std::fwrite(z, 1, static_cast<size_t>(q - z + 1), out);
    putc_unlocked('\'', out);
    z = q + 1;
  }
  std::fputs(z, out);
  putc_unlocked('\'', out);
}

// Text with newlines or carriage returns becomes
// replace(replace('..\r..\n..','\r',char(13)),'\n',char(10)), using
// markers that do not occur in the text.
void OutQuotedEscaped(FILE* out, const char* z) {
  if (!std::strpbrk(z, "\n\r")) {
    OutQuoted(out, z);
    return;
  }
  const bool nl = std::strchr(z, '\n') != nullptr;
  const bool cr = std::strchr(z, '\r') != nullptr;
  std::string znl, zcr;
  if (nl) {
    std::fputs("replace(", out);
    znl = UnusedString(z, "\\n", "\\012");
  }
  if (cr) {
    std::fputs("replace(", out);
    zcr = UnusedString(z, "\\r", "\\015");
  }
  putc_unlocked('\'', out);
  for (; *z; ++z) {
    if (*z == '\n') {
      std::fputs(znl.c_str(), out);
    } else if (*z == '\r') {
      std::fputs(zcr.c_str(), out);
    } else {
      putc_unlocked(*z, out);
      if (*z == '\'') putc_unlocked('\'', out);
    }
  }
  putc_unlocked('\'', out);
  if (cr) std::fprintf(out, ",'%s',char(13))", zcr.c_str());
  if (nl) std::fprintf(out, ",'%s',char(10))", znl.c_str());
}

void OutHexBlob(FILE* out, const void* blob, int n) {
  const unsigned char* p = static_cast<const unsigned char*>(blob);
  std::fputs("X'", out);
  for (int i = 0; i < n; ++i) std::fprintf(out, "%02x", p[i]);
  putc_unlocked('\'', out);
}

void OutCString(FILE* out, const char* z) {
  putc_unlocked('"', out);
  for (; *z; ++z) {
    unsigned char c = static_cast<unsigned char>(*z);
    if (c == '\\') {
      std::fputs("\\\\", out);
    } else if (c == '"') {
      std::fputs("\\\"", out);
    } else if (c == '\t') {
      std::fputs("\\t", out);
    } else if (c == '\n') {
      std::fputs("\\n", out);
    } else if (c == '\r') {
      std::fputs("\\r", out);
    } else if (!std::isprint(c)) {
      std::fprintf(out, "\\%03o", c);
    } else {
      putc_unlocked(c, out);
    }
  }
  putc_unlocked('"', out);
}

void OutHtml(FILE* out, const char* z) {
  for (; *z; ++z) {
    switch (*z) {
      case '<':
        std::fputs("&lt;", out);
        break;
      case '&':
        std::fputs("&amp;", out);
        break;
      case '>':
        std::fputs("&gt;", out);
        break;
      case '"':
        std::fputs("&quot;", out);
        break;
      case '\'':
        std::fputs("&#39;", out);
        break;
      default:
        putc_unlocked(*z, out);
    }
  }
}

void OutJsonString(FILE* out, const char* z, long long n) {
  if (n < 0) n = static_cast<long long>(std::strlen(z));
  putc_unlocked('"', out);
  long long run = 0;  // start of the bytes not yet written
  for (long long i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(z[i]);
    if (c > 0x1f && c != '\\' && c != '"') continue;
    std::fwrite(z + run, 1, static_cast<size_t>(i - run), out);
    run = i + 1;
    if (c == '\\' || c == '"') {
      putc_unlocked('\\', out);
      putc_unlocked(c, out);
      continue;
    }
    switch (c) {
      case '\b':
        std::fputs("\\b", out);
        break;
      case '\f':
        std::fputs("\\f", out);
        break;
      case '\n':
        std::fputs("\\n", out);
        break;
      case '\r':
        std::fputs("\\r", out);
        break;
      case '\t':
        std::fputs("\\t", out);
        break;
      default:
        std::fprintf(out, "\\u%04x", c);
    }
  }
  std::fwrite(z + run, 1, static_cast<size_t>(n - run), out);
  putc_unlocked('"', out);
}

// A CSV field is quoted when it is empty, holds a control character, a
// space, a quote of either kind or a byte >= 0x7f, or contains the column
// separator.
void OutCsv(Shell& sh, const char* z, bool sep) {
  if (z == nullptr) {
    std::fputs(sh.null_value.c_str(), sh.out);
  } else {
    bool quote = *z == 0;
    for (const unsigned char* p = reinterpret_cast<const unsigned char*>(z); *p; ++p) {
      if (*p <= 0x20 || *p == '"' || *p == '\'' || *p >= 0x7f) quote = true;
    }
    if (!sh.col_sep.empty() && std::strstr(z, sh.col_sep.c_str())) quote = true;
    if (quote) {
      putc_unlocked('"', sh.out);
      for (; *z; ++z) {
        putc_unlocked(*z, sh.out);
        if (*z == '"') putc_unlocked('"', sh.out);
      }
      putc_unlocked('"', sh.out);
    } else {
      std::fputs(z, sh.out);
    }
  }
  if (sep) std::fputs(sh.col_sep.c_str(), sh.out);
}

// Reals of the quote, insert and json modes: 20 significant digits, with
// infinities written as 1e999 (not in quote mode); insert mode writes
// integral values as N.0.
void OutReal(FILE* out, double r, bool integral_as_dot0, bool inf_as_1e999) {
  char z[64];
  if (!inf_as_1e999) {
  } else if (r == __builtin_inf()) {
    std::fputs("1e999", out);
    return;
  }
  if (inf_as_1e999 && r == -__builtin_inf()) {
    std::fputs("-1e999", out);
    return;
  }
  if (integral_as_dot0 && r >= -9.2e18 && r <= 9.2e18) {
    long long ir = static_cast<long long>(r);
    if (r == static_cast<double>(ir)) {
      sqlite3_snprintf(sizeof(z), z, "%lld.0", ir);
      std::fputs(z, out);
      return;
    }
  }
  sqlite3_snprintf(sizeof(z), z, "%!.20g", r);
  std::fputs(z, out);
}

int CharCount(const char* z) {
  int n = 0;
  for (; *z; ++z) {
    if ((static_cast<unsigned char>(*z) & 0xc0) != 0x80) ++n;
  }
  return n;
}

// Prints z in a field of |w| characters (right-aligned when w < 0),
// truncating it to |w| characters; w == 0 prints it whole.
void WidthPrint(FILE* out, int w, const char* z) {
  const int aw = w < 0 ? -w : w;
  int n = 0;
  size_t i = 0;
  for (; z[i]; ++i) {
    if ((static_cast<unsigned char>(z[i]) & 0xc0) != 0x80) {
      ++n;
      if (n == aw) {
        do {
          ++i;
        } while ((static_cast<unsigned char>(z[i]) & 0xc0) == 0x80);
        break;
      }
    }
  }
  if (n >= aw) {
    std::fwrite(z, 1, i, out);
  } else if (w < 0) {
    std::fprintf(out, "%*s%s", aw - n, "", z);
  } else {
    std::fprintf(out, "%s%*s", z, aw - n, "");
  }
}

}  // namespace shell

// Schema listing: .tables, .indexes, .schema, .fullschema, .databases.
#include <dlfcn.h>

#include <cstring>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {
namespace {

bool IsSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

std::vector<std::string> DatabaseNames(sqlite3* db) {
  std::vector<std::string> names;
  ForEachRow(db, "PRAGMA database_list", [&](sqlite3_stmt* st) {
    if (sqlite3_column_text(st, 1)) names.push_back(ColText(st, 1));
  });
  return names;
}

// Text wrapped in quote characters `q` (doubled inside), or bare if q == 0.
std::string Wrap(const std::string& s, char q) {
  if (!q) return s;
  std::string r(1, q);
  for (char c : s) {
    r += c;
    if (c == q) r += c;
  }
  return r + q;
}

// "CREATE TABLE x" written as sqlite3 writes a schema entry: a comment at
// the end gets closed so that the ";" is not swallowed, and a quoted table
// name gets IF NOT EXISTS.
void PrintSchemaLine(FILE* out, std::string z, const char* tail) {
  if (tail[0] == ';' && (z.find("/*") != std::string::npos || z.find("--") != std::string::npos)) {
    for (const char* term : {"", "*/", "\n"}) {
      std::string probe = z + term + ";";
      if (sqlite3_complete(probe.c_str())) {
        z += term;
        break;
      }
    }
  }
  if (z.compare(0, 13, "CREATE TABLE ") == 0 && z.size() > 13 && (z[13] == '\'' || z[13] == '"')) {
    std::fprintf(out, "CREATE TABLE IF NOT EXISTS %s%s", z.c_str() + 13, tail);
  } else {
    std::fprintf(out, "%s%s", z.c_str(), tail);
  }
}

bool WsToEol(const char* z) {
  for (; *z; ++z) {
    if (*z == '\n') return true;
    if (!IsSpace(*z)) return false;
  }
  return true;
}

// .schema --indent: white space collapsed, then one column definition per
// line when the statement is long.
void PrintPretty(FILE* out, const std::string& sql) {
  if (sqlite3_strnicmp(sql.c_str(), "CREATE VIEW", 11) == 0 ||
      sqlite3_strnicmp(sql.c_str(), "CREATE TRIG", 11) == 0) {
    std::fprintf(out, "%s;\n", sql.c_str());
    return;
  }
  std::string z;
  size_t i = 0;
  while (i < sql.size() && IsSpace(sql[i])) ++i;
  for (; i < sql.size(); ++i) {
    char c = sql[i];
    if (IsSpace(c)) {
      if (!z.empty() && z.back() == '\r') z.back() = '\n';
      if (!z.empty() && (IsSpace(z.back()) || z.back() == '(')) continue;
    } else if ((c == '(' || c == ')') && !z.empty() && IsSpace(z.back())) {
      z.pop_back();
    }
    z += c;
  }
  while (!z.empty() && IsSpace(z.back())) z.pop_back();
  if (z.size() >= 79) {
    std::string cur;
    char end = 0;
    int paren = 0, lines = 0;
    for (i = 0; i < z.size(); ++i) {
      char c = z[i];
      if (c == end) {
        end = 0;
      } else if (c == '"' || c == '\'' || c == '`') {
        end = c;
      } else if (c == '[') {
        end = ']';
      } else if (c == '-' && i + 1 < z.size() && z[i + 1] == '-') {
        end = '\n';
      } else if (c == '(') {
        ++paren;
      } else if (c == ')') {
        --paren;
        if (lines > 0 && paren == 0 && !cur.empty()) {
          PrintSchemaLine(out, cur, "\n");
          cur.clear();
        }
      }
      cur += c;
      if (paren == 1 && end == 0 &&
          (c == '(' || c == '\n' || (c == ',' && !WsToEol(z.c_str() + i + 1)))) {
        if (c == '\n') cur.pop_back();
        PrintSchemaLine(out, cur, "\n  ");
        cur.clear();
        ++lines;
        while (i + 1 < z.size() && IsSpace(z[i + 1])) ++i;
      }
    }
    z = cur;
  }
  PrintSchemaLine(out, z, ";\n");
}

// The "/* name(col,...) */" note sqlite3 adds after a view's definition.
std::string FakeSchema(sqlite3* db, const std::string* schema, const std::string& name) {
  std::string q =
      "PRAGMA " + QuoteIdent(schema ? *schema : "main") + ".table_info=" + QuoteLiteral(name) + ";";
  std::string s;
  if (schema) {
    bool quote = NeedsQuote(schema->c_str()) && sqlite3_stricmp(schema->c_str(), "temp") != 0;
    s = Wrap(*schema, quote ? '"' : 0) + ".";
  }
  s += Wrap(name, NeedsQuote(name.c_str()) ? '"' : 0);
  int rows = 0;
  ForEachRow(db, q, [&](sqlite3_stmt* st) {
    std::string col = ColText(st, 1);
    s += rows++ ? "," : "(";
    s += Wrap(col, NeedsQuote(col.c_str()) ? '"' : 0);
  });
  return rows ? s + ")" : "";
}

// An entry's SQL as .schema shows it: "CREATE TABLE aux.t..." for other
// databases, and views followed by their column list.
std::string AddSchema(sqlite3* db, const std::string& sql, const std::string* schema,
                      const std::string& name) {
  static const char* const kPrefix[] = {"TABLE", "INDEX",   "UNIQUE INDEX",
                                        "VIEW",  "TRIGGER", "VIRTUAL TABLE"};
  if (sql.compare(0, 7, "CREATE ") != 0) return sql;
  for (const char* p : kPrefix) {
    const size_t n = std::strlen(p);
    if (sql.compare(7, n, p) != 0 || sql.size() <= n + 7 || sql[n + 7] != ' ') continue;
    std::string z;
    if (schema) {
      bool quote = NeedsQuote(schema->c_str()) && sqlite3_stricmp(schema->c_str(), "temp") != 0;
      z = sql.substr(0, n + 7) + " " + (quote ? QuoteIdent(*schema) : *schema) + "." +
          sql.substr(n + 8);
    }
    if (p[0] == 'V') {
      std::string fake = FakeSchema(db, schema, name);
      if (!fake.empty()) z = (z.empty() ? sql : z) + "\n/* " + fake + " */";
    }
    if (!z.empty()) return z;
  }
  return sql;
}

bool OptionMatch(const std::string& arg, const char* name) {
  const char* z = arg.c_str();
  if (*z != '-') return false;
  ++z;
  if (*z == '-') ++z;
  return std::strcmp(z, name) == 0;
}

}  // namespace

int DotTables(Shell& sh, const std::vector<std::string>& a, bool indexes) {
  OpenDb(sh, false);
  if (indexes && a.size() > 2) {
    std::fprintf(stderr, "Usage: .indexes ?LIKE-PATTERN?\n");
    return 1;
  }
  std::string q;
  for (const std::string& db : DatabaseNames(sh.db)) {
    if (!q.empty()) q += " UNION ALL ";
    if (sqlite3_stricmp(db.c_str(), "main") == 0) {
      q += "SELECT name FROM ";
    } else {
      q += "SELECT " + Wrap(db, '\'') + "||'.'||name FROM ";
    }
    q += Wrap(db, '"') + ".sqlite_schema ";
    q += indexes ? " WHERE type='index'   AND tbl_name LIKE ?1"
                 : " WHERE type IN ('table','view')   AND name NOT LIKE 'sqlite_%'   AND name "
                   "LIKE ?1";
  }
  q += " ORDER BY 1";
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(sh.db, q.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    std::fprintf(stderr, "Error: %s\n", sqlite3_errmsg(sh.db));
    return 1;
  }
  sqlite3_bind_text(st, 1, a.size() > 1 ? a[1].c_str() : "%", -1, SQLITE_TRANSIENT);
  std::vector<std::string> names;
  while (sqlite3_step(st) == SQLITE_ROW) names.push_back(ColText(st, 0));
  if (sqlite3_finalize(st) != SQLITE_OK) {
    std::fprintf(stderr, "Error: %s\n", sqlite3_errmsg(sh.db));
    return 1;
  }
  if (names.empty()) return 0;
  int maxlen = 0;
  for (const std::string& n : names) maxlen = std::max(maxlen, static_cast<int>(n.size()));
  int cols = 80 / (maxlen + 2);
  if (cols < 1) cols = 1;
  const int nrow = static_cast<int>(names.size());
  const int rows = (nrow + cols - 1) / cols;
  for (int i = 0; i < rows; ++i) {
    for (int j = i; j < nrow; j += rows) {
      std::fprintf(sh.out, "%s%-*s", j < rows ? "" : "  ", maxlen,
                   names[static_cast<size_t>(j)].c_str());
    }
    std::fputc('\n', sh.out);
  }
  return 0;
}

int DotSchema(Shell& sh, const std::vector<std::string>& a, bool full) {
  OpenDb(sh, false);
  bool indent = false, nosys = false;
  const std::string* pattern = nullptr;
  for (size_t i = 1; i < a.size(); ++i) {
    if (OptionMatch(a[i], "indent")) {
      indent = true;
    } else if (full) {
      std::fprintf(stderr, "Usage: .fullschema ?--indent?\n");
      return 1;
    } else if (OptionMatch(a[i], "nosys")) {
      nosys = true;
    } else if (OptionMatch(a[i], "debug")) {
    } else if (a[i][0] == '-') {
      std::fprintf(stderr, "Unknown option: \"%s\"\n", a[i].c_str());
      return 1;
    } else if (pattern == nullptr) {
      pattern = &a[i];
    } else {
      std::fprintf(stderr, "Usage: .schema ?--indent? ?--nosys? ?LIKE-PATTERN?\n");
      return 1;
    }
  }
  auto print = [&](const std::string& sql) {
    if (indent) {
      PrintPretty(sh.out, sql);
    } else {
      PrintSchemaLine(sh.out, sql, ";\n");
    }
  };
  if (full) {
    int rc = ForEachRow(
        sh.db,
        "SELECT sql FROM (SELECT sql sql, type type, tbl_name tbl_name, name name, rowid x FROM "
        "sqlite_schema UNION ALL SELECT sql, type, tbl_name, name, rowid FROM "
        "sqlite_temp_schema) WHERE type!='meta' AND sql NOTNULL AND name NOT LIKE 'sqlite_%' "
        "ORDER BY x",
        [&](sqlite3_stmt* st) { print(ColText(st, 0)); });
    bool stats = false;
    if (rc == SQLITE_OK) {
      ForEachRow(sh.db, "SELECT rowid FROM sqlite_schema WHERE name GLOB 'sqlite_stat[134]'",
                 [&](sqlite3_stmt*) { stats = true; });
    }
    if (!stats) {
      std::fputs("/* No STAT tables available */\n", sh.out);
    } else {
      std::fputs("ANALYZE sqlite_schema;\n", sh.out);
      Shell copy = sh;
      copy.mode = Mode::kInsert;
      copy.dest_table = "sqlite_stat1";
      ExecSql(copy, "SELECT * FROM sqlite_stat1", nullptr);
      copy.dest_table = "sqlite_stat4";
      ExecSql(copy, "SELECT * FROM sqlite_stat4", nullptr);
      std::fputs("ANALYZE sqlite_schema;\n", sh.out);
    }
    return 0;
  }
  if (pattern) {
    for (const char* s :
         {"sqlite_master", "sqlite_schema", "sqlite_temp_master", "sqlite_temp_schema"}) {
      if (sqlite3_stricmp(pattern->c_str(), s) == 0) {
        print("CREATE TABLE " + *pattern +
              " (\n  type text,\n  name text,\n  tbl_name text,\n  rootpage integer,\n  sql "
              "text\n)");
      }
    }
  }
  bool failed = false;
  for (const std::string& db : DatabaseNames(sh.db)) {
    std::string q = "SELECT sql, name, tbl_name FROM " +
                    Wrap(db, NeedsQuote(db.c_str()) ? '"' : 0) + ".sqlite_schema WHERE ";
    if (pattern) {
      const bool glob = pattern->find_first_of("*?[") != std::string::npos;
      q += pattern->find('.') != std::string::npos
               ? "lower(printf('%s.%s'," + QuoteLiteral(db) + ",tbl_name))"
               : std::string("lower(tbl_name)");
      q += glob ? " GLOB " : " LIKE ";
      q += QuoteLiteral(*pattern);
      if (!glob) q += " ESCAPE '\\' ";
      q += " AND ";
    }
    if (nosys) q += "name NOT LIKE 'sqlite_%' AND ";
    q += "sql IS NOT NULL ORDER BY rowid";
    const bool main = sqlite3_stricmp(db.c_str(), "main") == 0;
    int rc = ForEachRow(sh.db, q, [&](sqlite3_stmt* st) {
      print(AddSchema(sh.db, ColText(st, 0), main ? nullptr : &db, ColText(st, 1)));
    });
    if (rc != SQLITE_OK) failed = true;
  }
  if (failed) {
    std::fprintf(stderr, "Error: querying schema information\n");
    return 1;
  }
  return 0;
}

int DotDatabases(Shell& sh, const std::vector<std::string>&) {
  OpenDb(sh, false);
  using TxnState = int (*)(sqlite3*, const char*);
  auto txn = reinterpret_cast<TxnState>(dlsym(RTLD_DEFAULT, "sqlite3_txn_state"));
  auto ro = reinterpret_cast<TxnState>(dlsym(RTLD_DEFAULT, "sqlite3_db_readonly"));
  std::vector<std::pair<std::string, std::string>> dbs;
  ForEachRow(sh.db, "PRAGMA database_list", [&](sqlite3_stmt* st) {
    if (sqlite3_column_text(st, 1) && sqlite3_column_text(st, 2)) {
      dbs.emplace_back(ColText(st, 1), ColText(st, 2));
    }
  });
  for (const auto& [name, file] : dbs) {
    const int t = txn ? txn(sh.db, name.c_str()) : 0;
    const bool r = ro ? ro(sh.db, name.c_str()) == 1 : (sh.open_flags & SQLITE_OPEN_READONLY);
    std::fprintf(sh.out, "%s: %s %s%s\n", name.c_str(), file.empty() ? "\"\"" : file.c_str(),
                 r ? "r/o" : "r/w", t == 0 ? "" : (t == 1 ? " read-txn" : " write-txn"));
  }
  return 0;
}

}  // namespace shell

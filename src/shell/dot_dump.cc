// .dump: the database as SQL text that rebuilds it. Tables first (in
// rowid order of sqlite_schema, sqlite_sequence last), each followed by
// its rows as INSERT statements; then indexes, triggers and views.
#include <cstring>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {
namespace {

struct DumpState {
  bool data_only = false;
  bool no_sys = false;
  bool writable_schema = false;
  int errors = 0;
};

std::string MaybeQuote(const std::string& s) { return QuoteIdentIfNeeded(s); }

// The columns to dump: names[0] is the rowid alias to keep ("" for none).
std::vector<std::string> TableColumns(Shell& sh, const std::string& table) {
  std::vector<std::string> cols(1);
  int npk = 0;
  bool ipk = false;
  ForEachRow(sh.db, "PRAGMA table_info=" + QuoteLiteral(table), [&](sqlite3_stmt* st) {
    cols.push_back(ColText(st, 1));
    if (sqlite3_column_int(st, 5)) {
      ++npk;
      ipk = npk == 1 && sqlite3_stricmp(ColText(st, 2).c_str(), "INTEGER") == 0;
    }
  });
  bool keep = sh.preserve_rowids;
  if (keep && ipk) {
    // An INTEGER PRIMARY KEY aliases the rowid unless a "pk" index exists
    // (WITHOUT ROWID, or INTEGER PRIMARY KEY DESC).
    bool pk_index = false;
    ForEachRow(sh.db,
               "SELECT 1 FROM pragma_index_list(" + QuoteLiteral(table) + ") WHERE origin='pk'",
               [&](sqlite3_stmt*) { pk_index = true; });
    keep = pk_index;
  }
  if (keep) {
    for (const char* r : {"rowid", "_rowid_", "oid"}) {
      bool taken = false;
      for (size_t i = 1; i < cols.size(); ++i) {
        if (sqlite3_stricmp(r, cols[i].c_str()) == 0) taken = true;
      }
      if (taken) continue;
      sqlite3_stmt* st = nullptr;
      std::string probe = std::string("SELECT ") + r + " FROM " + QuoteIdent(table);
      if (sqlite3_prepare_v2(sh.db, probe.c_str(), -1, &st, nullptr) == SQLITE_OK) cols[0] = r;
      sqlite3_finalize(st);
      break;
    }
  }
  return cols;
}

void DumpTableRows(Shell& sh, DumpState& ds, const std::string& table) {
  std::vector<std::string> cols = TableColumns(sh, table);
  if (cols.size() == 1) {
    ++ds.errors;
    return;
  }
  std::string dest = MaybeQuote(table);
  std::string select = "SELECT ";
  if (!cols[0].empty()) {
    dest += "(" + cols[0];
    for (size_t i = 1; i < cols.size(); ++i) dest += "," + MaybeQuote(cols[i]);
    dest += ")";
    select += cols[0] + ",";
  }
  for (size_t i = 1; i < cols.size(); ++i) {
    select += MaybeQuote(cols[i]);
    if (i + 1 < cols.size()) select += ",";
  }
  select += " FROM " + MaybeQuote(table);
  Shell copy = sh;
  copy.dest_table = dest;
  copy.mode = copy.cmode = Mode::kInsert;
  copy.headers = false;
  copy.echo = false;
  copy.eqp = 0;
  copy.autoexplain = 0;
  int rc = ExecSql(copy, select.c_str(), nullptr);
  if (rc) ++ds.errors;
}

void DumpSchemaRow(Shell& sh, DumpState& ds, const std::string& name, const std::string& type,
                   const std::string& sql) {
  if (name == "sqlite_sequence" && !ds.no_sys) {
    if (!ds.data_only) std::fputs("DELETE FROM sqlite_sequence;\n", sh.out);
  } else if (name.size() == 12 && name.compare(0, 11, "sqlite_stat") == 0 && !ds.no_sys) {
    if (!ds.data_only) std::fputs("ANALYZE sqlite_schema;\n", sh.out);
  } else if (name.compare(0, 7, "sqlite_") == 0) {
    return;
  } else if (ds.data_only) {
  } else if (sql.compare(0, 20, "CREATE VIRTUAL TABLE") == 0) {
    if (!ds.writable_schema) {
      std::fputs("PRAGMA writable_schema=ON;\n", sh.out);
      ds.writable_schema = true;
    }
    char* z = sqlite3_mprintf(
        "INSERT INTO sqlite_schema(type,name,tbl_name,rootpage,sql)"
        "VALUES('table','%q','%q',0,'%q');",
        name.c_str(), name.c_str(), sql.c_str());
    std::fprintf(sh.out, "%s\n", z);
    sqlite3_free(z);
    return;
  } else {
    std::string z = sql;
    if (z.compare(0, 13, "CREATE TABLE ") == 0 && z.size() > 13 &&
        (z[13] == '\'' || z[13] == '"')) {
      z = "CREATE TABLE IF NOT EXISTS " + z.substr(13);
    }
    std::fprintf(sh.out, "%s;\n", z.c_str());
  }
  if (type == "table") DumpTableRows(sh, ds, name);
}

}  // namespace

int DotDump(Shell& sh, const std::vector<std::string>& a) {
  DumpState ds;
  bool newlines = false, preserve = false;
  std::string like;
  for (size_t i = 1; i < a.size(); ++i) {
    if (a[i][0] == '-') {
      const char* z = a[i].c_str() + 1;
      if (*z == '-') ++z;
      if (std::strcmp(z, "preserve-rowids") == 0) {
        preserve = true;
      } else if (std::strcmp(z, "newlines") == 0) {
        newlines = true;
      } else if (std::strcmp(z, "data-only") == 0) {
        ds.data_only = true;
      } else if (std::strcmp(z, "nosys") == 0) {
        ds.no_sys = true;
      } else {
        std::fprintf(stderr, "Unknown option \"%s\" on \".dump\"\n", a[i].c_str());
        return 1;
      }
    } else {
      const std::string p = QuoteLiteral(a[i]);
      std::string expr = "name LIKE " + p +
                         " ESCAPE '\\' OR EXISTS (  SELECT 1 FROM sqlite_schema WHERE     name "
                         "LIKE " +
                         p +
                         " ESCAPE '\\' AND    sql LIKE 'CREATE VIRTUAL TABLE%' AND    "
                         "substr(o.name, 1, length(name)+1) == (name||'_'))";
      like = like.empty() ? expr : like + " OR " + expr;
    }
  }
  OpenDb(sh, false);
  const bool saved_newlines = sh.dump_newlines, saved_preserve = sh.preserve_rowids;
  sh.dump_newlines = newlines;
  sh.preserve_rowids = preserve;
  if (!ds.data_only) std::fputs("PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n", sh.out);
  sqlite3_exec(sh.db, "SAVEPOINT dump; PRAGMA writable_schema=ON", nullptr, nullptr, nullptr);
  if (like.empty()) like = "true";
  struct Entry {
    std::string name, type, sql;
  };
  std::vector<Entry> tables;
  ForEachRow(sh.db,
             "SELECT name, type, sql FROM sqlite_schema AS o WHERE (" + like +
                 ") AND type=='table'  AND sql NOT NULL ORDER BY tbl_name='sqlite_sequence', "
                 "rowid",
             [&](sqlite3_stmt* st) {
               tables.push_back({ColText(st, 0), ColText(st, 1), ColText(st, 2)});
             });
  for (const Entry& e : tables) DumpSchemaRow(sh, ds, e.name, e.type, e.sql);
  if (!ds.data_only) {
    ForEachRow(sh.db,
               "SELECT sql FROM sqlite_schema AS o WHERE (" + like +
                   ") AND sql NOT NULL  AND type IN ('index','trigger','view')",
               [&](sqlite3_stmt* st) {
                 std::string z = ColText(st, 0);
                 std::fputs(z.c_str(), sh.out);
                 std::fputs(z.find("--") != std::string::npos ? "\n;\n" : ";\n", sh.out);
               });
  }
  if (ds.writable_schema) std::fputs("PRAGMA writable_schema=OFF;\n", sh.out);
  sqlite3_exec(sh.db, "PRAGMA writable_schema=OFF;", nullptr, nullptr, nullptr);
  sqlite3_exec(sh.db, "RELEASE dump;", nullptr, nullptr, nullptr);
  if (!ds.data_only) std::fputs(ds.errors ? "ROLLBACK; -- due to errors\n" : "COMMIT;\n", sh.out);
  sh.dump_newlines = saved_newlines;
  sh.preserve_rowids = saved_preserve;
  return 0;
}

}  // namespace shell

// .archive (and the -A option): SQL archives, in an "sqlar" table of a
// database or as ZIP files through the zipfile table, as sqlite3 3.40.1's
// shell manages them. Every action is SQL that -n (--dryrun) prints instead
// of running; the texts are the reference's, so dry runs compare equal.
//
// Steps of one invocation:
//   1. ParseArchiveArgs: one command (-c -u -i -r -t -x, or --help) and the
//      options (-v -f -a -C -g -n), tar-style ("tvf FILE") or with dashes;
//   2. choose the archive: -f FILE deduced a ZIP file -> the zipfile table
//      on the current connection; -f other FILE -> a connection of its own
//      to FILE; no -f -> the current database (or its "zip" table when the
//      shell opened a ZIP file);
//   3. run the command (ArList, ArExtract, ArCreate, ArRemove); failures
//      print the reference's messages and give a non-zero result code.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "shell/archive.h"
#include "shell/shell.h"
#include "shell/shell_ext.h"

namespace shell {
namespace {

// Runs (or under -n prints) one statement; errors print as the reference.
int ArExec(ArCommand& ar, const std::string& sql) {
  if (ar.dry_run) {
    std::fprintf(ar.sh->out, "%s\n", sql.c_str());
    return SQLITE_OK;
  }
  char* err = nullptr;
  const int rc = sqlite3_exec(ar.db, sql.c_str(), nullptr, nullptr, &err);
  if (err != nullptr) {
    std::fprintf(stdout, "ERROR: %s\n", err);
    sqlite3_free(err);
  }
  return rc;
}

std::string Printf(const char* fmt, const std::string& a) {
  char* z = sqlite3_mprintf(fmt, a.c_str());
  std::string s = z ? z : "";
  sqlite3_free(z);
  return s;
}

sqlite3_stmt* Prepare(ArCommand& ar, int* rc, const std::string& sql) {
  sqlite3_stmt* st = nullptr;
  if (*rc != SQLITE_OK) return nullptr;
  *rc = sqlite3_prepare_v2(ar.db, sql.c_str(), -1, &st, nullptr);
  if (*rc != SQLITE_OK) {
    std::fprintf(stderr, "sql error: %s (%d)\n", sqlite3_errmsg(ar.db), sqlite3_errcode(ar.db));
    st = nullptr;
  }
  return st;
}

void Reset(int* rc, sqlite3_stmt* st) {
  const int r = sqlite3_reset(st);
  if (*rc == SQLITE_OK) {
    if (r != SQLITE_OK) {
      std::fprintf(stderr, "SQL error: %s\n", sqlite3_errmsg(sqlite3_db_handle(st)));
    }
    *rc = r;
  }
}

void Finalize(int* rc, sqlite3_stmt* st) {
  if (st == nullptr) return;
  sqlite3* db = sqlite3_db_handle(st);
  const int r = sqlite3_finalize(st);
  if (*rc == SQLITE_OK) {
    if (r != SQLITE_OK) std::fprintf(stderr, "SQL error: %s\n", sqlite3_errmsg(db));
    *rc = r;
  }
}

// Every name given must be in the archive (trailing '/'s are dropped from
// the names first, for the WHERE clause too).
int CheckEntries(ArCommand& ar) {
  int rc = SQLITE_OK;
  if (ar.names.empty()) return rc;
  const char* sel = ar.glob ? "SELECT name FROM %s WHERE glob($name,name)"
                            : "SELECT name FROM %s WHERE name=$name";
  sqlite3_stmt* st = Prepare(ar, &rc, Printf(sel, ar.src_table));
  const int j = st ? sqlite3_bind_parameter_index(st, "$name") : 0;
  for (size_t i = 0; i < ar.names.size() && rc == SQLITE_OK; ++i) {
    std::string& z = ar.names[i];
    while (!z.empty() && z.back() == '/') z.pop_back();
    sqlite3_bind_text(st, j, z.c_str(), -1, SQLITE_STATIC);
    const bool found = sqlite3_step(st) == SQLITE_ROW;
    Reset(&rc, st);
    if (rc == SQLITE_OK && !found) {
      std::fprintf(stderr, "not found in archive: %s\n", z.c_str());
      rc = SQLITE_ERROR;
    }
  }
  Finalize(&rc, st);
  return rc;
}

// The members the names select: "1" for all of them.
std::string WhereClause(const ArCommand& ar) {
  if (ar.names.empty()) return "1";
  const char* op = ar.glob ? "GLOB" : "=";
  std::string where;
  for (size_t i = 0; i < ar.names.size(); ++i) {
    const std::string& z = ar.names[i];
    char* part =
        sqlite3_mprintf("%s name %s '%q' OR substr(name,1,%d) %s '%q/'", i == 0 ? "" : " OR ", op,
                        z.c_str(), static_cast<int>(z.size()) + 1, op, z.c_str());
    where += part;
    sqlite3_free(part);
  }
  return where;
}

int ArList(ArCommand& ar) {
  int rc = CheckEntries(ar);
  const std::string cols =
      ar.verbose ? "lsmode(mode), sz, datetime(mtime, 'unixepoch'), name" : "name";
  const std::string sql = "SELECT " + cols + " FROM " + ar.src_table + " WHERE " + WhereClause(ar);
  sqlite3_stmt* st = Prepare(ar, &rc, sql);
  if (ar.dry_run) {
    const char* text = st ? sqlite3_sql(st) : nullptr;
    std::fprintf(ar.sh->out, "%s\n", text ? text : "(null)");
  } else {
    while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
      if (ar.verbose) {
        std::fprintf(ar.sh->out, "%s % 10d  %s  %s\n", ColText(st, 0).c_str(),
                     sqlite3_column_int(st, 1), ColText(st, 2).c_str(), ColText(st, 3).c_str());
      } else {
        std::fprintf(ar.sh->out, "%s\n", ColText(st, 0).c_str());
      }
    }
  }
  Finalize(&rc, st);
  return rc;
}

// Two passes over the selected members: the first writes everything, the
// second only directories again (writing files into them changed their
// mtimes).
int ArExtract(ArCommand& ar) {
  int rc = CheckEntries(ar);
  const std::string sql = std::string("SELECT  ($dir || name), writefile(($dir || name), ") +
                          (ar.zip ? "data" : "sqlar_uncompress(data, sz)") +
                          ", mode, mtime) FROM " + ar.src_table + " WHERE (" + WhereClause(ar) +
                          ") AND (data IS NULL OR $dirOnly = 0) AND name NOT GLOB '*..[/\\]*'";
  if (rc != SQLITE_OK) return rc;
  sqlite3_stmt* st = Prepare(ar, &rc, sql);
  if (st == nullptr) return rc;
  const std::string dir = ar.has_dir ? ar.dir + "/" : "";
  sqlite3_bind_text(st, sqlite3_bind_parameter_index(st, "$dir"), dir.c_str(), -1, SQLITE_STATIC);
  for (int pass = 0; pass < 2; ++pass) {
    sqlite3_bind_int(st, sqlite3_bind_parameter_index(st, "$dirOnly"), pass);
    if (ar.dry_run) {
      std::fprintf(ar.sh->out, "%s\n", sqlite3_sql(st));
    } else {
      while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        if (pass == 0 && ar.verbose) std::fprintf(ar.sh->out, "%s\n", ColText(st, 0).c_str());
      }
    }
    Reset(&rc, st);
  }
  Finalize(&rc, st);
  return rc;
}

int ArRemove(ArCommand& ar) {
  int rc = CheckEntries(ar);
  if (ar.names.empty() || rc != SQLITE_OK) return rc;
  const std::string sql = "DELETE FROM " + ar.src_table + " WHERE " + WhereClause(ar) + ";";
  if (ar.dry_run) {
    std::fprintf(ar.sh->out, "%s\n", sql.c_str());
    return SQLITE_OK;
  }
  char* err = nullptr;
  rc = sqlite3_exec(ar.db, "SAVEPOINT ar;", nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) {
    rc = sqlite3_exec(ar.db, sql.c_str(), nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
      sqlite3_exec(ar.db, "ROLLBACK TO ar; RELEASE ar;", nullptr, nullptr, nullptr);
    } else {
      rc = sqlite3_exec(ar.db, "RELEASE ar;", nullptr, nullptr, nullptr);
    }
  }
  if (err != nullptr) {
    std::fprintf(stdout, "ERROR: %s\n", err);
    sqlite3_free(err);
  }
  return rc;
}

constexpr const char* kCreateSqlar =
    "CREATE TABLE IF NOT EXISTS sqlar(\n"
    "  name TEXT PRIMARY KEY,  -- name of the file\n"
    "  mode INT,               -- access permissions\n"
    "  mtime INT,              -- last modification time\n"
    "  sz INT,                 -- original file size\n"
    "  data BLOB               -- compressed content\n"
    ")";

// The INSERT adding the files under `path` (as fsdir lists them).
std::string InsertSql(const ArCommand& ar, const std::string& table, const std::string& path,
                      bool only_changed) {
  const std::string name = ar.verbose ? "shell_putsnl(name)" : "name";
  std::string sql = "REPLACE INTO " + table +
                    (ar.zip ? "(name,mode,mtime,data)\n" : "(name,mode,mtime,sz,data)\n") +
                    "  SELECT\n    " + name + ",\n    mode,\n    mtime,\n";
  if (ar.zip) {
    sql += "    data\n";
  } else {
    sql +=
        "    CASE substr(lsmode(mode),1,1)\n"
        "      WHEN '-' THEN length(data)\n"
        "      WHEN 'd' THEN 0\n"
        "      ELSE -1 END,\n"
        "    sqlar_compress(data)\n";
  }
  char* from = sqlite3_mprintf("  FROM fsdir(%Q,%Q) AS disk\n", path.c_str(),
                               ar.has_dir ? ar.dir.c_str() : nullptr);
  sql += from;
  sqlite3_free(from);
  sql += "  WHERE lsmode(mode) NOT LIKE '?%'";
  if (only_changed) {
    sql += " AND NOT EXISTS(SELECT 1 FROM " + table +
           " AS mem WHERE mem.name=disk.name AND mem.mtime=disk.mtime AND mem.mode=disk.mode)";
  }
  return sql + ";";
}

// -c (update false), -i (update, not only_changed) and -u.
int ArCreate(ArCommand& ar, bool update, bool only_changed) {
  std::string table = "sqlar";
  bool own_table = false;
  ArExec(ar, "PRAGMA page_size=512");
  int rc = ArExec(ar, "SAVEPOINT ar;");
  if (rc != SQLITE_OK) return rc;
  if (ar.zip) {
    table = "zip";
    if (ar.has_file) {
      sqlite3_uint64 r = 0;
      sqlite3_randomness(sizeof r, &r);
      char name[40];
      std::snprintf(name, sizeof name, "zip%016llx", static_cast<unsigned long long>(r));
      table = name;
      own_table = true;
      rc = ArExec(ar, "CREATE VIRTUAL TABLE temp." + table + " USING zipfile(" +
                          Printf("%Q", ar.file) + ")");
    }
  } else {
    if (!update) rc = ArExec(ar, "DROP TABLE IF EXISTS sqlar");
    if (rc == SQLITE_OK) rc = ArExec(ar, kCreateSqlar);
  }
  for (size_t i = 0; i < ar.names.size() && rc == SQLITE_OK; ++i) {
    rc = ArExec(ar, InsertSql(ar, table, ar.names[i], only_changed));
  }
  if (rc != SQLITE_OK) {
    sqlite3_exec(ar.db, "ROLLBACK TO ar; RELEASE ar;", nullptr, nullptr, nullptr);
  } else {
    rc = ArExec(ar, "RELEASE ar;");
    if (own_table) ArExec(ar, "DROP TABLE " + table);
  }
  return rc;
}

}  // namespace

int RunArchive(Shell& sh, ArCommand& ar) {
  ar.sh = &sh;
  ar.db = sh.db;
  const DbType type = ar.has_file ? DeduceDbType(ar.file, true) : DbType::kNormal;
  const bool zip_file = type == DbType::kZip;
  if (type == DbType::kAppend) ar.append = true;
  sqlite3* own = nullptr;
  int rc = SQLITE_OK;
  if (zip_file || (!ar.has_file && sh.open_zip)) {
    if (ar.cmd == 'x' || ar.cmd == 't') {
      ar.src_table = ar.has_file ? Printf("zipfile(%Q)", ar.file) : "zip";
    }
    ar.zip = true;
  } else if (ar.has_file) {
    const bool writes = ar.cmd == 'c' || ar.cmd == 'i' || ar.cmd == 'r' || ar.cmd == 'u';
    const int flags = writes ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
    if (ar.dry_run) {
      std::fprintf(sh.out, "-- open database '%s'%s\n", ar.file.c_str(),
                   ar.append ? " using 'apndvfs'" : "");
    }
    rc = sqlite3_open_v2(ar.file.c_str(), &own, flags, ar.append ? "apndvfs" : nullptr);
    if (rc != SQLITE_OK) {
      std::fprintf(stderr, "cannot open file: %s (%s)\n", ar.file.c_str(), sqlite3_errmsg(own));
      sqlite3_close(own);
      return rc;
    }
    RegisterShellExtensions(own, &sh);
    ar.db = own;
  }
  if (ar.src_table.empty() && !ar.zip && ar.cmd != 'h') {
    if (ar.cmd != 'c' && sqlite3_table_column_metadata(ar.db, nullptr, "sqlar", "name", nullptr,
                                                       nullptr, nullptr, nullptr, nullptr)) {
      std::fprintf(stderr, "database does not contain an 'sqlar' table\n");
      if (own != nullptr) sqlite3_close(own);
      return SQLITE_ERROR;
    }
    ar.src_table = "sqlar";
  }
  switch (ar.cmd) {
    case 'c':
      rc = ArCreate(ar, false, false);
      break;
    case 'x':
      rc = ArExtract(ar);
      break;
    case 't':
      rc = ArList(ar);
      break;
    case 'h':
      ShowHelp(sh.out, "archive");
      break;
    case 'i':
      rc = ArCreate(ar, true, false);
      break;
    case 'r':
      rc = ArRemove(ar);
      break;
    default:
      rc = ArCreate(ar, true, true);
      break;
  }
  if (own != nullptr) sqlite3_close(own);
  return rc;
}

}  // namespace shell

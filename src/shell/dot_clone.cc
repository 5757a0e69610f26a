// .clone NEWDB: copies the open database's schema and rows into a new
// file, object by object (tables with their rows first, then indexes,
// views and triggers), reporting "NAME... done" for each; an object that
// cannot be created is reported and skipped, so a damaged database gives
// up as much as it can. Rows are inserted with OR IGNORE; a table whose
// scan fails part-way is read again from its last rowid down.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "shell/shell.h"

namespace shell {
namespace {

void BindColumn(sqlite3_stmt* from, int i, sqlite3_stmt* to) {
  switch (sqlite3_column_type(from, i)) {
    case SQLITE_INTEGER:
      sqlite3_bind_int64(to, i + 1, sqlite3_column_int64(from, i));
      break;
    case SQLITE_FLOAT:
      sqlite3_bind_double(to, i + 1, sqlite3_column_double(from, i));
      break;
    case SQLITE_TEXT:
      sqlite3_bind_text(to, i + 1, reinterpret_cast<const char*>(sqlite3_column_text(from, i)), -1,
                        SQLITE_STATIC);
      break;
    case SQLITE_BLOB:
      sqlite3_bind_blob(to, i + 1, sqlite3_column_blob(from, i), sqlite3_column_bytes(from, i),
                        SQLITE_STATIC);
      break;
    default:
      sqlite3_bind_null(to, i + 1);
      break;
  }
}

// Copies the rows of `table`; with the forward scan failing, once more in
// descending rowid order.
void CloneRows(Shell& sh, sqlite3* dst, const std::string& table) {
  char* q = sqlite3_mprintf("SELECT * FROM \"%w\"", table.c_str());
  std::string query = q;
  sqlite3_free(q);
  sqlite3_stmt* read = nullptr;
  if (sqlite3_prepare_v2(sh.db, query.c_str(), -1, &read, nullptr) != SQLITE_OK) {
    std::fprintf(stderr, "Error %d: %s on [%s]\n", sqlite3_extended_errcode(sh.db),
                 sqlite3_errmsg(sh.db), query.c_str());
    return;
  }
  int n = sqlite3_column_count(read);
  std::string insert = "INSERT OR IGNORE INTO \"" + table + "\" VALUES(?";
  for (int i = 1; i < n; ++i) insert += ",?";
  insert += ");";
  sqlite3_stmt* write = nullptr;
  if (sqlite3_prepare_v2(dst, insert.c_str(), -1, &write, nullptr) != SQLITE_OK) {
    std::fprintf(stderr, "Error %d: %s on [%s]\n", sqlite3_extended_errcode(dst),
                 sqlite3_errmsg(dst), query.c_str());
    sqlite3_finalize(read);
    return;
  }
  long long copied = 0;
  for (int pass = 0; pass < 2; ++pass) {
    int rc;
    while ((rc = sqlite3_step(read)) == SQLITE_ROW) {
      for (int i = 0; i < n; ++i) BindColumn(read, i, write);
      rc = sqlite3_step(write);
      if (rc != SQLITE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE) {
        std::fprintf(stderr, "Error %d: %s\n", sqlite3_extended_errcode(dst), sqlite3_errmsg(dst));
      }
      sqlite3_reset(write);
      // A spinner on standard output every 10,000 rows, as sqlite3 shows.
      if (++copied % 10000 == 0) {
        std::printf("%c\b", "|/-\\"[(copied / 10000) % 4]);
        std::fflush(stdout);
      }
    }
    if (rc == SQLITE_DONE) break;
    sqlite3_finalize(read);
    read = nullptr;
    q = sqlite3_mprintf("SELECT * FROM \"%w\" ORDER BY rowid DESC;", table.c_str());
    query = q;
    sqlite3_free(q);
    if (sqlite3_prepare_v2(sh.db, query.c_str(), -1, &read, nullptr) != SQLITE_OK) {
      std::fprintf(stderr, "Warning: cannot step \"%s\" backwards", table.c_str());
      break;
    }
  }
  sqlite3_finalize(read);
  sqlite3_finalize(write);
}

// Runs `sql` of each schema row matching `where` in the new database;
// `with_rows` copies each table's rows as well.
bool CloneObjectsOnce(Shell& sh, sqlite3* dst, const std::string& where, bool with_rows,
                      bool backwards) {
  std::string query = "SELECT name, sql FROM sqlite_schema WHERE " + where;
  if (backwards) query += " ORDER BY rowid DESC";
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(sh.db, query.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    std::fprintf(stderr, "Error: (%d) %s on [%s]\n", sqlite3_extended_errcode(sh.db),
                 sqlite3_errmsg(sh.db), query.c_str());
    return true;
  }
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    const unsigned char* zname = sqlite3_column_text(st, 0);
    const unsigned char* sql = sqlite3_column_text(st, 1);
    if (zname == nullptr || sql == nullptr) continue;  // automatic indexes have no SQL
    std::string name = reinterpret_cast<const char*>(zname);
    std::string text = reinterpret_cast<const char*>(sql);
    std::printf("%s... ", name.c_str());
    std::fflush(stdout);
    char* err = nullptr;
    sqlite3_exec(dst, text.c_str(), nullptr, nullptr, &err);
    if (err != nullptr) {
      std::fprintf(stderr, "Error: %s\nSQL: [%s]\n", err, text.c_str());
      sqlite3_free(err);
    }
    if (with_rows) CloneRows(sh, dst, name);
    std::printf("done\n");
  }
  sqlite3_finalize(st);
  return backwards || rc == SQLITE_DONE;
}

void CloneObjects(Shell& sh, sqlite3* dst, const std::string& where, bool with_rows) {
  if (!CloneObjectsOnce(sh, dst, where, with_rows, false)) {
    CloneObjectsOnce(sh, dst, where, with_rows, true);
  }
}

}  // namespace

int DotClone(Shell& sh, const std::vector<std::string>& args) {
  if (args.size() != 2) {
    std::fputs("Usage: .clone FILENAME\n", stderr);
    return 1;
  }
  OpenDb(sh, false);
  const std::string& target = args[1];
  if (access(target.c_str(), F_OK) == 0) {
    std::fprintf(stderr, "File \"%s\" already exists.\n", target.c_str());
    return 0;
  }
  sqlite3* dst = nullptr;
  if (sqlite3_open(target.c_str(), &dst) != SQLITE_OK) {
    std::fprintf(stderr, "Cannot create output database: %s\n", sqlite3_errmsg(dst));
  } else {
    sqlite3_exec(sh.db, "PRAGMA writable_schema=ON;", nullptr, nullptr, nullptr);
    sqlite3_exec(dst, "BEGIN EXCLUSIVE;", nullptr, nullptr, nullptr);
    CloneObjects(sh, dst, "type='table'", true);
    CloneObjects(sh, dst, "type!='table'", false);
    sqlite3_exec(dst, "COMMIT;", nullptr, nullptr, nullptr);
    sqlite3_exec(sh.db, "PRAGMA writable_schema=OFF;", nullptr, nullptr, nullptr);
  }
  sqlite3_close(dst);
  return 0;
}

}  // namespace shell

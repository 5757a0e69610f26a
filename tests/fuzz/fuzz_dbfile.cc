// fuzz_dbfile: the input is the bytes of a database file. They are loaded
// with sqlite3_deserialize, checked with PRAGMA integrity_check, every table
// is read (a scan, a count, an ordered scan), then a write runs in a
// transaction (copying, updating and deleting a few rows) and is committed,
// followed by another check. Corruption must give an error, never a crash.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_common.h"

namespace {

std::string Quoted(const unsigned char* name) {
  std::string out = "\"";
  for (const unsigned char* p = name; *p != 0; ++p) {
    if (*p == '"') out += '"';
    out += static_cast<char>(*p);
  }
  return out + "\"";
}

// Names of the tables in sqlite_schema (at most 20).
std::vector<std::string> TableNames(sqlite3* db) {
  std::vector<std::string> names;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_schema WHERE type='table' LIMIT 20", -1,
                         &stmt, nullptr) != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return names;
  }
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    const unsigned char* n = sqlite3_column_text(stmt, 0);
    if (n != nullptr) names.push_back(Quoted(n));
  }
  sqlite3_finalize(stmt);
  return names;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1u << 20)) return 0;
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
    sqlite3_close(db);
    return 0;
  }
  basalt_fuzz::Budget budget;
  basalt_fuzz::ConfigureConnection(db, &budget, 3000000, 3000);
  basalt_fuzz::DenyFileAccess(db);
  auto* buf = static_cast<unsigned char*>(sqlite3_malloc64(size + 1));
  if (buf == nullptr) {
    sqlite3_close(db);
    return 0;
  }
  if (size > 0) std::memcpy(buf, data, size);
  int rc = sqlite3_deserialize(db, "main", buf, static_cast<sqlite3_int64>(size),
                               static_cast<sqlite3_int64>(size + 1),
                               SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE);
  if (rc == SQLITE_OK) {
    basalt_fuzz::RunScript(db, "PRAGMA integrity_check; PRAGMA page_count;", 100);
    std::vector<std::string> tables = TableNames(db);
    for (const std::string& t : tables) {
      std::string sql = "SELECT * FROM " + t + " LIMIT 200; SELECT count(*) FROM " + t +
                        "; SELECT * FROM " + t + " ORDER BY 1 DESC LIMIT 20;";
      basalt_fuzz::RunScript(db, sql.c_str(), 200);
    }
    if (!tables.empty()) {
      const std::string& t = tables.front();
      std::string sql = "BEGIN; INSERT INTO " + t + " SELECT * FROM " + t + " LIMIT 3; UPDATE " +
                        t + " SET rowid = -rowid WHERE rowid % 2 = 0; DELETE FROM " + t +
                        " WHERE rowid % 3 = 0; COMMIT; PRAGMA integrity_check;";
      basalt_fuzz::RunScript(db, sql.c_str(), 100);
    }
  }
  sqlite3_close(db);
  return 0;
}

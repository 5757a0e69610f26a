// fuzz_sql: the input is SQL text, run statement by statement on a fresh
// in-memory database through the C API. Limits and a step budget
// (fuzz_common) keep every input bounded in time and memory.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 50000) return 0;
  std::string sql(reinterpret_cast<const char*>(data), size);
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
    sqlite3_close(db);
    return 0;
  }
  basalt_fuzz::Budget budget;
  basalt_fuzz::ConfigureConnection(db, &budget, 300000, 1000);
  basalt_fuzz::DenyFileAccess(db);
  basalt_fuzz::RunScript(db, sql.c_str(), 1000);
  sqlite3_close(db);
  return 0;
}

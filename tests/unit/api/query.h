// Small helpers for the comparison tests: run SQL and render the result or
// the error as one line of text.
#pragma once

#include <string>

#include "engines.h"

namespace basalt::apitest {

// Every row of the first statement of sql, "a|b;c|d" (NULL as "NULL"), or
// "error <code>: <message>".
inline std::string Rows(const Api& a, sqlite3* db, const char* sql) {
  sqlite3_stmt* s = nullptr;
  int rc = a.prepare_v2(db, sql, -1, &s, nullptr);
  if (rc != SQLITE_OK) {
    return "error " + std::to_string(rc) + ": " + a.errmsg(db);
  }
  std::string out;
  while ((rc = a.step(s)) == SQLITE_ROW) {
    if (!out.empty()) out += ";";
    for (int i = 0; i < a.column_count(s); ++i) {
      if (i > 0) out += "|";
      const unsigned char* t = a.column_text(s, i);
      out += t != nullptr ? reinterpret_cast<const char*>(t) : "NULL";
    }
  }
  if (rc != SQLITE_DONE) out += "error " + std::to_string(rc) + ": " + a.errmsg(db);
  a.finalize(s);
  return out;
}

// sqlite3_exec's code and the connection's message.
inline std::string Exec(const Api& a, sqlite3* db, const char* sql) {
  int rc = a.exec(db, sql, nullptr, nullptr, nullptr);
  return rc == SQLITE_OK ? "ok" : "error " + std::to_string(rc) + ": " + a.errmsg(db);
}

inline sqlite3* OpenMemory(const Api& a) {
  sqlite3* db = nullptr;
  a.open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  return db;
}

}  // namespace basalt::apitest

// The objects behind the C API's opaque handles (internal to src/api).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalog/function.h"
#include "main/connection.h"
#include "main/statement.h"
#include "record/value.h"
#include "sqlite3.h"

struct sqlite3 {
  std::unique_ptr<basalt::Connection> conn;
  int err_code = SQLITE_OK;  // extended code of the most recent error
  std::string err_msg;
  int err_offset = -1;
  bool has_msg = false;
  std::vector<sqlite3_stmt*> stmts;  // open statements, for next_stmt / close checks
  int busy_timeout_ms = 0;
  bool extended_codes = false;
};

struct sqlite3_stmt {
  sqlite3* db = nullptr;
  std::unique_ptr<basalt::Statement> stmt;
  std::vector<basalt::Value> text_cache;  // per column: text/blob conversions
  std::string expanded;
};

namespace basalt::api {

// Records an error on the connection; returns the primary or extended code
// the caller should return.
int SetError(sqlite3* db, int code, const std::string& msg);
int SetError(sqlite3* db, const Status& st);
void ClearError(sqlite3* db);

inline Value* AsValue(sqlite3_value* v) { return reinterpret_cast<Value*>(v); }
inline sqlite3_value* AsApi(Value* v) { return reinterpret_cast<sqlite3_value*>(v); }
inline FuncContext* AsCtx(sqlite3_context* c) { return reinterpret_cast<FuncContext*>(c); }

}  // namespace basalt::api

// sqlite3_limit: a connection's run-time limits (main/limits.h holds them;
// the parser, ATTACH, binding, results and sqlite3_expanded_sql check them).
#include "api/guard.h"
#include "api/handles.h"

extern "C" {

int sqlite3_limit(sqlite3* db, int id, int value) {
  if (!basalt::api::HasConnection(db)) return -1;
  return basalt::api::Guard(db, -1, [&] {
    int old = db->conn->limits().Set(id, value);
    if (id == SQLITE_LIMIT_COLUMN) {
      db->conn->options().max_columns = db->conn->limits().get(basalt::LimitId::kColumn);
    } else if (id == SQLITE_LIMIT_EXPR_DEPTH) {
      db->conn->options().max_expr_depth = db->conn->limits().get(basalt::LimitId::kExprDepth);
    }
    return old;
  });
}

}  // extern "C"

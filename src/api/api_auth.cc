// sqlite3_set_authorizer: the connection's compile-time access checks
// (main/authorize.cc asks about statements, the binder about SELECTs and
// column reads). Setting or clearing it expires every prepared statement,
// so each is checked again under the new rules before it next runs.
#include "api/guard.h"
#include "api/handles.h"

extern "C" {

int sqlite3_set_authorizer(sqlite3* db,
                           int (*cb)(void*, int, const char*, const char*, const char*,
                                     const char*),
                           void* arg) {
  if (!basalt::api::HasConnection(db)) return SQLITE_MISUSE;
  return basalt::api::Guard(db, basalt::api::kCodeOnThrow, [&] {
    basalt::AuthHook& h = db->conn->auth();
    h.fn = cb;
    h.arg = cb != nullptr ? arg : nullptr;
    db->cb.auth = cb;
    db->cb.auth_arg = h.arg;
    db->conn->ExpireStatements();
    return SQLITE_OK;
  });
}

}  // extern "C"

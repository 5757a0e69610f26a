// Automatic extensions (api_ext.cc), run by sqlite3_open*.
#pragma once

#include "sqlite3.h"

namespace basalt::api {

// Runs every sqlite3_auto_extension entry point on the new connection; the
// first failure is the connection's error and the returned code.
int RunAutoExtensions(sqlite3* db);

}  // namespace basalt::api

// sqlite3_db_filename's answers (api_filename.cc).
#pragma once

#include "api/handles.h"

namespace basalt::api {

// The sqlite3_filename of database d of db, in SQLite's layout (URI
// parameters, journal and WAL names), valid while d stays attached.
const char* FilenameOf(sqlite3* db, const basalt::Database* d);

}  // namespace basalt::api

// The function table loadable extensions receive (ext_routines.cc).
#pragma once

struct sqlite3_api_routines;

namespace basalt::api {

const sqlite3_api_routines* ExtensionRoutines();

}  // namespace basalt::api

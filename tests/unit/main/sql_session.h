// A connection driven by SQL text, for tests of the main layer.
#pragma once

#include <memory>
#include <string>

#include "main/connection.h"

namespace basalt::testing {

struct ExecResult {
  int code = 0;        // 0, or the (extended) code of the first failure
  std::string error;   // its message
  std::string output;  // rows, one per line, values separated by '|'
};

// Runs every statement of `sql`, stopping at the first error.
ExecResult Exec(Connection* c, const std::string& sql);

// Opens `path` on `vfs` read-write (creating it).
std::unique_ptr<Connection> OpenDb(Vfs* vfs, const std::string& path);

}  // namespace basalt::testing

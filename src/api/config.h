// Process-wide settings made with sqlite3_config that Basalt keeps beyond
// the threading mode (api_config.cc).
#pragma once

#include <cstdarg>

namespace basalt::api {

// Handles the sqlite3_config options other than the threading modes;
// called with the init mutex held and the library not initialized.
int ConfigOption(int op, va_list ap);

}  // namespace basalt::api

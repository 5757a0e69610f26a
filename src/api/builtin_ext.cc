// The list of built-in extensions (see builtin_ext.h).
#include "api/builtin_ext.h"

#include "common/assert.h"

namespace basalt::api {

namespace {

// Filled during static initialization only, read afterwards: no lock.
BuiltinExtensionInit g_inits[kMaxBuiltinExtensions] = {};
int g_count = 0;

}  // namespace

void AddBuiltinExtension(BuiltinExtensionInit init) noexcept {
  BASALT_DCHECK(g_count < kMaxBuiltinExtensions);
  if (init != nullptr && g_count < kMaxBuiltinExtensions) g_inits[g_count++] = init;
}

int RunBuiltinExtensions(sqlite3* db) noexcept {
  for (int i = 0; i < g_count; ++i) {
    int rc = g_inits[i](db);
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

}  // namespace basalt::api

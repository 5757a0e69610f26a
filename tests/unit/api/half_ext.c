/* A loadable extension for the load_extension test, compiled against the
   system's sqlite3ext.h: half(x) = x / 2, called through the routines. */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

static void half(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  (void)argc;
  sqlite3_result_double(ctx, sqlite3_value_double(argv[0]) / 2);
}

int sqlite3_halfext_init(sqlite3* db, char** err, const sqlite3_api_routines* api) {
  (void)err;
  SQLITE_EXTENSION_INIT2(api);
  return sqlite3_create_function(db, "half", 1, SQLITE_UTF8, 0, half, 0, 0);
}

/* Compiles Basalt's public header as C (the test target builds this file with
** the C compiler) and uses a few of its declarations. Calls sit inside sizeof
** so that nothing needs the library at link time. */
#include "sqlite3.h"

int basalt_header_c_check(void) {
  sqlite3_destructor_type transient = SQLITE_TRANSIENT;
  sqlite3* db = 0;
  int calls_typecheck = sizeof(sqlite3_open(":memory:", &db)) == sizeof(int) &&
                        sizeof(sqlite3_column_double(0, 0)) == sizeof(double);
  return (transient != SQLITE_STATIC && calls_typecheck) ? SQLITE_VERSION_NUMBER : 0;
}

// The few sqlite3_* functions the auxiliary functions call, defined here to
// forward to the dlopen'ed system library: the code under test is compiled
// into this program unchanged, and this program links no SQLite.
#include "system_sqlite.h"

namespace basalt::fts5test {
SystemSqlite g_system;
}  // namespace basalt::fts5test

using basalt::fts5test::g_system;

extern "C" {

const unsigned char* sqlite3_value_text(sqlite3_value* v) { return g_system.value_text(v); }
int sqlite3_value_int(sqlite3_value* v) { return g_system.value_int(v); }
double sqlite3_value_double(sqlite3_value* v) { return g_system.value_double(v); }
void sqlite3_result_text(sqlite3_context* c, const char* s, int n, void (*d)(void*)) {
  g_system.result_text(c, s, n, d);
}
void sqlite3_result_double(sqlite3_context* c, double v) { g_system.result_double(c, v); }
void sqlite3_result_error(sqlite3_context* c, const char* s, int n) {
  g_system.result_error(c, s, n);
}
void sqlite3_result_error_code(sqlite3_context* c, int rc) { g_system.result_error_code(c, rc); }
void sqlite3_result_error_nomem(sqlite3_context* c) { g_system.result_error_nomem(c); }

}  // extern "C"

// The C API of both libraries loaded with dlopen (Basalt's libbasalt.so and
// the system libsqlite3.so.0), for the session and hook tests: each
// scenario runs on both, and what both produce is compared byte for byte.
#pragma once

#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <string>

#include "ext/session/session_api.h"
#include "sqlite3.h"

namespace basalt::sessiontest {

// X(field, symbol) for every entry point the tests call.
#define BASALT_SESSION_TEST_FUNCTIONS(X)                   \
  X(open_v2, sqlite3_open_v2)                              \
  X(close, sqlite3_close)                                  \
  X(exec, sqlite3_exec)                                    \
  X(free, sqlite3_free)                                    \
  X(errmsg, sqlite3_errmsg)                                \
  X(prepare_v2, sqlite3_prepare_v2)                        \
  X(step, sqlite3_step)                                    \
  X(finalize, sqlite3_finalize)                            \
  X(column_count, sqlite3_column_count)                    \
  X(column_value, sqlite3_column_value)                    \
  X(value_type, sqlite3_value_type)                        \
  X(value_text, sqlite3_value_text)                        \
  X(value_bytes, sqlite3_value_bytes)                      \
  X(value_int64, sqlite3_value_int64)                      \
  X(value_double, sqlite3_value_double)                    \
  X(update_hook, sqlite3_update_hook)                      \
  X(preupdate_hook, sqlite3_preupdate_hook)                \
  X(preupdate_old, sqlite3_preupdate_old)                  \
  X(preupdate_new, sqlite3_preupdate_new)                  \
  X(preupdate_count, sqlite3_preupdate_count)              \
  X(preupdate_depth, sqlite3_preupdate_depth)              \
  X(preupdate_blobwrite, sqlite3_preupdate_blobwrite)      \
  X(session_create, sqlite3session_create)                 \
  X(session_delete, sqlite3session_delete)                 \
  X(session_object_config, sqlite3session_object_config)   \
  X(session_enable, sqlite3session_enable)                 \
  X(session_indirect, sqlite3session_indirect)             \
  X(session_attach, sqlite3session_attach)                 \
  X(session_table_filter, sqlite3session_table_filter)     \
  X(session_changeset, sqlite3session_changeset)           \
  X(session_changeset_size, sqlite3session_changeset_size) \
  X(session_diff, sqlite3session_diff)                     \
  X(session_patchset, sqlite3session_patchset)             \
  X(session_isempty, sqlite3session_isempty)               \
  X(session_memory_used, sqlite3session_memory_used)       \
  X(session_changeset_strm, sqlite3session_changeset_strm) \
  X(session_patchset_strm, sqlite3session_patchset_strm)   \
  X(session_config, sqlite3session_config)                 \
  X(cs_start, sqlite3changeset_start)                      \
  X(cs_start_v2, sqlite3changeset_start_v2)                \
  X(cs_next, sqlite3changeset_next)                        \
  X(cs_op, sqlite3changeset_op)                            \
  X(cs_pk, sqlite3changeset_pk)                            \
  X(cs_old, sqlite3changeset_old)                          \
  X(cs_new, sqlite3changeset_new)                          \
  X(cs_conflict, sqlite3changeset_conflict)                \
  X(cs_fk_conflicts, sqlite3changeset_fk_conflicts)        \
  X(cs_finalize, sqlite3changeset_finalize)                \
  X(cs_invert, sqlite3changeset_invert)                    \
  X(cs_concat, sqlite3changeset_concat)                    \
  X(cs_apply, sqlite3changeset_apply)                      \
  X(cs_apply_v2, sqlite3changeset_apply_v2)                \
  X(cs_apply_strm, sqlite3changeset_apply_strm)            \
  X(cs_apply_v2_strm, sqlite3changeset_apply_v2_strm)      \
  X(cs_concat_strm, sqlite3changeset_concat_strm)          \
  X(cs_invert_strm, sqlite3changeset_invert_strm)          \
  X(cs_start_strm, sqlite3changeset_start_strm)            \
  X(cs_start_v2_strm, sqlite3changeset_start_v2_strm)      \
  X(cg_new, sqlite3changegroup_new)                        \
  X(cg_add, sqlite3changegroup_add)                        \
  X(cg_output, sqlite3changegroup_output)                  \
  X(cg_delete, sqlite3changegroup_delete)                  \
  X(cg_add_strm, sqlite3changegroup_add_strm)              \
  X(cg_output_strm, sqlite3changegroup_output_strm)        \
  X(rb_create, sqlite3rebaser_create)                      \
  X(rb_configure, sqlite3rebaser_configure)                \
  X(rb_rebase, sqlite3rebaser_rebase)                      \
  X(rb_delete, sqlite3rebaser_delete)                      \
  X(rb_rebase_strm, sqlite3rebaser_rebase_strm)

struct Lib {
  const char* name = "";
#define BASALT_SESSION_TEST_DECLARE(field, sym) decltype(&::sym) field = nullptr;
  BASALT_SESSION_TEST_FUNCTIONS(BASALT_SESSION_TEST_DECLARE)
#undef BASALT_SESSION_TEST_DECLARE
};

// Basalt's library / the system's; null when it cannot be loaded.
const Lib* BasaltLib();
const Lib* SqliteLib();

}  // namespace basalt::sessiontest

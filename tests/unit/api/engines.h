// The sqlite3 C API as a table of entry points, for tests that run one
// scenario on Basalt (linked into the test) and on the system libsqlite3
// (loaded with dlopen) and compare what both answer: the reference for
// every expectation is what the real library does.
#pragma once

#include <string>

#include "sqlite3.h"

namespace basalt::apitest {

// clang-format reflows these two lists differently on every run.
// clang-format off
#define BASALT_API_TEST_FUNCTIONS(X)                                                              \
  X(open_v2)                                                                                      \
  X(close)                                                                                        \
  X(close_v2)                                                                                     \
  X(exec)                                                                                         \
  X(prepare_v2)                                                                                   \
  X(step)                                                                                         \
  X(reset)                                                                                        \
  X(finalize)                                                                                     \
  X(bind_int)                                                                                     \
  X(bind_text)                                                                                    \
  X(bind_null)                                                                                    \
  X(bind_parameter_count)                                                                         \
  X(clear_bindings)                                                                               \
  X(column_count) X(column_int) X(column_int64) X(column_text) X(column_type) X(column_bytes)     \
      X(column_name) X(column_decltype) X(column_value) X(data_count) X(errmsg) X(errcode)        \
          X(extended_errcode) X(error_offset) X(extended_result_codes) X(next_stmt) X(db_handle)  \
              X(busy_timeout) X(busy_handler) X(interrupt) X(changes) X(total_changes)            \
                  X(get_autocommit) X(last_insert_rowid) X(db_mutex) X(mutex_alloc) X(mutex_free) \
                      X(mutex_enter) X(mutex_try) X(mutex_leave) X(threadsafe) X(config)          \
                          X(initialize) X(shutdown) X(create_function_v2) X(sql) X(stmt_busy)     \
                              X(stmt_readonly) X(stmt_isexplain) X(bind_parameter_name)           \
                                  X(expanded_sql) X(free) X(sleep) X(libversion)                  \
                                      X(create_window_function) X(aggregate_context)              \
                                          X(value_int64) X(result_int64)

// The entry points of the hooks, limits, tracing, collation, authorizer,
// backup, blob and serialize tests.
#define BASALT_API_TEST_FUNCTIONS_2(X)                                                             \
  X(limit)                                                                                         \
  X(progress_handler)                                                                              \
  X(commit_hook)                                                                                   \
  X(rollback_hook)                                                                                 \
  X(trace_v2)                                                                                      \
  X(trace)                                                                                         \
  X(profile)                                                                                       \
  X(create_collation)                                                                              \
  X(create_collation_v2)                                                                           \
  X(create_collation16) X(collation_needed) X(collation_needed16) X(set_authorizer)                \
      X(enable_shared_cache) X(backup_init) X(backup_step) X(backup_finish) X(backup_remaining)    \
          X(backup_pagecount) X(blob_open) X(blob_reopen) X(blob_bytes) X(blob_read) X(blob_write) \
              X(blob_close) X(serialize) X(deserialize) X(bind_blob) X(column_blob) X(bind_int64)  \
                  X(bind_zeroblob64) X(bind_text64)
// clang-format on

// clang-format off
// The string, status, configuration and database-information tests.
#define BASALT_API_TEST_FUNCTIONS_3(X)                                                 \
  X(str_new) X(str_finish) X(str_append) X(str_appendall) X(str_appendchar)            \
  X(str_appendf) X(str_reset) X(str_errcode) X(str_length) X(str_value) X(strglob)     \
  X(strlike) X(keyword_count) X(keyword_name) X(keyword_check) X(randomness)           \
  X(complete16) X(compileoption_get) X(compileoption_used) X(db_filename) X(db_name)   \
  X(db_readonly) X(txn_state) X(table_column_metadata) X(db_cacheflush)                \
  X(db_release_memory) X(file_control) X(expired) X(transfer_bindings) X(status64)     \
  X(status) X(memory_used) X(memory_highwater) X(db_status) X(stmt_status)             \
  X(db_config) X(log) X(soft_heap_limit64) X(hard_heap_limit64)
// clang-format on
// clang-format off
// The UTF-16, function-extra, extension, VFS and WAL tests.
#define BASALT_API_TEST_FUNCTIONS_4(X)                                                 \
  X(open16) X(prepare16_v2) X(prepare16) X(prepare16_v3) X(errmsg16) X(bind_text16)    \
  X(column_text16) X(column_bytes16) X(column_name16) X(column_decltype16)            \
  X(column_database_name16) X(column_table_name16) X(column_origin_name16)            \
  X(value_text16) X(value_text16le) X(value_text16be) X(value_bytes16)                \
  X(value_encoding) X(result_text16) X(result_text16le) X(result_text16be)            \
  X(result_error16) X(result_text64) X(create_function16) X(get_auxdata)              \
  X(set_auxdata) X(overload_function) X(aggregate_count) X(get_table) X(free_table)   \
  X(vfs_find) X(vfs_register) X(vfs_unregister) X(load_extension)                     \
  X(enable_load_extension) X(auto_extension) X(cancel_auto_extension)                 \
  X(reset_auto_extension) X(wal_checkpoint) X(wal_checkpoint_v2)                      \
  X(wal_autocheckpoint) X(wal_hook) X(unlock_notify) X(system_errno) X(test_control)  \
  X(value_text) X(result_text) X(user_data) X(column_double) X(create_function)      \
  X(create_filename) X(free_filename) X(filename_database) X(filename_journal)         \
  X(filename_wal) X(uri_parameter) X(uri_boolean) X(uri_int64) X(uri_key) X(os_init)   \
  X(os_end) X(bind_pointer) X(result_pointer) X(value_pointer) X(value_subtype) X(result_null) X(autovacuum_pages)
// clang-format on

struct Api {
  const char* name = "";
#define BASALT_API_TEST_DECLARE(fn) decltype(&::sqlite3_##fn) fn = nullptr;
  BASALT_API_TEST_FUNCTIONS(BASALT_API_TEST_DECLARE)
  BASALT_API_TEST_FUNCTIONS_2(BASALT_API_TEST_DECLARE)
  BASALT_API_TEST_FUNCTIONS_3(BASALT_API_TEST_DECLARE)
  BASALT_API_TEST_FUNCTIONS_4(BASALT_API_TEST_DECLARE)
#undef BASALT_API_TEST_DECLARE
};

// Basalt's entry points.
const Api& Basalt();
// The system libsqlite3.so.0, or null when it cannot be loaded.
const Api* Sqlite();

// A fresh empty directory under the system temp dir (removed at exit).
std::string TempDir(const std::string& tag);

}  // namespace basalt::apitest

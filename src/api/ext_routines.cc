// The sqlite3_api_routines table handed to loadable extensions
// (sqlite3ext.h): an extension compiled against that header calls every
// sqlite3_* function through it. Filled member by member, by name, from
// Basalt's own entry points.
#include "api/ext_routines.h"

#include <cstring>

#include "sqlite3.h"  // Basalt's, before sqlite3ext.h can pull in another
// The real functions, not the sqlite3ext.h macros (which route calls
// through the table). The header is the system's (/usr/include), the one
// extensions are compiled against.
#define SQLITE_CORE 1
#include <sqlite3ext.h>

namespace basalt::api {

namespace {

// Members left null: entry points Basalt does not provide (yet):
//   update_hook uri_boolean uri_int64 uri_parameter bind_pointer result_pointer value_pointer
//   normalized_sql uri_key filename_database filename_journal filename_wal create_filename
//   free_filename database_file_object autovacuum_pages
void Fill1(sqlite3_api_routines& r) {
  r.aggregate_context = sqlite3_aggregate_context;
  r.aggregate_count = sqlite3_aggregate_count;
  r.bind_blob = sqlite3_bind_blob;
  r.bind_double = sqlite3_bind_double;
  r.bind_int = sqlite3_bind_int;
  r.bind_int64 = sqlite3_bind_int64;
  r.bind_null = sqlite3_bind_null;
  r.bind_parameter_count = sqlite3_bind_parameter_count;
  r.bind_parameter_index = sqlite3_bind_parameter_index;
  r.bind_parameter_name = sqlite3_bind_parameter_name;
  r.bind_text = sqlite3_bind_text;
  r.bind_text16 = sqlite3_bind_text16;
  r.bind_value = sqlite3_bind_value;
  r.busy_handler = sqlite3_busy_handler;
  r.busy_timeout = sqlite3_busy_timeout;
  r.changes = sqlite3_changes;
  r.close = sqlite3_close;
  r.collation_needed = sqlite3_collation_needed;
  r.collation_needed16 = sqlite3_collation_needed16;
  r.column_blob = sqlite3_column_blob;
  r.column_bytes = sqlite3_column_bytes;
  r.column_bytes16 = sqlite3_column_bytes16;
  r.column_count = sqlite3_column_count;
  r.column_database_name = sqlite3_column_database_name;
  r.column_database_name16 = sqlite3_column_database_name16;
  r.column_decltype = sqlite3_column_decltype;
  r.column_decltype16 = sqlite3_column_decltype16;
  r.column_double = sqlite3_column_double;
  r.column_int = sqlite3_column_int;
  r.column_int64 = sqlite3_column_int64;
  r.column_name = sqlite3_column_name;
  r.column_name16 = sqlite3_column_name16;
  r.column_origin_name = sqlite3_column_origin_name;
  r.column_origin_name16 = sqlite3_column_origin_name16;
  r.column_table_name = sqlite3_column_table_name;
  r.column_table_name16 = sqlite3_column_table_name16;
  r.column_text = sqlite3_column_text;
  r.column_text16 = sqlite3_column_text16;
  r.column_type = sqlite3_column_type;
  r.column_value = sqlite3_column_value;
  r.commit_hook = sqlite3_commit_hook;
  r.complete = sqlite3_complete;
  r.complete16 = sqlite3_complete16;
  r.create_collation = sqlite3_create_collation;
  r.create_collation16 = sqlite3_create_collation16;
  r.create_function = sqlite3_create_function;
  r.create_function16 = sqlite3_create_function16;
  r.create_module = sqlite3_create_module;
  r.data_count = sqlite3_data_count;
  r.db_handle = sqlite3_db_handle;
  r.declare_vtab = sqlite3_declare_vtab;
  r.enable_shared_cache = sqlite3_enable_shared_cache;
  r.errcode = sqlite3_errcode;
  r.errmsg = sqlite3_errmsg;
  r.errmsg16 = sqlite3_errmsg16;
  r.exec = sqlite3_exec;
  r.expired = sqlite3_expired;
  r.finalize = sqlite3_finalize;
  r.free = sqlite3_free;
  r.free_table = sqlite3_free_table;
  r.get_autocommit = sqlite3_get_autocommit;
  r.get_auxdata = sqlite3_get_auxdata;
  r.get_table = sqlite3_get_table;
  r.global_recover = sqlite3_global_recover;
  r.interruptx = sqlite3_interrupt;
  r.last_insert_rowid = sqlite3_last_insert_rowid;
  r.libversion = sqlite3_libversion;
  r.libversion_number = sqlite3_libversion_number;
  r.malloc = sqlite3_malloc;
  r.mprintf = sqlite3_mprintf;
  r.open = sqlite3_open;
  r.open16 = sqlite3_open16;
  r.prepare = sqlite3_prepare;
  r.prepare16 = sqlite3_prepare16;
  r.profile = sqlite3_profile;
  r.progress_handler = sqlite3_progress_handler;
  r.realloc = sqlite3_realloc;
  r.reset = sqlite3_reset;
  r.result_blob = sqlite3_result_blob;
  r.result_double = sqlite3_result_double;
  r.result_error = sqlite3_result_error;
  r.result_error16 = sqlite3_result_error16;
  r.result_int = sqlite3_result_int;
  r.result_int64 = sqlite3_result_int64;
  r.result_null = sqlite3_result_null;
  r.result_text = sqlite3_result_text;
  r.result_text16 = sqlite3_result_text16;
  r.result_text16be = sqlite3_result_text16be;
  r.result_text16le = sqlite3_result_text16le;
  r.result_value = sqlite3_result_value;
}

void Fill2(sqlite3_api_routines& r) {
  r.rollback_hook = sqlite3_rollback_hook;
  r.set_authorizer = sqlite3_set_authorizer;
  r.set_auxdata = sqlite3_set_auxdata;
  r.xsnprintf = sqlite3_snprintf;
  r.step = sqlite3_step;
  r.table_column_metadata = sqlite3_table_column_metadata;
  r.thread_cleanup = sqlite3_thread_cleanup;
  r.total_changes = sqlite3_total_changes;
  r.trace = sqlite3_trace;
  r.transfer_bindings = sqlite3_transfer_bindings;
  r.user_data = sqlite3_user_data;
  r.value_blob = sqlite3_value_blob;
  r.value_bytes = sqlite3_value_bytes;
  r.value_bytes16 = sqlite3_value_bytes16;
  r.value_double = sqlite3_value_double;
  r.value_int = sqlite3_value_int;
  r.value_int64 = sqlite3_value_int64;
  r.value_numeric_type = sqlite3_value_numeric_type;
  r.value_text = sqlite3_value_text;
  r.value_text16 = sqlite3_value_text16;
  r.value_text16be = sqlite3_value_text16be;
  r.value_text16le = sqlite3_value_text16le;
  r.value_type = sqlite3_value_type;
  r.vmprintf = sqlite3_vmprintf;
  r.overload_function = sqlite3_overload_function;
  r.prepare_v2 = sqlite3_prepare_v2;
  r.prepare16_v2 = sqlite3_prepare16_v2;
  r.clear_bindings = sqlite3_clear_bindings;
  r.create_module_v2 = sqlite3_create_module_v2;
  r.bind_zeroblob = sqlite3_bind_zeroblob;
  r.blob_bytes = sqlite3_blob_bytes;
  r.blob_close = sqlite3_blob_close;
  r.blob_open = sqlite3_blob_open;
  r.blob_read = sqlite3_blob_read;
  r.blob_write = sqlite3_blob_write;
  r.create_collation_v2 = sqlite3_create_collation_v2;
  r.file_control = sqlite3_file_control;
  r.memory_highwater = sqlite3_memory_highwater;
  r.memory_used = sqlite3_memory_used;
  r.mutex_alloc = sqlite3_mutex_alloc;
  r.mutex_enter = sqlite3_mutex_enter;
  r.mutex_free = sqlite3_mutex_free;
  r.mutex_leave = sqlite3_mutex_leave;
  r.mutex_try = sqlite3_mutex_try;
  r.open_v2 = sqlite3_open_v2;
  r.release_memory = sqlite3_release_memory;
  r.result_error_nomem = sqlite3_result_error_nomem;
  r.result_error_toobig = sqlite3_result_error_toobig;
  r.sleep = sqlite3_sleep;
  r.soft_heap_limit = sqlite3_soft_heap_limit;
  r.vfs_find = sqlite3_vfs_find;
  r.vfs_register = sqlite3_vfs_register;
  r.vfs_unregister = sqlite3_vfs_unregister;
  r.xthreadsafe = sqlite3_threadsafe;
  r.result_zeroblob = sqlite3_result_zeroblob;
  r.result_error_code = sqlite3_result_error_code;
  r.test_control = sqlite3_test_control;
  r.randomness = sqlite3_randomness;
  r.context_db_handle = sqlite3_context_db_handle;
  r.extended_result_codes = sqlite3_extended_result_codes;
  r.limit = sqlite3_limit;
  r.next_stmt = sqlite3_next_stmt;
  r.sql = sqlite3_sql;
  r.status = sqlite3_status;
  r.backup_finish = sqlite3_backup_finish;
  r.backup_init = sqlite3_backup_init;
  r.backup_pagecount = sqlite3_backup_pagecount;
  r.backup_remaining = sqlite3_backup_remaining;
  r.backup_step = sqlite3_backup_step;
  r.compileoption_get = sqlite3_compileoption_get;
  r.compileoption_used = sqlite3_compileoption_used;
  r.create_function_v2 = sqlite3_create_function_v2;
  r.db_config = sqlite3_db_config;
  r.db_mutex = sqlite3_db_mutex;
  r.db_status = sqlite3_db_status;
  r.extended_errcode = sqlite3_extended_errcode;
  r.log = sqlite3_log;
  r.soft_heap_limit64 = sqlite3_soft_heap_limit64;
  r.sourceid = sqlite3_sourceid;
  r.stmt_status = sqlite3_stmt_status;
  r.strnicmp = sqlite3_strnicmp;
  r.unlock_notify = sqlite3_unlock_notify;
  r.wal_autocheckpoint = sqlite3_wal_autocheckpoint;
  r.wal_checkpoint = sqlite3_wal_checkpoint;
  r.wal_hook = sqlite3_wal_hook;
  r.blob_reopen = sqlite3_blob_reopen;
  r.vtab_config = sqlite3_vtab_config;
  r.vtab_on_conflict = sqlite3_vtab_on_conflict;
  r.close_v2 = sqlite3_close_v2;
  r.db_filename = sqlite3_db_filename;
}

void Fill3(sqlite3_api_routines& r) {
  r.db_readonly = sqlite3_db_readonly;
  r.db_release_memory = sqlite3_db_release_memory;
  r.errstr = sqlite3_errstr;
  r.stmt_busy = sqlite3_stmt_busy;
  r.stmt_readonly = sqlite3_stmt_readonly;
  r.stricmp = sqlite3_stricmp;
  r.xvsnprintf = sqlite3_vsnprintf;
  r.wal_checkpoint_v2 = sqlite3_wal_checkpoint_v2;
  r.auto_extension = sqlite3_auto_extension;
  r.bind_blob64 = sqlite3_bind_blob64;
  r.bind_text64 = sqlite3_bind_text64;
  r.cancel_auto_extension = sqlite3_cancel_auto_extension;
  r.load_extension = sqlite3_load_extension;
  r.malloc64 = sqlite3_malloc64;
  r.msize = sqlite3_msize;
  r.realloc64 = sqlite3_realloc64;
  r.reset_auto_extension = sqlite3_reset_auto_extension;
  r.result_blob64 = sqlite3_result_blob64;
  r.result_text64 = sqlite3_result_text64;
  r.strglob = sqlite3_strglob;
  r.value_dup = sqlite3_value_dup;
  r.value_free = sqlite3_value_free;
  r.result_zeroblob64 = sqlite3_result_zeroblob64;
  r.bind_zeroblob64 = sqlite3_bind_zeroblob64;
  r.value_subtype = sqlite3_value_subtype;
  r.result_subtype = sqlite3_result_subtype;
  r.status64 = sqlite3_status64;
  r.strlike = sqlite3_strlike;
  r.db_cacheflush = sqlite3_db_cacheflush;
  r.system_errno = sqlite3_system_errno;
  r.trace_v2 = sqlite3_trace_v2;
  r.expanded_sql = sqlite3_expanded_sql;
  r.set_last_insert_rowid = sqlite3_set_last_insert_rowid;
  r.prepare_v3 = sqlite3_prepare_v3;
  r.prepare16_v3 = sqlite3_prepare16_v3;
  r.vtab_nochange = sqlite3_vtab_nochange;
  r.value_nochange = sqlite3_value_nochange;
  r.vtab_collation = sqlite3_vtab_collation;
  r.keyword_count = sqlite3_keyword_count;
  r.keyword_name = sqlite3_keyword_name;
  r.keyword_check = sqlite3_keyword_check;
  r.str_new = sqlite3_str_new;
  r.str_finish = sqlite3_str_finish;
  r.str_appendf = sqlite3_str_appendf;
  r.str_vappendf = sqlite3_str_vappendf;
  r.str_append = sqlite3_str_append;
  r.str_appendall = sqlite3_str_appendall;
  r.str_appendchar = sqlite3_str_appendchar;
  r.str_reset = sqlite3_str_reset;
  r.str_errcode = sqlite3_str_errcode;
  r.str_length = sqlite3_str_length;
  r.str_value = sqlite3_str_value;
  r.create_window_function = sqlite3_create_window_function;
  r.stmt_isexplain = sqlite3_stmt_isexplain;
  r.value_frombind = sqlite3_value_frombind;
  r.drop_modules = sqlite3_drop_modules;
  r.hard_heap_limit64 = sqlite3_hard_heap_limit64;
  r.txn_state = sqlite3_txn_state;
  r.changes64 = sqlite3_changes64;
  r.total_changes64 = sqlite3_total_changes64;
  r.error_offset = sqlite3_error_offset;
  r.vtab_rhs_value = sqlite3_vtab_rhs_value;
  r.vtab_distinct = sqlite3_vtab_distinct;
  r.vtab_in = sqlite3_vtab_in;
  r.vtab_in_first = sqlite3_vtab_in_first;
  r.vtab_in_next = sqlite3_vtab_in_next;
  r.deserialize = sqlite3_deserialize;
  r.serialize = sqlite3_serialize;
  r.db_name = sqlite3_db_name;
  r.value_encoding = sqlite3_value_encoding;
}

void Fill(sqlite3_api_routines& r) {
  Fill1(r);
  Fill2(r);
  Fill3(r);
}

}  // namespace

const sqlite3_api_routines* ExtensionRoutines() {
  static const sqlite3_api_routines routines = [] {
    sqlite3_api_routines r;
    std::memset(&r, 0, sizeof r);
    Fill(r);
    return r;
  }();
  return &routines;
}

}  // namespace basalt::api

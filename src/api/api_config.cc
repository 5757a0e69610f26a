// sqlite3_config options beyond the threading mode, sqlite3_log, and
// sqlite3_db_config.
//
// What Basalt does with each sqlite3_config option:
//   LOG                the callback sqlite3_log calls (error logging).
//   MEMSTATUS          whether the library heap is counted (and its limits
//                      applied); on by default, as in the reference build.
//   MALLOC, GETMALLOC  the library heap's methods (common/mem.h).
//   URI, COVERING_INDEX_SCAN, MMAP_SIZE, LOOKASIDE, PMASZ,
//   STMTJRNL_SPILL, SMALL_MALLOC, SORTERREF_SIZE, MEMDB_MAXSIZE
//                      accepted and recorded ("file:" names are always
//                      URIs; Basalt has no lookaside, mmap or sorter
//                      reference tuning to apply them to).
//   PCACHE_HDRSZ       reports the bytes of page-cache header per page.
//   PCACHE, PCACHE2, GETPCACHE2, HEAP, PAGECACHE, MUTEX, GETMUTEX, SQLLOG
//                      SQLITE_ERROR: Basalt cannot take a replacement page
//                      cache, memory pool or mutex implementation.
#include <atomic>
#include <string>

#include "api/config.h"
#include "api/guard.h"
#include "api/handles.h"
#include "common/mem.h"
#include "common/printf.h"

using basalt::api::Guard;
using basalt::api::HasConnection;

namespace {

struct GlobalConfig {
  void (*log)(void*, int, const char*) = nullptr;
  void* log_arg = nullptr;
  int uri = 0;
  int covering_index_scan = 1;
  sqlite3_int64 mmap_size = 0, mmap_max = 0;
  int lookaside_size = 1200, lookaside_count = 100;
  unsigned pma_size = 250;
  int stmtjrnl_spill = 65536;
  int small_malloc = 0;
  int sorterref_size = 0x7fffffff;
  sqlite3_int64 memdb_maxsize = 1073741824;
};

GlobalConfig& Config() {
  static GlobalConfig c;
  return c;
}

// Reads a flag argument pair (int on/off/-1, int* result).
int FlagOp(va_list ap, bool* flag) {
  int on = va_arg(ap, int);
  int* out = va_arg(ap, int*);
  if (on > 0) *flag = true;
  if (on == 0) *flag = false;
  if (out != nullptr) *out = *flag ? 1 : 0;
  return SQLITE_OK;
}

}  // namespace

namespace basalt::api {

int ConfigOption(int op, va_list ap) {
  GlobalConfig& c = Config();
  switch (op) {
    case SQLITE_CONFIG_LOG:
      c.log = va_arg(ap, void (*)(void*, int, const char*));
      c.log_arg = va_arg(ap, void*);
      return SQLITE_OK;
    case SQLITE_CONFIG_MEMSTATUS:
      basalt::mem::SetCounting(va_arg(ap, int) != 0);
      return SQLITE_OK;
    case SQLITE_CONFIG_MALLOC: {
      // sqlite3_mem_methods and mem::Methods have the same members.
      const auto* m = va_arg(ap, const sqlite3_mem_methods*);
      if (m == nullptr) return SQLITE_MISUSE;
      if (m->xMalloc == nullptr) {  // no allocator given: the built-in one
        basalt::mem::Install(nullptr);
        return SQLITE_OK;
      }
      basalt::mem::Methods own{m->xMalloc,  m->xFree, m->xRealloc,  m->xSize,
                               m->xRoundup, m->xInit, m->xShutdown, m->pAppData};
      basalt::mem::Install(&own);
      return SQLITE_OK;
    }
    case SQLITE_CONFIG_GETMALLOC: {
      auto* out = va_arg(ap, sqlite3_mem_methods*);
      if (out == nullptr) return SQLITE_MISUSE;
      const basalt::mem::Methods& m = basalt::mem::Current();
      *out = sqlite3_mem_methods{m.xMalloc,  m.xFree, m.xRealloc,  m.xSize,
                                 m.xRoundup, m.xInit, m.xShutdown, m.pAppData};
      return SQLITE_OK;
    }
    case SQLITE_CONFIG_URI:
      c.uri = va_arg(ap, int);
      return SQLITE_OK;
    case SQLITE_CONFIG_COVERING_INDEX_SCAN:
      c.covering_index_scan = va_arg(ap, int);
      return SQLITE_OK;
    case SQLITE_CONFIG_MMAP_SIZE:
      c.mmap_size = va_arg(ap, sqlite3_int64);
      c.mmap_max = va_arg(ap, sqlite3_int64);
      return SQLITE_OK;
    case SQLITE_CONFIG_LOOKASIDE:
      c.lookaside_size = va_arg(ap, int);
      c.lookaside_count = va_arg(ap, int);
      return SQLITE_OK;
    case SQLITE_CONFIG_PCACHE_HDRSZ:
      *va_arg(ap, int*) = static_cast<int>(sizeof(basalt::PageFrame));
      return SQLITE_OK;
    case SQLITE_CONFIG_PMASZ:
      c.pma_size = va_arg(ap, unsigned);
      return SQLITE_OK;
    case SQLITE_CONFIG_STMTJRNL_SPILL:
      c.stmtjrnl_spill = va_arg(ap, int);
      return SQLITE_OK;
    case SQLITE_CONFIG_SMALL_MALLOC:
      c.small_malloc = va_arg(ap, int);
      return SQLITE_OK;
    case SQLITE_CONFIG_SORTERREF_SIZE:
      c.sorterref_size = va_arg(ap, int);
      return SQLITE_OK;
    case SQLITE_CONFIG_MEMDB_MAXSIZE:
      c.memdb_maxsize = va_arg(ap, sqlite3_int64);
      return SQLITE_OK;
    default:
      return SQLITE_ERROR;
  }
}

}  // namespace basalt::api

extern "C" {

void sqlite3_log(int code, const char* fmt, ...) {
  GlobalConfig& c = Config();
  if (c.log == nullptr || fmt == nullptr) return;
  va_list ap;
  va_start(ap, fmt);
  Guard(nullptr, 0, [&] {
    std::string msg;
    if (basalt::SqlVAppendf(&msg, basalt::kPrintfMaxLength, fmt, ap)) {
      c.log(c.log_arg, code, msg.c_str());
    }
    return 0;
  });
  va_end(ap);
}

int sqlite3_db_config(sqlite3* db, int op, ...) {
  if (!HasConnection(db)) return SQLITE_MISUSE;
  va_list ap;
  va_start(ap, op);
  int rc = Guard(db, basalt::api::kCodeOnThrow, [&] {
    basalt::CompileOptions& o = db->conn->options();
    DbConfig& d = db->cb.dbconfig;
    bool* flag = nullptr;
    bool expire = false;
    switch (op) {
      case SQLITE_DBCONFIG_LOOKASIDE:
        (void)va_arg(ap, void*);
        (void)va_arg(ap, int);
        (void)va_arg(ap, int);
        return SQLITE_OK;  // Basalt has no lookaside memory
      case SQLITE_DBCONFIG_ENABLE_FKEY:
        flag = &o.foreign_keys;
        expire = true;
        break;
      case SQLITE_DBCONFIG_WRITABLE_SCHEMA:
        flag = &o.writable_schema;
        expire = true;
        break;
      case SQLITE_DBCONFIG_LEGACY_ALTER_TABLE:
        flag = &o.legacy_alter_table;
        break;
      case SQLITE_DBCONFIG_TRUSTED_SCHEMA:
        flag = &o.trusted_schema;
        expire = true;
        break;
      case SQLITE_DBCONFIG_ENABLE_TRIGGER:
        flag = &o.enable_trigger;
        expire = true;
        break;
      case SQLITE_DBCONFIG_ENABLE_VIEW:
        flag = &o.enable_view;
        expire = true;
        break;
      case SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER:
        flag = &d.fts3_tokenizer;
        break;
      case SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION:
        flag = &d.load_extension;
        break;
      case SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE:
        flag = &d.no_ckpt_on_close;
        break;
      case SQLITE_DBCONFIG_ENABLE_QPSG:
        flag = &d.qpsg;
        break;
      case SQLITE_DBCONFIG_TRIGGER_EQP:
        flag = &d.trigger_eqp;
        break;
      case SQLITE_DBCONFIG_RESET_DATABASE:
        flag = &d.reset_database;
        break;
      case SQLITE_DBCONFIG_DEFENSIVE:
        flag = &d.defensive;
        break;
      case SQLITE_DBCONFIG_DQS_DML:
        flag = &o.dqs_dml;
        expire = true;
        break;
      case SQLITE_DBCONFIG_DQS_DDL:
        flag = &o.dqs_ddl;
        expire = true;
        break;
      case SQLITE_DBCONFIG_LEGACY_FILE_FORMAT:
        flag = &d.legacy_file_format;
        break;
      default:
        return SQLITE_ERROR;  // MAINDBNAME and unknown options
    }
    bool before = *flag;
    FlagOp(ap, flag);
    if (expire && before != *flag) db->conn->ExpireStatements();
    return SQLITE_OK;
  });
  va_end(ap);
  return rc;
}

}  // extern "C"

// The PRAGMA table: every pragma SQLite 3.40 knows (PRAGMA pragma_list on
// the reference build lists these 66), sorted by name. The hidden columns
// of each pragma_NAME table (kPragmaArgColumn / kPragmaSchemaColumn) and
// which pragmas have no such table are those of the reference build.
#include <algorithm>

#include "common/assert.h"
#include "common/strings.h"
#include "main/pragma.h"
#include "main/pragma_families.h"

namespace basalt {

namespace {

constexpr uint16_t kArg = kPragmaArgColumn;
constexpr uint16_t kSchema = kPragmaSchemaColumn;
constexpr uint16_t kNoFn = kPragmaNoFunction;
constexpr uint16_t kSetNoRows = kPragmaSetNoRows;
constexpr uint16_t kNeedsSchema = kPragmaNeedsSchema;
constexpr uint16_t kConnOnly = kPragmaConnectionOnly;
constexpr uint16_t kNoDb = kPragmaNoDatabase;
// A boolean connection setting: one column named after the pragma.
constexpr uint16_t kFlag = kSetNoRows | kConnOnly | kNoDb;

constexpr const char* kTableInfoCols = "cid,name,type,notnull,dflt_value,pk";

// Invariant: sorted by name (FindPragma searches it by bisection; checked
// once in a debug build by SortedOnce()).
const PragmaDef kPragmas[] = {
    {"analysis_limit", kConnOnly | kNoDb, "analysis_limit", RunAnalysisLimit},
    {"application_id", kSetNoRows | kNeedsSchema, "application_id", RunHeaderCookie},
    {"auto_vacuum", kSchema | kSetNoRows | kNeedsSchema, "auto_vacuum", RunAutoVacuum},
    {"automatic_index", kFlag, "automatic_index", RunFlagPragma},
    {"busy_timeout", kConnOnly | kNoDb, "timeout", RunBusyTimeout},
    {"cache_size", kSchema | kSetNoRows | kConnOnly | kNeedsSchema, "cache_size", RunCacheSize},
    {"cache_spill", kSchema | kSetNoRows | kConnOnly, "cache_spill", RunCacheSpill},
    {"case_sensitive_like", kNoFn | kConnOnly | kNoDb, "", RunCaseSensitiveLike},
    {"cell_size_check", kFlag, "cell_size_check", RunFlagPragma},
    {"checkpoint_fullfsync", kFlag, "checkpoint_fullfsync", RunFlagPragma},
    {"collation_list", kNoDb, "seq,name", RunCollationList},
    {"compile_options", kNoDb, "compile_options", RunCompileOptions},
    {"count_changes", kFlag, "count_changes", RunFlagPragma},
    {"data_version", 0, "data_version", RunDataVersion},
    {"database_list", kNeedsSchema, "seq,name,file", RunDatabaseList},
    {"default_cache_size", kSchema | kSetNoRows | kNeedsSchema, "cache_size", RunDefaultCacheSize},
    {"defer_foreign_keys", kFlag, "defer_foreign_keys", RunFlagPragma},
    {"empty_result_callbacks", kFlag, "empty_result_callbacks", RunFlagPragma},
    {"encoding", kSetNoRows, "encoding", RunEncoding, CheckEncoding},
    {"foreign_key_check", kArg | kSchema | kNeedsSchema, "table,rowid,parent,fkid",
     RunForeignKeyCheck, CheckForeignKeyCheck},
    {"foreign_key_list", kArg | kSchema | kNeedsSchema,
     "id,seq,table,from,to,on_update,on_delete,match", RunForeignKeyList},
    {"foreign_keys", kFlag, "foreign_keys", RunFlagPragma},
    {"freelist_count", 0, "freelist_count", RunFreelistCount},
    {"full_column_names", kFlag, "full_column_names", RunFlagPragma},
    {"fullfsync", kFlag, "fullfsync", RunFlagPragma},
    {"function_list", kNoDb, "name,builtin,type,enc,narg,flags", RunFunctionList},
    {"hard_heap_limit", kConnOnly | kNoDb, "hard_heap_limit", RunHeapLimit},
    {"ignore_check_constraints", kFlag, "ignore_check_constraints", RunFlagPragma},
    {"incremental_vacuum", kNoFn | kNeedsSchema, "", RunIncrementalVacuum},
    {"index_info", kArg | kSchema | kNeedsSchema, "seqno,cid,name", RunIndexInfo},
    {"index_list", kArg | kSchema | kNeedsSchema, "seq,name,unique,origin,partial", RunIndexList},
    {"index_xinfo", kArg | kSchema | kNeedsSchema, "seqno,cid,name,desc,coll,key", RunIndexInfo},
    {"integrity_check", kArg | kSchema | kNeedsSchema, "integrity_check", RunIntegrityCheck,
     CheckIntegrityCheck},
    {"journal_mode", kSchema, "journal_mode", RunJournalMode},
    {"journal_size_limit", kSchema | kConnOnly, "journal_size_limit", RunJournalSizeLimit},
    {"legacy_alter_table", kFlag, "legacy_alter_table", RunFlagPragma},
    {"locking_mode", kSchema | kConnOnly, "locking_mode", RunLockingMode},
    {"max_page_count", kSchema | kNeedsSchema, "max_page_count", RunPageCount},
    {"mmap_size", kNoFn | kConnOnly, "mmap_size", RunMmapSize},
    {"module_list", kNoDb, "name", RunModuleList},
    {"optimize", kArg | kNeedsSchema, "optimize", RunOptimize},
    {"page_count", kSchema | kNeedsSchema, "page_count", RunPageCount},
    {"page_size", kSchema | kSetNoRows, "page_size", RunPageSize},
    {"pragma_list", kNoDb, "name", RunPragmaList},
    {"query_only", kFlag, "query_only", RunFlagPragma},
    {"quick_check", kArg | kSchema | kNeedsSchema, "quick_check", RunIntegrityCheck,
     CheckIntegrityCheck},
    {"read_uncommitted", kFlag, "read_uncommitted", RunFlagPragma},
    {"recursive_triggers", kFlag, "recursive_triggers", RunFlagPragma},
    {"reverse_unordered_selects", kFlag, "reverse_unordered_selects", RunFlagPragma},
    {"schema_version", kSetNoRows | kNeedsSchema, "schema_version", RunHeaderCookie},
    {"secure_delete", kConnOnly, "secure_delete", RunSecureDelete},
    {"short_column_names", kFlag, "short_column_names", RunFlagPragma},
    {"shrink_memory", kNoFn | kNoDb | kConnOnly, "", RunShrinkMemory},
    {"soft_heap_limit", kConnOnly | kNoDb, "soft_heap_limit", RunHeapLimit},
    {"synchronous", kSchema | kSetNoRows | kConnOnly, "synchronous", RunSynchronous,
     CheckSynchronous},
    {"table_info", kArg | kSchema | kNeedsSchema, kTableInfoCols, RunTableInfo, CheckTableInfo},
    {"table_list", kArg | kNeedsSchema, "schema,name,type,ncol,wr,strict", RunTableList},
    {"table_xinfo", kArg | kSchema | kNeedsSchema, "cid,name,type,notnull,dflt_value,pk,hidden",
     RunTableInfo, CheckTableInfo},
    {"temp_store", kSetNoRows | kConnOnly, "temp_store", RunTempStore, CheckTempStore},
    {"temp_store_directory", kNoFn | kSetNoRows | kConnOnly | kNoDb, "temp_store_directory",
     RunTempStoreDirectory, CheckTempStoreDirectory},
    {"threads", kConnOnly | kNoDb, "threads", RunThreads},
    {"trusted_schema", kFlag, "trusted_schema", RunFlagPragma},
    {"user_version", kSetNoRows | kNeedsSchema, "user_version", RunHeaderCookie},
    {"wal_autocheckpoint", kNoFn | kConnOnly, "wal_autocheckpoint", RunWalAutocheckpoint},
    {"wal_checkpoint", kNoFn | kNeedsSchema, "busy,log,checkpointed", RunWalCheckpoint},
    {"writable_schema", kFlag, "writable_schema", RunFlagPragma},
};

bool NameLess(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const char ca = FoldAsciiChar(a[i]);
    const char cb = FoldAsciiChar(b[i]);
    if (ca != cb) return ca < cb;
  }
  return a.size() < b.size();
}

[[maybe_unused]] bool SortedOnce() {
  for (size_t i = 1; i < std::size(kPragmas); ++i) {
    if (!NameLess(kPragmas[i - 1].name, kPragmas[i].name)) return false;
  }
  return true;
}

}  // namespace

std::span<const PragmaDef> AllPragmas() { return std::span<const PragmaDef>(kPragmas); }

const PragmaDef* FindPragma(std::string_view name) {
  static const bool sorted = SortedOnce();
  BASALT_DCHECK(sorted);
  (void)sorted;
  const PragmaDef* end = std::end(kPragmas);
  const PragmaDef* it =
      std::lower_bound(std::begin(kPragmas), end, name,
                       [](const PragmaDef& d, std::string_view n) { return NameLess(d.name, n); });
  if (it == end || !EqualsIgnoreCase(it->name, name)) return nullptr;
  return it;
}

std::vector<std::string> PragmaColumns(const PragmaDef& def) {
  std::vector<std::string> out;
  std::string_view cols = def.columns;
  while (!cols.empty()) {
    const size_t comma = cols.find(',');
    out.emplace_back(cols.substr(0, comma));
    if (comma == std::string_view::npos) break;
    cols.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace basalt

// sqlite_compileoption_get(N) and sqlite_compileoption_used(X) over the
// compile-time option list Basalt reports (the same list PRAGMA
// compile_options should show; see CompileOptionList() in builtins.h).
#include "func/builtins.h"
#include "func/func_internal.h"

namespace basalt {

namespace {
// The referee's list (sqlite3 3.40.1 as built by Debian), in its order: the
// limits and defaults here are the ones Basalt implements. Some entries name
// SQLite features Basalt may not have (FTS, R-Tree, sessions); the list is
// kept verbatim so that queries probing it behave as with the referee.
constexpr const char* kOptions[] = {
    "ATOMIC_INTRINSICS=1",
    "COMPILER=gcc-12.2.0",
    "DEFAULT_AUTOVACUUM",
    "DEFAULT_CACHE_SIZE=-2000",
    "DEFAULT_FILE_FORMAT=4",
    "DEFAULT_JOURNAL_SIZE_LIMIT=-1",
    "DEFAULT_MMAP_SIZE=0",
    "DEFAULT_PAGE_SIZE=4096",
    "DEFAULT_PCACHE_INITSZ=20",
    "DEFAULT_RECURSIVE_TRIGGERS",
    "DEFAULT_SECTOR_SIZE=4096",
    "DEFAULT_SYNCHRONOUS=2",
    "DEFAULT_WAL_AUTOCHECKPOINT=1000",
    "DEFAULT_WAL_SYNCHRONOUS=2",
    "DEFAULT_WORKER_THREADS=0",
    "ENABLE_COLUMN_METADATA",
    "ENABLE_DBSTAT_VTAB",
    "ENABLE_FTS3",
    "ENABLE_FTS3_PARENTHESIS",
    "ENABLE_FTS3_TOKENIZER",
    "ENABLE_FTS4",
    "ENABLE_FTS5",
    "ENABLE_LOAD_EXTENSION",
    "ENABLE_MATH_FUNCTIONS",
    "ENABLE_PREUPDATE_HOOK",
    "ENABLE_RTREE",
    "ENABLE_SESSION",
    "ENABLE_STMTVTAB",
    "ENABLE_UNLOCK_NOTIFY",
    "ENABLE_UPDATE_DELETE_LIMIT",
    "HAVE_ISNAN",
    "LIKE_DOESNT_MATCH_BLOBS",
    "MALLOC_SOFT_LIMIT=1024",
    "MAX_ATTACHED=10",
    "MAX_COLUMN=2000",
    "MAX_COMPOUND_SELECT=500",
    "MAX_DEFAULT_PAGE_SIZE=32768",
    "MAX_EXPR_DEPTH=1000",
    "MAX_FUNCTION_ARG=127",
    "MAX_LENGTH=1000000000",
    "MAX_LIKE_PATTERN_LENGTH=50000",
    "MAX_MMAP_SIZE=0x7fff0000",
    "MAX_PAGE_COUNT=1073741823",
    "MAX_PAGE_SIZE=65536",
    "MAX_SCHEMA_RETRY=25",
    "MAX_SQL_LENGTH=1000000000",
    "MAX_TRIGGER_DEPTH=1000",
    "MAX_VARIABLE_NUMBER=250000",
    "MAX_VDBE_OP=250000000",
    "MAX_WORKER_THREADS=8",
    "MUTEX_PTHREADS",
    "OMIT_LOOKASIDE",
    "SECURE_DELETE",
    "SOUNDEX",
    "SYSTEM_MALLOC",
    "TEMP_STORE=1",
    "THREADSAFE=1",
    "USE_URI",
};

// Identifier characters as SQLite's tokenizer sees them.
bool IsIdChar(unsigned char c) {
  return func::IsAsciiAlpha(c) || func::IsAsciiDigit(c) || c == '_' || c == '$' || c >= 0x80;
}
}  // namespace

std::span<const char* const> CompileOptionList() { return kOptions; }

bool CompileOptionUsed(std::string_view name) {
  if (name.size() >= 7 && func::EqualsNoCase(name.substr(0, 7), "SQLITE_")) name.remove_prefix(7);
  for (const char* opt : kOptions) {
    std::string_view o(opt);
    // A case-insensitive prefix match that ends at a non-identifier byte.
    if (o.size() < name.size() || !func::EqualsNoCase(o.substr(0, name.size()), name)) continue;
    if (name.size() == o.size() || !IsIdChar(static_cast<unsigned char>(o[name.size()]))) {
      return true;
    }
  }
  return false;
}

namespace func {
namespace {

// sqlite_compileoption_get(N): the N-th option (N read as a 32-bit int), or
// NULL when out of range.
void CompileOptionGetFunc(FuncContext* ctx, int, Value** argv) {
  int n = ValueToInt32(*argv[0]);
  if (n < 0 || static_cast<size_t>(n) >= std::size(kOptions)) {
    ctx->result->SetNull();
    return;
  }
  ctx->result->SetTextStatic(kOptions[n]);
}

// sqlite_compileoption_used(X): 1 if X (with or without "SQLITE_") names an
// option, matching up to an '=' value; NULL for NULL.
void CompileOptionUsedFunc(FuncContext* ctx, int, Value** argv) {
  TextOf t(*argv[0]);
  if (t.is_null()) {
    ctx->result->SetNull();
    return;
  }
  ctx->result->SetInt(CompileOptionUsed(std::string_view(t.data(), t.c_size())) ? 1 : 0);
}

constexpr BuiltinSpec kTable[] = {
    Scalar("sqlite_compileoption_get", 1, kImpure, CompileOptionGetFunc),
    Scalar("sqlite_compileoption_used", 1, kImpure, CompileOptionUsedFunc),
};

}  // namespace

std::span<const BuiltinSpec> OptionFunctions() { return kTable; }

}  // namespace func
}  // namespace basalt

// fts3_tokenizer() and the registrations besides the fts3/fts4 modules.
//
// fts3_tokenizer(NAME) returns the address of the tokenizer module NAME as
// a blob of pointer size; fts3_tokenizer(NAME, BLOB) registers the module
// at that address under NAME (and returns the blob).
#include <cstring>

#include "ext/fts3/aux_internal.h"

namespace basalt::fts {
namespace {

void TokenizerFunc(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  auto* reg = static_cast<TokenizerRegistry*>(sqlite3_user_data(ctx));
  const char* name = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  std::string n = name ? name : "";
  if (argc == 2) {
    const sqlite3_tokenizer_module* m = nullptr;
    if (sqlite3_value_bytes(argv[1]) != sizeof(m) || sqlite3_value_type(argv[1]) != SQLITE_BLOB) {
      sqlite3_result_error(ctx, "argument type mismatch", -1);
      return;
    }
    std::memcpy(&m, sqlite3_value_blob(argv[1]), sizeof(m));
    reg->Set(n, m);
    sqlite3_result_blob(ctx, &m, sizeof(m), SQLITE_TRANSIENT);
    return;
  }
  const sqlite3_tokenizer_module* m = reg->Find(n);
  if (m == nullptr) {
    std::string e = "unknown tokenizer: " + n;
    sqlite3_result_error(ctx, e.c_str(), -1);
    return;
  }
  sqlite3_result_blob(ctx, &m, sizeof(m), SQLITE_TRANSIENT);
}

// match(): what an FTS table's MATCH falls back to when its xBestIndex could
// not take the constraint (SQLite registers it with sqlite3_overload_function).
void MatchFunc(sqlite3_context* ctx, int, sqlite3_value**) {
  sqlite3_result_error(ctx, "unable to use function MATCH in the requested context", -1);
}

}  // namespace

int RegisterExtras(sqlite3* db, TokenizerRegistry* reg) {
  int rc = SQLITE_OK;
  for (int n : {1, 2}) {
    if (rc == SQLITE_OK) {
      rc = sqlite3_create_function(db, "fts3_tokenizer", n, SQLITE_UTF8 | SQLITE_DIRECTONLY, reg,
                                   TokenizerFunc, nullptr, nullptr);
    }
  }
  if (rc == SQLITE_OK) rc = RegisterAuxTables(db, reg);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, "match", 2, SQLITE_UTF8, nullptr, MatchFunc, nullptr, nullptr);
  }
  for (const auto& f : AuxFunctions()) {
    int nargs = std::strcmp(f.name, "snippet") == 0 ? -1 : 1;
    if (rc == SQLITE_OK) {
      rc = sqlite3_create_function(db, f.name, nargs, SQLITE_UTF8, nullptr, f.fn, nullptr, nullptr);
    }
    if (rc == SQLITE_OK && std::strcmp(f.name, "matchinfo") == 0) {
      rc = sqlite3_create_function(db, f.name, 2, SQLITE_UTF8, nullptr, f.fn, nullptr, nullptr);
    }
  }
  return rc;
}

}  // namespace basalt::fts

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
  // match(), snippet(), offsets(), matchinfo() and optimize() exist as SQL
  // functions only to be overloaded: as in SQLite, they fail unless their
  // first argument is an FTS table's column, whose xFindFunction supplies
  // the real one (module.cc).
  for (const auto& [name, nargs] : {std::pair<const char*, int>{"match", 2},
                                    {"snippet", -1},
                                    {"offsets", 1},
                                    {"matchinfo", 1},
                                    {"matchinfo", 2},
                                    {"optimize", 1}}) {
    if (rc == SQLITE_OK) rc = sqlite3_overload_function(db, name, nargs);
  }
  return rc;
}

}  // namespace basalt::fts

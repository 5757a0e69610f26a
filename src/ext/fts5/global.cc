// The per-connection FTS5 registry (global.h): the fts5_api methods, the
// fts5() and fts5_source_id() SQL functions, and the extension's entry
// point.
#include <cctype>

#include "ext/fts5/builtins.h"
#include "ext/fts5/module.h"
#include "ext/registrar.h"

namespace basalt::fts5 {
namespace {

std::string Lower(const char* s) {
  std::string r = s ? s : "";
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

int CreateTokenizer(fts5_api* api, const char* name, void* user, fts5_tokenizer* tok,
                    void (*destroy)(void*)) {
  Global* g = GlobalOf(api);
  std::string key = Lower(name);
  auto it = g->tokenizers.find(key);
  if (it != g->tokenizers.end() && it->second.destroy) it->second.destroy(it->second.user_data);
  TokenizerModule& m = g->tokenizers[key];
  m.user_data = user;
  m.methods = *tok;
  m.destroy = destroy;
  if (g->default_tokenizer.empty()) g->default_tokenizer = key;
  return SQLITE_OK;
}

int FindTokenizerApi(fts5_api* api, const char* name, void** user, fts5_tokenizer* tok) {
  const TokenizerModule* m = GlobalOf(api)->FindTokenizer(name);
  if (m == nullptr) {
    *user = nullptr;
    *tok = fts5_tokenizer{};
    return SQLITE_ERROR;
  }
  *user = m->user_data;
  *tok = m->methods;
  return SQLITE_OK;
}

int CreateFunction(fts5_api* api, const char* name, void* user, fts5_extension_function fn,
                   void (*destroy)(void*)) {
  Global* g = GlobalOf(api);
  std::string key = Lower(name);
  auto it = g->functions.find(key);
  if (it != g->functions.end() && it->second.destroy) it->second.destroy(it->second.user_data);
  AuxFunctionEntry& e = g->functions[key];
  e.owner = g;
  e.user_data = user;
  e.fn = fn;
  e.destroy = destroy;
  e.name = name;
  // As in SQLite: the SQL function only fails ("unable to use function");
  // an fts5 table's xFindFunction supplies AuxFunctionCall with this entry
  // when the first argument is its hidden column (module.cc).
  return sqlite3_overload_function(g->db, name, -1);
}

void ApiPtrFunction(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* g = static_cast<Global*>(sqlite3_user_data(ctx));
  auto** out = static_cast<fts5_api**>(sqlite3_value_pointer(argv[0], "fts5_api_ptr"));
  if (out != nullptr) *out = &g->api;
}

void SourceIdFunction(sqlite3_context* ctx, int, sqlite3_value**) {
  // The source id of SQLite 3.40.1's fts5 (Basalt's own sqlite3_sourceid()
  // differs in its last characters).
  sqlite3_result_text(ctx,
                      "fts5: 2022-12-28 14:03:47 "
                      "df5c253c0b3dd24916e4ec7cf77d3db5294cc9fd45ae7b9c5e82ad8197f38a24",
                      -1, SQLITE_STATIC);
}

void DeleteGlobal(void* p) { delete static_cast<Global*>(p); }

int Fts5Init(sqlite3* db) { return RegisterFts5(db); }

}  // namespace

Global::~Global() {
  for (auto& [k, m] : tokenizers) {
    if (m.destroy) m.destroy(m.user_data);
  }
  for (auto& [k, f] : functions) {
    if (f.destroy) f.destroy(f.user_data);
  }
}

const TokenizerModule* Global::FindTokenizer(const char* name) const {
  std::string key = name == nullptr ? default_tokenizer : Lower(name);
  auto it = tokenizers.find(key);
  return it == tokenizers.end() ? nullptr : &it->second;
}

const AuxFunctionEntry* Global::FindFunction(const char* name) const {
  auto it = functions.find(Lower(name));
  return it == functions.end() ? nullptr : &it->second;
}

int RegisterFts5(sqlite3* db) {
  auto* g = new Global();
  g->db = db;
  g->api.iVersion = 2;
  g->api.xCreateTokenizer = &CreateTokenizer;
  g->api.xFindTokenizer = &FindTokenizerApi;
  g->api.xCreateFunction = &CreateFunction;
  int rc = sqlite3_create_module_v2(db, "fts5", Fts5Module(), g, &DeleteGlobal);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_module_v2(db, "fts5vocab", Fts5VocabModule(), g, nullptr);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, "fts5", 1, SQLITE_UTF8, g, &ApiPtrFunction, nullptr, nullptr);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, "fts5_source_id", 0, SQLITE_UTF8, g, &SourceIdFunction,
                                 nullptr, nullptr);
  }
  for (const BuiltinFunction& f : BuiltinFunctions()) {
    if (rc == SQLITE_OK) rc = CreateFunction(&g->api, f.name, nullptr, f.function, nullptr);
  }
  for (const BuiltinTokenizer& t : BuiltinTokenizers()) {
    fts5_tokenizer m = t.methods;
    void* user = std::string(t.name) == "porter" ? static_cast<void*>(&g->api) : nullptr;
    if (rc == SQLITE_OK) rc = CreateTokenizer(&g->api, t.name, user, &m, nullptr);
  }
  return rc;
}

const basalt::ext::Registrar kRegisterFts5{&Fts5Init};

}  // namespace basalt::fts5

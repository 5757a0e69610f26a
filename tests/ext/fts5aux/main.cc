// ctest fts5aux_compare: loads the system libsqlite3 (built with FTS5),
// registers Basalt's tokenizers and auxiliary functions into it as b_<name>
// and compares them with SQLite's own on a generated corpus. Prints the
// counts; exits 1 on any mismatch.
#include <chrono>
#include <cstring>

#include "compare.h"
#include "ext/fts5/builtins.h"

namespace basalt::fts5test {

std::string Escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7F && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02X", c);
      out += buf;
    }
  }
  return out;
}

bool Exec(const Env& env, const std::string& sql, std::string* error) {
  char* msg = nullptr;
  int rc = env.sys.exec(env.db, sql.c_str(), nullptr, nullptr, &msg);
  if (error != nullptr) *error = msg ? msg : "";
  if (msg != nullptr) env.sys.free(msg);
  return rc == SQLITE_OK;
}

std::vector<std::string> Rows(const Env& env, const std::string& sql) {
  std::vector<std::string> rows;
  sqlite3_stmt* st = nullptr;
  if (env.sys.prepare_v2(env.db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    rows.push_back(std::string("ERROR: ") + env.sys.errmsg(env.db));
    return rows;
  }
  int rc;
  while ((rc = env.sys.step(st)) == SQLITE_ROW) {
    std::string row;
    for (int i = 0; i < env.sys.column_count(st); ++i) {
      if (i > 0) row += " | ";
      switch (env.sys.column_type(st, i)) {
        case SQLITE_NULL:
          row += "NULL";
          break;
        case SQLITE_FLOAT: {
          double d = env.sys.column_double(st, i);
          unsigned long long bits;
          std::memcpy(&bits, &d, sizeof(d));
          char buf[64];
          std::snprintf(buf, sizeof(buf), "%.17g(%016llx)", d, bits);
          row += buf;
          break;
        }
        default:
          row += std::string(reinterpret_cast<const char*>(env.sys.column_text(st, i)),
                             static_cast<size_t>(env.sys.column_bytes(st, i)));
      }
    }
    rows.push_back(row);
  }
  if (rc != SQLITE_DONE) rows.push_back(std::string("ERROR: ") + env.sys.errmsg(env.db));
  env.sys.finalize(st);
  return rows;
}

}  // namespace basalt::fts5test

int main(int argc, char** argv) {
  using namespace basalt::fts5test;
  const char* lib = argc > 1 ? argv[1] : "libsqlite3.so.0";
  if (!g_system.Load(lib)) return 2;
  sqlite3* db = nullptr;
  if (g_system.open(":memory:", &db) != SQLITE_OK) return 2;
  fts5_api* api = g_system.Fts5Api(db);
  if (api == nullptr) {
    std::printf("%s has no FTS5\n", lib);
    return 2;
  }
  for (const auto& t : basalt::fts5::BuiltinTokenizers()) {
    std::string name = std::string("b_") + t.name;
    fts5_tokenizer methods = t.methods;
    api->xCreateTokenizer(api, name.c_str(), api, &methods, nullptr);
  }
  for (const auto& f : basalt::fts5::BuiltinFunctions()) {
    std::string name = std::string("b_") + f.name;
    api->xCreateFunction(api, name.c_str(), nullptr, f.function, nullptr);
  }
  Env env{g_system, db, api};
  Tally tokens, vocab, functions;
  auto timed = [](const char* what, auto&& run) {
    auto t0 = std::chrono::steady_clock::now();
    run();
    std::printf("%s: %.1f s\n", what,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  };
  timed("tokenizers", [&] { CompareTokenizers(env, &tokens); });
  timed("fts5vocab", [&] { CompareVocabularies(env, &vocab); });
  timed("functions", [&] { CompareFunctions(env, &functions); });
  std::printf("tokenizer outputs: %ld comparisons, %ld mismatches\n", tokens.comparisons,
              tokens.mismatches);
  std::printf("fts5vocab tables:  %ld comparisons, %ld mismatches\n", vocab.comparisons,
              vocab.mismatches);
  std::printf("aux functions:     %ld comparisons, %ld mismatches\n", functions.comparisons,
              functions.mismatches);
  if (argc > 2 && std::strcmp(argv[2], "--speed") == 0) MeasureTokenizers(env);
  g_system.close(db);
  return tokens.mismatches + vocab.mismatches + functions.mismatches == 0 ? 0 : 1;
}

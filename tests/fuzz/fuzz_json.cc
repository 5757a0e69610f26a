// fuzz_json: the input is "PATH\nJSON" (no newline: JSON only, path '$').
// Every JSON function reads the text, with the path where it takes one, and
// the table-valued json_each / json_tree walk it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"

namespace {

// ?1 is the JSON text, ?2 the path.
constexpr const char* kQueries[] = {
    "SELECT json(?1), json_valid(?1), json_type(?1), json_array_length(?1)",
    "SELECT json_extract(?1, ?2), json_type(?1, ?2), json_array_length(?1, ?2)",
    "SELECT ?1 -> ?2, ?1 ->> ?2, json_quote(?1), json_object('k', ?1)",
    "SELECT json_set(?1, ?2, 1), json_insert(?1, ?2, json('[1]')), json_replace(?1, ?2, 'x')",
    "SELECT json_remove(?1, ?2), json_patch(?1, ?1), json_patch('{\"a\":1}', ?1)",
    "SELECT json_array(?1, json(?1)), json_group_array(value) FROM json_each(?1)",
    "SELECT key, value, type, atom, id, parent, fullkey, path FROM json_each(?1, ?2)",
    "SELECT key, value, type, atom, id, parent, fullkey, path FROM json_tree(?1)",
    "SELECT key, value, type, fullkey FROM json_tree(?1, ?2)",
    "SELECT json_group_object(key, value) FROM json_tree(?1)",
    "SELECT json_extract(?1, '$[0]', '$.a', '$[#-1]'), json_valid(json(?1))",
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 20000) return 0;
  std::string in(reinterpret_cast<const char*>(data), size);
  std::string path = "$";
  std::string json = in;
  if (size_t nl = in.find('\n'); nl != std::string::npos) {
    path = in.substr(0, nl);
    json = in.substr(nl + 1);
  }
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
    sqlite3_close(db);
    return 0;
  }
  basalt_fuzz::Budget budget;
  basalt_fuzz::ConfigureConnection(db, &budget, 1000000, 2000);
  for (const char* q : kQueries) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, q, -1, &stmt, nullptr) != SQLITE_OK) continue;
    sqlite3_bind_text(stmt, 1, json.data(), static_cast<int>(json.size()), SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 2, path.data(), static_cast<int>(path.size()), SQLITE_TRANSIENT);
    basalt_fuzz::StepAll(stmt, 10000);
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return 0;
}

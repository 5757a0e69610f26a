// One database connection of an engine, and the two ways the runner uses
// it: run every statement of a text (statement records), or run one query
// and render its rows (query records).
#pragma once

#include <string>
#include <string_view>

#include "engine.h"
#include "result_set.h"

namespace basalt::slt {

class Session {
 public:
  explicit Session(const EngineApi& api) : api_(api) {}
  ~Session() { Close(); }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Opens (creating if needed) the database at path, e.g. ":memory:".
  bool Open(const std::string& path, std::string* error);
  // Open, after removing any database file (and journal) left at path.
  bool OpenFresh(const std::string& path, std::string* error);
  void Close();

  // Runs every statement of the NUL-terminated text in turn, as
  // sqlite3_exec would; stops at the first error and returns false with
  // *error set to the engine's message.
  bool Execute(const char* sql, std::string* error);

  // Prepares the first statement of sql, checks it has types.size()
  // columns, steps through all rows and renders every value into *out.
  // Returns false (with *error) if the statement does not compile or has the
  // wrong number of columns. An error while stepping ends the rows without
  // failing the query, as in the reference harness; it is reported in
  // *step_error (else cleared).
  bool Query(const char* sql, std::string_view types, ResultSet* out, std::string* error,
             std::string* step_error);

 private:
  std::string Message(const char* what, int rc) const;

  const EngineApi& api_;
  sqlite3* db_ = nullptr;
};

// Removes a database file and its journal, WAL and shared-memory files;
// nothing for ":memory:" or "".
void RemoveDatabaseFiles(const std::string& path);

}  // namespace basalt::slt

#include "session.h"

#include <cstdio>
#include <cstring>

#include "render.h"

namespace basalt::slt {

bool Session::Open(const std::string& path, std::string* error) {
  Close();
  const int rc =
      api_.open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    *error = Message("cannot open database", rc);
    Close();
    return false;
  }
  return true;
}

bool Session::OpenFresh(const std::string& path, std::string* error) {
  Close();
  RemoveDatabaseFiles(path);
  return Open(path, error);
}

void RemoveDatabaseFiles(const std::string& path) {
  if (path.empty() || path == ":memory:") return;
  for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
    std::remove((path + suffix).c_str());
  }
}

void Session::Close() {
  if (db_ != nullptr) api_.close(db_);
  db_ = nullptr;
}

std::string Session::Message(const char* what, int rc) const {
  std::string m = what;
  m += " (rc ";
  m += std::to_string(rc);
  m += ")";
  const char* text = db_ ? api_.errmsg(db_) : nullptr;
  if (text != nullptr) {
    m += ": ";
    m += text;
  }
  return m;
}

bool Session::Execute(const char* sql, std::string* error) {
  const char* rest = sql;
  while (rest != nullptr && *rest != '\0') {
    sqlite3_stmt* stmt = nullptr;
    const char* tail = nullptr;
    int rc = api_.prepare_v2(db_, rest, -1, &stmt, &tail);
    if (rc != SQLITE_OK) {
      *error = Message("prepare failed", rc);
      if (stmt != nullptr) api_.finalize(stmt);
      return false;
    }
    if (tail == rest) break;  // no progress: nothing left to compile
    rest = tail;
    if (stmt == nullptr) continue;  // only whitespace or a comment
    do {
      rc = api_.step(stmt);
    } while (rc == SQLITE_ROW);
    if (rc != SQLITE_DONE) {
      *error = Message("step failed", rc);
      api_.finalize(stmt);
      return false;
    }
    rc = api_.finalize(stmt);
    if (rc != SQLITE_OK) {
      *error = Message("finalize failed", rc);
      return false;
    }
  }
  return true;
}

bool Session::Query(const char* sql, std::string_view types, ResultSet* out, std::string* error,
                    std::string* step_error) {
  step_error->clear();
  out->Reset(static_cast<int>(types.size()));
  sqlite3_stmt* stmt = nullptr;
  int rc = api_.prepare_v2(db_, sql, -1, &stmt, nullptr);
  if (rc != SQLITE_OK) {
    *error = Message("prepare failed", rc);
    if (stmt != nullptr) api_.finalize(stmt);
    return false;
  }
  if (stmt == nullptr) {
    *error = "no SQL statement to run";
    return false;
  }
  const int columns = api_.column_count(stmt);
  if (columns != static_cast<int>(types.size())) {
    api_.finalize(stmt);
    *error = "the query returns " + std::to_string(columns) + " columns but the type string '" +
             std::string(types) + "' has " + std::to_string(types.size());
    return false;
  }
  std::string* buf = out->buffer();
  while ((rc = api_.step(stmt)) == SQLITE_ROW) {
    for (int c = 0; c < columns; ++c) {
      if (api_.column_type(stmt, c) == SQLITE_NULL) {
        buf->append(kNullText);
      } else {
        switch (types[c]) {
          case 'I':
            AppendInt(api_.column_int(stmt, c), buf);
            break;
          case 'R':
            AppendReal(api_.column_double(stmt, c), buf);
            break;
          default: {
            const unsigned char* text = api_.column_text(stmt, c);
            if (text == nullptr) {
              buf->append(kNullText);
            } else {
              const char* s = reinterpret_cast<const char*>(text);
              AppendText(std::string_view(s, std::strlen(s)), buf);
            }
            break;
          }
        }
      }
      out->EndValue();
    }
  }
  if (rc != SQLITE_DONE) *step_error = Message("step failed", rc);
  api_.finalize(stmt);
  return true;
}

}  // namespace basalt::slt

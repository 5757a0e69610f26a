// The fts5 virtual table and cursor objects, and the storage operations on
// the content, docsize and averages records (storage.cc).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ext/fts5/config.h"
#include "ext/fts5/expr.h"
#include "ext/fts5/index.h"

namespace basalt::fts5 {

struct Table {
  sqlite3_vtab base{};  // first: the sqlite3_vtab* is a Table*
  Config cfg;
  std::unique_ptr<Index> index;
  // Totals (the averages record), loaded on first use in a transaction.
  bool totals_valid = false;
  int64_t total_rows = 0;
  std::vector<int64_t> total_size;
  // Set while a rank-ordered cursor prepares its inner statement: the
  // inner cursor adopts this cursor's expression.
  struct Cursor* sort_src = nullptr;
  // > 0 while a method of this table runs statements of its own: the
  // savepoints those nested statements open are not the user's.
  int busy = 0;
  Stmt docsize_stmt;  // SELECT sz FROM %_docsize WHERE id=? (cached)
  Stmt docsize_write, content_write, docsize_delete, content_delete;
  // Finalizes the cached statements (the shadow tables change or go).
  void ResetStatements();

  void SetError(const std::string& m);
  // cache: keep them valid until Sync (writes); reads reload each time.
  int LoadTotals(bool cache = true);
  int SaveTotals();
  // Writes the index entries (and docsize/totals) of one row.
  int IndexInsert(sqlite3_value** vals, int64_t rowid);
  // Inserts the content row; *rowid gets its rowid.
  int ContentInsert(sqlite3_value** argv, int64_t* rowid);
  // Deletes a row: index entries from its content (or `vals`), docsize and
  // content.
  int Delete(int64_t rowid, sqlite3_value** vals);
  int DeleteAll();
  int DeleteById(Stmt* s, const char* shadow, int64_t rowid);
  int Rebuild();
  int Sync();  // averages, then the pending hash
  int ConfigValue(const char* key, sqlite3_value* v, int ival);
  int Integrity();
  // The column sizes of a row from %_docsize (false if absent).
  int DocSize(int64_t rowid, std::vector<int>* sizes, bool* found);
  // The content select: "SELECT <rowid>, <cols> FROM <content>".
  std::string ContentSelect() const;
};

struct Cursor;

}  // namespace basalt::fts5

// The sqlite_schema rows as ALTER TABLE edits them (ddl_alter.cc).
#pragma once

#include <functional>
#include <string>

#include "common/status.h"
#include "main/database.h"

namespace basalt {

// One sqlite_schema row as an edit sees it.
struct SchemaRowText {
  std::string type, name, tbl_name, sql;
  bool has_sql = false;
};
using RowEdit = std::function<Status(SchemaRowText* row, bool* changed)>;

// Applies `edit` to every row of db's sqlite_schema, in rowid order, and
// writes back the rows it changed. An error from `edit` stops the walk.
Status EditSchemaRows(Database* db, const RowEdit& edit);

}  // namespace basalt

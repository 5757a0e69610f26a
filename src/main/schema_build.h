// Catalog objects from CREATE statements (used by DDL and by schema loading).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"
#include "parser/ast.h"

namespace basalt {

// A table and the automatic indexes its PRIMARY KEY / UNIQUE constraints
// need (named sqlite_autoindex_<table>_<n>, roots not yet assigned).
struct BuiltTable {
  std::unique_ptr<Table> table;
  std::vector<std::unique_ptr<Index>> auto_indexes;
};

Status BuildTable(const ast::CreateTableStmt* st, std::string sql, BuiltTable* out);
// On "no such column" *bad_column (if given) is set to the column's text.
Status BuildIndex(const ast::CreateIndexStmt* st, Table* table, std::string sql,
                  std::unique_ptr<Index>* out, std::string_view* bad_column = nullptr);
// STRICT tables (table_strict.cc): every column must have one of the types
// INT, INTEGER, REAL, TEXT, BLOB, ANY; ANY columns take no affinity.
Status ApplyStrictTypes(Table* t);
// Generated columns (table_strict.cc): at least one column must not be
// generated.
Status CheckGeneratedColumns(const Table& t);

std::unique_ptr<Table> BuildView(const ast::CreateViewStmt* st, std::string sql);
// temp: the trigger belongs to the TEMP database (its ON clause may then
// name a table of another database).
std::unique_ptr<Trigger> BuildTrigger(const ast::CreateTriggerStmt* st, std::string sql, bool temp);

}  // namespace basalt

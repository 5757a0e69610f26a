// PRAGMAs (pragma.html) as one table. Each entry drives all three forms:
//   PRAGMA [schema.]name [= value | (value)]   (Connection::ExecPragma)
//   SELECT ... FROM pragma_name[(arg[, schema])]  (the pragma virtual table,
//                                                  pragma_vtab.cc)
// Results are always computed when the statement runs, never when it is
// prepared, so a prepared statement sees the schema as it is at each step.
//
// The entries live in pragma_table.cc (sorted by name); their
// implementations in pragma_*.cc, one file per family.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "parser/ast.h"
#include "record/value.h"

namespace basalt {

class Connection;

enum PragmaFlags : uint16_t {
  // pragma_NAME has a hidden `arg` column (the value of PRAGMA NAME(arg)).
  kPragmaArgColumn = 1 << 0,
  // pragma_NAME has a hidden `schema` column (PRAGMA schema.NAME).
  kPragmaSchemaColumn = 1 << 1,
  // No pragma_NAME table (the pragma returns no rows, or only as a side
  // effect: wal_checkpoint, incremental_vacuum, ...).
  kPragmaNoFunction = 1 << 2,
  // The setting form (a value given) returns no row and no columns.
  kPragmaSetNoRows = 1 << 3,
  // Reads the schema first (table_info, index_list, ...).
  kPragmaNeedsSchema = 1 << 4,
  // The setting form changes only the connection: it runs while the file
  // is locked or unreadable.
  kPragmaConnectionOnly = 1 << 5,
  // Never touches a database file, in either form.
  kPragmaNoDatabase = 1 << 6,
};

// One execution of a pragma.
struct PragmaCall {
  Connection* conn = nullptr;
  // The database named as `schema.` (or by the TVF's schema argument);
  // -1 when none was named.
  int db = -1;
  bool set = false;                  // a value was given
  std::string arg;                   // the value as text ("" when none)
  const ast::Expr* value = nullptr;  // the value as parsed (null from a TVF)
  bool from_function = false;        // pragma_NAME(...)
  // Result: column names (preset from the entry; a few pragmas change
  // them) and rows.
  std::vector<std::string>* names = nullptr;
  std::vector<std::vector<Value>>* rows = nullptr;

  // The database the pragma applies to: the named one, else main.
  int target_db() const { return db < 0 ? 0 : db; }
  // Appends a one-value row.
  void Row(Value v) const;
};

using PragmaFn = Status (*)(PragmaCall* call);

struct PragmaDef {
  const char* name;
  uint16_t flags;
  // Result column names, comma-separated ("" for none).
  const char* columns;
  PragmaFn run;

  bool has(uint16_t f) const { return (flags & f) != 0; }
};

// The entry for `name` (case-insensitive), or null for an unknown pragma
// (which SQLite silently ignores).
const PragmaDef* FindPragma(std::string_view name);
// Every entry, sorted by name (PRAGMA pragma_list).
std::span<const PragmaDef> AllPragmas();
// The entry's result columns.
std::vector<std::string> PragmaColumns(const PragmaDef& def);

// Argument helpers shared by the families.
// Boolean value (ON/OFF/YES/NO/TRUE/FALSE/1/0): 1, 0, or -1 if none.
int PragmaBool(std::string_view v);
// Leading sign and digits, as SQLite's atoi.
int64_t PragmaInt(std::string_view v);

}  // namespace basalt

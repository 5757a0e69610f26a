// PRAGMAs (pragma.html) as one table. Each entry drives all three forms:
//   PRAGMA [schema.]name [= value | (value)]   (Connection::ExecPragma)
//   SELECT ... FROM pragma_name[(arg[, schema])]  (the pragma virtual table,
//                                                  pragma_vtab.cc)
// Results are always computed when the statement runs, never when it is
// prepared, so a prepared statement sees the schema as it is at each step.
//
// The entries live in pragma_table.cc (sorted by name); their
// implementations in pragma_*.cc, one file per family (pragma_families.h).
//
// Result columns: an entry's `columns`, except that a setting form (a value
// given) of a kPragmaSetNoRows entry has no columns at all, as in SQLite.
// An unknown pragma has no columns and no rows (SQLite ignores it).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "parser/ast.h"
#include "record/value.h"

namespace basalt {

class Connection;
class VtabModule;

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
  // Reads the schema first (table_info, index_list, ...): a file that
  // cannot be read reports its error.
  kPragmaNeedsSchema = 1 << 4,
  // The setting form changes only the connection: it runs while the file
  // is locked or unreadable.
  kPragmaConnectionOnly = 1 << 5,
  // Never touches a database file, in either form.
  kPragmaNoDatabase = 1 << 6,
};

struct PragmaDef;

// Connection state of pragmas that do not change how statements compile
// (the boolean ones are in CompileOptions, planner/context.h).
struct PragmaSettings {
  int analysis_limit = 0;
  int threads = 0;
  // locking_mode without a schema: the mode databases attached later get.
  bool exclusive_locking = false;
  // temp_store: 0 default, 1 file, 2 memory.
  int temp_store = 0;
  // mmap_size without a schema: what databases attached later get.
  int64_t mmap_size = 0;
  // cache_spill on or off (the connection's; the threshold is per database).
  bool cache_spill = true;
};

// One execution of a pragma.
struct PragmaCall {
  Connection* conn = nullptr;
  const PragmaDef* def = nullptr;
  // The database named as `schema.` (or by the TVF's schema argument);
  // -1 when none was named.
  int db = -1;
  bool set = false;                  // a value was given
  std::string arg;                   // the value as text ("" when none)
  const ast::Expr* value = nullptr;  // the value as parsed (null from a TVF)
  bool from_function = false;        // pragma_NAME(...)
  // Result: column names (preset from the entry) and rows.
  std::vector<std::string>* names = nullptr;
  std::vector<std::vector<Value>>* rows = nullptr;

  // The database the pragma applies to: the named one, else main.
  int target_db() const { return db < 0 ? 0 : db; }
  bool has_schema() const { return db >= 0; }
  // Appends a one-value row.
  void Row(Value v) const;
  // Appends a row of several values.
  void AddRow(std::vector<Value> row) const { rows->push_back(std::move(row)); }
};

using PragmaFn = Status (*)(PragmaCall* call);

struct PragmaDef {
  const char* name;
  uint16_t flags;
  // Result column names, comma-separated ("" for none).
  const char* columns;
  PragmaFn run;
  // The errors SQLite reports when the statement is prepared (null: none).
  // Called at prepare with the statement's database and value and no
  // result vectors; it changes nothing. The run function checks again.
  PragmaFn check = nullptr;

  bool has(uint16_t f) const { return (flags & f) != 0; }
};

// The entry for `name` (case-insensitive), or null for an unknown pragma
// (which SQLite silently ignores).
const PragmaDef* FindPragma(std::string_view name);
// Every entry, sorted by name (PRAGMA pragma_list).
std::span<const PragmaDef> AllPragmas();
// The entry's result columns.
std::vector<std::string> PragmaColumns(const PragmaDef& def);
// The result columns of one PRAGMA statement (known before it runs).
std::vector<std::string> PragmaColumnNames(const ast::PragmaStmt* st);
// False for statements that need no database file at prepare: reads (they
// report a bad file when they run), unknown pragmas and the setting forms
// of connection-only pragmas (busy_timeout, synchronous, ...), which work
// while the file is locked or not yet readable.
bool PragmaUsesDb(const ast::PragmaStmt* st);
// The value of `PRAGMA x = value` as the pragma reads it ("" when absent):
// identifiers and strings unquoted, numbers as written (with their '-').
std::string PragmaArgText(const ast::PragmaStmt* st);
// The schema name as written in `text`, the statement's text (quotes kept),
// for SQLite's "unknown database <name>" message; *offset: its offset in
// text (-1 when unknown).
std::string PragmaSchemaToken(const ast::PragmaStmt* st, std::string_view text, int* offset);
// Runs call->def: presets the result columns, reads the schema and opens
// TEMP when the pragma needs them, then runs it.
Status RunPragmaCall(PragmaCall* call);

// The virtual table module of `table_name` when it is pragma_NAME of a
// pragma that has a table-valued function; null otherwise (pragma_vtab.cc).
std::shared_ptr<VtabModule> MakePragmaModule(Connection* conn, std::string_view table_name);

// ---- Argument parsing, as SQLite reads pragma values.
// A 32-bit integer: an optional sign and decimal digits (leading zeros
// skipped, at most 10), or without a sign 0x and at most 8 hex digits; text
// after the number is ignored. False (and *out 0) when the text does not
// start with a number or the number does not fit.
bool PragmaInt32(std::string_view v, int32_t* out);
// PragmaInt32's value, 0 when it fails.
int32_t PragmaAtoi(std::string_view v);
// A 64-bit integer, decimal (leading spaces allowed) or 0x hex. *out gets
// the value of the leading number (0 if none; clamped on overflow); the
// result is true only when the whole text was that number.
bool PragmaInt64(std::string_view v, int64_t* out);
// A level as PRAGMA synchronous and the boolean settings read it: a value
// starting with a digit is its number (as an 8-bit unsigned value), else
// no/off/false = 0, yes/on/true = 1, and unless omit_full, full = 2 and
// extra = 3; anything else gives dflt.
int PragmaSafetyLevel(std::string_view v, bool omit_full, int dflt);
// A boolean value (PragmaSafetyLevel without full/extra) != 0.
bool PragmaBool(std::string_view v, bool dflt);

}  // namespace basalt

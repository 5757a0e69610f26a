// The connection's boolean settings (automatic_index, foreign_keys,
// query_only, ...): `PRAGMA x` reads 0 or 1, `PRAGMA x = value` sets it and
// returns nothing. They live in the connection's CompileOptions, so a change
// makes every compiled statement compile again.
#include "common/assert.h"
#include "func/builtins.h"
#include "main/connection.h"
#include "main/pragma_families.h"

namespace basalt {

namespace {

struct FlagField {
  const char* name;
  bool CompileOptions::*field;
};

constexpr FlagField kFlags[] = {
    {"automatic_index", &CompileOptions::automatic_index},
    {"cell_size_check", &CompileOptions::cell_size_check},
    {"checkpoint_fullfsync", &CompileOptions::checkpoint_fullfsync},
    {"count_changes", &CompileOptions::count_changes},
    {"defer_foreign_keys", &CompileOptions::defer_foreign_keys},
    {"empty_result_callbacks", &CompileOptions::empty_result_callbacks},
    {"foreign_keys", &CompileOptions::foreign_keys},
    {"full_column_names", &CompileOptions::full_column_names},
    {"fullfsync", &CompileOptions::fullfsync},
    {"ignore_check_constraints", &CompileOptions::ignore_check_constraints},
    {"legacy_alter_table", &CompileOptions::legacy_alter_table},
    {"query_only", &CompileOptions::query_only},
    {"read_uncommitted", &CompileOptions::read_uncommitted},
    {"recursive_triggers", &CompileOptions::recursive_triggers},
    {"reverse_unordered_selects", &CompileOptions::reverse_unordered_selects},
    {"short_column_names", &CompileOptions::short_column_names},
    {"trusted_schema", &CompileOptions::trusted_schema},
    {"writable_schema", &CompileOptions::writable_schema},
};

}  // namespace

Status RunFlagPragma(PragmaCall* call) {
  bool CompileOptions::*field = nullptr;
  for (const FlagField& f : kFlags) {
    if (EqualsIgnoreCase(f.name, call->def->name)) field = f.field;
  }
  BASALT_DCHECK(field != nullptr);
  if (field == nullptr) return Status(kInternal, "no setting for pragma");
  Connection* conn = call->conn;
  bool& value = conn->options().*field;
  if (!call->set) {
    call->Row(Value::Int(value ? 1 : 0));
    return Status();
  }
  // Foreign key enforcement cannot change inside a transaction.
  if (field == &CompileOptions::foreign_keys && !conn->autocommit()) return Status();
  const bool on = PragmaBool(call->arg, false);
  // As in SQLite, turning defer_foreign_keys off forgets the violations of
  // immediate keys it had deferred (FkCounters::deferred_imm).
  if (field == &CompileOptions::defer_foreign_keys && !on) conn->env()->fk.deferred_imm = 0;
  if (on != value) {
    value = on;
    conn->dbs().Invalidate();
  }
  return Status();
}

Status RunCaseSensitiveLike(PragmaCall* call) {
  if (!call->set) return Status();
  Connection* conn = call->conn;
  const bool on = PragmaBool(call->arg, false);
  conn->options().case_sensitive_like = on;
  conn->funcs().Remove("like", 2);
  conn->funcs().Remove("like", 3);
  RegisterLikeFunctions(&conn->funcs(), on);
  conn->dbs().Invalidate();
  return Status();
}

}  // namespace basalt

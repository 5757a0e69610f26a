// Table-level rules of STRICT tables and generated columns that
// CREATE TABLE applies once all columns are known (stricttables.html,
// gencol.html).
#include "main/schema_build.h"

#include "common/assert.h"

namespace basalt {

Status ApplyStrictTypes(Table* t) {
  BASALT_DCHECK(t->strict);
  static constexpr std::string_view kTypes[] = {"INT", "INTEGER", "REAL", "TEXT", "BLOB", "ANY"};
  for (Column& c : t->columns) {
    if (c.decl_type.empty()) {
      return Status(kError, "missing datatype for " + t->name + "." + c.name);
    }
    bool known = false;
    for (std::string_view k : kTypes) known |= EqualsIgnoreCase(c.decl_type, k);
    if (!known) {
      return Status(kError,
                    "unknown datatype for " + t->name + "." + c.name + ": \"" + c.decl_type + "\"");
    }
    // ANY keeps every value as given (a NUMERIC affinity elsewhere).
    if (EqualsIgnoreCase(c.decl_type, "ANY")) c.affinity = Affinity::kBlob;
  }
  return Status();
}

Status CheckGeneratedColumns(const Table& t) {
  if (!t.has_generated) return Status();
  for (const Column& c : t.columns) {
    if (!c.is_generated()) return Status();
  }
  return Status(kError, "must have at least one non-generated column");
}

}  // namespace basalt

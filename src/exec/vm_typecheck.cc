// The VM's TypeCheck opcode: the column types of a STRICT table
// (stricttables.html). Each value is first given the column's affinity,
// which converts it when that loses nothing ('12' into an INTEGER column is
// 12, 3 into a REAL column 3.0); what is left must be NULL or of the
// column's type, else the statement fails with SQLITE_CONSTRAINT_DATATYPE.
#include "catalog/schema.h"
#include "common/assert.h"
#include "exec/vm.h"
#include "record/affinity.h"

namespace basalt {

namespace {

const char* StorageName(const Value& v) {
  switch (v.type()) {
    case Type::kInteger:
      return "INT";
    case Type::kReal:
      return "REAL";
    case Type::kText:
      return "TEXT";
    case Type::kBlob:
      return "BLOB";
    case Type::kNull:
      break;
  }
  return "NULL";
}

// Whether v, after the column's affinity, suits the STRICT column type
// (decl_type is one of the six upper-case names CREATE TABLE allows).
bool FitsStrictType(const Column& c, Value* v) {
  if (v->is_null()) return true;
  switch (c.decl_type[0]) {
    case 'I':  // INT, INTEGER
      if (!v->is_int()) ApplyAffinity(v, Affinity::kInteger);
      return v->is_int();
    case 'R':
      ApplyAffinity(v, Affinity::kReal);
      return v->is_real();
    case 'T':
      ApplyAffinity(v, Affinity::kText);
      return v->is_text();
    case 'B':
      return v->is_blob();
    default:  // ANY
      return true;
  }
}

}  // namespace

bool Vm::TypeCheck(const Instr& in) {
  const Table* t = in.p4_table();
  BASALT_DCHECK(t->strict && in.p2 == static_cast<int>(t->columns.size()));
  Value* r = regs_.data() + in.p1;
  for (int i = 0; i < in.p2; ++i) {
    const Column& c = t->columns[static_cast<size_t>(i)];
    // Generated columns are not checked (SQLite stores what they compute).
    if (c.is_generated() || i == t->rowid_alias) continue;
    if (FitsStrictType(c, &r[i])) continue;
    halt_action_ = static_cast<int>(OnConflict::kAbort);
    return SetError(Status(kConstraintDataType, std::string("cannot store ") + StorageName(r[i]) +
                                                    " value in " + c.decl_type + " column " +
                                                    t->name + "." + c.name));
  }
  return true;
}

}  // namespace basalt

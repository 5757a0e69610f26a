// Generated columns (gencol.html) and the STRICT type check: computing the
// columns of a row being written, reading VIRTUAL columns (computed from
// the row's other columns each time), and the records that leave VIRTUAL
// columns out.
#include "common/assert.h"
#include "exec/codegen_internal.h"
#include "parser/parser.h"
#include "planner/walk.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;

namespace {

// The affinity a computed value gets: that of the column, when it converts
// anything (SQLite applies none for BLOB).
bool NeedsAffinity(const Column& c) { return c.affinity != Affinity::kBlob; }

}  // namespace

void Codegen::ApplyGeneratedAffinity(const Column& c, int reg) {
  if (!NeedsAffinity(c)) return;
  char* aff = prog_->arena.NewArray<char>(2);
  aff[0] = static_cast<char>(c.affinity);
  aff[1] = 0;
  int a = Op(Opcode::kAffinity, reg, 1);
  prog_->SetP4Str(a, aff);
}

// SQLite reports the last loop it meets while coding a statement, so a
// later loop error replaces an earlier one (but no other error).
void Codegen::GeneratedLoopError(const Column& c) {
  if (ctx_->failed() && !gen_loop_error_) return;
  ctx_->error = Status(kError, "generated column loop on \"" + c.name + "\"");
  gen_loop_error_ = true;
}

void Codegen::CodeGeneratedExpr(Expr* e, int target) {
  const char* saved = pure_context_;
  pure_context_ = "a generated column";
  CodeExpr(e, target);
  pure_context_ = saved;
}

// A VIRTUAL column of the row cursor `cursor` is on: its expression over
// that row's columns (which may be VIRTUAL in turn).
void Codegen::CodeVirtualColumn(int cursor, int column, const Table* tab, int target) {
  const Column& c = tab->columns[static_cast<size_t>(column)];
  BASALT_DCHECK(c.is_virtual());
  for (const auto& busy : gen_busy_) {
    if (busy.first == tab && busy.second == column) {
      GeneratedLoopError(c);
      Op(Opcode::kNull, 0, target);
      return;
    }
  }
  Expr* e = ctx_->ParseExpr(c.generated_sql);
  if (e == nullptr) return;
  std::vector<Source> srcs;
  srcs.push_back(resolver_.MakeTableSource(tab, "", cursor));
  Scope scope;
  scope.sources = &srcs;
  if (!resolver_.ResolveExpr(e, &scope)) return;
  // The null row of a LEFT JOIN has NULL there, whatever the expression.
  int done = MakeLabel();
  Op(Opcode::kIfNullRow, cursor, done, target);
  gen_busy_.emplace_back(tab, column);
  CodeGeneratedExpr(e, target);
  gen_busy_.pop_back();
  ApplyGeneratedAffinity(c, target);
  ResolveLabel(done);
}

// Fills the generated columns of the row at `base` (its other columns
// hold their final values). A column is computed once every generated
// column its expression reads has been; passes over the table repeat while
// that makes progress, and a column still waiting then is in a loop.
void Codegen::CodeGeneratedColumns(const Table* tab, int base) {
  const size_t n = tab->columns.size();
  std::vector<uint8_t> ready(n, 1);
  std::vector<Expr*> exprs(n, nullptr);
  size_t mark = redirects_.size();
  for (size_t i = 0; i < n; ++i) {
    if (!tab->columns[i].is_generated()) continue;
    ready[i] = 0;
    exprs[i] = ParseTableExpr(tab, tab->columns[i].generated_sql, base);
    if (exprs[i] == nullptr) {
      redirects_.resize(mark);
      return;
    }
  }
  int waiting = -1;
  bool progress = true;
  while (progress) {
    progress = false;
    waiting = -1;
    for (size_t i = 0; i < n; ++i) {
      if (ready[i]) continue;
      bool blocked = false;
      auto f = [&](Expr* x) {
        if (x->kind == ExprKind::kResolvedColumn && x->column >= 0 &&
            !ready[static_cast<size_t>(x->column)]) {
          blocked = true;
        }
        return !blocked;
      };
      WalkExpr(exprs[i], f);
      if (blocked) {
        waiting = static_cast<int>(i);
        continue;
      }
      int reg = base + 1 + static_cast<int>(i);
      CodeGeneratedExpr(exprs[i], reg);
      ApplyGeneratedAffinity(tab->columns[i], reg);
      ready[i] = 1;
      progress = true;
    }
    if (waiting < 0) break;
  }
  redirects_.resize(mark);
  if (waiting >= 0) GeneratedLoopError(tab->columns[static_cast<size_t>(waiting)]);
}

void Codegen::CodeComputedColumns(const Table* tab, int base, bool early_type_check) {
  if (tab->strict && (early_type_check || tab->has_generated)) CodeStrictTypeCheck(tab, base);
  if (tab->has_generated) CodeGeneratedColumns(tab, base);
}

void Codegen::CodeStrictTypeCheck(const Table* tab, int base) {
  if (!tab->strict) return;
  int a = Op(Opcode::kTypeCheck, base + 1, static_cast<int>(tab->columns.size()));
  prog_->SetP4(a, tab);
}

int Codegen::CodeTableRecord(const Table* tab, int base) {
  const int n = static_cast<int>(tab->columns.size());
  int rec = AllocReg();
  // The REAL-column mask of each layout below (rows in column order, or
  // the stored columns in Field order).
  std::string all(static_cast<size_t>(n), 'A'), stored_mask;
  for (int i = 0; i < n; ++i) {
    if (tab->columns[static_cast<size_t>(i)].affinity == Affinity::kReal) {
      all[static_cast<size_t>(i)] = 'E';
    }
  }
  if (tab->without_rowid) {
    // Primary-key columns first, then the other stored ones (Table::Field).
    const int stored = tab->n_stored();
    int tmp = AllocReg(stored);
    stored_mask.assign(static_cast<size_t>(stored), 'A');
    for (int i = 0; i < n; ++i) {
      if (tab->columns[static_cast<size_t>(i)].is_virtual()) continue;
      Op(Opcode::kSCopy, base + 1 + i, tmp + tab->Field(i));
      stored_mask[static_cast<size_t>(tab->Field(i))] = all[static_cast<size_t>(i)];
    }
    SetRealMask(Op(Opcode::kMakeRecord, tmp, stored, rec), stored_mask);
    return rec;
  }
  if (tab->rowid_alias < 0 && tab->n_virtual == 0) {
    SetRealMask(Op(Opcode::kMakeRecord, base + 1, n, rec), all);
    return rec;
  }
  if (tab->n_virtual == 0) {
    // The INTEGER PRIMARY KEY is stored as NULL: its slot is NULL for the
    // record only, then holds the rowid (at base) again.
    const int alias = base + 1 + tab->rowid_alias;
    Op(Opcode::kNull, 0, alias);
    SetRealMask(Op(Opcode::kMakeRecord, base + 1, n, rec), all);
    Op(Opcode::kSCopy, base, alias);
    return rec;
  }
  // The INTEGER PRIMARY KEY is stored as NULL; VIRTUAL columns not at all.
  const int stored = tab->n_stored();
  int tmp = AllocReg(stored);
  int k = 0;
  for (int i = 0; i < n; ++i) {
    if (tab->columns[static_cast<size_t>(i)].is_virtual()) continue;
    stored_mask += all[static_cast<size_t>(i)];
    if (i == tab->rowid_alias) {
      Op(Opcode::kNull, 0, tmp + k);
    } else {
      Op(Opcode::kSCopy, base + 1 + i, tmp + k);
    }
    ++k;
  }
  BASALT_DCHECK(k == stored);
  SetRealMask(Op(Opcode::kMakeRecord, tmp, stored, rec), stored_mask);
  return rec;
}

bool Codegen::CheckGeneratedTarget(const Table* tab, int col, bool update) {
  if (col < 0 || !tab->columns[static_cast<size_t>(col)].is_generated()) return true;
  return ctx_->Error(std::string(update ? "cannot UPDATE" : "cannot INSERT into") +
                     " generated column \"" + tab->columns[static_cast<size_t>(col)].name + "\"");
}

}  // namespace basalt

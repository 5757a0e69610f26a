// Foreign keys (foreignkeys.html), compiled where a row enters or leaves a
// table, as SQLite's fkey.c does it:
//
//  - child side: a row entering the child table whose key (no column NULL)
//    finds no parent row adds one violation; a row leaving it that had no
//    parent removes one. The parent row is looked up through the parent key
//    (rowid or UNIQUE index; catalog/fkey.h).
//  - parent side: a row leaving the parent table adds one violation per
//    child row that refers to it; a row entering it removes one per child
//    row. Children are found by a WHERE loop over the child table, so an
//    index on the child columns is used when there is one.
//  - actions: after a parent row is deleted or its key updated, the ON
//    DELETE / ON UPDATE action of each key referring to it runs: CASCADE,
//    SET NULL and SET DEFAULT as a DELETE or UPDATE of the child table in a
//    sub-program (so that actions may recurse, e.g. a self-referencing
//    table), RESTRICT as a check that no child row refers to the old key.
//
// Violations count against the statement (immediate keys) or the
// transaction (deferred keys, or all keys while PRAGMA defer_foreign_keys is
// on); the VM checks the counters (vm_fkey.cc, main/transaction.cc). A
// single-row INSERT outside triggers fails at once instead of counting.
#include "catalog/fkey.h"
#include "exec/codegen_internal.h"

namespace basalt {

// The action programs compiled for one statement: one per (key, event), so
// that an action reached again (recursion) calls the same program.
struct Codegen::FkActionCache {
  Program* top = nullptr;  // owns the sub-programs
  struct Entry {
    const ForeignKeyDef* fk;
    bool update;
    const Program* prog;
  };
  std::vector<Entry> entries;
};

namespace {

constexpr int kActionSetNull = 1, kActionSetDefault = 2, kActionCascade = 3, kActionRestrict = 4;
constexpr int kOeAbort = static_cast<int>(OnConflict::kAbort);
constexpr const char* kFkFailed = "FOREIGN KEY constraint failed";

bool ChildModified(const ForeignKeyDef& fk, const std::vector<bool>* changed) {
  if (changed == nullptr) return true;
  for (int c : fk.from_columns) {
    if ((*changed)[static_cast<size_t>(c)]) return true;
  }
  return false;
}

bool ParentModified(const Table* parent, const ForeignKeyDef& fk,
                    const std::vector<bool>* changed) {
  if (changed == nullptr) return true;
  for (size_t i = 0; i < parent->columns.size(); ++i) {
    if (!(*changed)[i]) continue;
    const Column& c = parent->columns[i];
    if (fk.parent_columns.empty()) {
      if (c.primary_key) return true;
      continue;
    }
    for (const std::string& name : fk.parent_columns) {
      if (EqualsIgnoreCase(name, c.name)) return true;
    }
  }
  return false;
}

// The register holding column `col` of the row at `base` (-1: the rowid).
int ColumnReg(const Table* t, int base, int col) {
  return col < 0 || col == t->rowid_alias ? base : base + 1 + col;
}

// The name a parent key column goes by after "old." / "new.".
std::string ParentColumnName(const Table* parent, int col) {
  if (col < 0 && parent->rowid_alias >= 0) col = parent->rowid_alias;
  return col < 0 ? std::string("_rowid_")
                 : IdentQuote(parent->columns[static_cast<size_t>(col)].name);
}

// "old.p1 = c1 AND old.p2 = c2 ...": the child rows that refer to the
// parent row bound as OLD.
std::string MatchSql(const FkParentKey& pk, const Table* child) {
  std::string sql;
  for (size_t i = 0; i < pk.parent_cols.size(); ++i) {
    if (i > 0) sql += " AND ";
    sql += "old." + ParentColumnName(pk.parent, pk.parent_cols[i]) + " = " +
           IdentQuote(child->columns[static_cast<size_t>(pk.child_cols[i])].name);
  }
  return sql;
}

}  // namespace

bool Codegen::FkEnabled() const { return ctx_->options.foreign_keys; }

bool Codegen::FkMismatch(const Table* child, const Table* parent) {
  return ctx_->Error("foreign key mismatch - \"" + child->name + "\" referencing \"" +
                     parent->name + "\"");
}

// Whether a violation found now ends the statement at once: an immediate
// key, in a single-row INSERT outside triggers and actions (nothing to undo).
bool Codegen::FkHaltsAtOnce(const ForeignKeyDef& fk) const {
  return !fk.deferred && !ctx_->options.defer_foreign_keys && fk_top_ && in_trigger_ == 0 &&
         !prog_->stmt_journal;
}

bool Codegen::CodeFkCheck(const Table* tab, int old_base, int new_base,
                          const std::vector<bool>* changed) {
  if (!FkEnabled() || tab->is_virtual || tab->is_view) return true;
  if (old_base != 0 && !CodeFkCheckRow(tab, old_base, -1, changed)) return false;
  if (new_base != 0 && !CodeFkCheckRow(tab, new_base, 1, changed)) return false;
  return true;
}

// The checks for one row entering (incr 1) or leaving (incr -1) `tab`.
bool Codegen::CodeFkCheckRow(const Table* tab, int base, int incr,
                             const std::vector<bool>* changed) {
  const std::string& db_name = ctx_->catalog->name(tab->db());
  for (size_t i = tab->foreign_keys.size(); i-- > 0;) {
    const ForeignKeyDef& fk = tab->foreign_keys[i];
    if (!ChildModified(fk, changed)) continue;
    if (incr < 0 && &fk == fk_cascading_) continue;  // see CascadeSkipsCount
    const Table* parent = FkParentTable(tab, fk);
    FkParentKey pk;
    if (parent == nullptr || !LocateFkParentKey(tab, parent, fk, &pk)) {
      if (!fk_ignore_errors_) {
        if (parent == nullptr)
          return ctx_->Error("no such table: " + db_name + "." + fk.parent_table);
        return FkMismatch(tab, parent);
      }
      if (parent == nullptr && incr < 0) {
        // The parent is gone (DROP TABLE): the row leaving had no parent.
        int skip = MakeLabel();
        for (int c : fk.from_columns) Op(Opcode::kIsNull, ColumnReg(tab, base, c), skip);
        Op(Opcode::kFkCounter, fk.deferred ? 1 : 0, 0, -1);
        ResolveLabel(skip);
      }
      continue;
    }
    CodeFkLookupParent(tab, fk, pk, base, incr);
  }
  for (const FkRef& ref : FkReferences(tab)) {
    const ForeignKeyDef& fk = *ref.fk;
    if (!ParentModified(tab, fk, changed)) continue;
    // A row entering the parent table cannot fix an immediate violation of
    // a statement that writes only that row.
    if (incr > 0 && FkHaltsAtOnce(fk)) continue;
    if (incr < 0 && changed == nullptr && CascadeSkipsCount(tab, ref)) continue;
    FkParentKey pk;
    if (!LocateFkParentKey(ref.child, tab, fk, &pk)) {
      if (fk_ignore_errors_) continue;
      return FkMismatch(ref.child, tab);
    }
    if (!CodeFkScanChildren(tab, ref, pk, base, -incr)) return false;
  }
  return true;
}

// Child side: looks the parent of the row at `base` up; adds `incr` to the
// counter when there is none (a row with a NULL key column has no parent to
// find and counts nothing).
void Codegen::CodeFkLookupParent(const Table* child, const ForeignKeyDef& fk, const FkParentKey& pk,
                                 int base, int incr) {
  const Table* parent = pk.parent;
  const int deferred = fk.deferred ? 1 : 0;
  int ok = MakeLabel();
  if (incr < 0) Op(Opcode::kFkIfZero, deferred, ok);
  for (int c : pk.child_cols) Op(Opcode::kIsNull, ColumnReg(child, base, c), ok);
  int cur = ctx_->AllocCursor();
  int missing = MakeLabel();
  if (pk.index == nullptr) {
    int key = AllocReg();
    Op(Opcode::kSCopy, ColumnReg(child, base, pk.child_cols[0]), key);
    Op(Opcode::kMustBeInt, key, missing);
    if (parent == child && incr > 0) {
      int a = Op(Opcode::kEq, base, ok, key);  // the row is its own parent
      prog_->at(a).p5 = 0;
    }
    CursorInfo* ci = prog_->arena.New<CursorInfo>();
    ci->n_columns = static_cast<int>(parent->columns.size());
    ci->table = parent;
    int a = Op(Opcode::kOpenRead, cur, static_cast<int>(parent->root), parent->db());
    prog_->SetP4(a, ci);
    Op(Opcode::kNotExists, cur, missing, key);
    Op(Opcode::kGoto, 0, ok);
  } else {
    const Index* idx = pk.index;
    int n = static_cast<int>(pk.child_cols.size());
    int keys = AllocReg(n);
    CursorInfo* ci = prog_->arena.New<CursorInfo>();
    ci->key_info = &idx->key_info;
    ci->n_columns = idx->n_key_columns() + 1;
    int a = Op(Opcode::kOpenRead, cur, static_cast<int>(idx->root), parent->db());
    prog_->SetP4(a, ci);
    for (int i = 0; i < n; ++i) {
      Op(Opcode::kCopy, ColumnReg(child, base, pk.child_cols[static_cast<size_t>(i)]), keys + i, 0);
    }
    if (parent == child && incr > 0) {
      // The row may be its own parent.
      int differs = MakeLabel();
      for (int i = 0; i < n; ++i) {
        a = Op(Opcode::kNe, ColumnReg(child, base, pk.child_cols[static_cast<size_t>(i)]), differs,
               ColumnReg(parent, base, pk.parent_cols[static_cast<size_t>(i)]));
        prog_->at(a).p5 = kCmpJumpIfNull;
      }
      Op(Opcode::kGoto, 0, ok);
      ResolveLabel(differs);
    }
    char* aff = prog_->arena.NewArray<char>(static_cast<size_t>(n) + 1);
    for (int i = 0; i < n; ++i) {
      const int col = pk.parent_cols[static_cast<size_t>(i)];
      aff[i] = static_cast<char>(parent->columns[static_cast<size_t>(col)].affinity);
    }
    aff[n] = 0;
    a = Op(Opcode::kAffinity, keys, n);
    prog_->SetP4Str(a, aff);
    a = Op(Opcode::kFound, cur, ok, keys);
    prog_->SetP4Int(a, n);
  }
  ResolveLabel(missing);
  if (incr > 0 && FkHaltsAtOnce(fk)) {
    OpP4Str(Opcode::kHalt, kConstraintForeignKey, kOeAbort, 0, kFkFailed);
  } else {
    Op(Opcode::kFkCounter, deferred, 0, incr);
  }
  ResolveLabel(ok);
  Op(Opcode::kClose, cur);
}

// Parses `where` (over the child table, with OLD / NEW bound to the parent
// rows at old_base / new_base) and runs `body` once per child row it
// matches. False on a compile error.
bool Codegen::CodeFkChildLoop(const Table* parent, const Table* child, const std::string& where,
                              int old_base, int new_base, const std::function<void()>& body) {
  ast::Expr* e = ctx_->ParseExpr(where);
  if (e == nullptr) return false;
  Scope rows;
  rows.trigger_table = parent;
  rows.old_base = old_base;
  rows.new_base = new_base;
  std::vector<Source> no_sources;
  rows.sources = &no_sources;
  std::vector<Source> srcs;
  srcs.push_back(resolver_.MakeTableSource(child, "", ctx_->AllocCursor()));
  Scope scope;
  scope.outer = &rows;
  scope.sources = &srcs;
  if (!resolver_.ResolveExpr(e, &scope)) return false;
  WhereLoops w;
  std::vector<std::vector<bool>> used(1);
  used[0].assign(child->columns.size(), false);
  MarkUsedColumns(e, &srcs, &used);
  if (!PlanLoops(&w, &srcs, e, nullptr, nullptr, &used)) return false;
  if (!WhereBegin(&w)) return false;
  body();
  WhereEnd(&w);
  return !ctx_->failed();
}

// Whether the DELETE of a row of `parent` skips counting the child rows of
// `ref` (SQLite counts them, then its ON DELETE CASCADE deletes them, each
// uncounting itself as it finds no parent): when no trigger on the child
// can run in between and the child is another table, the cascade deletes
// exactly the rows counted, so both steps are left out (the cascade's
// DELETE skips the key's lookups: fk_cascading_).
bool Codegen::CascadeSkipsCount(const Table* parent, const FkRef& ref) const {
  if (ref.fk->on_delete != kActionCascade || ref.child == parent) return false;
  std::vector<const Trigger*> triggers;
  ctx_->catalog->TriggersOn(ref.child, &triggers);
  return triggers.empty();
}

// Parent side: adds `incr` to the counter for every child row that refers
// to the parent row at `base` (when a row leaves, not counting the row
// itself in a self-referencing table).
bool Codegen::CodeFkScanChildren(const Table* parent, const FkRef& ref, const FkParentKey& pk,
                                 int base, int incr) {
  const int deferred = ref.fk->deferred ? 1 : 0;
  int skip = 0;
  if (incr < 0) {
    skip = MakeLabel();
    Op(Opcode::kFkIfZero, deferred, skip);
  }
  std::string where = MatchSql(pk, ref.child);
  if (parent == ref.child && incr > 0) where += " AND old._rowid_ <> _rowid_";
  bool ok = CodeFkChildLoop(parent, ref.child, where, base, -1,
                            [&]() { Op(Opcode::kFkCounter, deferred, 0, incr); });
  if (skip) ResolveLabel(skip);
  return ok;
}

bool Codegen::CodeFkActions(const Table* tab, int old_base, int new_base,
                            const std::vector<bool>* changed) {
  if (!FkEnabled() || tab->is_virtual || tab->is_view) return true;
  const bool update = new_base != 0;
  for (const FkRef& ref : FkReferences(tab)) {
    const ForeignKeyDef& fk = *ref.fk;
    if (!ParentModified(tab, fk, changed)) continue;
    const int action = update ? fk.on_update : fk.on_delete;
    if (action < kActionSetNull || action > kActionRestrict) continue;
    if (action == kActionRestrict && ctx_->options.defer_foreign_keys) continue;
    FkParentKey pk;
    if (!LocateFkParentKey(ref.child, tab, fk, &pk)) {
      if (fk_ignore_errors_) continue;
      return FkMismatch(ref.child, tab);
    }
    const Program* sub = FkActionProgram(tab, ref, pk, update, action);
    if (sub == nullptr) return false;
    const int n = static_cast<int>(tab->columns.size()) + 1;
    int args = old_base;
    if (update && new_base != old_base + n) {
      args = AllocReg(2 * n);
      Op(Opcode::kCopy, old_base, args, n - 1);
      Op(Opcode::kCopy, new_base, args + n, n - 1);
    }
    int a = Op(Opcode::kProgram, args, update ? 2 * n : n);
    prog_->SetP4(a, sub);
  }
  return true;
}

// The statement an action runs: DELETE or UPDATE of the child rows that
// refer to OLD (an UPDATE's action only when the parent key changed).
std::string Codegen::FkActionSql(const Table* parent, const FkRef& ref, const FkParentKey& pk,
                                 bool update, int action) {
  const Table* child = ref.child;
  const std::string target =
      IdentQuote(ctx_->catalog->name(child->db())) + "." + IdentQuote(child->name);
  const std::string where = MatchSql(pk, child);
  if (action == kActionCascade && !update) return "DELETE FROM " + target + " WHERE " + where;
  std::string sets;
  for (size_t i = 0; i < pk.child_cols.size(); ++i) {
    const Column& c = child->columns[static_cast<size_t>(pk.child_cols[i])];
    if (!sets.empty()) sets += ", ";
    sets += IdentQuote(c.name) + " = ";
    if (action == kActionCascade) {
      sets += "new." + ParentColumnName(parent, pk.parent_cols[i]);
    } else if (action == kActionSetDefault && !c.default_sql.empty()) {
      sets += "(" + c.default_sql + ")";
    } else {
      sets += "NULL";
    }
  }
  return "UPDATE " + target + " SET " + sets + " WHERE " + where;
}

const Program* Codegen::FkActionProgram(const Table* parent, const FkRef& ref,
                                        const FkParentKey& pk, bool update, int action) {
  if (!fk_cache_) {
    fk_cache_ = std::make_shared<FkActionCache>();
    fk_cache_->top = prog_;
  }
  for (const FkActionCache::Entry& e : fk_cache_->entries) {
    if (e.fk == ref.fk && e.update == update) return e.prog;
  }
  auto owned = std::make_unique<Program>();
  Program* sub = owned.get();
  fk_cache_->top->subprograms.push_back(std::move(owned));
  fk_cache_->entries.push_back({ref.fk, update, sub});
  Codegen cg(ctx_, sub);
  cg.fk_cache_ = fk_cache_;
  cg.fk_top_ = false;
  cg.no_triggers_ = false;
  cg.fk_ignore_errors_ = false;
  cg.in_trigger_ = 1;  // its changes count as a trigger's
  if (!update && action == kActionCascade && CascadeSkipsCount(parent, ref)) {
    cg.fk_cascading_ = ref.fk;
  }
  const int n = static_cast<int>(parent->columns.size()) + 1;
  const int old_base = cg.AllocReg(n);
  const int new_base = update ? cg.AllocReg(n) : -1;
  if (!cg.CodeFkActionBody(parent, ref, pk, update, action, old_base, new_base)) return nullptr;
  cg.Op(Opcode::kHalt, 0, 0);
  cg.FixLabels();
  sub->n_cursors = ctx_->n_cursors;
  sub->writes = true;
  return sub;
}

bool Codegen::CodeFkActionBody(const Table* parent, const FkRef& ref, const FkParentKey& pk,
                               bool update, int action, int old_base, int new_base) {
  Scope scope;
  scope.trigger_table = parent;
  scope.old_base = old_base;
  scope.new_base = new_base;
  std::vector<Source> no_sources;
  scope.sources = &no_sources;
  int end = MakeLabel();
  if (update) {
    // Only when the parent key really changed (IS: NULL equals NULL).
    std::string same;
    for (int col : pk.parent_cols) {
      if (!same.empty()) same += " AND ";
      const std::string name = ParentColumnName(parent, col);
      same += "old." + name + " IS new." + name;
    }
    ast::Expr* e = ctx_->ParseExpr(same);
    if (e == nullptr || !resolver_.ResolveExpr(e, &scope)) return false;
    CodeJumpIf(e, end, true, false);
  }
  if (fk_cascading_ != nullptr && !update && action == kActionCascade) {
    const Index* idx = CascadeIndex(parent, ref, pk);
    if (idx != nullptr) {
      CodeFkCascadeDelete(ref.child, idx, pk, old_base);
      ResolveLabel(end);
      return !ctx_->failed();
    }
  }
  if (action == kActionRestrict) {
    if (!CodeFkChildLoop(parent, ref.child, MatchSql(pk, ref.child), old_base, new_base, [&]() {
          OpP4Str(Opcode::kHalt, kConstraintForeignKey, kOeAbort, 0, kFkFailed);
        })) {
      return false;
    }
  } else {
    ast::Stmt* st = ctx_->ParseStmt(FkActionSql(parent, ref, pk, update, action));
    if (st == nullptr) return false;
    if (st->kind == ast::StmtKind::kDelete) {
      if (!CodeDelete(st->As<ast::DeleteStmt>(), &scope)) return false;
    } else if (!CodeUpdate(st->As<ast::UpdateStmt>(), &scope)) {
      return false;
    }
  }
  ResolveLabel(end);
  return !ctx_->failed();
}

// The child index an ON DELETE CASCADE can walk instead of a DELETE
// statement (CodeFkCascadeDelete), or null: a full index that starts with
// the key's child columns under the comparison's collation, the child
// columns having the parent columns' affinities (so that the index order
// is the comparison's), and no chain of actions from the child that could
// reach the child or the parent again while it is walked.
const Index* Codegen::CascadeIndex(const Table* parent, const FkRef& ref,
                                   const FkParentKey& pk) const {
  const Table* child = ref.child;
  const size_t n = pk.child_cols.size();
  for (size_t i = 0; i < n; ++i) {
    const int pc = pk.parent_cols[i] < 0 ? parent->rowid_alias : pk.parent_cols[i];
    if (pc < 0) return nullptr;
    const Column& pcol = parent->columns[static_cast<size_t>(pc)];
    const Column& ccol = child->columns[static_cast<size_t>(pk.child_cols[i])];
    if (pcol.affinity != ccol.affinity) return nullptr;
  }
  // Tables the child's own actions reach.
  std::vector<const Table*> seen{child};
  for (size_t k = 0; k < seen.size(); ++k) {
    for (const FkRef& r : FkReferences(seen[k])) {
      if (r.child == parent || r.child == child) return nullptr;
      bool known = false;
      for (const Table* t : seen) known |= t == r.child;
      if (!known) seen.push_back(r.child);
    }
  }
  for (const Index* idx : child->indexes) {
    if (!idx->where_sql.empty() || idx->columns.size() < n) continue;
    bool ok = true;
    for (size_t i = 0; i < n && ok; ++i) {
      // Index column i is the child column of some key column j.
      size_t j = 0;
      while (j < n && pk.child_cols[j] != idx->columns[i]) ++j;
      if (j == n) {
        ok = false;
        break;
      }
      const int pc = pk.parent_cols[j] < 0 ? parent->rowid_alias : pk.parent_cols[j];
      const std::string& want = parent->columns[static_cast<size_t>(pc)].collation;
      const Collation* coll = i < idx->collations.size() ? idx->collations[i] : nullptr;
      const std::string_view have = coll != nullptr ? std::string_view(coll->name) : "BINARY";
      ok = EqualsIgnoreCase(want.empty() ? std::string_view("BINARY") : std::string_view(want),
                            have);
    }
    if (ok) return idx;
  }
  return nullptr;
}

// ON DELETE CASCADE through the child index `idx`: each entry whose key is
// the old parent key is deleted where the index cursor stands (no list of
// rowids first), its row with it, in index (so rowid) order as SQLite's
// DELETE would. Its own keys are checked and its own actions run as a
// DELETE's would; the key being cascaded is left out (CascadeSkipsCount).
void Codegen::CodeFkCascadeDelete(const Table* child, const Index* idx, const FkParentKey& pk,
                                  int old_base) {
  const Table* parent = pk.parent;
  const int n = static_cast<int>(pk.child_cols.size());
  DmlTarget t;
  OpenDmlTarget(child, &t, ctx_->AllocCursor());
  size_t scan_pos = 0;
  while (child->indexes[scan_pos] != idx) ++scan_pos;
  const int scan = t.index_cursors[scan_pos];
  int keys = AllocReg(n);
  int done = MakeLabel();
  for (int i = 0; i < n; ++i) {
    int j = 0;
    while (pk.child_cols[static_cast<size_t>(j)] != idx->columns[static_cast<size_t>(i)]) ++j;
    Op(Opcode::kSCopy, ColumnReg(parent, old_base, pk.parent_cols[static_cast<size_t>(j)]),
       keys + i);
    Op(Opcode::kIsNull, keys + i, done);
  }
  int a = Op(Opcode::kSeekGE, scan, done, keys);
  prog_->SetP4Int(a, n);
  int top = prog_->pc();
  a = Op(Opcode::kIdxGT, scan, done, keys);
  prog_->SetP4Int(a, n);
  int next = MakeLabel();
  int rid = AllocReg();
  Op(Opcode::kIdxRowid, scan, rid);
  Op(Opcode::kNotExists, t.cursor, next, rid);
  const int row = AllocReg(static_cast<int>(child->columns.size()) + 1);
  CodeReadRow(&t, row);
  CodeFkCheck(child, row, 0, nullptr);
  Op(Opcode::kDelete, scan);  // Next then moves to the entry after it
  for (size_t i = 0; i < child->indexes.size(); ++i) {
    if (i == scan_pos) continue;
    const Index* other = child->indexes[i];
    int nk = static_cast<int>(other->columns.size()) + 1;
    int k = AllocReg(nk);
    int skip = CodePartialIndexGuard(other, row);
    CodeIndexKey(other, row, k);
    Op(Opcode::kIdxDelete, t.index_cursors[i], k, nk);
    if (skip) ResolveLabel(skip);
  }
  a = Op(Opcode::kDelete, t.cursor, row);
  prog_->at(a).p5 = kInsTotal | kInsPreHook | kInsUpdHook;
  prog_->SetP4(a, child);
  NoteHookDepth(a);
  CodeFkActions(child, row, 0, nullptr);
  ResolveLabel(next);
  Op(Opcode::kNext, scan, top);
  ResolveLabel(done);
}

}  // namespace basalt

#include "exec/codegen.h"

#include "common/assert.h"
#include "exec/codegen_internal.h"
#include "planner/walk.h"

namespace basalt {

Codegen::Codegen(CompileContext* ctx, Program* prog) : ctx_(ctx), prog_(prog), resolver_(ctx) {
  fk_ignore_errors_ = ctx->fk_drop_delete;
  no_triggers_ = ctx->fk_drop_delete;
}

int Codegen::OpP4Str(Opcode op, int p1, int p2, int p3, std::string_view s) {
  int a = Op(op, p1, p2, p3);
  prog_->SetP4Text(a, s);
  return a;
}

int Codegen::OpInt64(int64_t v, int reg) {
  if (v >= INT32_MIN && v <= INT32_MAX) return Op(Opcode::kInteger, static_cast<int>(v), reg);
  int a = Op(Opcode::kInt64, 0, reg);
  prog_->SetP4Int64(a, v);
  return a;
}

void Codegen::OpString(std::string_view s, int reg) {
  int a = Op(Opcode::kString, static_cast<int>(s.size()), reg);
  prog_->SetP4Text(a, s);
}

KeyInfo* Codegen::MakeKeyInfo(int n) {
  KeyInfo* ki = prog_->arena.New<KeyInfo>();
  ki->n_fields = n;
  auto** colls = prog_->arena.NewArray<const Collation*>(static_cast<size_t>(n) + 1);
  auto* desc = prog_->arena.NewArray<uint8_t>(static_cast<size_t>(n) + 1);
  for (int i = 0; i <= n; ++i) {
    colls[i] = nullptr;
    desc[i] = 0;
  }
  ki->colls = colls;
  ki->desc = desc;
  return ki;
}

void Codegen::FixLabels() {
  // Labels are negative until resolved; only jump operands (P2 of the
  // opcodes that declare Jmp or Dest there, P3 of InitCoroutine) hold them,
  // and every label a jump uses has been resolved to an address.
  auto address = [&](int label) {
    int addr = labels_[static_cast<size_t>(-label - 1)];
    BASALT_DCHECK(addr >= 0);
    return addr;
  };
  for (Instr& in : prog_->ops) {
    if (in.p2 < 0) {
      BASALT_DCHECK(InfoOf(in.op).p2 == OperandKind::kJmp ||
                    InfoOf(in.op).p2 == OperandKind::kDest);
      in.p2 = address(in.p2);
    }
    if ((in.op == Opcode::kInitCoroutine || in.op == Opcode::kProgram) && in.p3 < 0) {
      in.p3 = address(in.p3);
    }
  }
}

}  // namespace basalt

namespace basalt {

namespace {

// The declared type, table and column a result column comes from (through
// subqueries and views, as sqlite3_column_decltype / _table_name /
// _origin_name report them); table null when it is not a table column.
struct Origin {
  std::string decl_type;
  const Table* table = nullptr;
  int column = -1;  // -1: the rowid
};

Origin OriginOf(const SelectInfo* info, const ast::Expr* e) {
  Origin o;
  if (e->kind == ast::ExprKind::kResolvedColumn && e->tab != nullptr) {
    int col = e->column >= 0 ? e->column : static_cast<int>(e->ival);
    o.table = e->tab;
    o.column = col;
    o.decl_type = col >= 0 ? e->tab->columns[static_cast<size_t>(col)].decl_type : "INTEGER";
  } else if (const SourceColumn* sc = Resolver::SourceColumnOf(info, e)) {
    o.table = sc->origin_table;
    o.column = sc->origin_column;
    o.decl_type = std::string(sc->decl_type);
    if (o.table != nullptr && o.column < 0) o.decl_type = "INTEGER";
  }
  return o;
}

}  // namespace

Result<std::unique_ptr<Program>> CompileStatement(ast::Stmt* stmt, CompileContext* ctx) {
  auto prog = std::make_unique<Program>();
  prog->ops.reserve(64);
  ctx->explain_plan = stmt->explain == 2;
  Codegen cg(ctx, prog.get());
  cg.BeginHoisting();
  switch (stmt->kind) {
    case ast::StmtKind::kSelect: {
      ast::Select* s = stmt->As<ast::SelectStmt>()->select;
      if (!cg.resolver().ResolveSelect(s, nullptr)) return ctx->error;
      ast::Select* first = s;
      while (first->prior) first = first->prior;
      SelectInfo* info = InfoOf(first);
      prog->column_names = info->names;
      for (size_t i = 0; i < info->result->size(); ++i) {
        const ast::Expr* e = (*info->result)[i];
        char aff = Resolver::ExprAffinity(e);
        prog->column_affinities.push_back(aff < 'A' ? 'A' : aff);
        const Origin o = s->prior ? Origin() : OriginOf(info, e);
        prog->column_decltypes.push_back(o.decl_type);
        if (o.table != nullptr) {
          prog->column_tables.push_back(o.table->name);
          prog->column_origins.push_back(o.column >= 0
                                             ? o.table->columns[static_cast<size_t>(o.column)].name
                                             : std::string("rowid"));
        } else {
          prog->column_tables.emplace_back();
          prog->column_origins.emplace_back();
        }
      }
      SelectDest dest;
      dest.kind = SelectDest::kOutput;
      cg.CodeSelect(s, &dest);
      break;
    }
    case ast::StmtKind::kInsert:
      cg.CodeInsert(stmt->As<ast::InsertStmt>(), nullptr);
      break;
    case ast::StmtKind::kUpdate:
      cg.CodeUpdate(stmt->As<ast::UpdateStmt>(), nullptr);
      break;
    case ast::StmtKind::kDelete:
      cg.CodeDelete(stmt->As<ast::DeleteStmt>(), nullptr);
      break;
    default:
      return Status(kInternal, "statement kind is not compiled to a program");
  }
  if (ctx->failed()) return ctx->error;
  cg.Op(Opcode::kHalt, 0, 0);
  cg.EmitHoisted();
  cg.FixLabels();
  prog->n_cursors = ctx->n_cursors;
  prog->n_aggs = std::max(prog->n_aggs, 0);
  return prog;
}

}  // namespace basalt

namespace basalt {

Result<std::unique_ptr<Program>> CompileIndexBuild(const Index* idx, CompileContext* ctx) {
  auto prog = std::make_unique<Program>();
  Codegen cg(ctx, prog.get());
  const Table* tab = idx->table;
  int ncol = static_cast<int>(tab->columns.size());
  int tc = ctx->AllocCursor();
  int ic = ctx->AllocCursor();
  cg.OpenTableCursor(Opcode::kOpenRead, tab, tc);
  CursorInfo* ici = prog->arena.New<CursorInfo>();
  ici->key_info = &idx->key_info;
  ici->n_columns = idx->n_fields();
  int a = cg.Op(Opcode::kOpenWrite, ic, static_cast<int>(idx->root), tab->db());
  prog->SetP4(a, ici);
  // The keys go through a sorter, then into the empty index in order, each
  // appended to its last leaf (as SQLite builds indexes: every key is
  // computed before any uniqueness check).
  int sorter = ctx->AllocCursor();
  a = cg.Op(Opcode::kSorterOpen, sorter, idx->n_fields());
  prog->SetP4(a, &idx->key_info);
  int done = cg.MakeLabel();
  cg.Op(Opcode::kRewind, tc, done);
  int top = prog->pc();
  int next = cg.MakeLabel();
  int base = cg.AllocReg(ncol + 1);
  Codegen::DmlTarget t;
  t.table = tab;
  t.cursor = tc;
  cg.CodeReadRow(&t, base);
  if (!idx->where_sql.empty()) {
    size_t mark = cg.redirects_.size();
    ast::Expr* w = cg.ParseTableExpr(tab, idx->where_sql, base);
    if (w == nullptr) return ctx->error;
    // A partial index's WHERE must give the same answer every time.
    auto deterministic = [&](ast::Expr* x) {
      const bool nondet =
          x->kind == ast::ExprKind::kCurrentTime ||
          (x->kind == ast::ExprKind::kFunction && x->aux != nullptr &&
           (static_cast<const FunctionDef*>(x->aux)->flags & kFuncDeterministic) == 0);
      if (nondet) {
        ctx->ErrorAt(x->span,
                     "non-deterministic functions prohibited in partial index WHERE clauses");
      }
      return !nondet;
    };
    WalkExpr(w, deterministic);
    if (ctx->failed()) return ctx->error;
    cg.CodeJumpIf(w, next, false, true);
    cg.redirects_.resize(mark);
  }
  int n = static_cast<int>(idx->columns.size());
  const int nf = idx->n_fields();
  int keys = cg.AllocReg(nf + 1);
  cg.CodeIndexKey(idx, base, keys);
  cg.SetRealMask(cg.Op(Opcode::kMakeRecord, keys, nf, keys + nf), cg.IndexRealMask(idx));
  cg.Op(Opcode::kSorterInsert, sorter, keys + nf);
  cg.ResolveLabel(next);
  cg.Op(Opcode::kNext, tc, top);
  cg.ResolveLabel(done);
  int end = cg.MakeLabel();
  cg.Op(Opcode::kSorterSort, sorter, end);
  int load = prog->pc();
  cg.Op(Opcode::kSorterData, sorter, keys + nf);
  if (idx->unique) {
    for (int i = 0; i < n; ++i) cg.Op(Opcode::kColumn, sorter, i, keys + i);
    int ok = cg.MakeLabel();
    a = cg.Op(Opcode::kNoConflict, ic, ok, keys);
    prog->SetP4Int(a, n);
    std::string cols;
    for (int col : idx->columns) {
      if (!cols.empty()) cols += ", ";
      cols += tab->name + "." +
              (col >= 0 ? tab->columns[static_cast<size_t>(col)].name : std::string("rowid"));
    }
    cg.OpP4Str(Opcode::kHalt, kConstraintUnique, 2, 0, "UNIQUE constraint failed: " + cols);
    cg.ResolveLabel(ok);
  }
  cg.Op(Opcode::kIdxAppend, ic, keys + nf);
  cg.Op(Opcode::kSorterNext, sorter, load);
  cg.ResolveLabel(end);
  cg.Op(Opcode::kHalt, 0, 0);
  if (ctx->failed()) return ctx->error;
  cg.FixLabels();
  prog->n_cursors = ctx->n_cursors;
  prog->writes = true;
  return prog;
}

}  // namespace basalt

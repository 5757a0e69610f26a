// Expression code generation.
#include <cstring>

#include "exec/codegen_internal.h"
#include "exec/operator_eval.h"
#include "parser/parser.h"
#include "record/affinity.h"
#include "record/value_ops.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::ExprList;
using ast::Op;

namespace {

char CmpAffinity(const Expr* a, const Expr* b) {
  char x = Resolver::ExprAffinity(a);
  char y = Resolver::ExprAffinity(b);
  bool hx = x > '@', hy = y > '@';
  if (hx && hy) return (x >= 'C' || y >= 'C') ? 'C' : 'A';
  if (!hx && !hy) return '@';
  return hx ? x : y;
}

}  // namespace

void Codegen::CodeColumn(int cursor, int column, const Table* tab, int target) {
  for (size_t i = redirects_.size(); i-- > 0;) {
    const Redirect& r = redirects_[i];
    if (r.cursor == cursor && r.column == column) {
      if (r.reg != target) Op(Opcode::kCopy, r.reg, target, 0);
      return;
    }
  }
  for (const IndexSubst& s : substs_) {
    if (s.table_cursor != cursor) continue;
    if (column < 0) {
      Op(Opcode::kIdxRowid, s.index_cursor, target);
      return;
    }
    for (size_t k = 0; k < s.index->columns.size(); ++k) {
      if (s.index->columns[k] == column) {
        Op(Opcode::kColumn, s.index_cursor, static_cast<int>(k), target);
        if (tab && tab->columns[static_cast<size_t>(column)].affinity == Affinity::kReal) {
          Op(Opcode::kRealAffinity, target);
        }
        return;
      }
    }
    break;  // not covered (should not happen): read the table
  }
  if (column < 0) {
    Op(Opcode::kRowid, cursor, target);
    return;
  }
  int a = Op(Opcode::kColumn, cursor, column, target);
  if (tab != nullptr) {
    const Column& col = tab->columns[static_cast<size_t>(column)];
    if (!col.default_sql.empty()) {
      // Rows written before ALTER TABLE ADD COLUMN lack the column: they
      // read as the column's default.
      Expr* d = ctx_->ParseExpr(col.default_sql);
      if (d != nullptr) {
        Value* v = prog_->arena.New<Value>();
        bool constant = true;
        switch (d->kind) {
          case ExprKind::kInteger:
            v->SetInt(d->ival);
            break;
          case ExprKind::kReal:
            v->SetReal(d->rval);
            break;
          case ExprKind::kString:
            v->SetTextStatic(prog_->arena.CopyString(d->text));
            break;
          case ExprKind::kNull:
            break;
          case ExprKind::kUnary:
            if (d->op == Op::kNeg && d->left->kind == ExprKind::kInteger) {
              v->SetInt(-d->left->ival);
            } else if (d->op == Op::kNeg && d->left->kind == ExprKind::kReal) {
              v->SetReal(-d->left->rval);
            } else {
              constant = false;
            }
            break;
          default:
            constant = false;
        }
        if (constant && !v->is_null()) {
          ApplyAffinity(v, col.affinity);
          v->MakeOwned();
          prog_->SetP4(a, v);
        }
      }
      ctx_->error = Status();
    }
    if (col.affinity == Affinity::kReal) Op(Opcode::kRealAffinity, target);
  }
}

void Codegen::CodeLiteralValue(Expr* e, int target) {
  switch (e->kind) {
    case ExprKind::kNull:
      Op(Opcode::kNull, 0, target);
      break;
    case ExprKind::kInteger:
    case ExprKind::kBool:
      OpInt64(e->ival, target);
      break;
    case ExprKind::kReal: {
      int a = Op(Opcode::kReal, 0, target);
      prog_->SetP4Real(a, e->rval);
      break;
    }
    case ExprKind::kString:
      OpString(e->text, target);
      break;
    case ExprKind::kBlob: {
      int a = Op(Opcode::kBlob, static_cast<int>(e->text.size()), target);
      prog_->SetP4Str(a, ArenaStr(e->text));
      break;
    }
    default:
      break;
  }
}

int Codegen::CodeExprTemp(Expr* e) {
  if (e->kind == ExprKind::kRegister) return e->reg;
  if (e->kind == ExprKind::kResolvedColumn) {
    for (size_t i = redirects_.size(); i-- > 0;) {
      if (redirects_[i].cursor == e->cursor && redirects_[i].column == e->column) {
        return redirects_[i].reg;
      }
    }
  }
  if (e->kind == ExprKind::kFunction && e->agg >= 0) {
    if (const int* r = AggResultReg(e)) return *r;
  }
  int r = AllocReg();
  CodeExpr(e, r);
  return r;
}

void Codegen::CodeCompare(Expr* e, int target) {
  if ((e->op == Op::kIs || e->op == Op::kIsNot) && e->right->kind == ExprKind::kBool) {
    // x IS [NOT] TRUE|FALSE tests the truth value of x (NULL is neither).
    int l = CodeExprTemp(e->left);
    bool lit = e->right->ival != 0;
    bool is_not = e->op == Op::kIsNot;
    int a = Op(Opcode::kIsTrue, l, target, lit ? 0 : 1);
    prog_->SetP4Int(a, (is_not != !lit) ? 1 : 0);
    return;
  }
  int l = CodeExprTemp(e->left);
  int r = CodeExprTemp(e->right);
  Opcode op = OpcodeOf(e->op);
  int a = Op(op, l, target, r);
  Instr& in = prog_->at(a);
  in.p5 = static_cast<uint8_t>(CmpAffinity(e->left, e->right)) & kCmpAffinityMask;
  if (in.p5 == ('@' & kCmpAffinityMask)) in.p5 = 0;
  in.p5 |= kCmpStoreResult;
  if (e->op == Op::kIs || e->op == Op::kIsNot) in.p5 |= kCmpNullEq;
  const Collation* coll = resolver_.BinaryCollation(e->left, e->right);
  if (coll != nullptr) {
    prog_->SetP4(a, coll);
  }
}

// The values of a row-value operand as expressions (a subquery's columns
// become registers).
void Codegen::VectorElements(Expr* e, std::vector<Expr*>* out) {
  if (e->kind == ExprKind::kVector) {
    for (size_t i = 0; i < e->list->size(); ++i) out->push_back((*e->list)[i]);
    return;
  }
  int n = Resolver::VectorSize(e);
  if (e->kind == ExprKind::kSubquery && n > 1) {
    int r = CodeSubqueryValue(e);
    ast::Select* first = e->select;
    while (first->prior) first = first->prior;
    SelectInfo* info = InfoOf(first);
    for (int i = 0; i < n; ++i) {
      Expr* x = ctx_->arena->New<Expr>();
      x->kind = ExprKind::kRegister;
      x->reg = r + i;
      Expr* col = (*info->result)[static_cast<size_t>(i)];
      x->affinity = Resolver::ExprAffinity(col);
      if (const Collation* c = resolver_.ExprCollation(col)) {
        x->aux = c;
        x->pflags |= 0x02;
      }
      out->push_back(x);
    }
    return;
  }
  out->push_back(e);
}

Expr* Codegen::Binary(ast::Op op, Expr* l, Expr* r) {
  Expr* x = ctx_->arena->New<Expr>();
  x->kind = ExprKind::kBinary;
  x->op = op;
  x->left = l;
  x->right = r;
  return x;
}

// (a, b, ...) <op> (x, y, ...): = and IS compare every pair; < <= > >=
// compare lexicographically, NULL where an undecided pair has a NULL.
void Codegen::CodeVectorCompare(Expr* e, int target) {
  std::vector<Expr*> l, r;
  VectorElements(e->left, &l);
  VectorElements(e->right, &r);
  size_t n = l.size();
  ast::Op op = e->op;
  if (op == ast::Op::kEq || op == ast::Op::kNe || op == ast::Op::kIs || op == ast::Op::kIsNot) {
    ast::Op each = (op == ast::Op::kIs || op == ast::Op::kIsNot) ? ast::Op::kIs : ast::Op::kEq;
    int tmp = AllocReg();
    for (size_t i = 0; i < n; ++i) {
      CodeCompare(Binary(each, l[i], r[i]), i == 0 ? target : tmp);
      if (i > 0) Op(Opcode::kAnd, target, tmp, target);
    }
    if (op == ast::Op::kNe || op == ast::Op::kIsNot) Op(Opcode::kNot, target, target);
    return;
  }
  ast::Op strict = (op == ast::Op::kLt || op == ast::Op::kLe) ? ast::Op::kLt : ast::Op::kGt;
  int done = MakeLabel();
  int null_label = MakeLabel();
  for (size_t i = 0; i < n; ++i) {
    if (i + 1 < n) {
      int next = MakeLabel();
      CodeJumpIf(Binary(ast::Op::kEq, l[i], r[i]), next, true, false);
      Op(Opcode::kIsNull, CodeExprTemp(l[i]), null_label);
      Op(Opcode::kIsNull, CodeExprTemp(r[i]), null_label);
      CodeCompare(Binary(strict, l[i], r[i]), target);
      Op(Opcode::kGoto, 0, done);
      ResolveLabel(next);
    } else {
      CodeCompare(Binary(op, l[i], r[i]), target);
      Op(Opcode::kGoto, 0, done);
    }
  }
  ResolveLabel(null_label);
  Op(Opcode::kNull, 0, target);
  ResolveLabel(done);
}

void Codegen::CodeCase(Expr* e, int target) {
  int end = MakeLabel();
  ExprList* list = e->list;
  int base = e->left ? CodeExprTemp(e->left) : 0;
  for (size_t i = 0; i + 1 < list->size(); i += 2) {
    Expr* when = (*list)[i];
    Expr* then = (*list)[i + 1];
    int next = MakeLabel();
    if (e->left) {
      int w = CodeExprTemp(when);
      int a = Op(Opcode::kNe, base, next, w);
      Instr& in = prog_->at(a);
      char aff = CmpAffinity(e->left, when);
      in.p5 = static_cast<uint8_t>(aff == '@' ? 0 : (aff & kCmpAffinityMask)) | kCmpJumpIfNull;
      const Collation* coll = resolver_.BinaryCollation(e->left, when);
      if (coll) {
        prog_->SetP4(a, coll);
      }
    } else {
      CodeJumpIf(when, next, false, true);
    }
    CodeExpr(then, target);
    Op(Opcode::kGoto, 0, end);
    ResolveLabel(next);
  }
  if (e->right) {
    CodeExpr(e->right, target);
  } else {
    Op(Opcode::kNull, 0, target);
  }
  ResolveLabel(end);
}

void Codegen::CodeFunction(Expr* e, int target) {
  const FunctionDef* def = static_cast<const FunctionDef*>(e->aux);
  std::string_view name = def->name;
  int nargs = e->list ? static_cast<int>(e->list->size()) : 0;
  if (name == "coalesce" || name == "ifnull") {
    int done = MakeLabel();
    CodeExpr((*e->list)[0], target);
    for (int i = 1; i < nargs; ++i) {
      Op(Opcode::kNotNull, target, done);
      CodeExpr((*e->list)[static_cast<size_t>(i)], target);
    }
    ResolveLabel(done);
    return;
  }
  if (name == "iif" && nargs == 3) {
    int els = MakeLabel();
    int done = MakeLabel();
    CodeJumpIf((*e->list)[0], els, false, true);
    CodeExpr((*e->list)[1], target);
    Op(Opcode::kGoto, 0, done);
    ResolveLabel(els);
    CodeExpr((*e->list)[2], target);
    ResolveLabel(done);
    return;
  }
  if (name == "likely" || name == "unlikely" || name == "likelihood") {
    CodeExpr((*e->list)[0], target);
    return;
  }
  int args = nargs > 0 ? AllocReg(nargs) : 0;
  for (int i = 0; i < nargs; ++i) CodeExpr((*e->list)[static_cast<size_t>(i)], args + i);
  FuncCall* call = prog_->arena.New<FuncCall>();
  call->def = def;
  call->nargs = nargs;
  if (def->flags & kFuncNeedsCollation) {
    for (int i = 0; i < nargs && call->coll == nullptr; ++i) {
      call->coll = resolver_.ExprCollation((*e->list)[static_cast<size_t>(i)]);
    }
  }
  int a = Op(Opcode::kFunction, args, nargs, target);
  prog_->SetP4(a, call);
}

int Codegen::CodeSubqueryValue(Expr* e) {
  if (e->reg > 0 && (e->pflags & 0x20)) return e->reg;
  ast::Select* sub = e->select;
  SelectInfo* info = InfoOf(sub);
  bool correlated = info->correlated || in_trigger_ > 0;
  for (ast::Select* p = sub; p; p = p->prior) correlated |= InfoOf(p)->correlated;
  int done = MakeLabel();
  int reg;
  EqpScope eqp_scope(this, Eqp(std::string(correlated ? "CORRELATED " : "") + "SCALAR SUBQUERY " +
                               std::to_string(++subquery_counter_)));
  if (e->kind == ExprKind::kExists) {
    reg = AllocReg();
    if (!correlated) Op(Opcode::kOnce, 0, done);
    Op(Opcode::kInteger, 0, reg);
    SelectDest dest;
    dest.kind = SelectDest::kExists;
    dest.reg = reg;
    dest.label = done;
    CodeSelect(sub, &dest);
  } else {
    ast::Select* first = sub;
    while (first->prior) first = first->prior;
    int n = static_cast<int>(InfoOf(first)->result->size());
    reg = AllocReg(n);
    if (!correlated) Op(Opcode::kOnce, 0, done);
    Op(Opcode::kNull, 0, reg, reg + n - 1);
    SelectDest dest;
    dest.kind = SelectDest::kScalar;
    dest.reg = reg;
    dest.n_columns = n;
    dest.label = done;
    CodeSelect(sub, &dest);
  }
  ResolveLabel(done);
  if (!correlated) {
    e->reg = reg;
    e->pflags |= 0x20;
  }
  return reg;
}

int Codegen::CodeInIndex(Expr* in, int* has_null_reg, char* aff_out) {
  ast::Select* sub = in->select;
  bool correlated = in_trigger_ > 0;
  for (ast::Select* p = sub; p; p = p->prior) correlated |= InfoOf(p)->correlated;
  ast::Select* first = sub;
  while (first->prior) first = first->prior;
  SelectInfo* finfo = InfoOf(first);
  int ncol = static_cast<int>(finfo->result->size());
  int cursor = ctx_->AllocCursor();
  KeyInfo* ki = MakeKeyInfo(ncol);
  char* aff = prog_->arena.NewArray<char>(static_cast<size_t>(ncol) + 1);
  for (int i = 0; i < ncol; ++i) {
    Expr* lhs =
        in->left->kind == ExprKind::kVector ? (*in->left->list)[static_cast<size_t>(i)] : in->left;
    Expr* rcol = (*finfo->result)[static_cast<size_t>(i)];
    char la = Resolver::ExprAffinity(lhs);
    char ra = Resolver::ExprAffinity(rcol);
    bool hl = la > '@', hr = ra > '@';
    char a = (hl && hr) ? ((la >= 'C' || ra >= 'C') ? 'C' : 'A') : (hl ? la : (hr ? ra : 'A'));
    aff[i] = a == '@' ? 'A' : a;
    const_cast<const Collation**>(ki->colls)[i] = resolver_.BinaryCollation(lhs, rcol);
  }
  aff[ncol] = '\0';
  *has_null_reg = AllocReg();
  int done = MakeLabel();
  EqpScope eqp_scope(this, Eqp(std::string(correlated ? "CORRELATED " : "") + "LIST SUBQUERY " +
                               std::to_string(++subquery_counter_)));
  if (!correlated) Op(Opcode::kOnce, 0, done);
  int a = Op(Opcode::kOpenEphemeral, cursor, ncol);
  prog_->SetP4(a, ki);
  Op(Opcode::kInteger, 0, *has_null_reg);
  SelectDest dest;
  dest.kind = SelectDest::kSet;
  dest.cursor = cursor;
  dest.affinity = aff;
  dest.has_null_reg = *has_null_reg;
  CodeSelect(sub, &dest);
  ResolveLabel(done);
  if (aff_out) *aff_out = aff[0];
  return cursor;
}

void Codegen::CodeIn(Expr* e, int target) {
  bool negate = e->has(ast::kNot);
  int done = MakeLabel();
  int is_true = MakeLabel();
  int is_null = MakeLabel();
  if (e->left->kind == ExprKind::kVector) {
    CodeVectorIn(e, target);
    return;
  }
  if (e->select == nullptr) {
    ExprList* list = e->list;
    if (list == nullptr || list->size() == 0) {
      Op(Opcode::kInteger, negate ? 1 : 0, target);
      return;
    }
    int lhs = CodeExprTemp(e->left);
    char aff = Resolver::ExprAffinity(e->left);
    int saw_null = AllocReg();
    Op(Opcode::kInteger, 0, saw_null);
    Op(Opcode::kIsNull, lhs, is_null);
    for (size_t i = 0; i < list->size(); ++i) {
      Expr* item = (*list)[i];
      int r = CodeExprTemp(item);
      int a = Op(Opcode::kEq, lhs, is_true, r);
      Instr& in = prog_->at(a);
      in.p5 = static_cast<uint8_t>(aff <= 'A' ? 0 : (aff & kCmpAffinityMask));
      const Collation* coll = resolver_.BinaryCollation(e->left, item);
      if (coll) {
        prog_->SetP4(a, coll);
      }
      if (item->kind != ExprKind::kInteger && item->kind != ExprKind::kString &&
          item->kind != ExprKind::kReal) {
        int nn = MakeLabel();
        Op(Opcode::kNotNull, r, nn);
        Op(Opcode::kInteger, 1, saw_null);
        ResolveLabel(nn);
      }
    }
    Op(Opcode::kIf, saw_null, is_null);
    Op(Opcode::kInteger, negate ? 1 : 0, target);
    Op(Opcode::kGoto, 0, done);
  } else {
    int has_null = 0;
    char aff = 'A';
    int cursor = CodeInIndex(e, &has_null, &aff);
    int lhs = AllocReg();
    CodeExpr(e->left, lhs);
    int lhs_null = MakeLabel();
    Op(Opcode::kIsNull, lhs, lhs_null);
    if (aff != 'A') {
      char* s = prog_->arena.NewArray<char>(2);
      s[0] = aff;
      s[1] = 0;
      int a = Op(Opcode::kAffinity, lhs, 1);
      prog_->SetP4Str(a, s);
    }
    int a = Op(Opcode::kFound, cursor, is_true, lhs);
    prog_->SetP4Int(a, 1);
    Op(Opcode::kIf, has_null, is_null);
    Op(Opcode::kInteger, negate ? 1 : 0, target);
    Op(Opcode::kGoto, 0, done);
    ResolveLabel(lhs_null);
    // NULL IN (empty set) is false.
    Op(Opcode::kRewind, cursor, 0);
    int empty_addr = prog_->pc() - 1;
    Op(Opcode::kGoto, 0, is_null);
    prog_->at(empty_addr).p2 = prog_->pc();
    Op(Opcode::kInteger, negate ? 1 : 0, target);
    Op(Opcode::kGoto, 0, done);
  }
  ResolveLabel(is_true);
  Op(Opcode::kInteger, negate ? 0 : 1, target);
  Op(Opcode::kGoto, 0, done);
  ResolveLabel(is_null);
  Op(Opcode::kNull, 0, target);
  ResolveLabel(done);
}

void Codegen::CodeVectorIn(Expr* e, int target) {
  bool negate = e->has(ast::kNot);
  if (e->select == nullptr) {
    // (a, b) IN ((x, y), ...): OR of row-value equalities (three-valued).
    ExprList* list = e->list;
    if (list == nullptr || list->size() == 0) {
      Op(Opcode::kInteger, negate ? 1 : 0, target);
      return;
    }
    int tmp = AllocReg();
    for (size_t i = 0; i < list->size(); ++i) {
      CodeVectorCompare(Binary(ast::Op::kEq, e->left, (*list)[i]), i == 0 ? target : tmp);
      if (i > 0) Op(Opcode::kOr, target, tmp, target);
    }
    if (negate) Op(Opcode::kNot, target, target);
    return;
  }
  // (a, b) IN (SELECT x, y ...): look the row up in a temporary index; when
  // NULLs are involved, a scan decides between false and NULL.
  int has_null = 0;
  char aff0 = 'A';
  int cursor = CodeInIndex(e, &has_null, &aff0);
  std::vector<Expr*> l;
  VectorElements(e->left, &l);
  int n = static_cast<int>(l.size());
  int keys = AllocReg(n);
  int lhs_null = AllocReg();
  int done = MakeLabel();
  int is_true = MakeLabel();
  int is_null = MakeLabel();
  int is_false = MakeLabel();
  int scan = MakeLabel();
  ast::Select* first = e->select;
  while (first->prior) first = first->prior;
  SelectInfo* finfo = InfoOf(first);
  char* aff = prog_->arena.NewArray<char>(static_cast<size_t>(n) + 1);
  Op(Opcode::kInteger, 0, lhs_null);
  for (int i = 0; i < n; ++i) {
    CodeExpr(l[static_cast<size_t>(i)], keys + i);
    int nn = MakeLabel();
    Op(Opcode::kNotNull, keys + i, nn);
    Op(Opcode::kInteger, 1, lhs_null);
    ResolveLabel(nn);
    aff[i] = CmpAffinity(l[static_cast<size_t>(i)], (*finfo->result)[static_cast<size_t>(i)]);
    if (aff[i] == '@') aff[i] = 'A';
  }
  aff[n] = 0;
  int a = Op(Opcode::kAffinity, keys, n);
  prog_->SetP4Str(a, aff);
  Op(Opcode::kIf, lhs_null, scan, 0);
  a = Op(Opcode::kFound, cursor, is_true, keys);
  prog_->SetP4Int(a, n);
  Op(Opcode::kIfNot, has_null, is_false, 1);
  // Scan: a row with no definite difference (only NULL-undecided pairs)
  // makes the answer NULL.
  ResolveLabel(scan);
  Op(Opcode::kRewind, cursor, is_false);
  int top = prog_->pc();
  int next_row = MakeLabel();
  int col = AllocReg();
  for (int i = 0; i < n; ++i) {
    int undecided = MakeLabel();
    Op(Opcode::kIsNull, keys + i, undecided);
    Op(Opcode::kColumn, cursor, i, col);
    Op(Opcode::kIsNull, col, undecided);
    int c = Op(Opcode::kNe, keys + i, next_row, col);
    prog_->at(c).p5 = static_cast<uint8_t>(aff[i] <= 'A' ? 0 : (aff[i] & kCmpAffinityMask));
    const Collation* coll = resolver_.BinaryCollation(l[static_cast<size_t>(i)],
                                                      (*finfo->result)[static_cast<size_t>(i)]);
    if (coll) {
      prog_->SetP4(c, coll);
    }
    ResolveLabel(undecided);
  }
  Op(Opcode::kGoto, 0, is_null);
  ResolveLabel(next_row);
  Op(Opcode::kNext, cursor, top);
  ResolveLabel(is_false);
  Op(Opcode::kInteger, negate ? 1 : 0, target);
  Op(Opcode::kGoto, 0, done);
  ResolveLabel(is_true);
  Op(Opcode::kInteger, negate ? 0 : 1, target);
  Op(Opcode::kGoto, 0, done);
  ResolveLabel(is_null);
  Op(Opcode::kNull, 0, target);
  ResolveLabel(done);
}

// Constant folding: an operator tree over literals is evaluated while
// compiling (none of these operators can fail at run time).
bool Codegen::Fold(const Expr* e, Value* out, int depth) {
  if (depth > 64) return false;
  switch (e->kind) {
    case ExprKind::kNull:
      out->SetNull();
      return true;
    case ExprKind::kInteger:
    case ExprKind::kBool:
      out->SetInt(e->ival);
      return true;
    case ExprKind::kReal:
      out->SetReal(e->rval);
      return true;
    case ExprKind::kString:
      out->SetText(e->text);
      return true;
    case ExprKind::kCollate:
      return Fold(e->left, out, depth + 1);
    case ExprKind::kUnary: {
      if (e->op == Op::kNeg && e->left->kind == ExprKind::kReal &&
          e->left->text == "9223372036854775808") {
        out->SetInt(INT64_MIN);
        return true;
      }
      // The operand is folded into *out and evaluated in place (the operator
      // functions allow out to alias their operand).
      UnaryEvalFn fn = UnaryEvalOf(e->op);
      if (fn == nullptr || !Fold(e->left, out, depth + 1)) return false;
      fn(*out, out);
      return true;
    }
    case ExprKind::kBinary: {
      BinaryEvalFn fn = BinaryEvalOf(e->op);
      if (fn == nullptr) return false;
      Value a, b;
      if (!Fold(e->left, &a, depth + 1) || !Fold(e->right, &b, depth + 1)) return false;
      fn(a, b, out);
      return true;
    }
    case ExprKind::kCast: {
      if (!Fold(e->left, out, depth + 1)) return false;
      CastValue(out, e->text.empty() ? Affinity::kNumeric : AffinityFromDeclType(e->text));
      return true;
    }
    default:
      return false;
  }
}

void Codegen::CodeConstant(const Value& v, int target) {
  switch (v.type()) {
    case Type::kNull:
      Op(Opcode::kNull, 0, target);
      break;
    case Type::kInteger:
      OpInt64(v.int_value(), target);
      break;
    case Type::kReal: {
      int a = Op(Opcode::kReal, 0, target);
      prog_->SetP4Real(a, v.real_value());
      break;
    }
    case Type::kText:
      OpString(v.text(), target);
      break;
    case Type::kBlob: {
      int a = Op(Opcode::kBlob, static_cast<int>(v.size()), target);
      prog_->SetP4Str(a, ArenaStr(std::string_view(v.data(), v.size())));
      break;
    }
  }
}

void Codegen::CodeExpr(Expr* e, int target) {
  if (e->kind == ExprKind::kUnary || e->kind == ExprKind::kBinary || e->kind == ExprKind::kCast) {
    Value v;
    if (Fold(e, &v, 0)) {
      CodeConstant(v, target);
      return;
    }
  }
  switch (e->kind) {
    case ExprKind::kNull:
    case ExprKind::kInteger:
    case ExprKind::kReal:
    case ExprKind::kString:
    case ExprKind::kBlob:
    case ExprKind::kBool:
      CodeLiteralValue(e, target);
      return;
    case ExprKind::kParam:
      Op(Opcode::kVariable, e->param_index, target);
      return;
    case ExprKind::kResolvedColumn:
      CodeColumn(e->cursor, e->column, e->tab, target);
      return;
    case ExprKind::kRegister:
      if (e->reg != target) Op(Opcode::kCopy, e->reg, target, 0);
      return;
    case ExprKind::kCurrentTime: {
      const char* fname = e->op == Op::kCurDate   ? "current_date"
                          : e->op == Op::kCurTime ? "current_time"
                                                  : "current_timestamp";
      const FunctionDef* def = ctx_->funcs->Find(fname, 0);
      if (def == nullptr) {
        ctx_->Error(std::string("no such function: ") + fname);
        return;
      }
      FuncCall* call = prog_->arena.New<FuncCall>();
      call->def = def;
      int a = Op(Opcode::kFunction, 0, 0, target);
      prog_->SetP4(a, call);
      return;
    }
    case ExprKind::kUnary: {
      if (e->op == Op::kNeg) {
        Expr* x = e->left;
        if (x->kind == ExprKind::kInteger) {
          if (x->ival == INT64_MIN) {
            int a = Op(Opcode::kReal, 0, target);
            prog_->SetP4Real(a, 9223372036854775808.0);
          } else {
            OpInt64(-x->ival, target);
          }
          return;
        }
        if (x->kind == ExprKind::kReal) {
          if (x->text == "9223372036854775808") {
            OpInt64(INT64_MIN, target);
            return;
          }
          int a = Op(Opcode::kReal, 0, target);
          prog_->SetP4Real(a, -x->rval);
          return;
        }
        int r = CodeExprTemp(x);
        Op(Opcode::kNegative, r, target);
        return;
      }
      if (e->op == Op::kPlus) {
        CodeExpr(e->left, target);
        return;
      }
      int r = CodeExprTemp(e->left);
      Op(OpcodeOf(e->op), r, target);
      return;
    }
    case ExprKind::kBinary: {
      if (IsComparison(e->op)) {
        if (Resolver::VectorSize(e->left) > 1 || Resolver::VectorSize(e->right) > 1) {
          CodeVectorCompare(e, target);
          return;
        }
        CodeCompare(e, target);
        return;
      }
      Opcode op = OpcodeOf(e->op);
      if (op == Opcode::kNoop || op == Opcode::kFunction) {
        ctx_->Error("unsupported operator");
        return;
      }
      int l = CodeExprTemp(e->left);
      int r = CodeExprTemp(e->right);
      Op(op, l, r, target);
      return;
    }
    case ExprKind::kCollate:
      CodeExpr(e->left, target);
      return;
    case ExprKind::kCast:
      CodeExpr(e->left, target);
      // An empty type name matches no rule: NUMERIC (a column with no
      // declared type would be BLOB, but CAST differs).
      Op(Opcode::kCast, target,
         static_cast<int>(e->text.empty() ? Affinity::kNumeric : AffinityFromDeclType(e->text)));
      return;
    case ExprKind::kBetween: {
      if (Resolver::VectorSize(e->left) > 1) {
        int r1 = AllocReg(2);
        CodeVectorCompare(Binary(ast::Op::kGe, e->left, (*e->list)[0]), r1);
        CodeVectorCompare(Binary(ast::Op::kLe, e->left, (*e->list)[1]), r1 + 1);
        Op(Opcode::kAnd, r1, r1 + 1, target);
        if (e->has(ast::kNot)) Op(Opcode::kNot, target, target);
        return;
      }
      int x = CodeExprTemp(e->left);
      int lo = CodeExprTemp((*e->list)[0]);
      int hi = CodeExprTemp((*e->list)[1]);
      int r1 = AllocReg(2);
      for (int half = 0; half < 2; ++half) {
        Expr* b = (*e->list)[static_cast<size_t>(half)];
        int a = Op(half == 0 ? Opcode::kGe : Opcode::kLe, x, r1 + half, half == 0 ? lo : hi);
        Instr& in = prog_->at(a);
        char aff = CmpAffinity(e->left, b);
        in.p5 = static_cast<uint8_t>(aff == '@' ? 0 : (aff & kCmpAffinityMask)) | kCmpStoreResult;
        const Collation* coll = resolver_.BinaryCollation(e->left, b);
        if (coll) {
          prog_->SetP4(a, coll);
        }
      }
      Op(Opcode::kAnd, r1, r1 + 1, target);
      if (e->has(ast::kNot)) Op(Opcode::kNot, target, target);
      return;
    }
    case ExprKind::kIn:
      CodeIn(e, target);
      return;
    case ExprKind::kLike: {
      const char* fname = e->op == Op::kGlob     ? "glob"
                          : e->op == Op::kRegexp ? "regexp"
                          : e->op == Op::kMatch  ? "match"
                                                 : "like";
      int nargs = e->right && e->list == nullptr ? 2 : 2;
      Expr* escape = e->escape;
      if (escape) nargs = 3;
      const FunctionDef* def = ctx_->funcs->Find(fname, nargs);
      if (def == nullptr) {
        ctx_->Error(std::string("no such function: ") + (e->op == Op::kRegexp  ? "REGEXP"
                                                         : e->op == Op::kMatch ? "MATCH"
                                                                               : fname));
        return;
      }
      int args = AllocReg(nargs);
      CodeExpr(e->right, args);
      CodeExpr(e->left, args + 1);
      if (escape) CodeExpr(escape, args + 2);
      FuncCall* call = prog_->arena.New<FuncCall>();
      call->def = def;
      call->nargs = nargs;
      call->coll = resolver_.ExprCollation(e->left);
      int a = Op(Opcode::kFunction, args, nargs, target);
      prog_->SetP4(a, call);
      if (e->has(ast::kNot)) Op(Opcode::kNot, target, target);
      return;
    }
    case ExprKind::kIsNull:
    case ExprKind::kNotNull: {
      int r = CodeExprTemp(e->left);
      int done = MakeLabel();
      bool isnull = e->kind == ExprKind::kIsNull;
      int res = target == r ? AllocReg() : target;
      Op(Opcode::kInteger, 1, res);
      Op(isnull ? Opcode::kIsNull : Opcode::kNotNull, r, done);
      Op(Opcode::kInteger, 0, res);
      ResolveLabel(done);
      if (res != target) Op(Opcode::kCopy, res, target, 0);
      return;
    }
    case ExprKind::kCase:
      CodeCase(e, target);
      return;
    case ExprKind::kFunction:
      if (e->agg >= 0) {
        if (const int* r = AggResultReg(e)) {
          Op(Opcode::kCopy, *r, target, 0);
        } else {
          ctx_->Error("misuse of aggregate: " + std::string(e->text) + "()");
        }
        return;
      }
      CodeFunction(e, target);
      return;
    case ExprKind::kSubquery:
    case ExprKind::kExists: {
      int r = CodeSubqueryValue(e);
      Op(Opcode::kCopy, r, target, 0);
      return;
    }
    case ExprKind::kVectorElement: {
      Expr* v = e->left;
      if (v->kind == ExprKind::kSubquery) {
        int r = CodeSubqueryValue(v);
        Op(Opcode::kCopy, r + static_cast<int>(e->ival), target, 0);
      } else {
        CodeExpr((*v->list)[static_cast<size_t>(e->ival)], target);
      }
      return;
    }
    case ExprKind::kRaise:
      CodeRaise(e);
      Op(Opcode::kNull, 0, target);
      return;
    case ExprKind::kVector:
      ctx_->Error("row value misused");
      return;
    default:
      ctx_->Error("unsupported expression");
      return;
  }
}

void Codegen::CodeJumpIf(Expr* e, int label, bool jump_if_true, bool jump_if_null) {
  switch (e->kind) {
    case ExprKind::kBinary:
      if (e->op == Op::kAnd || e->op == Op::kOr) {
        bool is_and = e->op == Op::kAnd;
        if (is_and == jump_if_true) {
          // AND/jump-if-true or OR/jump-if-false: both must agree.
          int skip = MakeLabel();
          CodeJumpIf(e->left, skip, !jump_if_true, !jump_if_null);
          CodeJumpIf(e->right, label, jump_if_true, jump_if_null);
          ResolveLabel(skip);
        } else {
          CodeJumpIf(e->left, label, jump_if_true, jump_if_null);
          CodeJumpIf(e->right, label, jump_if_true, jump_if_null);
        }
        return;
      }
      if (IsComparison(e->op) && Resolver::VectorSize(e->left) == 1 &&
          Resolver::VectorSize(e->right) == 1 &&
          !((e->op == Op::kIs || e->op == Op::kIsNot) && e->right->kind == ExprKind::kBool)) {
        int l = CodeExprTemp(e->left);
        int r = CodeExprTemp(e->right);
        Opcode op = OpcodeOf(e->op);
        bool null_eq = e->op == Op::kIs || e->op == Op::kIsNot;
        if (!jump_if_true) op = NegatedCompare(op);
        int a = Op(op, l, label, r);
        Instr& in = prog_->at(a);
        char aff = CmpAffinity(e->left, e->right);
        in.p5 = static_cast<uint8_t>(aff == '@' ? 0 : (aff & kCmpAffinityMask));
        if (null_eq) {
          in.p5 |= kCmpNullEq;
        } else if (jump_if_null) {
          in.p5 |= kCmpJumpIfNull;
        }
        const Collation* coll = resolver_.BinaryCollation(e->left, e->right);
        if (coll) {
          prog_->SetP4(a, coll);
        }
        return;
      }
      break;
    case ExprKind::kUnary:
      if (e->op == Op::kNot) {
        CodeJumpIf(e->left, label, !jump_if_true, jump_if_null);
        return;
      }
      break;
    case ExprKind::kIsNull:
    case ExprKind::kNotNull: {
      int r = CodeExprTemp(e->left);
      bool want_null = (e->kind == ExprKind::kIsNull) == jump_if_true;
      Op(want_null ? Opcode::kIsNull : Opcode::kNotNull, r, label);
      return;
    }
    case ExprKind::kBetween:
      if (!e->has(ast::kNot) && Resolver::VectorSize(e->left) == 1) {
        // x BETWEEN a AND b  ==  x >= a AND x <= b, x evaluated once.
        int x = CodeExprTemp(e->left);
        Expr* xe = ctx_->arena->New<Expr>();
        xe->kind = ExprKind::kRegister;
        xe->reg = x;
        xe->affinity = Resolver::ExprAffinity(e->left);
        xe->pflags = e->left->pflags;
        xe->aux = nullptr;
        bool ex = false;
        const Collation* c = resolver_.ExprCollation(e->left, &ex);
        Expr* xl = xe;
        if (c != nullptr) {
          if (ex) {
            Expr* ce = ctx_->arena->New<Expr>();
            ce->kind = ExprKind::kCollate;
            ce->left = xe;
            ce->aux = c;
            ce->text = c->name;
            xl = ce;
          } else {
            xe->aux = c;
            xe->pflags |= 0x02;
          }
        }
        Expr ge, le, both;
        ge.kind = le.kind = both.kind = ExprKind::kBinary;
        ge.op = Op::kGe;
        ge.left = xl;
        ge.right = (*e->list)[0];
        le.op = Op::kLe;
        le.left = xl;
        le.right = (*e->list)[1];
        both.op = Op::kAnd;
        both.left = &ge;
        both.right = &le;
        CodeJumpIf(&both, label, jump_if_true, jump_if_null);
        return;
      }
      break;
    case ExprKind::kInteger:
    case ExprKind::kBool: {
      bool t = e->ival != 0;
      if (t == jump_if_true) Op(Opcode::kGoto, 0, label);
      return;
    }
    case ExprKind::kNull:
      if (jump_if_null) Op(Opcode::kGoto, 0, label);
      return;
    default:
      break;
  }
  int r = CodeExprTemp(e);
  Op(jump_if_true ? Opcode::kIf : Opcode::kIfNot, r, label, jump_if_null ? 1 : 0);
}

}  // namespace basalt

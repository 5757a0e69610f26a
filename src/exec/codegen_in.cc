// Subqueries as values and IN: scalar and EXISTS subqueries, IN over lists
// and subqueries (scalar and row-value left sides).
#include "exec/codegen_internal.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::ExprList;
using ast::Op;

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
    if (!correlated && SubqueryOnce()) Op(Opcode::kOnce, 0, done);
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
    if (!correlated && SubqueryOnce()) Op(Opcode::kOnce, 0, done);
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
  if (!correlated && SubqueryOnce()) Op(Opcode::kOnce, 0, done);
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
    const Collation* coll = resolver_.InListCollation(e);
    int saw_null = AllocReg();
    Op(Opcode::kInteger, 0, saw_null);
    Op(Opcode::kIsNull, lhs, is_null);
    for (size_t i = 0; i < list->size(); ++i) {
      Expr* item = (*list)[i];
      int r = CodeExprTemp(item);
      int a = Op(Opcode::kEq, lhs, is_true, r);
      Instr& in = prog_->at(a);
      in.p5 = static_cast<uint8_t>(aff <= 'A' ? 0 : (aff & kCmpAffinityMask));
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

}  // namespace basalt

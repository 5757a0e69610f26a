// Comparisons: scalar and row-value comparisons, and conditional jumps on
// boolean expressions (AND/OR short-circuit, BETWEEN, IS NULL).
#include "exec/codegen_internal.h"
#include "exec/operator_eval.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::Op;

char CmpAffinity(const Expr* a, const Expr* b) {
  char x = Resolver::ExprAffinity(a);
  char y = Resolver::ExprAffinity(b);
  bool hx = x > '@', hy = y > '@';
  if (hx && hy) return (x >= 'C' || y >= 'C') ? 'C' : 'A';
  if (!hx && !hy) return '@';
  return hx ? x : y;
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

namespace {

// A literal SQLite treats as always true / false in a condition: a plain
// integer literal (nonzero / zero) or TRUE / FALSE.
bool AlwaysTruth(const Expr* e, bool truth) {
  if (e->kind != ExprKind::kInteger && e->kind != ExprKind::kBool) return false;
  return (e->ival != 0) == truth;
}

// As SQLite does before coding a condition's jumps: `X AND <false>` and
// `X OR <true>` become the literal, `X AND <true>` and `X OR <false>`
// become X (so X's code, and its errors, disappear with the literal).
Expr* SimplifiedAndOr(Expr* e) {
  if (e->kind != ExprKind::kBinary || (e->op != Op::kAnd && e->op != Op::kOr)) return e;
  const bool is_and = e->op == Op::kAnd;
  Expr* l = SimplifiedAndOr(e->left);
  Expr* r = SimplifiedAndOr(e->right);
  if (AlwaysTruth(l, true) || AlwaysTruth(r, false)) return is_and ? r : l;
  if (AlwaysTruth(r, true) || AlwaysTruth(l, false)) return is_and ? l : r;
  return e;
}

}  // namespace

void Codegen::CodeJumpIf(Expr* e, int label, bool jump_if_true, bool jump_if_null) {
  switch (e->kind) {
    case ExprKind::kBinary:
      if (e->op == Op::kAnd || e->op == Op::kOr) {
        Expr* simple = SimplifiedAndOr(e);
        if (simple != e) {
          CodeJumpIf(simple, label, jump_if_true, jump_if_null);
          return;
        }
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
      if ((e->op == Op::kIs || e->op == Op::kIsNot) && e->right->kind == ExprKind::kBool) {
        // x IS [NOT] TRUE/FALSE as a jump, as SQLite codes it: a jump on x
        // itself (so AND/OR inside x stop early), NULL going the way that
        // makes the test false (IS) or true (IS NOT).
        const bool base = e->right->ival != 0;
        const bool same = jump_if_true != (e->op == Op::kIsNot);
        CodeJumpIf(e->left, label, same ? base : !base, !same);
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
      if (Resolver::VectorSize(e->left) == 1) {
        // x BETWEEN a AND b  ==  x >= a AND x <= b, x evaluated once, the
        // second comparison only when the first leaves the answer open (as
        // SQLite; NOT BETWEEN jumps on the opposite answer, NULL alike).
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
        CodeJumpIf(&both, label, e->has(ast::kNot) ? !jump_if_true : jump_if_true, jump_if_null);
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

// Function-like expressions: function calls (with the special forms
// coalesce/ifnull/iif/likely), CASE, LIKE/GLOB/REGEXP/MATCH and
// CURRENT_TIME/DATE/TIMESTAMP.
#include <algorithm>

#include "exec/codegen_internal.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::ExprList;
using ast::Op;

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

// As SQLite does when coding a scalar function call: if the argument that
// decides (the first, or the left operand of LIKE/GLOB/REGEXP/MATCH) is a
// column of a virtual table, the table's xFindFunction may substitute its
// own function.
const FunctionDef* Codegen::VtabOverload(const FunctionDef* def, int nargs, const Expr* arg) {
  if (arg->kind != ExprKind::kResolvedColumn || arg->tab == nullptr || !arg->tab->is_virtual ||
      arg->tab->vtab == nullptr || (def->flags & kFuncAggregate) != 0 ||
      std::find(agg_cursors_.begin(), agg_cursors_.end(), arg->cursor) != agg_cursors_.end()) {
    return def;
  }
  const FunctionDef* o = arg->tab->vtab->FindFunction(nargs, *def);
  return o != nullptr ? o : def;
}

void Codegen::CodeFunction(Expr* e, int target) {
  if (e->over != nullptr) {  // a window function: its value for the current row
    CodeWindowValue(e, target);
    return;
  }
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
  if (nargs > 0) def = VtabOverload(def, nargs, (*e->list)[0]);
  int args = nargs > 0 ? AllocReg(nargs) : 0;
  for (int i = 0; i < nargs; ++i) CodeExpr((*e->list)[static_cast<size_t>(i)], args + i);
  FuncCall* call = prog_->arena.New<FuncCall>();
  call->def = def;
  call->nargs = nargs;
  call->pure_context = pure_context_;
  if (def->flags & kFuncNeedsCollation) {
    for (int i = 0; i < nargs && call->coll == nullptr; ++i) {
      call->coll = resolver_.ExprCollation((*e->list)[static_cast<size_t>(i)]);
    }
  }
  int a = Op(Opcode::kFunction, args, nargs, target);
  prog_->SetP4(a, call);
}

// CURRENT_TIME / CURRENT_DATE / CURRENT_TIMESTAMP: calls of the functions
// of those names.
void Codegen::CodeCurrentTime(Expr* e, int target) {
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
}

// x [NOT] LIKE|GLOB|REGEXP|MATCH y [ESCAPE z]: a call of the function of
// that name with the pattern first.
void Codegen::CodeLike(Expr* e, int target) {
  const char* fname = e->op == Op::kGlob     ? "glob"
                      : e->op == Op::kRegexp ? "regexp"
                      : e->op == Op::kMatch  ? "match"
                                             : "like";
  Expr* escape = e->escape;
  int nargs = escape ? 3 : 2;
  const FunctionDef* def = ctx_->funcs->Find(fname, nargs);
  if (def == nullptr) {
    ctx_->Error(std::string("no such function: ") + (e->op == Op::kRegexp  ? "REGEXP"
                                                     : e->op == Op::kMatch ? "MATCH"
                                                                           : fname));
    return;
  }
  // As SQLite's parser marks only the un-negated form as infix: NOT LIKE
  // decides by the pattern, the call's first argument.
  def = VtabOverload(def, nargs, e->has(ast::kNot) ? e->right : e->left);
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
}

}  // namespace basalt

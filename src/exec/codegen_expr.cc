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
    // A WITHOUT ROWID table's index also holds the primary-key columns.
    for (size_t k = 0; k < s.index->suffix.size(); ++k) {
      if (s.index->suffix[k] == column) {
        Op(Opcode::kColumn, s.index_cursor, static_cast<int>(s.index->columns.size() + k), target);
        if (tab && tab->columns[static_cast<size_t>(column)].affinity == Affinity::kReal) {
          Op(Opcode::kRealAffinity, target);
        }
        return;
      }
    }
    break;  // not covered (should not happen): read the table
  }
  if (tab != nullptr && tab->is_virtual) {
    if (column < 0) {
      Op(Opcode::kVRowid, cursor, target);
    } else {
      Op(Opcode::kVColumn, cursor, column, target);
    }
    return;
  }
  if (column < 0) {
    Op(Opcode::kRowid, cursor, target);
    return;
  }
  if (tab != nullptr && tab->columns[static_cast<size_t>(column)].is_virtual()) {
    CodeVirtualColumn(cursor, column, tab, target);
    return;
  }
  int a = Op(Opcode::kColumn, cursor, tab != nullptr ? tab->Field(column) : column, target);
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
          case ExprKind::kBlob: {
            std::string_view bytes = prog_->arena.CopyString(d->text);
            v->SetBlobStatic(bytes.data(), bytes.size());
            break;
          }
          case ExprKind::kBool:
            v->SetInt(d->ival);
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
  if (int h = HoistedConstant(e)) return h;
  int r = AllocReg();
  CodeExpr(e, r);
  return r;
}

void Codegen::BeginHoisting() {
  BASALT_DCHECK(prog_->ops.empty());
  if (ctx_->options.PassOn(Pass::kHoistConst)) init_addr_ = Op(Opcode::kInit, 0, 0);
}

int Codegen::HoistedConstant(Expr* e) {
  if (init_addr_ < 0) return 0;
  switch (e->kind) {
    case ExprKind::kInteger:
    case ExprKind::kReal:
    case ExprKind::kString:
    case ExprKind::kBlob:
      break;
    default:
      return 0;
  }
  int r = AllocReg();
  hoisted_.emplace_back(e, r);
  return r;
}

void Codegen::EmitHoisted() {
  if (init_addr_ < 0 || hoisted_.empty()) return;
  prog_->at(init_addr_).p2 = static_cast<int>(prog_->ops.size());
  for (const auto& [e, r] : hoisted_) CodeLiteralValue(e, r);
  Op(Opcode::kGoto, 0, init_addr_ + 1);
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
      if (e->op == Op::kNeg && e->left->kind == ExprKind::kReal) {
        // A minus on a real literal negates the literal itself (as CodeUnary
        // does), so -0.0 keeps its sign; 0 - x would give +0.0.
        out->SetReal(-e->left->rval);
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

// Evaluates e into `target`: constant operator trees are folded first; each
// other kind of expression has its own step.
void Codegen::CodeExpr(Expr* e, int target) {
  if (e->pflags & kExprClearSubtype) {
    e->pflags &= static_cast<uint8_t>(~kExprClearSubtype);
    CodeExpr(e, target);
    e->pflags |= kExprClearSubtype;
    Op(Opcode::kClrSubtype, target, 1);
    return;
  }
  if ((e->kind == ExprKind::kUnary || e->kind == ExprKind::kBinary || e->kind == ExprKind::kCast) &&
      ctx_->options.PassOn(Pass::kConstFold)) {
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
    case ExprKind::kCurrentTime:
      CodeCurrentTime(e, target);
      return;
    case ExprKind::kUnary:
      CodeUnary(e, target);
      return;
    case ExprKind::kBinary:
      CodeBinary(e, target);
      return;
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
    case ExprKind::kBetween:
      CodeBetween(e, target);
      return;
    case ExprKind::kIn:
      CodeIn(e, target);
      return;
    case ExprKind::kLike:
      CodeLike(e, target);
      return;
    case ExprKind::kIsNull:
    case ExprKind::kNotNull:
      CodeNullTest(e, target);
      return;
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
    case ExprKind::kExists:
      Op(Opcode::kCopy, CodeSubqueryValue(e), target, 0);
      return;
    case ExprKind::kVectorElement:
      CodeVectorElement(e, target);
      return;
    case ExprKind::kRaise:
      CodeRaise(e);
      Op(Opcode::kNull, 0, target);
      return;
    case ExprKind::kVector:
      ctx_->Error("row value misused");
      return;
    case ExprKind::kColumn:  // names are resolved before code generation
    case ExprKind::kStar:
    case ExprKind::kAggregate:
      ctx_->Error("unsupported expression");
      return;
  }
  ctx_->Error("unsupported expression");
}

// - - + ~ NOT. A minus before a literal is folded here, INT64_MIN's
// magnitude included.
void Codegen::CodeUnary(Expr* e, int target) {
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
  }
  if (e->op == Op::kPlus) {
    CodeExpr(e->left, target);
    return;
  }
  int r = CodeExprTemp(e->left);
  Op(OpcodeOf(e->op), r, target);
}

// left op right: comparisons have their own step; the other operators are
// one instruction (operators.h gives the opcode).
void Codegen::CodeBinary(Expr* e, int target) {
  if (IsComparison(e->op)) {
    if (Resolver::VectorSize(e->left) > 1 || Resolver::VectorSize(e->right) > 1) {
      CodeVectorCompare(e, target);
    } else {
      CodeCompare(e, target);
    }
    return;
  }
  if (e->op == Op::kJsonArrow || e->op == Op::kJsonArrow2) {
    // As in SQLite, x -> p and x ->> p are calls of the functions named
    // "->" and "->>" (func/json_funcs.cc).
    const char* fname = e->op == Op::kJsonArrow ? "->" : "->>";
    const FunctionDef* def = ctx_->funcs->Find(fname, 2);
    if (def == nullptr) {
      ctx_->Error(std::string("no such function: ") + fname);
      return;
    }
    int args = AllocReg(2);
    CodeExpr(e->left, args);
    CodeExpr(e->right, args + 1);
    FuncCall* call = prog_->arena.New<FuncCall>();
    call->def = def;
    call->nargs = 2;
    int a = Op(Opcode::kFunction, args, 2, target);
    prog_->SetP4(a, call);
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
}

// x [NOT] BETWEEN lo AND hi: (x >= lo) AND (x <= hi), x evaluated once.
void Codegen::CodeBetween(Expr* e, int target) {
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
    char aff = CmpAffinity(e->left, b);
    prog_->at(a).p5 =
        static_cast<uint8_t>(aff == '@' ? 0 : (aff & kCmpAffinityMask)) | kCmpStoreResult;
    if (const Collation* coll = resolver_.BinaryCollation(e->left, b)) prog_->SetP4(a, coll);
  }
  Op(Opcode::kAnd, r1, r1 + 1, target);
  if (e->has(ast::kNot)) Op(Opcode::kNot, target, target);
}

// x ISNULL / x NOTNULL as 0 or 1.
void Codegen::CodeNullTest(Expr* e, int target) {
  int r = CodeExprTemp(e->left);
  int done = MakeLabel();
  bool isnull = e->kind == ExprKind::kIsNull;
  int res = target == r ? AllocReg() : target;
  Op(Opcode::kInteger, 1, res);
  Op(isnull ? Opcode::kIsNull : Opcode::kNotNull, r, done);
  Op(Opcode::kInteger, 0, res);
  ResolveLabel(done);
  if (res != target) Op(Opcode::kCopy, res, target, 0);
}

// One element of a row value (a subquery's column or a list entry).
void Codegen::CodeVectorElement(Expr* e, int target) {
  Expr* v = e->left;
  if (v->kind == ExprKind::kSubquery) {
    int r = CodeSubqueryValue(v);
    Op(Opcode::kCopy, r + static_cast<int>(e->ival), target, 0);
  } else {
    CodeExpr((*v->list)[static_cast<size_t>(e->ival)], target);
  }
}

}  // namespace basalt

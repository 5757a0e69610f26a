// Properties of resolved expressions: affinity, collation, structural
// equality, row-value size.
#include <cstring>

#include "parser/parser.h"
#include "planner/bind_internal.h"
#include "planner/resolve.h"
#include "planner/walk.h"
#include "record/collation_set.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::ExprList;
using ast::Select;
using namespace bind;

// ---- helpers ------------------------------------------------------------------

const Collation* Resolver::FindCollation(std::string_view name) {
  return ::basalt::FindCollation(name);
}

bool Resolver::MayHaveSubtype(Expr* e) {
  bool call = false;
  auto find_call = [&](Expr* x) {
    call |= x->kind == ExprKind::kFunction ||
            (x->kind == ExprKind::kBinary && x->op == ast::Op::kJsonArrow);
    return !call;
  };
  WalkExpr(e, find_call);
  return call;
}

char Resolver::ExprAffinity(const Expr* e) {
  for (;;) {
    switch (e->kind) {
      case ExprKind::kCollate:
        e = e->left;
        continue;
      case ExprKind::kResolvedColumn:
      case ExprKind::kRegister:
        return e->affinity ? e->affinity : '@';
      case ExprKind::kCast:
        return static_cast<char>(e->text.empty() ? Affinity::kNumeric
                                                 : AffinityFromDeclType(e->text));
      case ExprKind::kSubquery: {
        const Select* s = e->select;
        while (s->prior) s = s->prior;
        const SelectInfo* info = InfoOf(s);
        if (info && info->result && info->result->size() > 0) {
          return ExprAffinity((*info->result)[0]);
        }
        return '@';
      }
      case ExprKind::kVector:
        return ExprAffinity((*e->list)[0]);
      default:
        return '@';
    }
  }
}

const Collation* Resolver::ExprCollation(const Expr* e, bool* explicit_coll) {
  if (explicit_coll) *explicit_coll = false;
  // Explicit COLLATE anywhere in the operand tree wins (left first).
  struct Finder {
    Resolver* r;
    const Collation* Find(const Expr* x) {
      if (x == nullptr) return nullptr;
      if (x->kind == ExprKind::kCollate) {
        if (x->pflags & kUnknownCollation) {
          r->ctx_->Error("no such collation sequence: " + std::string(x->text));
          return ::basalt::BinaryCollation();
        }
        return static_cast<const Collation*>(x->aux);
      }
      // A function call takes the COLLATE of its arguments too (SQLite's
      // EP_Collate propagates through the argument list).
      if (x->kind == ExprKind::kSubquery || x->kind == ExprKind::kExists ||
          x->kind == ExprKind::kResolvedColumn) {
        return nullptr;
      }
      if (const Collation* c = Find(x->left)) return c;
      if (const Collation* c = Find(x->right)) return c;
      if (x->list) {
        for (size_t i = 0; i < x->list->size(); ++i) {
          if (const Collation* c = Find((*x->list)[i])) return c;
        }
      }
      return nullptr;
    }
  } finder{this};
  if (const Collation* c = finder.Find(e)) {
    if (explicit_coll) *explicit_coll = true;
    return c;
  }
  while (e->kind == ExprKind::kCast || (e->kind == ExprKind::kUnary && e->op == ast::Op::kPlus)) {
    e = e->left;
  }
  // A column always has a collating sequence (BINARY unless declared), and
  // it takes part in choosing the comparison's collation.
  if (e->kind == ExprKind::kResolvedColumn) {
    if (e->pflags & 0x02) return static_cast<const Collation*>(e->aux);
    return ::basalt::BinaryCollation();
  }
  if (e->kind == ExprKind::kRegister && (e->pflags & 0x02)) {
    return static_cast<const Collation*>(e->aux);
  }
  return nullptr;
}

const Collation* Resolver::BinaryCollation(const Expr* a, const Expr* b) {
  bool ea = false, eb = false;
  const Collation* ca = ExprCollation(a, &ea);
  const Collation* cb = b ? ExprCollation(b, &eb) : nullptr;
  if (ea) return ca;
  if (eb) return cb;
  if (ca) return ca;
  return cb;
}

namespace {

// Constant as SQLite judges it before names are resolved: literals,
// parameters and operators over them; a column, any function call or a
// subquery is not.
bool ConstantAsWritten(const Expr* e) {
  if (e == nullptr) return true;
  switch (e->kind) {
    case ExprKind::kResolvedColumn:
    case ExprKind::kColumn:
    case ExprKind::kRegister:
    case ExprKind::kFunction:
    case ExprKind::kAggregate:
    case ExprKind::kCurrentTime:
    case ExprKind::kSubquery:
    case ExprKind::kExists:
    case ExprKind::kRaise:
    case ExprKind::kStar:
      return false;
    case ExprKind::kIn:
      if (e->select != nullptr) return false;
      break;
    default:
      break;
  }
  if (!ConstantAsWritten(e->left) || !ConstantAsWritten(e->right)) return false;
  if (e->list != nullptr) {
    for (size_t i = 0; i < e->list->size(); ++i) {
      if (!ConstantAsWritten((*e->list)[i])) return false;
    }
  }
  return true;
}

}  // namespace

const Collation* Resolver::InListCollation(const Expr* in) {
  const ast::ExprList* list = in->list;
  if (list != nullptr && list->size() == 1 && ConstantAsWritten((*list)[0])) {
    return BinaryCollation(in->left, (*list)[0]);
  }
  return ExprCollation(in->left);
}

bool ExprEqual(const Expr* a, const Expr* b) {
  if (a == b) return true;
  if (a == nullptr || b == nullptr) return false;
  if (a->kind != b->kind || a->op != b->op) return false;
  if ((a->flags & (ast::kNot | ast::kDistinct | ast::kStarArg)) !=
      (b->flags & (ast::kNot | ast::kDistinct | ast::kStarArg))) {
    return false;
  }
  switch (a->kind) {
    case ExprKind::kInteger:
    case ExprKind::kBool:
      if (a->ival != b->ival) return false;
      break;
    case ExprKind::kReal:
      if (a->rval != b->rval) return false;
      break;
    case ExprKind::kString:
    case ExprKind::kBlob:
      if (a->text != b->text) return false;
      break;
    case ExprKind::kResolvedColumn:
      return a->cursor == b->cursor && a->column == b->column;
    case ExprKind::kRegister:
      return a->reg == b->reg;
    case ExprKind::kParam:
      return a->param_index == b->param_index;
    case ExprKind::kFunction:
    case ExprKind::kCast:
    case ExprKind::kCollate:
      if (!EqualsIgnoreCase(a->text, b->text)) return false;
      break;
    case ExprKind::kSubquery:
    case ExprKind::kExists:
      return false;
    default:
      break;
  }
  if (a->select || b->select) return false;
  if (!ExprEqual(a->left, b->left) || !ExprEqual(a->right, b->right)) return false;
  if ((a->list == nullptr) != (b->list == nullptr)) return false;
  if (a->list) {
    if (a->list->size() != b->list->size()) return false;
    for (size_t i = 0; i < a->list->size(); ++i) {
      if (!ExprEqual((*a->list)[i], (*b->list)[i])) return false;
    }
  }
  return ExprEqual(a->filter, b->filter);
}

int Resolver::VectorSize(const Expr* e) {
  if (e->kind == ExprKind::kVector) return static_cast<int>(e->list->size());
  if (e->kind == ExprKind::kSubquery && (e->pflags & 0x10)) {
    const Select* first = e->select;
    while (first->prior) first = first->prior;
    return static_cast<int>(InfoOf(first)->result->size());
  }
  return 1;
}

}  // namespace basalt

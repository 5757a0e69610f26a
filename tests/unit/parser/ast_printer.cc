#include "ast_printer.h"

// GCC 12 reports false -Wrestrict positives for std::string operator+.
#pragma GCC diagnostic ignored "-Wrestrict"

#include <cstdio>

namespace basalt::testing {

using ast::Expr;
using ast::ExprKind;
using ast::Op;

namespace {

const char* OpText(Op op) {
  switch (op) {
    case Op::kNeg:
      return "-";
    case Op::kPlus:
      return "+";
    case Op::kBitNot:
      return "~";
    case Op::kNot:
      return "NOT ";
    case Op::kOr:
      return "OR";
    case Op::kAnd:
      return "AND";
    case Op::kEq:
      return "=";
    case Op::kNe:
      return "!=";
    case Op::kIs:
      return "IS";
    case Op::kIsNot:
      return "IS NOT";
    case Op::kLt:
      return "<";
    case Op::kLe:
      return "<=";
    case Op::kGt:
      return ">";
    case Op::kGe:
      return ">=";
    case Op::kBitAnd:
      return "&";
    case Op::kBitOr:
      return "|";
    case Op::kShl:
      return "<<";
    case Op::kShr:
      return ">>";
    case Op::kAdd:
      return "+";
    case Op::kSub:
      return "-";
    case Op::kMul:
      return "*";
    case Op::kDiv:
      return "/";
    case Op::kMod:
      return "%";
    case Op::kConcat:
      return "||";
    case Op::kJsonArrow:
      return "->";
    case Op::kJsonArrow2:
      return "->>";
    case Op::kLike:
      return "LIKE";
    case Op::kGlob:
      return "GLOB";
    case Op::kRegexp:
      return "REGEXP";
    case Op::kMatch:
      return "MATCH";
    case Op::kCurTime:
      return "CURRENT_TIME";
    case Op::kCurDate:
      return "CURRENT_DATE";
    case Op::kCurTimestamp:
      return "CURRENT_TIMESTAMP";
    case Op::kRaiseIgnore:
      return "IGNORE";
    case Op::kRaiseRollback:
      return "ROLLBACK";
    case Op::kRaiseAbort:
      return "ABORT";
    case Op::kRaiseFail:
      return "FAIL";
    default:
      return "?";
  }
}

std::string List(const ast::ExprList* l) {
  std::string out;
  if (!l) return out;
  for (size_t i = 0; i < l->size(); ++i) {
    if (i) out += ", ";
    const ast::ExprItem& it = l->items[i];
    out += PrintExpr(it.expr);
    if (it.order == ast::SortOrder::kAsc) out += " ASC";
    if (it.order == ast::SortOrder::kDesc) out += " DESC";
    if (it.nulls == ast::NullsOrder::kFirst) out += " NULLS FIRST";
    if (it.nulls == ast::NullsOrder::kLast) out += " NULLS LAST";
  }
  return out;
}

std::string Window(const ast::Window* w) {
  std::string out = "(";
  std::string sep;
  if (!w->base.empty()) {
    out += std::string(w->base);
    sep = " ";
  }
  if (w->partition) {
    out += sep + "PARTITION BY " + List(w->partition);
    sep = " ";
  }
  if (w->order) {
    out += sep + "ORDER BY " + List(w->order);
    sep = " ";
  }
  if (w->unit != ast::FrameUnit::kNone) {
    static const char* kUnit[] = {"", "ROWS", "RANGE", "GROUPS"};
    auto bound = [](ast::FrameBound b, const Expr* e) -> std::string {
      switch (b) {
        case ast::FrameBound::kUnboundedPreceding:
          return "UNBOUNDED PRECEDING";
        case ast::FrameBound::kPreceding:
          return PrintExpr(e) + " PRECEDING";
        case ast::FrameBound::kCurrentRow:
          return "CURRENT ROW";
        case ast::FrameBound::kFollowing:
          return PrintExpr(e) + " FOLLOWING";
        case ast::FrameBound::kUnboundedFollowing:
          return "UNBOUNDED FOLLOWING";
      }
      return "";
    };
    out += sep + kUnit[static_cast<int>(w->unit)] + " BETWEEN " + bound(w->start, w->start_expr) +
           " AND " + bound(w->end, w->end_expr);
    static const char* kExcl[] = {"", " EXCLUDE CURRENT ROW", " EXCLUDE GROUP", " EXCLUDE TIES"};
    out += kExcl[static_cast<int>(w->exclude)];
  }
  return out + ")";
}

}  // namespace

std::string PrintExpr(const Expr* e) {
  if (!e) return "<null>";
  std::string n = e->has(ast::kNot) ? "NOT " : "";
  switch (e->kind) {
    case ExprKind::kNull:
      return "NULL";
    case ExprKind::kInteger:
      return e->ival < 0 ? "(" + std::to_string(e->ival) + ")" : std::to_string(e->ival);
    case ExprKind::kReal:
      return std::string(e->text);
    case ExprKind::kString: {
      std::string out = "'";
      for (char c : e->text) {
        out += c;
        if (c == '\'') out += '\'';
      }
      return out + "'";
    }
    case ExprKind::kBlob: {
      std::string out = "X'";
      for (unsigned char c : e->text) {
        char buf[3];
        std::snprintf(buf, sizeof buf, "%02X", c);
        out += buf;
      }
      return out + "'";
    }
    case ExprKind::kBool:
      return e->ival ? "TRUE" : "FALSE";
    case ExprKind::kCurrentTime:
      return OpText(e->op);
    case ExprKind::kParam:
      return "?" + std::to_string(e->param_index);
    case ExprKind::kColumn: {
      std::string out;
      if (!e->schema.empty()) out += std::string(e->schema) + ".";
      if (!e->table.empty()) out += std::string(e->table) + ".";
      return out + std::string(e->text);
    }
    case ExprKind::kStar:
      return e->table.empty() ? "*" : std::string(e->table) + ".*";
    case ExprKind::kUnary:
      return "(" + std::string(OpText(e->op)) + PrintExpr(e->left) + ")";
    case ExprKind::kBinary:
      return "(" + PrintExpr(e->left) + " " + OpText(e->op) + " " + PrintExpr(e->right) + ")";
    case ExprKind::kCollate:
      return "(" + PrintExpr(e->left) + " COLLATE " + std::string(e->text) + ")";
    case ExprKind::kCast:
      return "CAST(" + PrintExpr(e->left) + " AS " + std::string(e->text) + ")";
    case ExprKind::kBetween:
      return "(" + PrintExpr(e->left) + " " + n + "BETWEEN " + PrintExpr((*e->list)[0]) + " AND " +
             PrintExpr((*e->list)[1]) + ")";
    case ExprKind::kIn: {
      std::string rhs;
      if (e->select) {
        rhs = "(" + PrintSelect(e->select) + ")";
      } else if (!e->text.empty()) {
        rhs = (e->schema.empty() ? "" : std::string(e->schema) + ".") + std::string(e->text);
        if (e->list) rhs += "(" + List(e->list) + ")";
      } else {
        rhs = "(" + List(e->list) + ")";
      }
      return "(" + PrintExpr(e->left) + " " + n + "IN " + rhs + ")";
    }
    case ExprKind::kLike: {
      std::string out =
          "(" + PrintExpr(e->left) + " " + n + OpText(e->op) + " " + PrintExpr(e->right);
      if (e->escape) out += " ESCAPE " + PrintExpr(e->escape);
      return out + ")";
    }
    case ExprKind::kIsNull:
      return "(" + PrintExpr(e->left) + " ISNULL)";
    case ExprKind::kNotNull:
      return "(" + PrintExpr(e->left) + " NOTNULL)";
    case ExprKind::kCase: {
      std::string out = "CASE";
      if (e->left) out += " " + PrintExpr(e->left);
      for (size_t i = 0; i + 1 < e->list->size(); i += 2) {
        out += " WHEN " + PrintExpr((*e->list)[i]) + " THEN " + PrintExpr((*e->list)[i + 1]);
      }
      if (e->right) out += " ELSE " + PrintExpr(e->right);
      return out + " END";
    }
    case ExprKind::kFunction: {
      std::string out = std::string(e->text) + "(";
      if (e->has(ast::kDistinct)) out += "DISTINCT ";
      if (e->has(ast::kStarArg)) out += "*";
      out += List(e->list) + ")";
      if (e->filter) out += " FILTER (WHERE " + PrintExpr(e->filter) + ")";
      if (e->over) {
        out += " OVER ";
        out += e->over->name.empty() ? Window(e->over) : std::string(e->over->name);
      }
      return out;
    }
    case ExprKind::kExists:
      return "EXISTS(" + PrintSelect(e->select) + ")";
    case ExprKind::kSubquery:
      return "(" + PrintSelect(e->select) + ")";
    case ExprKind::kVector:
      return "(" + List(e->list) + ")";
    case ExprKind::kRaise:
      return "RAISE(" + std::string(OpText(e->op)) +
             (e->op == Op::kRaiseIgnore ? "" : ", '" + std::string(e->text) + "'") + ")";
    case ExprKind::kVectorElement:
      return "ELEMENT(" + std::to_string(e->ival) + ", " + PrintExpr(e->left) + ")";
    default:
      return "<?>";
  }
}

namespace {

std::string From(const ast::FromList* f) {
  std::string out;
  for (size_t i = 0; i < f->size(); ++i) {
    const ast::FromItem* it = (*f)[i];
    if (i) {
      uint8_t j = it->join;
      if (j == ast::kJoinComma) {
        out += ", ";
      } else {
        out += " ";
        if (j & ast::kJoinNatural) out += "NATURAL ";
        if ((j & ast::kJoinFull) == ast::kJoinFull) {
          out += "FULL ";
        } else if (j & ast::kJoinLeft) {
          out += "LEFT ";
        } else if (j & ast::kJoinRight) {
          out += "RIGHT ";
        }
        if (j & ast::kJoinCross) out += "CROSS ";
        out += "JOIN ";
      }
    }
    if (it->subquery) {
      out += "(" + PrintSelect(it->subquery) + ")";
    } else if (it->nested) {
      out += "(" + From(it->nested) + ")";
    } else {
      if (!it->schema.empty()) out += std::string(it->schema) + ".";
      out += std::string(it->name);
      if (it->func_args) out += "(" + List(it->func_args) + ")";
    }
    if (!it->alias.empty()) out += " AS " + std::string(it->alias);
    if (!it->indexed_by.empty()) out += " INDEXED BY " + std::string(it->indexed_by);
    if (it->not_indexed) out += " NOT INDEXED";
    if (it->on) out += " ON " + PrintExpr(it->on);
    if (it->using_cols) {
      out += " USING (";
      for (size_t k = 0; k < it->using_cols->size(); ++k) {
        if (k) out += ", ";
        out += std::string(it->using_cols->names[k]);
      }
      out += ")";
    }
  }
  return out;
}

std::string Core(const ast::Select* s) {
  if (!s->values.empty()) {
    std::string out = "VALUES ";
    for (size_t i = 0; i < s->values.size(); ++i) {
      if (i) out += ", ";
      out += "(" + List(s->values[i]) + ")";
    }
    return out;
  }
  std::string out = "SELECT ";
  if (s->distinct) out += "DISTINCT ";
  for (size_t i = 0; i < s->columns->size(); ++i) {
    if (i) out += ", ";
    const ast::ExprItem& it = s->columns->items[i];
    out += PrintExpr(it.expr);
    if (!it.name.empty()) out += " AS " + std::string(it.name);
  }
  if (s->from) out += " FROM " + From(s->from);
  if (s->where) out += " WHERE " + PrintExpr(s->where);
  if (s->group_by) out += " GROUP BY " + List(s->group_by);
  if (s->having) out += " HAVING " + PrintExpr(s->having);
  if (!s->windows.empty()) {
    out += " WINDOW ";
    for (size_t i = 0; i < s->windows.size(); ++i) {
      if (i) out += ", ";
      out += std::string(s->windows[i]->name) + " AS " + Window(s->windows[i]);
    }
  }
  return out;
}

const char* CompoundText(ast::CompoundOp op) {
  switch (op) {
    case ast::CompoundOp::kUnion:
      return " UNION ";
    case ast::CompoundOp::kUnionAll:
      return " UNION ALL ";
    case ast::CompoundOp::kIntersect:
      return " INTERSECT ";
    case ast::CompoundOp::kExcept:
      return " EXCEPT ";
    default:
      return "";
  }
}

std::string Chain(const ast::Select* s) {
  if (!s->prior) return Core(s);
  return Chain(s->prior) + CompoundText(s->op) + Core(s);
}

}  // namespace

std::string PrintSelect(const ast::Select* s) {
  std::string out;
  if (s->with) {
    out += s->with->recursive ? "WITH RECURSIVE " : "WITH ";
    for (size_t i = 0; i < s->with->ctes.size(); ++i) {
      const ast::Cte* c = s->with->ctes[i];
      if (i) out += ", ";
      out += std::string(c->name);
      if (c->columns) {
        out += "(";
        for (size_t k = 0; k < c->columns->size(); ++k) {
          if (k) out += ", ";
          out += std::string(c->columns->names[k]);
        }
        out += ")";
      }
      out += " AS ";
      if (c->materialized == 1) out += "MATERIALIZED ";
      if (c->materialized == 0) out += "NOT MATERIALIZED ";
      out += "(" + PrintSelect(c->select) + ")";
    }
    out += " ";
  }
  out += Chain(s);
  if (s->order_by) out += " ORDER BY " + List(s->order_by);
  if (s->limit) out += " LIMIT " + PrintExpr(s->limit);
  if (s->offset) out += " OFFSET " + PrintExpr(s->offset);
  return out;
}

std::string PrintStmt(const ast::Stmt* s) {
  if (s->kind == ast::StmtKind::kSelect) return PrintSelect(s->As<ast::SelectStmt>()->select);
  return "<stmt " + std::to_string(static_cast<int>(s->kind)) + ">";
}

}  // namespace basalt::testing

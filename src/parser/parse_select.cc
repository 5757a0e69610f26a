// SELECT: WITH, compounds, one SELECT core or VALUES, result columns, FROM
// (joins, subqueries, table-valued functions), ORDER BY and LIMIT.
//
// A compound is a chain through Select::prior, its last core first; ORDER BY
// and LIMIT written after the last core belong to the whole compound, and
// SQLite rejects them on any earlier core ("ORDER BY clause should come after
// UNION not before"). The last core's span covers the whole select (WITH
// included); earlier cores span their own text.
#include "parser/parser_impl.h"

namespace basalt {

using ast::Expr;
using ast::ExprList;
using ast::FromItem;
using ast::FromList;
using ast::Select;
using parser::Tk;

namespace {

const char* CompoundName(ast::CompoundOp op) {
  switch (op) {
    case ast::CompoundOp::kUnion:
      return "UNION";
    case ast::CompoundOp::kUnionAll:
      return "UNION ALL";
    case ast::CompoundOp::kIntersect:
      return "INTERSECT";
    case ast::CompoundOp::kExcept:
      return "EXCEPT";
    default:
      return "SELECT";
  }
}

}  // namespace

Select* Parser::Impl::ParseSelect(int d) {
  const char* start = cur_.z;
  ast::With* with = nullptr;
  if (T() == Tk::kWith) {
    with = ParseWith(d);
    if (!with) return nullptr;
    d += with->recursive ? 3 : 2;
  }
  Select* s = ParseSelectBody(d, with);
  if (s) s->span = SpanFrom(start);
  return s;
}

// WITH [RECURSIVE] name [(cols)] AS [[NOT] MATERIALIZED] (select), ...
ast::With* Parser::Impl::ParseWith(int d) {
  Advance();  // WITH
  auto* with = arena_->New<ast::With>();
  if (T() == Tk::kRecursive) {
    Advance();
    with->recursive = true;
    d += 1;
  }
  int depth = d + 5;
  do {
    auto* cte = arena_->New<ast::Cte>();
    if (!ParseNm(&cte->name)) return nullptr;
    if (T() == Tk::kLp) {
      Advance();
      if (!ParseEidList(&cte->columns) || !Expect(Tk::kRp)) return nullptr;
    }
    if (!Expect(Tk::kAs)) return nullptr;
    if (T() == Tk::kMaterialized) {
      Advance();
      cte->materialized = 1;
    } else if (T() == Tk::kNot) {
      Advance();
      if (!Expect(Tk::kMaterialized)) return nullptr;
      cte->materialized = 0;
    }
    if (!ExpectAt(Tk::kLp, depth)) return nullptr;
    cte->select = ParseSelect(depth);
    if (!cte->select || !ExpectAt(Tk::kRp, depth + 2)) return nullptr;
    for (const ast::Cte* prior : with->ctes) {
      if (EqualsIgnoreCase(prior->name, cte->name)) {
        Error("duplicate WITH table name: " + std::string(cte->name));
        break;
      }
    }
    with->ctes.push_back(*arena_, cte);
    depth = d + 7;
  } while (Accept(Tk::kComma));
  return with;
}

Select* Parser::Impl::ParseSelectBody(int d, ast::With* with) {
  if (!StartsSelect(T()) || T() == Tk::kWith) return SyntaxError();
  Select* s = ParseOneSelect(d);
  if (!s) return nullptr;
  int terms = 1;
  int first_rows = static_cast<int>(s->values.size());
  for (;;) {
    ast::CompoundOp op;
    switch (T()) {
      case Tk::kUnion:
        op = ast::CompoundOp::kUnion;
        break;
      case Tk::kIntersect:
        op = ast::CompoundOp::kIntersect;
        break;
      case Tk::kExcept:
        op = ast::CompoundOp::kExcept;
        break;
      default:
        op = ast::CompoundOp::kNone;
        break;
    }
    if (op == ast::CompoundOp::kNone) break;
    Advance();
    if (op == ast::CompoundOp::kUnion && T() == Tk::kAll) {
      Advance();
      op = ast::CompoundOp::kUnionAll;
    }
    if (T() != Tk::kSelect && T() != Tk::kValues) return SyntaxError();
    Select* next = ParseOneSelect(d + 2);
    if (!next) return nullptr;
    next->op = op;
    next->prior = s;
    s = next;
    ++terms;
  }
  s->with = with;
  CheckCompound(s, terms, first_rows);
  return s;
}

bool Parser::Impl::CheckCompound(Select* last, int terms, int first_rows) {
  if (terms < 2) return true;
  for (Select* next = last; next->prior; next = next->prior) {
    Select* p = next->prior;
    if (p->order_by || p->limit) {
      Error(std::string(p->order_by ? "ORDER BY" : "LIMIT") + " clause should come after " +
            CompoundName(next->op) + " not before");
      return false;
    }
  }
  // A multi-row VALUES counts one term per row when it starts the compound.
  int count = terms - 1 + (first_rows > 1 ? first_rows : 1);
  if (count > limits_.compound_select) {
    Error("too many terms in compound SELECT");
    return false;
  }
  return true;
}

Select* Parser::Impl::ParseValues(int d) {
  const char* start = cur_.z;
  Advance();  // VALUES
  Select* s = arena_->New<Select>();
  int depth = d + 2;  // VALUES ( exprs ) | values , ( exprs )
  do {
    if (!ExpectAt(Tk::kLp, depth)) return nullptr;
    ExprList* row = ParseNExprList(depth);
    if (!row || !ExpectAt(Tk::kRp, depth + 2)) return nullptr;
    s->values.push_back(*arena_, row);
    depth = d + 3;
  } while (Accept(Tk::kComma));
  s->span = SpanFrom(start);
  return s;
}

Select* Parser::Impl::ParseOneSelect(int d) {
  if (T() == Tk::kValues) return ParseValues(d);
  const char* start = cur_.z;
  Advance();  // SELECT
  Select* s = arena_->New<Select>();
  if (T() == Tk::kDistinct) {
    s->distinct = true;
    Advance();
  } else if (T() == Tk::kAll) {
    Advance();
  }
  s->columns = ParseResultColumns(d + 2);
  if (!s->columns) return nullptr;
  if (T() == Tk::kFrom) {
    Advance();
    s->from = ParseFromList(d + 4);
    if (!s->from) return nullptr;
  }
  if (T() == Tk::kWhere) {
    Advance();
    s->where = ParseExpr(d + 5);
    if (!s->where) return nullptr;
  }
  if (T() == Tk::kGroup) {
    Advance();
    if (!Expect(Tk::kBy)) return nullptr;
    s->group_by = ParseNExprList(d + 7);
    if (!s->group_by) return nullptr;
  }
  if (T() == Tk::kHaving) {
    Advance();
    s->having = ParseExpr(d + 7);
    if (!s->having) return nullptr;
  }
  int extra = 0;
  if (T() == Tk::kWindow) {
    if (!ParseWindowClause(s, d + 7)) return nullptr;
    extra = 1;
  }
  if (T() == Tk::kOrder) {
    Advance();
    if (!Expect(Tk::kBy)) return nullptr;
    s->order_by = ParseSortList(d + 9 + extra);
    if (!s->order_by) return nullptr;
  }
  if (T() == Tk::kLimit) {
    if (!ParseLimit(&s->limit, &s->offset, d + 8 + extra)) return nullptr;
  } else if (!CheckDepth(d + 9 + extra)) {  // the empty limit_opt
    return nullptr;
  }
  s->span = SpanFrom(start);
  return s;
}

// Result columns: expr [[AS] alias] | * | table.*
ExprList* Parser::Impl::ParseResultColumns(int d) {
  ExprList* list = arena_->New<ExprList>();
  do {
    const char* start = cur_.z;
    ast::ExprItem item;
    if (T() == Tk::kStar) {
      if (!CheckDepth(d + 3)) return nullptr;
      Advance();
      item.expr = NewExpr(ast::ExprKind::kStar, start);
      Finish(item.expr, start);
    } else {
      star_start_ = start;  // `t.*` may start here
      item.expr = ParseExpr(d + 2);
      star_start_ = nullptr;
      if (!item.expr) return nullptr;
      if (item.expr->kind == ast::ExprKind::kStar) {
        list->items.push_back(*arena_, item);
        continue;
      }
      if (!CheckDepth(d + 5)) return nullptr;  // scanpt, as
      item.expr->span = SpanToCurrent(start);
      if (T() == Tk::kAs) {
        Advance();
        if (!IsNmToken(T())) return SyntaxError();
        item.name_quoted = parser::IsQuoteChar(cur_.z[0]);
        item.name = NameOf(cur_);
        Advance();
      } else if (IsIdsToken(T())) {
        item.name_quoted = parser::IsQuoteChar(cur_.z[0]);
        item.name = NameOf(cur_);
        Advance();
      }
    }
    list->items.push_back(*arena_, item);
  } while (Accept(Tk::kComma));
  return list;
}

namespace {

// sqlite3JoinType: the keywords between two FROM items.
constexpr struct {
  std::string_view word;
  uint8_t code;
} kJoinWords[] = {
    {"natural", 1},      {"left", 2 | 8}, {"outer", 8},       {"right", 4 | 8},
    {"full", 2 | 4 | 8}, {"inner", 16},   {"cross", 16 | 32},
};

}  // namespace

// seltablist: items joined by ',' or [NATURAL] [LEFT|RIGHT|FULL] [OUTER]|INNER|CROSS JOIN
FromList* Parser::Impl::ParseFromList(int d) {
  FromList* list = arena_->New<FromList>();
  uint8_t join = ast::kJoinComma;
  for (;;) {
    FromItem* item = arena_->New<FromItem>();
    item->join = join;
    int depth = d + 1;  // after stl_prefix
    if (T() == Tk::kLp) {
      if (!CheckDepth(depth + 1)) return nullptr;
      Advance();
      if (StartsSelect(T())) {
        item->subquery = ParseSelect(depth + 1);
        if (!item->subquery) return nullptr;
      } else {
        item->nested = ParseFromList(depth + 1);
        if (!item->nested) return nullptr;
      }
      if (!ExpectAt(Tk::kRp, depth + 3)) return nullptr;
      depth += 3;
    } else if (IsNmToken(T())) {
      if (!CheckDepth(depth + 1)) return nullptr;
      if (!ParseFullName(&item->schema, &item->name)) return nullptr;
      depth += 2;
      if (T() == Tk::kLp) {  // table-valued function
        Advance();
        if (T() == Tk::kRp) {
          item->func_args = arena_->New<ExprList>();
        } else {
          item->func_args = ParseNExprList(depth + 1);
          if (!item->func_args) return nullptr;
        }
        if (!ExpectAt(Tk::kRp, depth + 3)) return nullptr;
        depth += 3;
      }
    } else {
      return SyntaxError();
    }
    // [AS] alias
    if (T() == Tk::kAs) {
      Advance();
      if (!ParseNm(&item->alias)) return nullptr;
    } else if (IsIdsToken(T())) {
      item->alias = NameOf(cur_);
      Advance();
    }
    depth += 1;
    // INDEXED BY name | NOT INDEXED (plain tables only)
    if (!item->subquery && !item->nested && !item->func_args) {
      if (T() == Tk::kIndexed) {
        Advance();
        if (!Expect(Tk::kBy) || !ParseNm(&item->indexed_by)) return nullptr;
        depth += 1;
      } else if (T() == Tk::kNot) {
        Advance();
        if (!Expect(Tk::kIndexed)) return nullptr;
        item->not_indexed = true;
        depth += 1;
      }
    }
    // ON expr | USING (columns)
    const char* constraint = nullptr;
    if (!CheckDepth(depth + 1)) return nullptr;  // on_using (possibly empty)
    if (T() == Tk::kOn) {
      Advance();
      item->on = ParseExpr(depth + 1);
      if (!item->on) return nullptr;
      constraint = "ON";
    } else if (T() == Tk::kUsing) {
      Advance();
      if (!Expect(Tk::kLp) || !ParseIdList(&item->using_cols) || !Expect(Tk::kRp)) {
        return nullptr;
      }
      constraint = "USING";
    }
    if (constraint && list->size() == 0) {
      Error(std::string("a JOIN clause is required before ") + constraint);
    }
    if (item->nested && item->nested->size() == 1 && list->size() == 0 && item->alias.empty() &&
        !constraint) {
      // `FROM (t)`: the parentheses change nothing (SQLite flattens them too).
      FromItem* inner = (*item->nested)[0];
      inner->join = item->join;
      item = inner;
    }
    list->items.push_back(*arena_, item);

    // joinop
    if (T() == Tk::kComma) {
      Advance();
      join = ast::kJoinComma;
      continue;
    }
    if (T() == Tk::kJoin) {
      Advance();
      join = ast::kJoinInner;
      continue;
    }
    if (!IsJoinKw(T())) break;
    Token words[3];
    int n = 0;
    words[n++] = cur_;
    Advance();
    while (T() != Tk::kJoin) {
      if (n == 3 || !IsNmToken(T())) return SyntaxError();
      words[n++] = cur_;
      Advance();
    }
    Advance();  // JOIN
    uint8_t code = 0;
    bool error = false;
    for (int i = 0; i < n && !error; ++i) {
      bool found = false;
      for (const auto& w : kJoinWords) {
        if (EqualsIgnoreCase(words[i].text(), w.word)) {
          code |= w.code;
          found = true;
          break;
        }
      }
      error = !found;
    }
    // 8 = OUTER, 16 = INNER: both together, or OUTER alone, are invalid.
    if (error || (code & (8 | 16)) == (8 | 16) || (code & (2 | 4 | 8)) == 8) {
      std::string msg = "unknown join type: ";
      for (int i = 0; i < n; ++i) {
        if (i) msg += ' ';
        msg += words[i].text();
      }
      Error(msg);
      join = ast::kJoinInner;
      continue;
    }
    join = 0;
    if (code & 1) join |= ast::kJoinNatural;
    if (code & 2) join |= ast::kJoinLeft;
    if (code & 4) join |= ast::kJoinRight;
    if (code & 32) join |= ast::kJoinCross;
    if ((code & (2 | 4)) == 0) join |= ast::kJoinInner;
  }
  return list;
}

// sortlist: expr [ASC|DESC] [NULLS FIRST|LAST], ...
ExprList* Parser::Impl::ParseSortList(int d) {
  ExprList* list = arena_->New<ExprList>();
  int depth = d;
  do {
    ast::ExprItem item;
    item.expr = ParseExpr(depth);
    if (!item.expr) return nullptr;
    if (T() == Tk::kAsc) {
      item.order = ast::SortOrder::kAsc;
      Advance();
    } else if (T() == Tk::kDesc) {
      item.order = ast::SortOrder::kDesc;
      Advance();
    }
    if (T() == Tk::kNulls) {
      Advance();
      if (T() == Tk::kFirst) {
        item.nulls = ast::NullsOrder::kFirst;
      } else if (T() == Tk::kLast) {
        item.nulls = ast::NullsOrder::kLast;
      } else {
        SyntaxError();
        return nullptr;
      }
      Advance();
    }
    list->items.push_back(*arena_, item);
    depth = d + 2;
  } while (Accept(Tk::kComma));
  return list;
}

// LIMIT expr [OFFSET expr | , expr]  — in `LIMIT a, b` a is the offset.
bool Parser::Impl::ParseLimit(Expr** limit, Expr** offset, int d) {
  if (!CheckDepth(d + 1)) return false;
  Advance();  // LIMIT
  Expr* first = ParseExpr(d + 1);
  if (!first) return false;
  if (T() == Tk::kOffset) {
    Advance();
    *limit = first;
    *offset = ParseExpr(d + 3);
    return *offset != nullptr;
  }
  if (T() == Tk::kComma) {
    Advance();
    *offset = first;
    *limit = ParseExpr(d + 3);
    return *limit != nullptr;
  }
  *limit = first;
  return true;
}

}  // namespace basalt

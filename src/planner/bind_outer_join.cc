// Outer joins at name resolution: parenthesised joins that must stay nested
// become subqueries; for RIGHT and FULL JOIN, which sources may become the
// null row, and how USING/NATURAL columns read when such a join is present.
#include "planner/bind_internal.h"
#include "planner/resolve.h"

#include <cassert>

namespace basalt {

bool bind::FromHasRightJoin(const ast::FromList* from) {
  for (size_t i = 0; i < from->size(); ++i) {
    const ast::FromItem* item = (*from)[i];
    if ((item->join & ast::kJoinRight) != 0) return true;
    if (item->nested != nullptr && FromHasRightJoin(item->nested)) return true;
  }
  return false;
}

using ast::Expr;
using ast::ExprKind;
using namespace bind;

namespace {

using ast::Select;

bool HasRightJoin(const std::vector<Source>& srcs) {
  for (const Source& s : srcs) {
    if ((s.join & ast::kJoinRight) != 0) return true;
  }
  return false;
}

size_t CountLeaves(const ast::FromList* from) {
  size_t n = 0;
  for (size_t i = 0; i < from->size(); ++i) {
    const ast::FromItem* item = (*from)[i];
    n += item->nested != nullptr ? CountLeaves(item->nested) : 1;
  }
  return n;
}

}  // namespace

// The loops join sources left to right, each onto all before it. A
// parenthesised join of several sources fits that only as an inner join
// whose inside has no RIGHT JOIN (or opens the FROM clause); otherwise, as
// in SQLite, it becomes a subquery `SELECT * FROM (join)`.
bool Resolver::NestAsSubquery(const ast::FromItem* item, bool first_item) {
  if (CountLeaves(item->nested) < 2) return false;
  if ((item->join & (ast::kJoinLeft | ast::kJoinRight)) != 0) return true;
  return !first_item && FromHasRightJoin(item->nested);
}

bool Resolver::AddNestedJoin(ast::FromItem* item, SelectInfo* info, Scope* outer) {
  Select* sel = ctx_->arena->New<Select>();
  sel->from = item->nested;
  sel->columns = ctx_->arena->New<ast::ExprList>();
  ast::ExprItem star;
  star.expr = ctx_->arena->New<Expr>();
  star.expr->kind = ExprKind::kStar;
  sel->columns->items.push_back(*ctx_->arena, star);
  item->subquery = sel;
  item->nested = nullptr;
  const size_t at = info->sources.size();
  const ast::FromList* saved = nested_join_from_;
  nested_join_from_ = sel->from;
  const bool ok = AddSource(item, info, outer, false);
  nested_join_from_ = saved;
  if (!ok) return false;
  // Not flattened (an outer join, or a RIGHT JOIN inside): one source.
  assert(info->sources.size() == at + 1);
  Source& src = info->sources[at];
  src.nested_from = true;
  // The columns keep their names, qualified by their own sources, in the
  // order `*` expanded them.
  std::vector<std::pair<std::string_view, std::string_view>> names;
  for (const Source& s : InfoOf(sel)->sources) {
    if (s.hidden_names) continue;
    for (size_t c = 0; c < s.columns.size(); ++c) {
      if (s.columns[c].hidden || s.merged_with[c].first >= 0) continue;
      names.emplace_back(s.name, s.columns[c].name);
    }
  }
  if (names.size() == src.columns.size()) {
    for (size_t i = 0; i < names.size(); ++i) {
      src.columns[i].table_name = names[i].first;
      src.columns[i].name = names[i].second;
    }
  }
  return true;
}

// Whether `tname` names source `src` (or, for a nested join, one of the
// sources inside it).
bool Resolver::SourceNamed(const Source& src, std::string_view tname) {
  if (EqualsIgnoreCase(src.name, tname)) return true;
  if (!src.nested_from) return false;
  for (const SourceColumn& c : src.columns) {
    if (EqualsIgnoreCase(c.table_name, tname)) return true;
  }
  return false;
}

// Source i is joined by RIGHT or FULL JOIN: every source before it is its
// left operand (and may be the null row of the unmatched-rows pass). The loops run in FROM order
// with the unmatched rows of source i delivered after them, so the left operand must be the whole
// prefix: a parenthesised join that starts after the first source and
// contains source i, or one that source i opens, would need nesting the
// loops cannot express.
bool Resolver::MarkRightJoin(SelectInfo* info, size_t i) {
  std::vector<Source>& srcs = info->sources;
  for (size_t j = 1; j <= i; ++j) {
    for (const auto& [group, n] : srcs[j].groups) {
      if (j + n > i && (j < i || n > 1)) {
        return ctx_->Error("RIGHT or FULL JOIN with a parenthesised join is not supported yet");
      }
    }
  }
  if (srcs[i].table != nullptr && srcs[i].table->is_virtual) {
    return ctx_->Error("RIGHT or FULL JOIN onto a virtual table is not supported yet");
  }
  return true;
}

// The left side of `USING (name)` for source i: the left-most earlier
// column of that name (*lsrc, *lcol). When the FROM clause has a RIGHT or
// FULL JOIN, any of the earlier sources may be the null row, so the left
// side is coalesce() over every earlier column of that name, each of which
// past the first must itself be a USING column.
bool Resolver::UsingLeftSide(SelectInfo* info, size_t i, std::string_view name, Expr** left,
                             int* lsrc, int* lcol) {
  std::vector<Source>& srcs = info->sources;
  *lsrc = -1;
  *lcol = -1;
  for (size_t j = 0; j < i && *lsrc < 0; ++j) {
    for (size_t k = 0; k < srcs[j].columns.size(); ++k) {
      if (EqualsIgnoreCase(srcs[j].columns[k].name, name) && srcs[j].merged_with[k].first < 0) {
        *lsrc = static_cast<int>(j);
        *lcol = static_cast<int>(k);
        break;
      }
    }
  }
  if (*lsrc < 0) return true;
  *left = NewColumnRef(srcs[static_cast<size_t>(*lsrc)], *lcol, {});
  if (!HasRightJoin(srcs)) return true;
  ast::ExprList* args = nullptr;
  for (size_t j = static_cast<size_t>(*lsrc) + 1; j < i; ++j) {
    if (srcs[j].hidden_names) continue;
    for (size_t k = 0; k < srcs[j].columns.size(); ++k) {
      const SourceColumn& c = srcs[j].columns[k];
      if (c.hidden || !EqualsIgnoreCase(c.name, name)) continue;
      if (srcs[j].merged_with[k].first < 0) {
        return ctx_->Error("ambiguous reference to " + std::string(name) + " in USING()");
      }
      if (args == nullptr) {
        args = ctx_->arena->New<ast::ExprList>();
        args->items.push_back(*ctx_->arena, ast::ExprItem{});
        args->items[0].expr = *left;
      }
      ast::ExprItem item;
      item.expr = NewColumnRef(srcs[j], static_cast<int>(k), {});
      args->items.push_back(*ctx_->arena, item);
      break;
    }
  }
  if (args == nullptr) return true;
  *left = NewCoalesce(args, name);
  return *left != nullptr;
}

}  // namespace basalt

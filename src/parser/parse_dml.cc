// INSERT / REPLACE, UPDATE, DELETE (and their trigger-body forms), upsert,
// SET lists and RETURNING.
//
// Inside a trigger body the grammar differs: no WITH prefix, the target is an
// unqualified name (a schema prefix parses but is rejected with SQLite's
// message), INDEXED BY / NOT INDEXED likewise, UPDATE and DELETE take no
// RETURNING / ORDER BY / LIMIT, and INSERT has no DEFAULT VALUES form.
#include "parser/parser_impl.h"

namespace basalt {

using ast::Expr;
using ast::ExprList;
using ast::FromItem;
using parser::Tk;

ast::Stmt* Parser::Impl::ParseWithStatement(const char* start) {
  ast::With* with = ParseWith(base_);
  if (!with) return nullptr;
  switch (T()) {
    case Tk::kInsert:
    case Tk::kReplace:
      return ParseInsert(with, base_ + 1, false);
    case Tk::kUpdate:
      return ParseUpdate(with, base_ + 1, false);
    case Tk::kDelete:
      return ParseDelete(with, base_ + 1, false);
    default:
      break;
  }
  ast::Select* s = ParseSelectBody(base_ + (with->recursive ? 3 : 2), with);
  if (!s) return nullptr;
  s->span = SpanFrom(start);
  auto* st = arena_->New<ast::SelectStmt>();
  st->select = s;
  return st;
}

ast::ConflictAction Parser::Impl::ParseOrConf() {
  if (T() != Tk::kOr) return ast::ConflictAction::kDefault;
  Advance();
  return ParseResolveType();
}

// xfullname: nm [. nm] [AS nm]; in a trigger body (trnm): nm, and a
// qualified name is an error.
bool Parser::Impl::ParseXFullName(FromItem* item, bool in_trigger, bool allow_alias) {
  if (!ParseFullName(&item->schema, &item->name)) return false;
  if (in_trigger) {
    if (!item->schema.empty()) {
      Error(
          "qualified table names are not allowed on INSERT, UPDATE, and DELETE "
          "statements within triggers");
    }
    return true;
  }
  if (allow_alias && T() == Tk::kAs) {
    Advance();
    return ParseNm(&item->alias);
  }
  return true;
}

bool Parser::Impl::ParseIndexedOpt(FromItem* item, bool in_trigger) {
  if (T() == Tk::kIndexed) {
    Advance();
    if (!Expect(Tk::kBy) || !ParseNm(&item->indexed_by)) return false;
  } else if (T() == Tk::kNot) {
    Advance();
    if (!Expect(Tk::kIndexed)) return false;
    item->not_indexed = true;
  } else {
    return true;
  }
  if (in_trigger) {
    Error(
        "the INDEXED BY clause is not allowed on UPDATE or DELETE statements "
        "within triggers");
  }
  return true;
}

// RETURNING result-columns; `d` is the LALR depth before RETURNING.
bool Parser::Impl::ParseReturning(ExprList** out, int d) {
  Advance();  // RETURNING
  *out = ParseResultColumns(d + 1);
  return *out != nullptr;
}

// setlist: col = expr | (col, ...) = expr, ...
bool Parser::Impl::ParseSetList(ExprList** out, int d) {
  ExprList* list = arena_->New<ExprList>();
  int depth = d;
  do {
    if (T() == Tk::kLp) {
      Advance();
      ast::IdList* cols;
      if (!ParseIdList(&cols) || !Expect(Tk::kRp) || !Expect(Tk::kEq)) return false;
      Expr* value = ParseExpr(depth + 4);
      if (!value) return false;
      size_t n = cols->size();
      if (value->kind == ast::ExprKind::kSubquery) {
        for (size_t i = 0; i < n; ++i) {
          Expr* el = NewExpr(ast::ExprKind::kVectorElement, value->span.data());
          el->span = value->span;
          el->left = value;
          el->ival = static_cast<int64_t>(i);
          el->height = value->height + 1;
          list->items.push_back(*arena_, Item(el, cols->names[i]));
        }
      } else {
        size_t m = value->kind == ast::ExprKind::kVector ? value->list->size() : 1;
        if (m != n) {
          Error(std::to_string(n) + " columns assigned " + std::to_string(m) + " values");
          n = 0;
        }
        for (size_t i = 0; i < n; ++i) {
          Expr* el = value->kind == ast::ExprKind::kVector ? (*value->list)[i] : value;
          list->items.push_back(*arena_, Item(el, cols->names[i]));
        }
      }
    } else {
      ast::ExprItem item;
      if (!ParseNm(&item.name) || !Expect(Tk::kEq)) return false;
      item.expr = ParseExpr(depth + 2);
      if (!item.expr) return false;
      list->items.push_back(*arena_, item);
    }
    depth = d + 2;
  } while (Accept(Tk::kComma));
  *out = list;
  return true;
}

// Upsert clauses and the trailing RETURNING of an INSERT:
//   ON CONFLICT [(target) [WHERE e]] DO NOTHING | DO UPDATE SET ... [WHERE e]
// Clauses with a target may be followed by more; a target-less one is last.
// `d` is the LALR depth before the (right-recursive) upsert.
bool Parser::Impl::ParseUpsert(ast::InsertStmt* ins, int d) {
  ast::Upsert** link = &ins->upsert;
  for (;;) {
    if (T() == Tk::kReturning) {
      if (!ParseReturning(&ins->returning, d)) return false;
      break;
    }
    if (T() != Tk::kOn) break;
    Advance();
    if (!Expect(Tk::kConflict)) return false;
    auto* u = arena_->New<ast::Upsert>();
    *link = u;
    link = &u->next;
    if (T() == Tk::kLp) {
      Advance();
      u->target = ParseSortList(d + 3);
      if (!u->target || !ExpectAt(Tk::kRp, d + 5)) return false;
      if (T() == Tk::kWhere) {
        Advance();
        u->target_where = ParseExpr(d + 6);
        if (!u->target_where) return false;
      }
      if (!ExpectAt(Tk::kDo, d + 7)) return false;
      if (T() == Tk::kNothing) {
        Advance();
        d += 8;
      } else if (T() == Tk::kUpdate) {
        Advance();
        if (!Expect(Tk::kSet)) return false;
        u->do_nothing = false;
        if (!ParseSetList(&u->sets, d + 9)) return false;
        if (T() == Tk::kWhere) {
          Advance();
          u->where = ParseExpr(d + 11);
          if (!u->where) return false;
        }
        d += 11;
      } else {
        SyntaxError();
        return false;
      }
      continue;
    }
    // Without a target: the last clause, then an optional RETURNING.
    if (!Expect(Tk::kDo)) return false;
    if (T() == Tk::kNothing) {
      Advance();
      d += 4;
    } else if (T() == Tk::kUpdate) {
      Advance();
      if (!Expect(Tk::kSet)) return false;
      u->do_nothing = false;
      if (!ParseSetList(&u->sets, d + 5)) return false;
      if (T() == Tk::kWhere) {
        Advance();
        u->where = ParseExpr(d + 7);
        if (!u->where) return false;
      }
      d += 7;
    } else {
      SyntaxError();
      return false;
    }
    if (T() == Tk::kReturning && !ParseReturning(&ins->returning, d)) return false;
    break;
  }
  if (ins->returning && in_trigger_) Error("cannot use RETURNING in a trigger");
  return true;
}

// INSERT [OR action] | REPLACE  INTO table [(cols)] select|DEFAULT VALUES ...
// `d`: LALR depth before INSERT/REPLACE (after `with`, or the trigger's scanpt).
ast::Stmt* Parser::Impl::ParseInsert(ast::With* with, int d, bool in_trigger) {
  auto* s = arena_->New<ast::InsertStmt>();
  s->with = with;
  if (T() == Tk::kReplace) {
    Advance();
    s->is_replace = true;
    s->on_conflict = ast::ConflictAction::kReplace;
  } else {
    Advance();  // INSERT
    s->on_conflict = ParseOrConf();
    if (failed_) return nullptr;
  }
  if (!Expect(Tk::kInto)) return nullptr;
  FromItem target;
  if (!ParseXFullName(&target, in_trigger, true)) return nullptr;
  s->schema = target.schema;
  s->table = target.name;
  s->alias = target.alias;
  if (T() == Tk::kLp) {
    Advance();
    if (!ParseIdList(&s->columns) || !Expect(Tk::kRp)) return nullptr;
  }
  if (T() == Tk::kDefault && !in_trigger) {
    Advance();
    if (!Expect(Tk::kValues)) return nullptr;
    s->default_values = true;
    if (T() == Tk::kReturning && !ParseReturning(&s->returning, d + 6)) return nullptr;
    return s;
  }
  if (!StartsSelect(T())) return SyntaxError();
  s->select = ParseSelect(d + 4);
  if (!s->select) return nullptr;
  bool saved = in_trigger_;
  in_trigger_ = in_trigger;
  bool ok = ParseUpsert(s, d + 5);
  in_trigger_ = saved;
  return ok ? s : nullptr;
}

// UPDATE [OR action] table [INDEXED BY..] SET ... [FROM ...] [WHERE e]
//   [RETURNING ...] [ORDER BY ...] [LIMIT ...]
// `d`: LALR depth before UPDATE.
ast::Stmt* Parser::Impl::ParseUpdate(ast::With* with, int d, bool in_trigger) {
  auto* s = arena_->New<ast::UpdateStmt>();
  s->with = with;
  Advance();  // UPDATE
  s->on_conflict = ParseOrConf();
  if (failed_) return nullptr;
  s->target = arena_->New<FromItem>();
  if (!ParseXFullName(s->target, in_trigger, true)) return nullptr;
  if (!ParseIndexedOpt(s->target, in_trigger)) return nullptr;
  if (!Expect(Tk::kSet)) return nullptr;
  if (!ParseSetList(&s->sets, d + 5)) return nullptr;
  if (T() == Tk::kFrom) {
    Advance();
    s->from = ParseFromList(d + 7);
    if (!s->from) return nullptr;
  }
  int r = d + 7;  // before RETURNING
  if (T() == Tk::kWhere) {
    Advance();
    s->where = ParseExpr(d + 8);
    if (!s->where) return nullptr;
    r = d + 9;
  }
  if (in_trigger) return s;
  if (T() == Tk::kReturning && !ParseReturning(&s->returning, r)) return nullptr;
  if (T() == Tk::kOrder) {
    Advance();
    if (!Expect(Tk::kBy)) return nullptr;
    s->order_by = ParseSortList(d + 10);
    if (!s->order_by) return nullptr;
  }
  if (T() == Tk::kLimit && !ParseLimit(&s->limit, &s->offset, d + 9)) return nullptr;
  // Raised when the whole statement is reduced (it stands unless the next
  // token is a syntax error).
  if (s->sets->size() > static_cast<size_t>(limits_.column)) Error("too many columns in set list");
  return s;
}

// DELETE FROM table [INDEXED BY..] [WHERE e] [RETURNING ...] [ORDER BY ...] [LIMIT ...]
// `d`: LALR depth before DELETE.
ast::Stmt* Parser::Impl::ParseDelete(ast::With* with, int d, bool in_trigger) {
  auto* s = arena_->New<ast::DeleteStmt>();
  s->with = with;
  Advance();  // DELETE
  if (!Expect(Tk::kFrom)) return nullptr;
  s->target = arena_->New<FromItem>();
  if (!ParseXFullName(s->target, in_trigger, true)) return nullptr;
  if (!ParseIndexedOpt(s->target, in_trigger)) return nullptr;
  int r = d + 4;  // before RETURNING
  if (T() == Tk::kWhere) {
    Advance();
    s->where = ParseExpr(d + 5);
    if (!s->where) return nullptr;
    r = d + 6;
  }
  if (in_trigger) return s;
  if (T() == Tk::kReturning && !ParseReturning(&s->returning, r)) return nullptr;
  if (T() == Tk::kOrder) {
    Advance();
    if (!Expect(Tk::kBy)) return nullptr;
    s->order_by = ParseSortList(d + 7);
    if (!s->order_by) return nullptr;
  }
  if (T() == Tk::kLimit && !ParseLimit(&s->limit, &s->offset, d + 6)) return nullptr;
  return s;
}

}  // namespace basalt

// CREATE TABLE: column definitions, column and table constraints, options.
//
//   CREATE [TEMP] TABLE [IF NOT EXISTS] [schema.]name
//     ( coldef, ... [, tcons [[,] tcons]...] ) [WITHOUT ROWID | STRICT [, ...]]
//   | ... AS select
//
// SQLite details kept here:
//  - A CONSTRAINT name stays in force until the next column definition or
//    the next comma between table constraints; a CHECK takes the name in
//    force (so `CONSTRAINT c CHECK(x) CHECK(y)` names both checks c).
//  - The type name swallows any identifier-like words, including GENERATED
//    and ALWAYS; a trailing "GENERATED ALWAYS" is then cut off the type.
//  - DEFERRABLE clauses apply to the most recent foreign key of the table.
#include "parser/parser_impl.h"

namespace basalt {

using ast::ColumnConstraint;
using ast::ColumnDef;
using ast::ConstraintKind;
using ast::Expr;
using parser::Tk;

namespace {

bool EndsWithIgnoreCase(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && EqualsIgnoreCase(s.substr(s.size() - suffix.size()), suffix);
}

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && parser::IsSpaceChar(static_cast<unsigned char>(s.back()))) {
    s.remove_suffix(1);
  }
  return s;
}

}  // namespace

ast::Stmt* Parser::Impl::ParseCreateTable(bool temp) {
  auto* s = arena_->New<ast::CreateTableStmt>();
  s->temp = temp;
  if (!ParseIfNotExists(&s->if_not_exists)) return nullptr;
  Token name_tok;
  if (!ParseFullName(&s->schema, &s->name, &name_tok)) return nullptr;
  s->name_text = name_tok.text();
  if (T() == Tk::kAs) {
    Advance();
    s->as_select = ParseSelect(base_ + 2);
    return s->as_select ? s : nullptr;
  }
  if (!Expect(Tk::kLp)) return nullptr;
  in_schema_ddl_ = true;
  last_fk_ = nullptr;
  constraint_name_ = {};
  // LALR depths: create_table ( columnlist , conslist ) — the first column
  // name sits at base+3, later ones at base+5; table constraints at base+5/+7.
  int d = base_ + 2;
  for (;;) {
    ColumnDef* col = ParseColumnDef(d);
    if (!col) return nullptr;
    s->columns.push_back(*arena_, col);
    // SQLite raises this as the column is added: it stands once the next
    // token (',' or ')') is read.
    if (s->columns.size() > static_cast<size_t>(limits_.column)) {
      Error("too many columns on " + std::string(s->name));
    }
    d = base_ + 4;
    if (T() != Tk::kComma) break;
    Advance();
    Tk t = T();
    if (t == Tk::kConstraint || t == Tk::kPrimary || t == Tk::kUnique || t == Tk::kCheck ||
        t == Tk::kForeign) {
      // Table constraints; commas between them are optional.
      int k = base_ + 4;
      for (;;) {
        if (!ParseTableConstraint(s, k)) return nullptr;
        k = base_ + 6;
        if (T() == Tk::kComma) {
          Advance();
          constraint_name_ = {};
          t = T();
          if (t != Tk::kConstraint && t != Tk::kPrimary && t != Tk::kUnique && t != Tk::kCheck &&
              t != Tk::kForeign) {
            return SyntaxError();
          }
          continue;
        }
        t = T();
        if (t != Tk::kConstraint && t != Tk::kPrimary && t != Tk::kUnique && t != Tk::kCheck &&
            t != Tk::kForeign) {
          break;
        }
      }
      break;
    }
  }
  if (!Expect(Tk::kRp)) return nullptr;
  const char* rp_end = prev_end_;
  bool has_options = T() != Tk::kSemi && T() != Tk::kEof;
  if (has_options && !ParseTableOptions(s)) return nullptr;
  // SQLite stores the text to the closing ')' or, with options, up to the
  // ';' (or the end of input) that follows them.
  const char* end = has_options ? cur_.z : rp_end;
  s->body_text = std::string_view(name_tok.z, static_cast<size_t>(end - name_tok.z));
  return s;
}

// WITHOUT ROWID | STRICT, separated by commas (the grammar lets the list
// start with a comma: `CREATE TABLE t(a), STRICT`).
bool Parser::Impl::ParseTableOptions(ast::CreateTableStmt* t) {
  bool first = true;
  do {
    if (first && T() == Tk::kComma) {
      first = false;
      continue;
    }
    first = false;
    if (T() == Tk::kWithout) {
      Advance();
      if (!IsNmToken(T())) {
        SyntaxError();
        return false;
      }
      Token opt = cur_;
      Advance();
      if (EqualsIgnoreCase(opt.text(), "rowid")) {
        t->without_rowid = true;
      } else {
        Error("unknown table option: " + std::string(opt.text()));
      }
    } else if (IsNmToken(T())) {
      Token opt = cur_;
      Advance();
      if (EqualsIgnoreCase(opt.text(), "strict")) {
        t->strict = true;
      } else {
        Error("unknown table option: " + std::string(opt.text()));
      }
    } else {
      SyntaxError();
      return false;
    }
  } while (Accept(Tk::kComma));
  return true;
}

// The declared type: raw text of the type tokens, then SQLite's clean-ups.
bool Parser::Impl::ParseTypeName(std::string_view* out, int d) {
  std::string_view raw;
  if (!ParseTypeToken(&raw, d)) return false;
  if (raw.size() >= 16 && EndsWithIgnoreCase(raw, "always")) {
    raw = TrimRight(raw.substr(0, raw.size() - 6));
    if (raw.size() >= 9 && EndsWithIgnoreCase(raw, "generated")) {
      raw = TrimRight(raw.substr(0, raw.size() - 9));
    }
  }
  if (raw.size() >= 3) {
    if (parser::IsQuoteChar(raw[0])) {
      // A type that is one quoted word loses its quotes.
      bool inner_quote = false;
      for (size_t i = 1; i + 1 < raw.size(); ++i) {
        if (parser::IsQuoteChar(raw[i])) inner_quote = true;
      }
      if (!inner_quote) raw = raw.substr(1, raw.size() - 2);
    }
    // The standard type names are recorded in upper case.
    for (std::string_view std_type : {"INT", "INTEGER", "REAL", "TEXT", "BLOB", "ANY"}) {
      if (EqualsIgnoreCase(raw, std_type)) {
        *out = std_type;
        return true;
      }
    }
  }
  *out = parser::DequoteSpan(arena_, raw);
  return true;
}

ColumnDef* Parser::Impl::ParseColumnDef(int d) {
  auto* col = arena_->New<ColumnDef>();
  if (!ParseNm(&col->name)) return nullptr;
  constraint_name_ = {};
  if (!ParseTypeName(&col->type, d + 1)) return nullptr;
  if (!ParseColumnConstraints(col, d + 2)) return nullptr;
  return col;
}

// DEFAULT value: literal, +/- literal, ( expr ), or a bare identifier (a
// string; TRUE / FALSE become booleans).
Expr* Parser::Impl::ParseDefaultValue(int d) {
  const char* start = cur_.z;
  switch (T()) {
    case Tk::kLp: {
      Advance();
      const char* inner = prev_end_;
      Expr* e = ParseExpr(d + 1);
      if (!e) return nullptr;
      std::string_view text = InnerSpan(inner);
      if (!ExpectAt(Tk::kRp, d + 3)) return nullptr;
      e->span = text;
      return e;
    }
    case Tk::kPlus:
    case Tk::kMinus: {
      bool neg = T() == Tk::kMinus;
      Advance();
      Expr* e = ParseTerm(cur_.z);
      if (!e) return nullptr;
      if (neg) return MakeUnary(ast::Op::kNeg, e, start);
      Finish(e, start);  // DEFAULT +1 is the literal, shown as "+1"
      return e;
    }
    case Tk::kInteger:
    case Tk::kFloat:
    case Tk::kString:
    case Tk::kBlob:
    case Tk::kNull:
    case Tk::kCurrentTime:
    case Tk::kCurrentDate:
    case Tk::kCurrentTimestamp:
      return ParseTerm(start);
    default:
      break;
  }
  if (!IsIdOrIndexed(T())) return SyntaxError();
  Expr* e = NewExpr(ast::ExprKind::kString, start);
  e->text = NameOf(cur_);
  if (!parser::IsQuoteChar(cur_.z[0])) {
    if (EqualsIgnoreCase(e->text, "true") || EqualsIgnoreCase(e->text, "false")) {
      e->kind = ast::ExprKind::kBool;
      e->ival = EqualsIgnoreCase(e->text, "true") ? 1 : 0;
      e->text = {};
    }
  }
  Advance();
  Finish(e, start);
  return e;
}

// term: NULL | number | string | blob | CURRENT_TIME/DATE/TIMESTAMP
Expr* Parser::Impl::ParseTerm(const char* start) {
  Expr* e;
  switch (T()) {
    case Tk::kInteger:
    case Tk::kFloat:
      return ParseNumber(start);
    case Tk::kString:
      e = NewExpr(ast::ExprKind::kString, start);
      e->text = NameOf(cur_);
      break;
    case Tk::kBlob:
      e = NewExpr(ast::ExprKind::kBlob, start);
      e->text = parser::DecodeBlob(arena_, cur_.text());
      break;
    case Tk::kNull:
      e = NewExpr(ast::ExprKind::kNull, start);
      break;
    case Tk::kCurrentTime:
      e = NewExpr(ast::ExprKind::kCurrentTime, start);
      e->op = ast::Op::kCurTime;
      break;
    case Tk::kCurrentDate:
      e = NewExpr(ast::ExprKind::kCurrentTime, start);
      e->op = ast::Op::kCurDate;
      break;
    case Tk::kCurrentTimestamp:
      e = NewExpr(ast::ExprKind::kCurrentTime, start);
      e->op = ast::Op::kCurTimestamp;
      break;
    default:
      return SyntaxError();
  }
  Advance();
  Finish(e, start);
  return e;
}

bool Parser::Impl::ParseColumnConstraints(ColumnDef* col, int d) {
  bool has_default = false, generated = false, primary_key = false;
  const char* kGeneratedPk = "generated columns cannot be part of the PRIMARY KEY";
  for (;;) {
    ColumnConstraint* c = nullptr;
    auto make = [&](ConstraintKind kind) {
      c = arena_->New<ColumnConstraint>();
      c->kind = kind;
      c->name = constraint_name_;
      return c;
    };
    switch (T()) {
      case Tk::kConstraint:
        Advance();
        if (!ParseNm(&constraint_name_)) return false;
        continue;
      case Tk::kDefault: {
        Advance();
        make(ConstraintKind::kDefault);
        c->expr = ParseDefaultValue(d + 1);
        if (!c->expr) return false;
        if (generated) Error("cannot use DEFAULT on a generated column");
        has_default = true;
        break;
      }
      case Tk::kNull:
        Advance();
        make(ConstraintKind::kNull);
        if (!ParseOnConf(&c->on_conflict)) return false;
        break;
      case Tk::kNot:
        Advance();
        if (T() == Tk::kNull) {
          Advance();
          make(ConstraintKind::kNotNull);
          if (!ParseOnConf(&c->on_conflict)) return false;
          break;
        }
        if (T() != Tk::kDeferrable) {
          SyntaxError();
          return false;
        }
        Advance();
        {
          int8_t v = 0;
          if (!ParseDeferrable(&v)) return false;
          if (last_fk_) last_fk_->deferrable = 0;
        }
        continue;
      case Tk::kDeferrable: {
        Advance();
        int8_t v = 2;
        if (!ParseDeferrable(&v)) return false;
        if (last_fk_) last_fk_->deferrable = v;
        continue;
      }
      case Tk::kPrimary:
        Advance();
        if (!Expect(Tk::kKey)) return false;
        make(ConstraintKind::kPrimaryKey);
        if (T() == Tk::kAsc || T() == Tk::kDesc) {
          c->order = T() == Tk::kAsc ? ast::SortOrder::kAsc : ast::SortOrder::kDesc;
          Advance();
        }
        if (!ParseOnConf(&c->on_conflict)) return false;
        if (T() == Tk::kAutoincrement) {
          Advance();
          c->autoincrement = true;
        }
        if (generated) Error(kGeneratedPk);
        primary_key = true;
        break;
      case Tk::kUnique:
        Advance();
        make(ConstraintKind::kUnique);
        if (!ParseOnConf(&c->on_conflict)) return false;
        break;
      case Tk::kCheck: {
        Advance();
        if (!ExpectAt(Tk::kLp, d + 2)) return false;
        make(ConstraintKind::kCheck);
        const char* inner = prev_end_;
        c->expr = ParseExpr(d + 2);
        if (!c->expr) return false;
        std::string_view text = InnerSpan(inner);
        if (!ExpectAt(Tk::kRp, d + 4)) return false;
        c->expr->span = text;
        break;
      }
      case Tk::kReferences:
        Advance();
        make(ConstraintKind::kReferences);
        c->fk = ParseReferences();
        if (!c->fk) return false;
        last_fk_ = c->fk;
        break;
      case Tk::kCollate:
        Advance();
        if (!IsIdsToken(T())) {
          SyntaxError();
          return false;
        }
        make(ConstraintKind::kCollate);
        c->collation = NameOf(cur_);
        Advance();
        break;
      case Tk::kGenerated:
      case Tk::kAs: {
        int g = d;  // depth before `generated`
        if (T() == Tk::kGenerated) {
          Advance();
          if (!Expect(Tk::kAlways)) return false;
          if (!Expect(Tk::kAs)) return false;
          g = d + 3;
        } else {
          Advance();
          g = d + 1;
        }
        if (!ExpectAt(Tk::kLp, g + 1)) return false;
        make(ConstraintKind::kGenerated);
        c->expr = ParseExpr(g + 1);
        if (!c->expr || !ExpectAt(Tk::kRp, g + 3)) return false;
        bool bad = has_default || generated;  // a second AS (...) is an error too
        if (IsIdToken(T())) {
          std::string_view kind = cur_.text();
          Advance();
          if (EqualsIgnoreCase(kind, "stored")) {
            c->stored = true;
          } else if (!EqualsIgnoreCase(kind, "virtual")) {
            bad = true;
          }
        }
        if (bad) {
          Error("error in generated column \"" + std::string(col->name) + "\"");
        } else if (primary_key) {
          Error(kGeneratedPk);
        }
        generated = true;
        break;
      }
      default:
        return true;
    }
    col->constraints.push_back(*arena_, c);
  }
}

// [INITIALLY DEFERRED | INITIALLY IMMEDIATE] after [NOT] DEFERRABLE; *v is
// set to 1 for INITIALLY DEFERRED (only meaningful without NOT).
bool Parser::Impl::ParseDeferrable(int8_t* v) {
  if (T() != Tk::kInitially) return true;
  Advance();
  if (T() == Tk::kDeferred) {
    if (*v != 0) *v = 1;
  } else if (T() != Tk::kImmediate) {
    SyntaxError();
    return false;
  }
  Advance();
  return true;
}

// After REFERENCES: table [(columns)] [ON DELETE|UPDATE|INSERT action | MATCH name]...
ast::ForeignKey* Parser::Impl::ParseReferences() {
  auto* fk = arena_->New<ast::ForeignKey>();
  if (!ParseNm(&fk->table)) return nullptr;
  if (T() == Tk::kLp) {
    Advance();
    if (!ParseEidList(&fk->columns) || !Expect(Tk::kRp)) return nullptr;
  }
  for (;;) {
    if (T() == Tk::kMatch) {
      Advance();
      std::string_view ignored;
      if (!ParseNm(&ignored)) return nullptr;
      continue;
    }
    if (T() != Tk::kOn) break;
    Advance();
    uint8_t* target;
    uint8_t ignored = 0;
    switch (T()) {
      case Tk::kDelete:
        target = &fk->on_delete;
        break;
      case Tk::kUpdate:
        target = &fk->on_update;
        break;
      case Tk::kInsert:
        target = &ignored;
        break;
      default:
        return SyntaxError();
    }
    Advance();
    switch (T()) {
      case Tk::kSet:
        Advance();
        if (T() == Tk::kNull) {
          *target = 1;
        } else if (T() == Tk::kDefault) {
          *target = 2;
        } else {
          return SyntaxError();
        }
        Advance();
        break;
      case Tk::kCascade:
        *target = 3;
        Advance();
        break;
      case Tk::kRestrict:
        *target = 4;
        Advance();
        break;
      case Tk::kNo:
        Advance();
        if (!Expect(Tk::kAction)) return nullptr;
        *target = 5;
        break;
      default:
        return SyntaxError();
    }
  }
  return fk;
}

bool Parser::Impl::ParseTableConstraint(ast::CreateTableStmt* t, int d) {
  if (T() == Tk::kConstraint) {
    Advance();
    return ParseNm(&constraint_name_);
  }
  auto* c = arena_->New<ast::TableConstraint>();
  c->name = constraint_name_;
  switch (T()) {
    case Tk::kPrimary:
      Advance();
      if (!Expect(Tk::kKey) || !ExpectAt(Tk::kLp, d + 3)) return false;
      c->kind = ConstraintKind::kPrimaryKey;
      c->columns = ParseSortList(d + 3);
      if (!c->columns) return false;
      if (T() == Tk::kAutoincrement) {
        Advance();
        c->autoincrement = true;
      }
      if (!Expect(Tk::kRp) || !ParseOnConf(&c->on_conflict)) return false;
      break;
    case Tk::kUnique:
      Advance();
      if (!Expect(Tk::kLp)) return false;
      c->kind = ConstraintKind::kUnique;
      c->columns = ParseSortList(d + 2);
      if (!c->columns) return false;
      if (!Expect(Tk::kRp) || !ParseOnConf(&c->on_conflict)) return false;
      break;
    case Tk::kCheck: {
      Advance();
      if (!ExpectAt(Tk::kLp, d + 2)) return false;
      c->kind = ConstraintKind::kCheck;
      const char* inner = prev_end_;
      c->check = ParseExpr(d + 2);
      if (!c->check) return false;
      std::string_view text = InnerSpan(inner);
      if (!ExpectAt(Tk::kRp, d + 4)) return false;
      c->check->span = text;
      if (!ParseOnConf(&c->on_conflict)) return false;
      break;
    }
    case Tk::kForeign:
      Advance();
      if (!Expect(Tk::kKey) || !Expect(Tk::kLp)) return false;
      c->kind = ConstraintKind::kReferences;
      if (!ParseEidList(&c->fk_columns) || !Expect(Tk::kRp)) return false;
      if (!Expect(Tk::kReferences)) return false;
      c->fk = ParseReferences();
      if (!c->fk) return false;
      last_fk_ = c->fk;
      if (T() == Tk::kDeferrable) {
        Advance();
        int8_t v = 2;
        if (!ParseDeferrable(&v)) return false;
        c->fk->deferrable = v;
      } else if (T() == Tk::kNot) {
        Advance();
        if (!Expect(Tk::kDeferrable)) return false;
        int8_t v = 0;
        if (!ParseDeferrable(&v)) return false;
        c->fk->deferrable = 0;
      }
      break;
    default:
      SyntaxError();
      return false;
  }
  t->constraints.push_back(*arena_, c);
  return true;
}

}  // namespace basalt

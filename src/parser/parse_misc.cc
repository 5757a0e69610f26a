// Transactions, savepoints, PRAGMA, VACUUM, REINDEX, ANALYZE, ATTACH, DETACH.
#include <cstring>

#include "parser/parser_impl.h"

namespace basalt {

using ast::Expr;
using parser::Tk;

// [TRANSACTION [name]] after BEGIN / COMMIT / END / ROLLBACK.
void Parser::Impl::ParseTransOpt() {
  if (T() != Tk::kTransaction) return;
  Advance();
  if (IsNmToken(T())) Advance();
}

// BEGIN [DEFERRED|IMMEDIATE|EXCLUSIVE] [TRANSACTION [name]]
ast::Stmt* Parser::Impl::ParseBegin() {
  Advance();
  auto* s = arena_->New<ast::BeginStmt>();
  switch (T()) {
    case Tk::kDeferred:
      Advance();
      break;
    case Tk::kImmediate:
      s->mode = ast::TransactionMode::kImmediate;
      Advance();
      break;
    case Tk::kExclusive:
      s->mode = ast::TransactionMode::kExclusive;
      Advance();
      break;
    default:
      break;
  }
  ParseTransOpt();
  return s;
}

// COMMIT|END [TRANSACTION [name]]
ast::Stmt* Parser::Impl::ParseCommit() {
  Advance();
  ParseTransOpt();
  return arena_->New<ast::CommitStmt>();
}

// ROLLBACK [TRANSACTION [name]] [TO [SAVEPOINT] name]
ast::Stmt* Parser::Impl::ParseRollback() {
  Advance();
  auto* s = arena_->New<ast::RollbackStmt>();
  ParseTransOpt();
  if (T() == Tk::kTo) {
    Advance();
    if (T() == Tk::kSavepoint) Advance();
    if (!ParseNm(&s->savepoint)) return nullptr;
  }
  return s;
}

ast::Stmt* Parser::Impl::ParseSavepoint() {
  Advance();
  auto* s = arena_->New<ast::SavepointStmt>();
  if (!ParseNm(&s->name)) return nullptr;
  return s;
}

// RELEASE [SAVEPOINT] name
ast::Stmt* Parser::Impl::ParseRelease() {
  Advance();
  auto* s = arena_->New<ast::ReleaseStmt>();
  if (T() == Tk::kSavepoint) Advance();
  if (!ParseNm(&s->name)) return nullptr;
  return s;
}

// PRAGMA [schema.]name [= value | (value)]; value: [+|-]number | name | ON |
// DELETE | DEFAULT | 'string'.
ast::Stmt* Parser::Impl::ParsePragma() {
  Advance();
  auto* s = arena_->New<ast::PragmaStmt>();
  if (!ParseFullName(&s->schema, &s->name)) return nullptr;
  bool call = false;
  if (T() == Tk::kLp) {
    call = true;
  } else if (T() != Tk::kEq) {
    return s;
  }
  Advance();
  s->call_form = call;
  const char* start = cur_.z;
  Expr* v = nullptr;
  bool neg = false;
  if (T() == Tk::kPlus || T() == Tk::kMinus) {
    neg = T() == Tk::kMinus;
    Advance();
    if (T() != Tk::kInteger && T() != Tk::kFloat) return SyntaxError();
  }
  if (T() == Tk::kInteger || T() == Tk::kFloat) {
    std::string_view text = cur_.text();
    int64_t iv = 0;
    int rc = T() == Tk::kInteger ? parser::IntegerLiteral(text, &iv) : 1;
    if (rc == 0 || (rc == 3 && neg)) {
      v = NewExpr(ast::ExprKind::kInteger, start);
      v->ival = neg && rc == 0 ? -iv : iv;
    } else {
      v = NewExpr(ast::ExprKind::kReal, start);
      v->rval = parser::RealLiteral(text);
      if (neg) v->rval = -v->rval;
    }
    if (neg) {
      // SQLite hands the pragma "-" followed by the number's text.
      char* buf = static_cast<char*>(arena_->Allocate(text.size() + 1, 1));
      buf[0] = '-';
      std::memcpy(buf + 1, text.data(), text.size());
      v->text = std::string_view(buf, text.size() + 1);
    } else {
      v->text = text;
    }
  } else if (IsNmToken(T()) || T() == Tk::kOn || T() == Tk::kDelete || T() == Tk::kDefault) {
    v = NewExpr(ast::ExprKind::kString, start);
    v->text = NameOf(cur_);
  } else {
    return SyntaxError();
  }
  Advance();
  Finish(v, start);
  s->value = v;
  if (call && !Expect(Tk::kRp)) return nullptr;
  return s;
}

// VACUUM [schema] [INTO expr]
ast::Stmt* Parser::Impl::ParseVacuum() {
  Advance();
  auto* s = arena_->New<ast::VacuumStmt>();
  int d = base_ + 2;
  if (IsNmToken(T())) {
    s->schema = NameOf(cur_);
    Advance();
    d += 1;
  }
  if (T() == Tk::kInto) {
    Advance();
    s->into = ParseExpr(d);
    if (!s->into) return nullptr;
  }
  return s;
}

// REINDEX [[schema.]name]
ast::Stmt* Parser::Impl::ParseReindex() {
  Advance();
  auto* s = arena_->New<ast::ReindexStmt>();
  if (IsNmToken(T()) && !ParseFullName(&s->schema, &s->name)) return nullptr;
  return s;
}

// ANALYZE [[schema.]name]
ast::Stmt* Parser::Impl::ParseAnalyze() {
  Advance();
  auto* s = arena_->New<ast::AnalyzeStmt>();
  if (IsNmToken(T()) && !ParseFullName(&s->schema, &s->name)) return nullptr;
  return s;
}

// ATTACH [DATABASE] expr AS expr [KEY expr]
ast::Stmt* Parser::Impl::ParseAttach() {
  Advance();
  auto* s = arena_->New<ast::AttachStmt>();
  if (T() == Tk::kDatabase) Advance();
  s->file = ParseExpr(base_ + 2);
  if (!s->file || !Expect(Tk::kAs)) return nullptr;
  s->name = ParseExpr(base_ + 4);
  if (!s->name) return nullptr;
  if (T() == Tk::kKey) {
    Advance();
    s->key = ParseExpr(base_ + 6);
    if (!s->key) return nullptr;
  }
  return s;
}

// DETACH [DATABASE] expr
ast::Stmt* Parser::Impl::ParseDetach() {
  Advance();
  auto* s = arena_->New<ast::DetachStmt>();
  if (T() == Tk::kDatabase) Advance();
  s->name = ParseExpr(base_ + 2);
  if (!s->name) return nullptr;
  return s;
}

}  // namespace basalt

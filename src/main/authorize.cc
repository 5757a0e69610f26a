#include "main/authorize.h"

#include <string>

#include "main/authorize_asker.h"

namespace basalt {

std::string AuthTableDb(const Catalog& cat, std::string_view schema, std::string_view name) {
  const Table* t = cat.FindTable(schema, name);
  if (t != nullptr) return cat.name(t->db());
  return std::string(schema);
}

Status AuthorizeStatement(const AuthHook& auth, const Catalog& cat, const ast::Stmt* st, bool* noop,
                          VtabHost* vtabs) {
  if (noop != nullptr) *noop = false;
  if (auth.fn == nullptr) return Status();
  Asker a(auth, cat);
  a.vtabs = vtabs;
  switch (st->kind) {
    case ast::StmtKind::kInsert: {
      auto* s = st->As<ast::InsertStmt>();
      a.Ask(kAuthInsert, s->table, "", AuthTableDb(cat, s->schema, s->table), false, true);
      break;
    }
    case ast::StmtKind::kUpdate: {
      auto* s = st->As<ast::UpdateStmt>();
      std::string db = AuthTableDb(cat, s->target->schema, s->target->name);
      for (const ast::ExprItem& item : s->sets->items) {
        if (!a.Ask(kAuthUpdate, s->target->name, item.name, db)) break;
      }
      break;
    }
    case ast::StmtKind::kDelete: {
      auto* s = st->As<ast::DeleteStmt>();
      a.Ask(kAuthDelete, s->target->name, "", AuthTableDb(cat, s->target->schema, s->target->name),
            false, true);
      break;
    }
    case ast::StmtKind::kDrop:
      AuthorizeDrop(&a, cat, st->As<ast::DropStmt>());
      break;
    case ast::StmtKind::kAlterTable:
      AuthorizeAlter(&a, cat, st->As<ast::AlterTableStmt>());
      break;
    case ast::StmtKind::kBegin:
      a.Ask(kAuthTransaction, "BEGIN", "", "", false, true);
      break;
    case ast::StmtKind::kCommit:
      a.Ask(kAuthTransaction, "COMMIT", "", "", false, true);
      break;
    case ast::StmtKind::kRollback: {
      auto* s = st->As<ast::RollbackStmt>();
      if (s->savepoint.empty()) {
        a.Ask(kAuthTransaction, "ROLLBACK", "", "", false, true);
      } else {
        a.Ask(kAuthSavepoint, "ROLLBACK", s->savepoint, "");
      }
      break;
    }
    case ast::StmtKind::kSavepoint:
      a.Ask(kAuthSavepoint, "BEGIN", st->As<ast::SavepointStmt>()->name, "");
      break;
    case ast::StmtKind::kRelease:
      a.Ask(kAuthSavepoint, "RELEASE", st->As<ast::ReleaseStmt>()->name, "");
      break;
    case ast::StmtKind::kPragma: {
      auto* s = st->As<ast::PragmaStmt>();
      std::string_view value = s->value != nullptr ? s->value->span : std::string_view();
      a.Ask(kAuthPragma, s->name, value, s->schema, false, s->value == nullptr);
      break;
    }
    case ast::StmtKind::kReindex:
      a.Ask(kAuthReindex, st->As<ast::ReindexStmt>()->name, "", "", false, true);
      break;
    case ast::StmtKind::kAnalyze:
      a.Ask(kAuthAnalyze, st->As<ast::AnalyzeStmt>()->name, "", "", false, true);
      break;
    case ast::StmtKind::kAttach: {
      // The file name when it is a string literal, else NULL (as SQLite).
      auto* s = st->As<ast::AttachStmt>();
      bool literal = s->file != nullptr && s->file->kind == ast::ExprKind::kString;
      a.Ask(kAuthAttach, literal ? s->file->text : std::string_view(), "", "", !literal, true);
      break;
    }
    case ast::StmtKind::kDetach: {
      auto* s = st->As<ast::DetachStmt>();
      std::string_view name = s->name != nullptr ? s->name->span : std::string_view();
      a.Ask(kAuthDetach, name, "", "", false, true);
      break;
    }
    default:
      AuthorizeCreate(&a, cat, st);
      break;
  }
  if (noop != nullptr) *noop = a.noop;
  return a.status();
}

}  // namespace basalt

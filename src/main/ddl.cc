// DDL dispatch, dry runs, and the checks every CREATE shares.
#include "main/ddl.h"

#include "common/assert.h"

namespace basalt {

namespace {

bool Reserved(std::string_view name) {
  return name.size() >= 7 && EqualsIgnoreCase(name.substr(0, 7), "sqlite_");
}

}  // namespace

void DdlExecutor::InitContext(CompileContext* ctx, Arena* arena) const {
  ctx->arena = arena;
  ctx->catalog = &store_->catalog();
  ctx->vtabs = vtabs_;
  ctx->funcs = funcs_;
  ctx->options = *options_;
  ctx->sql = text_;
}

// The expressions a CREATE checks (CHECK constraints, index expressions and
// WHERE clauses) are DDL: their double-quoted strings follow DQS_DDL.
void DdlExecutor::UseDdlQuoting(CompileContext* ctx) const {
  ctx->options.dqs_dml = ctx->options.dqs_ddl;
  ctx->options.dqs_schema = ctx->options.dqs_ddl;
}

Status DdlExecutor::Run(Program* prog) {
  Vm vm(prog, env_);
  for (;;) {
    StepResult r = vm.Step();
    if (r == StepResult::kDone) return Status();
    if (r == StepResult::kError) return vm.status();
  }
}

void DdlExecutor::SetErrorOffset(std::string_view where) {
  if (!dry_run_ || where.data() == nullptr || error_offset_ == nullptr) return;
  if (where.data() >= text_.data() && where.data() < text_.data() + text_.size()) {
    *error_offset_ = static_cast<int>(where.data() - text_.data());
  }
}

std::string DdlExecutor::Qualified(int db, std::string_view name) const {
  return store_->at(db)->name + "." + std::string(name);
}

Status DdlExecutor::TargetDb(std::string_view schema, bool temp, const char* what, int* db) {
  if (temp) {
    if (!schema.empty() && !EqualsIgnoreCase(schema, "temp")) {
      SetErrorOffset(schema);
      return Status(kError, std::string("temporary ") + what + " name must be unqualified");
    }
    *db = Catalog::kTemp;
    return Status();
  }
  if (schema.empty()) {
    *db = Catalog::kMain;
    return Status();
  }
  *db = store_->Find(schema);
  if (*db < 0) {
    SetErrorOffset(schema);
    return Status(kError, "unknown database " + std::string(schema));
  }
  return Status();
}

Status DdlExecutor::CheckNameFree(Database* db, std::string_view name, std::string_view written,
                                  bool if_not_exists, bool* exists, std::string_view text) {
  *exists = false;
  // PRAGMA writable_schema=ON lets sqlite_* names through, as in SQLite
  // (the shell's temp.sqlite_parameters is created so).
  if (Reserved(name) && !options_->writable_schema) {
    return Status(kError, "object name reserved for internal use: " + std::string(name));
  }
  if (Table* t = db->schema.FindTable(name)) {
    *exists = true;
    if (if_not_exists) return Status();
    SetErrorOffset(written.empty() ? text : written);
    // Named as written, quotes and all, as SQLite's message does.
    return Status(kError, std::string(t->is_view ? "view " : "table ") +
                              std::string(written.empty() ? name : written) + " already exists");
  }
  if (db->schema.FindIndex(name) != nullptr) {
    return Status(kError, "there is already an index named " + std::string(name));
  }
  return Status();
}

Status DdlExecutor::Validate(ast::Stmt* st, std::string_view text, Arena* arena,
                             int* error_offset) {
  dry_run_ = true;
  text_ = text;
  error_offset_ = error_offset;
  Status s = Exec(st, arena);
  dry_run_ = false;
  error_offset_ = nullptr;
  return s;
}

Status DdlExecutor::Exec(ast::Stmt* st, Arena* arena) {
  switch (st->kind) {
    case ast::StmtKind::kCreateTable:
      return CreateTable(st->As<ast::CreateTableStmt>(), arena);
    case ast::StmtKind::kCreateIndex:
      return CreateIndex(st->As<ast::CreateIndexStmt>(), arena);
    case ast::StmtKind::kCreateView:
      return CreateView(st->As<ast::CreateViewStmt>(), arena);
    case ast::StmtKind::kCreateTrigger:
      return CreateTrigger(st->As<ast::CreateTriggerStmt>(), arena);
    case ast::StmtKind::kDrop:
      return Drop(st->As<ast::DropStmt>());
    case ast::StmtKind::kReindex:
      return Reindex(st->As<ast::ReindexStmt>());
    case ast::StmtKind::kAnalyze:
      return Analyze(st->As<ast::AnalyzeStmt>());
    case ast::StmtKind::kCreateVirtualTable:
      return CreateVirtualTable(st->As<ast::CreateVirtualTableStmt>());
    case ast::StmtKind::kAlterTable:
      return AlterTable(st->As<ast::AlterTableStmt>(), arena);
    case ast::StmtKind::kAttach:
      return Attach(st->As<ast::AttachStmt>());
    case ast::StmtKind::kDetach:
      return Detach(st->As<ast::DetachStmt>());
    default:
      return Status(kInternal, "not a DDL statement");
  }
}

void DdlExecutor::Access(ast::Stmt* st, DbMask* read_mask, DbMask* write_mask) const {
  *read_mask = 0;
  *write_mask = 0;
  const Catalog& cat = store_->catalog();
  auto write_db = [&](int db) {
    if (db >= 0) *write_mask |= DbBit(db);
  };
  switch (st->kind) {
    case ast::StmtKind::kCreateTable: {
      auto* ct = st->As<ast::CreateTableStmt>();
      write_db(ct->temp             ? Catalog::kTemp
               : ct->schema.empty() ? Catalog::kMain
                                    : cat.Find(ct->schema));
      if (ct->as_select != nullptr) {
        // The query may read any database.
        for (int i = 0; i < store_->size(); ++i) {
          if (store_->at(i)->is_open()) *read_mask |= DbBit(i);
        }
      }
      break;
    }
    case ast::StmtKind::kCreateIndex: {
      auto* ci = st->As<ast::CreateIndexStmt>();
      if (const Table* t = cat.FindTable(ci->schema, ci->table)) write_db(t->db());
      break;
    }
    case ast::StmtKind::kCreateVirtualTable: {
      auto* cv = st->As<ast::CreateVirtualTableStmt>();
      write_db(cv->schema.empty() ? Catalog::kMain : cat.Find(cv->schema));
      break;
    }
    case ast::StmtKind::kCreateView: {
      auto* cv = st->As<ast::CreateViewStmt>();
      write_db(cv->temp             ? Catalog::kTemp
               : cv->schema.empty() ? Catalog::kMain
                                    : cat.Find(cv->schema));
      break;
    }
    case ast::StmtKind::kCreateTrigger: {
      auto* tr = st->As<ast::CreateTriggerStmt>();
      int db = tr->temp ? Catalog::kTemp : tr->schema.empty() ? -1 : cat.Find(tr->schema);
      if (db < 0) {
        const Table* t = cat.FindTable(tr->table_schema, tr->table);
        db = t != nullptr && t->owner->is_temp() ? Catalog::kTemp : Catalog::kMain;
      }
      write_db(db);
      break;
    }
    case ast::StmtKind::kDrop: {
      auto* d = st->As<ast::DropStmt>();
      if (d->object == ast::ObjectKind::kIndex) {
        if (const Index* idx = cat.FindIndex(d->schema, d->name)) write_db(idx->table->db());
      } else if (d->object == ast::ObjectKind::kTrigger) {
        if (const Trigger* tr = cat.FindTrigger(d->schema, d->name)) {
          write_db(tr->owner->db_index);
        }
      } else if (const Table* t = cat.FindTable(d->schema, d->name)) {
        write_db(t->db());
        std::vector<const Trigger*> triggers;
        cat.TriggersOn(t, &triggers);
        for (const Trigger* tr : triggers) write_db(tr->owner->db_index);
      }
      break;
    }
    case ast::StmtKind::kAlterTable: {
      auto* a = st->As<ast::AlterTableStmt>();
      if (const Table* t = cat.FindTable(a->schema, a->table)) {
        write_db(t->db());
        // TEMP's views and triggers may follow a rename.
        if (store_->temp()->is_open()) write_db(Catalog::kTemp);
      }
      break;
    }
    case ast::StmtKind::kReindex:
      write_db(Catalog::kMain);
      break;
    case ast::StmtKind::kAnalyze:
      for (int i = 0; i < store_->size(); ++i) {
        if (i != Catalog::kTemp && store_->at(i)->is_open()) write_db(i);
      }
      break;
    default:
      break;
  }
}

}  // namespace basalt

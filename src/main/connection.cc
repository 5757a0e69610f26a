#include "main/connection.h"

#include "func/builtins.h"
#include "main/statement.h"
#include "parser/parser.h"

namespace basalt {

Connection::Connection()
    : store_(&env_),
      vtabs_(&store_),
      txn_(&store_, &vtabs_),
      ddl_(&store_, &txn_, &vtabs_, &funcs_, &options_, &env_) {}

Connection::~Connection() { (void)txn_.RollbackAll(); }

void Connection::RecoverAfterException() {
  if (txn_.active() > 0) return;  // running statements still use the transaction and schema
  Database* main = store_.main();
  if (main->open_error.ok()) main->schema_loaded = false;
  bool in_txn = !txn_.autocommit();
  for (int i = 0; i < store_.size(); ++i) {
    Btree* bt = store_.at(i)->bt.get();
    in_txn |= bt != nullptr && bt->in_transaction();
  }
  if (in_txn) (void)txn_.RollbackAll();
}

void Connection::InitCompileContext(CompileContext* ctx, Arena* arena, std::string_view sql) const {
  ctx->arena = arena;
  ctx->catalog = &store_.catalog();
  ctx->vtabs = const_cast<VtabManager*>(&vtabs_);
  ctx->funcs = &funcs_;
  ctx->options = options_;
  ctx->sql = sql;
  ctx->auth = auth_;
}

bool Connection::SchemaMayHaveChanged() {
  bool changed = false;
  for (int i = 0; i < store_.size(); ++i) {
    Database* db = store_.at(i);
    if (!db->is_file || db->bt->in_transaction() || !db->open_error.ok()) continue;
    Status rs = db->bt->BeginTransaction(false);
    if (rs.ok()) {
      rs = store_.CheckSchemaCookie(i);
      (void)db->bt->Commit();
    }
    changed |= rs.code() == kSchema;
  }
  return changed;
}

Result<std::unique_ptr<Statement>> Connection::Prepare(std::string_view sql, size_t* tail) {
  CollationScope collations(&collations_);
  auto arena = std::make_unique<Arena>();
  // Copy only the first statement (and whatever leads up to it): copying the
  // whole remaining script would make long scripts quadratic.
  // (A short text is copied whole: cheaper than scanning it.)
  size_t first_end = sql.size() <= 4096 ? sql.size() : Parser::StatementEnd(sql);
  // Empty statements (";;") end early: keep scanning until a real one.
  while (sql.size() > 4096 && first_end < sql.size()) {
    std::string_view head = sql.substr(0, first_end);
    bool only_blank = true;
    for (char c : head) {
      if (c != ';' && c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f') {
        only_blank = false;
        break;
      }
    }
    if (!only_blank) break;
    size_t more = Parser::StatementEnd(sql.substr(first_end));
    first_end += more;
  }
  std::string_view text = arena->CopyString(sql.substr(0, first_end));
  Parser parser(arena.get(), text);
  parser.SetLimits(limits_.ForParser());
  Result<ast::Stmt*> r = parser.ParseStatement();
  *tail = parser.offset();
  last_error_offset_ = -1;
  if (!r.ok()) {
    last_error_offset_ = parser.error_offset();
    return r.status();
  }
  if (*r == nullptr) return std::unique_ptr<Statement>();
  // The statement's own text: from its first token to the end of the statement.
  std::string stmt_text(text.substr(0, *tail));
  auto st = std::make_unique<Statement>(this, std::string((*r)->span));
  st->arena_ = std::move(arena);
  st->ast_ = *r;
  st->sql_ = stmt_text;
  st->parsed_text_ = text;
  const ParamTable& pt = parser.params();
  for (int i = 0; i < pt.count; ++i) {
    st->param_names_.emplace_back(i < static_cast<int>(pt.names.size())
                                      ? std::string(pt.names[static_cast<size_t>(i)])
                                      : std::string());
  }
  // An interrupt stops statements already running, and those started
  // before none is left (interrupt.html); with none running it is over.
  if (txn_.active() == 0) interrupted_.store(0, std::memory_order_relaxed);
  // The schema of a file database is read at the first prepare. When that
  // fails (not a database, locked, ...) only statements that need the
  // database report it.
  Status schema_st = EnsureSchema();
  Status cs = st->Compile();
  if (!schema_st.ok()) {
    if (!cs.ok() || st->uses_db()) return schema_st;
    return st;
  }
  // The error may come from a schema another connection has changed.
  if (!cs.ok() && (cs.code() & 0xff) == kError && SchemaMayHaveChanged()) {
    last_error_offset_ = -1;
    st->ast_ = nullptr;
    st->prog_.reset();
    st->vm_.reset();
    cs = st->Compile();
  }
  TRY(cs);
  return st;
}

Status Connection::BeginStatement(DbMask read_mask, DbMask write_mask, bool stmt_journal,
                                  int* stmt_savepoint, bool writes_vtab) {
  if (txn_.active() == 0) interrupted_.store(0, std::memory_order_relaxed);
  if ((read_mask | write_mask) != 0) used_db_in_txn_ = true;
  return txn_.BeginStatement(read_mask, write_mask, stmt_journal, stmt_savepoint, writes_vtab);
}

void Connection::TransactionMayHaveEnded() {
  // PRAGMA defer_foreign_keys lasts until the transaction ends.
  if (txn_.autocommit() && txn_.active() == 0 && used_db_in_txn_) {
    options_.defer_foreign_keys = false;
    used_db_in_txn_ = false;
  }
}

Status Connection::ExecTransaction(ast::Stmt* st) {
  used_db_in_txn_ = true;
  Status s = txn_.Exec(st);
  TransactionMayHaveEnded();
  return s;
}

Status Connection::EndStatement(DbMask write_mask, int stmt_savepoint, bool ok, int action,
                                int error_code, int64_t changes, bool counts_changes,
                                int64_t total) {
  if (ok) {
    if (counts_changes) changes_ = changes;
    total_changes_ += total;
  } else if (action == static_cast<int>(OnConflict::kFail) && counts_changes) {
    // FAIL keeps the rows changed before the failure, and counts them.
    changes_ = changes;
    total_changes_ += total;
  } else if (counts_changes) {
    changes_ = 0;  // the statement's changes were rolled back (as SQLite's vdbeHalt)
  }
  Status st = txn_.EndStatement(write_mask, stmt_savepoint, ok, action, error_code);
  TransactionMayHaveEnded();
  return st;
}

void Connection::DisconnectVtabsIfIdle() {
  if (txn_.active() > 0) return;
  bool any = false;
  for (int i = 0; i < store_.size(); ++i) {
    Database* d = store_.at(i);
    if (d == nullptr) continue;
    for (const auto& entry : d->schema.tables()) {
      Table* t = entry.second.get();
      if (t->vtab == nullptr) continue;
      vtabs_.Forget(t->vtab.get());
      t->vtab.reset();
      any = true;
    }
  }
  if (any) schema().Touch();
}

}  // namespace basalt

// PRAGMA statements: the statement form (Connection::ExecPragma), the
// prepare-time facts (result columns, whether the file is needed, the
// schema name check) and the common start of every pragma (RunPragmaCall).
// The pragmas themselves are the entries of pragma_table.cc.
#include "main/pragma.h"

#include "main/connection.h"
#include "main/pragma_families.h"

namespace basalt {

void PragmaCall::Row(Value v) const {
  std::vector<Value> row;
  row.push_back(std::move(v));
  rows->push_back(std::move(row));
}

std::string PragmaArgText(const ast::PragmaStmt* st) {
  const ast::Expr* e = st->value;
  if (e == nullptr) return std::string();
  switch (e->kind) {
    case ast::ExprKind::kString:
    case ast::ExprKind::kColumn:
      return std::string(e->text);
    case ast::ExprKind::kInteger:
      return e->text.empty() ? std::to_string(e->ival) : std::string(e->text);
    case ast::ExprKind::kReal:
      return e->text.empty() ? std::string(e->span) : std::string(e->text);
    default:
      return std::string(e->span);
  }
}

std::string PragmaSchemaToken(const ast::PragmaStmt* st, std::string_view text, int* offset) {
  *offset = -1;
  const std::string_view name = st->schema;
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (name.data() < begin || name.data() + name.size() > end) {
    // An unquoted copy (the name had escaped quotes): quoted, as written.
    std::string quoted(1, '"');
    for (char c : name) {
      if (c == '"') quoted += '"';
      quoted += c;
    }
    quoted += '"';
    return quoted;
  }
  size_t at = static_cast<size_t>(name.data() - begin);
  size_t len = name.size();
  if (at > 0) {
    const char q = text[at - 1];
    const char close = q == '[' ? ']' : q;
    if ((q == '"' || q == '\'' || q == '`' || q == '[') && at + len < text.size() &&
        text[at + len] == close) {
      --at;
      len += 2;
    }
  }
  *offset = static_cast<int>(at);
  return std::string(text.substr(at, len));
}

std::vector<std::string> PragmaColumnNames(const ast::PragmaStmt* st) {
  const PragmaDef* def = FindPragma(st->name);
  if (def == nullptr) return {};
  if (st->value != nullptr && def->has(kPragmaSetNoRows)) return {};
  return PragmaColumns(*def);
}

bool PragmaUsesDb(const ast::PragmaStmt* st) {
  const PragmaDef* def = FindPragma(st->name);
  if (st->value == nullptr || def == nullptr) return false;
  return !def->has(kPragmaConnectionOnly) && !def->has(kPragmaNoDatabase);
}

Status RunPragmaCall(PragmaCall* call) {
  const PragmaDef& def = *call->def;
  *call->names = PragmaColumns(def);
  if (call->set && def.has(kPragmaSetNoRows)) call->names->clear();
  SchemaStore& store = call->conn->dbs();
  if (call->db == Catalog::kTemp && !def.has(kPragmaNoDatabase)) TRY(store.OpenTemp());
  if (def.has(kPragmaNeedsSchema)) TRY(store.EnsureSchema(call->target_db()));
  return def.run(call);
}

PragmaReadScope::PragmaReadScope(Connection* conn, int db) : db_(conn->dbs().at(db)) {
  if (db_->bt != nullptr && db_->bt->in_transaction()) return;
  Status st = conn->txn().EnsureTransaction(db, false);
  db_ = conn->dbs().at(db);  // TEMP may have been opened
  began_ = db_->bt != nullptr && db_->bt->in_transaction();
  if (!st.ok() && st.code() != kSchema) status_ = st;
}

PragmaReadScope::~PragmaReadScope() {
  if (began_ && db_->bt->in_transaction() && !db_->bt->in_write_transaction()) {
    (void)db_->bt->Commit();
  }
}

Status PragmaWrite(Connection* conn, int db, const std::function<Status(Database*)>& fn) {
  TransactionController& txn = conn->txn();
  Status es = txn.EnsureTransaction(db, true);
  if (!es.ok() && es.code() != kSchema) return es;
  Status st = fn(conn->dbs().at(db));
  if (!st.ok()) {
    if (txn.autocommit() && txn.active() == 0) (void)txn.RollbackAll();
    return st;
  }
  if (txn.active() == 0) return txn.CommitIfAutocommit();
  return Status();
}

Status Connection::ValidatePragma(const ast::PragmaStmt* st, std::string_view text) {
  PragmaCall call;
  call.conn = this;
  if (!st->schema.empty()) {
    call.db = store_.Find(st->schema);
    if (call.db < 0) {
      int offset = -1;
      std::string token = PragmaSchemaToken(st, text, &offset);
      last_error_offset_ = offset;
      return Status(kError, "unknown database " + token);
    }
  }
  call.def = FindPragma(st->name);
  if (call.def == nullptr || call.def->check == nullptr) return Status();
  call.set = st->value != nullptr;
  call.arg = PragmaArgText(st);
  call.value = st->value;
  return call.def->check(&call);
}

Status Connection::ExecPragma(ast::PragmaStmt* st, std::vector<std::string>* names,
                              std::vector<std::vector<Value>>* rows) {
  PragmaCall call;
  call.conn = this;
  if (!st->schema.empty()) {
    call.db = store_.Find(st->schema);
    // The database was detached since the statement was prepared.
    if (call.db < 0) return Status(kError, "unknown database " + std::string(st->schema));
  }
  call.def = FindPragma(st->name);
  names->clear();
  if (call.def == nullptr) return Status();  // unknown pragmas are ignored
  call.set = st->value != nullptr;
  call.arg = PragmaArgText(st);
  call.value = st->value;
  call.names = names;
  call.rows = rows;
  return RunPragmaCall(&call);
}

}  // namespace basalt

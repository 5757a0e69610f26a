// PRAGMA statements.
#include <algorithm>

#include "exec/codegen.h"
#include "func/builtins.h"
#include "main/connection.h"
#include "parser/parser.h"

namespace basalt {

namespace {

// The value of `PRAGMA x = value` as a string ("" when absent).
std::string PragmaArg(const ast::PragmaStmt* st) {
  if (st->value == nullptr) return std::string();
  const ast::Expr* e = st->value;
  switch (e->kind) {
    case ast::ExprKind::kInteger:
      return std::to_string(e->ival);
    case ast::ExprKind::kString:
    case ast::ExprKind::kColumn:
      return std::string(e->text);
    case ast::ExprKind::kBool:
      return e->ival ? "1" : "0";
    default:
      return std::string(e->span);
  }
}

// Boolean pragma argument: -1 if not a boolean.
int PragmaBool(const std::string& v) {
  if (EqualsIgnoreCase(v, "on") || EqualsIgnoreCase(v, "yes") || EqualsIgnoreCase(v, "true") ||
      v == "1") {
    return 1;
  }
  if (EqualsIgnoreCase(v, "off") || EqualsIgnoreCase(v, "no") || EqualsIgnoreCase(v, "false") ||
      v == "0") {
    return 0;
  }
  return -1;
}

void OneRow(std::vector<std::string>* names, std::vector<std::vector<Value>>* rows,
            const char* name, Value v) {
  names->push_back(name);
  std::vector<Value> row;
  row.push_back(std::move(v));
  rows->push_back(std::move(row));
}

}  // namespace

Status Connection::PragmaRows(std::string_view name, std::string_view arg,
                              std::vector<std::string>* names,
                              std::vector<std::vector<Value>>* rows) {
  ast::PragmaStmt st;
  st.name = name;
  ast::Expr value;
  if (!arg.empty()) {
    value.kind = ast::ExprKind::kString;
    value.text = arg;
    st.value = &value;
  }
  std::string lname = LowerAscii(name);
  // Only pragmas that read; the setting forms are not functions.
  static const char* const kReadable[] = {
      "table_info",      "table_xinfo",  "index_list",   "index_info",
      "integrity_check", "quick_check",  "page_count",   "freelist_count",
      "encoding",        "journal_mode", "user_version", "schema_version",
      "application_id",  "page_size",    "foreign_keys", "recursive_triggers"};
  bool ok = false;
  for (const char* r : kReadable) ok |= lname == r;
  if (!ok) return Status();
  bool takes_arg = lname == "table_info" || lname == "table_xinfo" || lname == "index_list" ||
                   lname == "index_info";
  if (!takes_arg) st.value = nullptr;
  *names = PragmaColumnNames(&st);
  std::vector<std::string> ignored;
  return ExecPragma(&st, &ignored, rows);
}

std::vector<std::string> PragmaColumnNames(const ast::PragmaStmt* st) {
  std::string name = LowerAscii(st->name);
  bool set = st->value != nullptr;
  if (name == "table_info" || name == "table_xinfo") {
    return {"cid", "name", "type", "notnull", "dflt_value", "pk"};
  }
  if (name == "index_list") return {"seq", "name", "unique", "origin", "partial"};
  if (name == "index_info") return {"seqno", "cid", "name"};
  if (name == "integrity_check" || name == "quick_check") return {name};
  if (name == "page_count" || name == "freelist_count" || name == "encoding" ||
      name == "journal_mode" || name == "locking_mode" || name == "wal_autocheckpoint" ||
      name == "journal_size_limit") {
    return {name};
  }
  if (name == "busy_timeout") return {"timeout"};
  if (name == "wal_checkpoint") return {"busy", "log", "checkpointed"};
  if (name == "database_list") return {"seq", "name", "file"};
  static const char* const kValued[] = {"user_version",
                                        "schema_version",
                                        "application_id",
                                        "page_size",
                                        "recursive_triggers",
                                        "foreign_keys",
                                        "reverse_unordered_selects",
                                        "short_column_names",
                                        "full_column_names",
                                        "synchronous",
                                        "cache_size",
                                        "mmap_size",
                                        "temp_store",
                                        "auto_vacuum"};
  for (const char* v : kValued) {
    if (name == v) return set ? std::vector<std::string>{} : std::vector<std::string>{name};
  }
  return {};
}

bool PragmaUsesDb(const ast::PragmaStmt* st) {
  if (st->value == nullptr) return false;
  std::string name = LowerAscii(st->name);
  static const char* const kConnectionOnly[] = {
      "busy_timeout",       "synchronous",        "cache_size",
      "foreign_keys",       "recursive_triggers", "reverse_unordered_selects",
      "short_column_names", "full_column_names",  "case_sensitive_like",
      "wal_autocheckpoint", "locking_mode",       "mmap_size",
      "temp_store",         "journal_size_limit"};
  for (const char* c : kConnectionOnly) {
    if (name == c) return false;
  }
  return true;
}

Status Connection::ExecPragma(ast::PragmaStmt* st, std::vector<std::string>* names,
                              std::vector<std::vector<Value>>* rows) {
  std::string name = LowerAscii(st->name);
  const int dbi = st->schema.empty() ? Catalog::kMain : store_.Find(st->schema);
  if (dbi < 0) return Status(kError, "unknown database " + std::string(st->schema));
  Database* db = store_.at(dbi);
  if (dbi == Catalog::kTemp) TRY(store_.OpenTemp());
  std::string arg = PragmaArg(st);
  bool set = st->value != nullptr;
  auto flag = [&](bool* field, const char* col) -> Status {
    if (set) {
      int b = PragmaBool(arg);
      if (b >= 0) *field = b != 0;
      return Status();
    }
    OneRow(names, rows, col, Value::Int(*field ? 1 : 0));
    return Status();
  };
  {
    bool handled = false;
    TRY(ExecStoragePragma(name, st, dbi, &handled, names, rows));
    if (handled) return Status();
  }
  if (name == "case_sensitive_like") {
    if (set) {
      int b = PragmaBool(arg);
      if (b >= 0) {
        options_.case_sensitive_like = b != 0;
        funcs_.Remove("like", 2);
        funcs_.Remove("like", 3);
        RegisterLikeFunctions(&funcs_, b != 0);
        store_.Invalidate();
      }
    }
    return Status();
  }
  if (name == "recursive_triggers") return flag(&options_.recursive_triggers, "recursive_triggers");
  if (name == "foreign_keys") return flag(&options_.foreign_keys, "foreign_keys");
  if (name == "reverse_unordered_selects") {
    return flag(&options_.reverse_unordered_selects, "reverse_unordered_selects");
  }
  if (name == "short_column_names") return flag(&options_.short_column_names, "short_column_names");
  if (name == "full_column_names") return flag(&options_.full_column_names, "full_column_names");
  if (name == "user_version" || name == "schema_version" || name == "application_id") {
    Meta m = name == "user_version"     ? Meta::kUserVersion
             : name == "schema_version" ? Meta::kSchemaCookie
                                        : Meta::kApplicationId;
    if (set) {
      Status es = txn_.EnsureTransaction(dbi, true);
      if (!es.ok() && es.code() != kSchema) return es;
      TRY(db->bt->SetMeta(m, static_cast<uint32_t>(std::stoll(arg))));
      return txn_.CommitIfAutocommit();
    }
    uint32_t v = 0;
    if (db->bt->page_count() > 0) TRY(db->bt->GetMeta(m, &v));
    OneRow(names, rows, name.c_str(), Value::Int(static_cast<int32_t>(v)));
    return Status();
  }
  if (name == "page_size") {
    if (set) {
      // A database with pages takes the new size at the next VACUUM.
      db->vacuum_page_size = static_cast<uint32_t>(std::stoll(arg));
      (void)db->bt->SetPageSize(db->vacuum_page_size);
      return Status();
    }
    OneRow(names, rows, "page_size", Value::Int(db->bt->page_size()));
    return Status();
  }
  if (name == "page_count") {
    OneRow(names, rows, "page_count", Value::Int(db->bt->page_count()));
    return Status();
  }
  if (name == "freelist_count") {
    uint32_t n = 0;
    if (db->bt->page_count() > 0) TRY(db->bt->FreelistCount(&n));
    OneRow(names, rows, "freelist_count", Value::Int(n));
    return Status();
  }
  if (name == "encoding") return ExecEncodingPragma(st, names, rows);

  if (name == "table_info" || name == "table_xinfo") {
    Table* t = store_.catalog().FindTable(st->schema, arg);
    *names = {"cid", "name", "type", "notnull", "dflt_value", "pk"};
    if (t == nullptr) return Status();
    if (t->is_view) {
      // A view's columns are those of its query.
      Arena arena;
      CompileContext ctx;
      InitCompileContext(&ctx, &arena, "");
      std::string q = "SELECT * FROM \"" + store_.at(t->db())->name + "\".\"" + t->name + "\"";
      ast::Select* sel = ctx.ParseSelect(q);
      if (sel == nullptr) return ctx.error;
      ast::SelectStmt probe;
      probe.select = sel;
      Result<std::unique_ptr<Program>> p = CompileStatement(&probe, &ctx);
      if (!p.ok()) return p.status();
      for (size_t i = 0; i < (*p)->column_names.size(); ++i) {
        std::vector<Value> row(6);
        row[0].SetInt(static_cast<int64_t>(i));
        row[1].SetText((*p)->column_names[i]);
        row[2].SetText(i < (*p)->column_decltypes.size() ? (*p)->column_decltypes[i] : "");
        row[3].SetInt(0);
        row[5].SetInt(0);
        rows->push_back(std::move(row));
      }
      return Status();
    }
    int pk_pos = 0;
    for (size_t i = 0; i < t->columns.size(); ++i) {
      const Column& c = t->columns[i];
      std::vector<Value> row(6);
      row[0].SetInt(static_cast<int64_t>(i));
      row[1].SetText(c.name);
      row[2].SetText(c.decl_type);
      row[3].SetInt(c.not_null ? 1 : 0);
      if (!c.default_sql.empty()) row[4].SetText(c.default_sql);
      row[5].SetInt(c.primary_key ? ++pk_pos : 0);
      rows->push_back(std::move(row));
    }
    return Status();
  }
  if (name == "index_list") {
    Table* t = store_.catalog().FindTable(st->schema, arg);
    *names = {"seq", "name", "unique", "origin", "partial"};
    if (t == nullptr) return Status();
    int seq = 0;
    for (size_t i = t->indexes.size(); i-- > 0;) {
      const Index* idx = t->indexes[i];
      std::vector<Value> row(5);
      row[0].SetInt(seq++);
      row[1].SetText(idx->name);
      row[2].SetInt(idx->unique ? 1 : 0);
      row[3].SetText(idx->origin == 'p' ? "pk" : idx->origin == 'u' ? "u" : "c");
      row[4].SetInt(idx->where_sql.empty() ? 0 : 1);
      rows->push_back(std::move(row));
    }
    return Status();
  }
  if (name == "index_info") {
    Index* idx = store_.catalog().FindIndex(st->schema, arg);
    *names = {"seqno", "cid", "name"};
    if (idx == nullptr) return Status();
    for (size_t i = 0; i < idx->columns.size(); ++i) {
      std::vector<Value> row(3);
      row[0].SetInt(static_cast<int64_t>(i));
      int c = idx->columns[i];
      row[1].SetInt(c);
      if (c >= 0) row[2].SetText(idx->table->columns[static_cast<size_t>(c)].name);
      rows->push_back(std::move(row));
    }
    return Status();
  }
  if (name == "integrity_check" || name == "quick_check") {
    std::vector<std::string> msgs, row_msgs;
    // A file that cannot be read (not a database, truncated, a damaged
    // schema) gives its error, as SQLite reports it at prepare.
    TRY(store_.EnsureSchema(dbi));
    // The transaction reads the page count (0 before a file is first read)
    // and reloads a schema another connection changed (VACUUM moves every
    // root).
    const bool began = !db->bt->in_transaction();
    if (began) {
      Status es = txn_.EnsureTransaction(dbi, false);
      if (!es.ok() && es.code() != kSchema) return es;
    }
    Status s;
    if (db->bt->page_count() > 0) {
      std::vector<IntegrityRoot> roots;
      for (auto& [k, t] : db->schema.tables()) {
        if (!t->is_view && t->root > 1) roots.push_back({t->root, nullptr, nullptr});
      }
      for (auto& [k, idx] : db->schema.indexes()) roots.push_back({idx->root, nullptr, nullptr});
      s = db->bt->IntegrityCheck(roots, 100, &msgs);
      if (s.ok() && msgs.empty()) {
        // Row checks only on sound trees; each message is a row of its own.
        std::vector<const Table*> tables;
        for (auto& [k, t] : db->schema.tables()) {
          if (!t->is_view && t->root > 1) tables.push_back(t.get());
        }
        std::sort(tables.begin(), tables.end(),
                  [](const Table* a, const Table* b) { return a->root < b->root; });
        for (const Table* t : tables) {
          if (row_msgs.size() >= 100) break;
          CheckTableRows(db, *t, name == "integrity_check", 100, &row_msgs);
        }
      }
    }
    if (began) (void)db->bt->Commit();
    TRY(s);
    if (!msgs.empty() || row_msgs.empty()) {
      OneRow(names, rows, name.c_str(), Value::Text(FormatIntegrityReport(msgs)));
    } else {
      names->assign(1, name);
    }
    for (std::string& m : row_msgs) rows->push_back({Value::Text(std::move(m))});
    return Status();
  }
  // Unknown pragmas are silently ignored, like SQLite.
  return Status();
}

// PRAGMA encoding: the main database's text encoding; setting it takes
// effect only while the database has no pages yet (it is then written into
// page 1 when the database is created).
Status Connection::ExecEncodingPragma(ast::PragmaStmt* st, std::vector<std::string>* names,
                                      std::vector<std::vector<Value>>* rows) {
  if (st->value != nullptr) {
    std::string arg = PragmaArg(st);
    static const struct {
      const char* name;
      uint8_t enc;
    } kNames[] = {{"utf-8", kUtf8},      {"utf8", kUtf8},        {"utf-16le", kUtf16le},
                  {"utf16le", kUtf16le}, {"utf-16be", kUtf16be}, {"utf16be", kUtf16be},
                  {"utf-16", kUtf16le},  {"utf16", kUtf16le}};
    int found = -1;
    for (const auto& n : kNames) {
      if (EqualsIgnoreCase(arg, n.name)) found = n.enc;
    }
    if (found < 0) return Status(kError, "unsupported encoding: " + arg);
    if (is_file() && open_error().ok()) (void)EnsureSchema();
    if (main_db()->page_count() == 0) {
      store_.main()->SetTextEncoding(static_cast<uint8_t>(found));
      store_.SyncEncoding();
    }
    return Status();
  }
  if (is_file() && open_error().ok()) (void)EnsureSchema();
  const uint8_t enc = store_.main()->enc;
  const char* text = enc == kUtf16le ? "UTF-16le" : enc == kUtf16be ? "UTF-16be" : "UTF-8";
  OneRow(names, rows, "encoding", Value::Text(text));
  return Status();
}

}  // namespace basalt

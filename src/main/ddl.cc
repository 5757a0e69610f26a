// CREATE / DROP statements: they change sqlite_schema and the B-trees
// directly (not through the VM), inside the statement's savepoint.
#include "exec/codegen.h"
#include "main/connection.h"
#include "main/schema_build.h"
#include "parser/parser.h"
#include "planner/resolve.h"
#include "record/record.h"

namespace basalt {

namespace {

bool IsMain(std::string_view schema) {
  return schema.empty() || EqualsIgnoreCase(schema, "main") || EqualsIgnoreCase(schema, "temp") ||
         EqualsIgnoreCase(schema, "temporary");
}

bool Reserved(std::string_view name) {
  return name.size() >= 7 && EqualsIgnoreCase(name.substr(0, 7), "sqlite_");
}

// System tables users may not drop or alter.
bool SystemTable(const Table* t) {
  return t->root == 1 || EqualsIgnoreCase(t->name, "sqlite_sequence");
}

// Quotes an identifier for generated SQL when it is not a plain word.
std::string QuoteIdent(std::string_view s) {
  bool plain = !s.empty() && !(s[0] >= '0' && s[0] <= '9');
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) {
      plain = false;
    }
  }
  if (plain) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

}  // namespace

Status Connection::RunProgram(Program* prog) {
  Vm vm(prog, &env_);
  for (;;) {
    StepResult r = vm.Step();
    if (r == StepResult::kDone) return Status();
    if (r == StepResult::kError) return vm.status();
  }
}

Status Connection::BumpSchemaCookie() {
  uint32_t cookie = 0;
  TRY(main_->GetMeta(Meta::kSchemaCookie, &cookie));
  TRY(main_->SetMeta(Meta::kSchemaCookie, cookie + 1));
  uint32_t format = 0;
  TRY(main_->GetMeta(Meta::kSchemaFormat, &format));
  if (format == 0) TRY(main_->SetMeta(Meta::kSchemaFormat, 4));
  schema_.cookie = cookie + 1;
  schema_.Touch();
  return Status();
}

Status Connection::CreateTable(ast::CreateTableStmt* st, std::string_view sql, Arena* arena) {
  (void)sql;
  if (!IsMain(st->schema)) return Status(kError, "unknown database " + std::string(st->schema));
  if (Reserved(st->name)) {
    return Status(kError, "object name reserved for internal use: " + std::string(st->name));
  }
  if (Table* existing = schema_.FindTable(st->name)) {
    if (st->if_not_exists) return Status();
    SetDdlErrorOffset(st->body_text);
    return Status(kError, std::string(existing->is_view ? "view " : "table ") +
                              std::string(st->name) + " already exists");
  }
  if (schema_.FindIndex(st->name) != nullptr) {
    return Status(kError, "there is already an index named " + std::string(st->name));
  }
  BuiltTable built;
  if (st->as_select != nullptr && ddl_dry_run_) {
    Arena scratch;
    CompileContext ctx;
    ctx.arena = &scratch;
    ctx.schema = &schema_;
    ctx.funcs = &funcs_;
    ctx.options = options_;
    ast::Select* copy = ctx.ParseSelect(st->as_select->span);
    if (copy == nullptr) return ctx.error;
    ast::SelectStmt probe;
    probe.select = copy;
    Result<std::unique_ptr<Program>> p = CompileStatement(&probe, &ctx);
    return p.ok() ? Status() : p.status();
  }
  if (st->as_select != nullptr) {
    // CREATE TABLE ... AS SELECT: columns from the query's result.
    CompileContext ctx;
    ctx.arena = arena;
    ctx.schema = &schema_;
    ctx.funcs = &funcs_;
    ctx.options = options_;
    ast::SelectStmt probe;
    probe.select = st->as_select;
    Result<std::unique_ptr<Program>> p = CompileStatement(&probe, &ctx);
    if (!p.ok()) return p.status();
    auto t = std::make_unique<Table>();
    t->name = std::string(st->name);
    std::vector<std::string> col_text;
    // SQLite lays the statement out on one line when it is short, else one
    // column per line (its measure: name lengths + 2 each, +5 per column).
    size_t measure = st->name.size() + 2;
    for (char ch : st->name) measure += ch == '"';
    const Program& prog = **p;
    std::vector<std::string> names;
    for (size_t i = 0; i < prog.column_names.size(); ++i) {
      std::string name = prog.column_names[i];
      std::string base = name;
      for (int k = 1;; ++k) {
        bool clash = false;
        for (const std::string& o : names) clash |= EqualsIgnoreCase(o, name);
        if (!clash) break;
        name = base + ":" + std::to_string(k);
      }
      names.push_back(name);
      Column c;
      c.name = name;
      c.affinity = static_cast<Affinity>(
          prog.column_affinities.size() > i ? prog.column_affinities[i] : 'A');
      switch (c.affinity) {
        case Affinity::kInteger:
          c.decl_type = "INT";
          break;
        case Affinity::kReal:
          c.decl_type = "REAL";
          break;
        case Affinity::kText:
          c.decl_type = "TEXT";
          break;
        case Affinity::kNumeric:
          c.decl_type = "NUM";
          break;
        default:
          break;
      }
      std::string ct = QuoteIdent(name);
      if (!c.decl_type.empty()) ct += " " + c.decl_type;
      col_text.push_back(ct);
      measure += name.size() + 2 + 5;
      for (char ch : name) measure += ch == '"';
      t->columns.push_back(c);
    }
    bool compact = measure < 50;
    std::string text = "CREATE TABLE " + QuoteIdent(st->name) + (compact ? "(" : "(\n  ");
    for (size_t i = 0; i < col_text.size(); ++i) {
      if (i) text += compact ? "," : ",\n  ";
      text += col_text[i];
    }
    text += compact ? ")" : "\n)";
    t->sql = text;
    built.table = std::move(t);
  } else {
    TRY(BuildTable(st, "CREATE TABLE " + std::string(st->body_text), &built));
    TRY(CheckTableExprs(st, built.table.get(), arena));
  }
  if (ddl_dry_run_) return Status();
  bool need_sequence =
      built.table->autoincrement && schema_.FindTable("sqlite_sequence") == nullptr;
  Table* t = built.table.get();
  ASSIGN_OR_RETURN(Pgno root, main_->CreateTree(TreeKind::kTable));
  t->root = root;
  TRY(InsertSchemaRow("table", t->name, t->name, root, t->sql));
  for (auto& idx : built.auto_indexes) {
    ASSIGN_OR_RETURN(Pgno iroot, main_->CreateTree(TreeKind::kIndex));
    idx->root = iroot;
    TRY(InsertSchemaRow("index", idx->name, t->name, iroot, std::string_view()));
  }
  if (need_sequence) TRY(CreateSequenceTable());
  TRY(BumpSchemaCookie());
  schema_.AddTable(std::move(built.table));
  for (auto& idx : built.auto_indexes) schema_.AddIndex(std::move(idx));
  if (st->as_select != nullptr) {
    // Fill it: INSERT INTO t SELECT ...
    Arena a2;
    std::string ins = "INSERT INTO " + QuoteIdent(t->name) + " " + std::string(st->as_select->span);
    std::string_view text = a2.CopyString(ins);
    Parser parser(&a2, text);
    Result<ast::Stmt*> r = parser.ParseStatement();
    if (!r.ok()) return r.status();
    CompileContext ctx;
    ctx.arena = &a2;
    ctx.schema = &schema_;
    ctx.funcs = &funcs_;
    ctx.options = options_;
    Result<std::unique_ptr<Program>> p = CompileStatement(*r, &ctx);
    if (!p.ok()) return p.status();
    TRY(RunProgram(p->get()));
  }
  return Status();
}

// CHECK constraints must name existing columns and have no subqueries;
// DEFAULT values must be constant.
Status Connection::CheckTableExprs(ast::CreateTableStmt* st, const Table* t, Arena* arena) {
  auto has = [](ast::Expr* e, auto pred) {
    bool found = false;
    std::vector<ast::Expr*> stack{e};
    while (!stack.empty() && !found) {
      ast::Expr* x = stack.back();
      stack.pop_back();
      if (x == nullptr) continue;
      if (pred(x)) found = true;
      stack.push_back(x->left);
      stack.push_back(x->right);
      if (x->list) {
        for (size_t i = 0; i < x->list->size(); ++i) stack.push_back((*x->list)[i]);
      }
    }
    return found;
  };
  auto is_subquery = [](ast::Expr* x) {
    return x->select != nullptr || x->kind == ast::ExprKind::kSubquery ||
           x->kind == ast::ExprKind::kExists;
  };
  std::vector<ast::Expr*> checks;
  for (ast::ColumnDef* cd : st->columns) {
    for (ast::ColumnConstraint* cc : cd->constraints) {
      if (cc->kind == ast::ConstraintKind::kCheck) checks.push_back(cc->expr);
      if (cc->kind == ast::ConstraintKind::kDefault && cc->expr != nullptr) {
        bool not_const = has(cc->expr, [&](ast::Expr* x) {
          return is_subquery(x) || (x->kind == ast::ExprKind::kColumn &&
                                    !(x->table.empty() && (EqualsIgnoreCase(x->text, "true") ||
                                                           EqualsIgnoreCase(x->text, "false"))));
        });
        if (not_const) {
          return Status(kError,
                        "default value of column [" + std::string(cd->name) + "] is not constant");
        }
      }
    }
  }
  for (ast::TableConstraint* tc : st->constraints) {
    if (tc->kind == ast::ConstraintKind::kCheck) checks.push_back(tc->check);
  }
  if (checks.empty()) return Status();
  CompileContext ctx;
  ctx.arena = arena;
  ctx.schema = &schema_;
  ctx.funcs = &funcs_;
  ctx.options = options_;
  ctx.sql = ddl_text_;
  Resolver resolver(&ctx);
  std::vector<Source> srcs;
  srcs.push_back(resolver.MakeTableSource(t, "", 0));
  Scope scope;
  scope.sources = &srcs;
  for (ast::Expr* e : checks) {
    if (has(e, is_subquery)) return Status(kError, "subqueries prohibited in CHECK constraints");
    if (!resolver.ResolveExpr(e, &scope)) {
      if (ddl_dry_run_) last_error_offset_ = ctx.error_offset;
      return ctx.error;
    }
  }
  return Status();
}

// sqlite_sequence(name, seq): created with the first AUTOINCREMENT table.
Status Connection::CreateSequenceTable() {
  const char* sql = "CREATE TABLE sqlite_sequence(name,seq)";
  Arena a;
  std::string_view text = a.CopyString(sql);
  Parser parser(&a, text);
  Result<ast::Stmt*> r = parser.ParseStatement();
  if (!r.ok()) return r.status();
  BuiltTable built;
  TRY(BuildTable((*r)->As<ast::CreateTableStmt>(), sql, &built));
  ASSIGN_OR_RETURN(Pgno root, main_->CreateTree(TreeKind::kTable));
  built.table->root = root;
  TRY(InsertSchemaRow("table", "sqlite_sequence", "sqlite_sequence", root, sql));
  schema_.AddTable(std::move(built.table));
  return Status();
}

Status Connection::BuildIndex(Index* idx, Arena* arena) {
  CompileContext ctx;
  ctx.arena = arena;
  ctx.schema = &schema_;
  ctx.funcs = &funcs_;
  ctx.options = options_;
  Result<std::unique_ptr<Program>> p = CompileIndexBuild(idx, &ctx);
  if (!p.ok()) return p.status();
  return RunProgram(p->get());
}

Status Connection::CreateIndex(ast::CreateIndexStmt* st, std::string_view sql, Arena* arena) {
  (void)sql;
  if (!IsMain(st->schema)) return Status(kError, "unknown database " + std::string(st->schema));
  if (Reserved(st->name)) {
    return Status(kError, "object name reserved for internal use: " + std::string(st->name));
  }
  Table* tab = schema_.FindTable(st->table);
  if (tab == nullptr) return Status(kError, "no such table: main." + std::string(st->table));
  if (tab->is_view) return Status(kError, "views may not be indexed");
  if (Reserved(tab->name)) {
    return Status(kError, "table " + tab->name + " may not be indexed");
  }
  if (schema_.FindIndex(st->name) != nullptr) {
    if (st->if_not_exists) return Status();
    return Status(kError, "index " + std::string(st->name) + " already exists");
  }
  if (schema_.FindTable(st->name) != nullptr) {
    return Status(kError, "there is already a table named " + std::string(st->name));
  }
  std::unique_ptr<Index> idx;
  std::string text = std::string(st->unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ") +
                     std::string(st->body_text);
  std::string_view bad;
  Status bs = ::basalt::BuildIndex(st, tab, text, &idx, &bad);
  if (!bs.ok()) {
    SetDdlErrorOffset(bad);
    return bs;
  }
  if (ddl_dry_run_) return Status();
  ASSIGN_OR_RETURN(Pgno root, main_->CreateTree(TreeKind::kIndex));
  idx->root = root;
  TRY(BuildIndex(idx.get(), arena));
  TRY(InsertSchemaRow("index", idx->name, tab->name, root, text));
  TRY(BumpSchemaCookie());
  schema_.AddIndex(std::move(idx));
  return Status();
}

Status Connection::CreateView(ast::CreateViewStmt* st, std::string_view sql) {
  (void)sql;
  if (!IsMain(st->schema)) return Status(kError, "unknown database " + std::string(st->schema));
  if (Reserved(st->name)) {
    return Status(kError, "object name reserved for internal use: " + std::string(st->name));
  }
  if (Table* existing = schema_.FindTable(st->name)) {
    if (st->if_not_exists) return Status();
    SetDdlErrorOffset(st->body_text);
    return Status(kError, std::string(existing->is_view ? "view " : "table ") +
                              std::string(st->name) + " already exists");
  }
  if (schema_.FindIndex(st->name) != nullptr) {
    return Status(kError, "there is already an index named " + std::string(st->name));
  }
  if (ddl_dry_run_) return Status();
  std::unique_ptr<Table> v = BuildView(st, "CREATE VIEW " + std::string(st->body_text));
  TRY(InsertSchemaRow("view", v->name, v->name, 0, v->sql));
  TRY(BumpSchemaCookie());
  schema_.AddTable(std::move(v));
  return Status();
}

Status Connection::CreateTrigger(ast::CreateTriggerStmt* st, std::string_view sql) {
  (void)sql;
  if (!IsMain(st->schema)) return Status(kError, "unknown database " + std::string(st->schema));
  if (Reserved(st->name)) {
    return Status(kError, "object name reserved for internal use: " + std::string(st->name));
  }
  if (schema_.FindTrigger(st->name) != nullptr) {
    if (st->if_not_exists) return Status();
    return Status(kError, "trigger " + std::string(st->name) + " already exists");
  }
  Table* tab = schema_.FindTable(st->table);
  if (tab == nullptr) return Status(kError, "no such table: main." + std::string(st->table));
  if (Reserved(tab->name)) {
    return Status(kError, "cannot create trigger on system table");
  }
  if (tab->is_view && st->time != ast::TriggerTime::kInsteadOf) {
    return Status(kError, std::string("cannot create ") +
                              (st->time == ast::TriggerTime::kBefore ? "BEFORE" : "AFTER") +
                              " trigger on view: main." + tab->name);
  }
  if (!tab->is_view && st->time == ast::TriggerTime::kInsteadOf) {
    return Status(kError, "cannot create INSTEAD OF trigger on table: " + tab->name);
  }
  if (ddl_dry_run_) return Status();
  std::unique_ptr<Trigger> trig = BuildTrigger(st, "CREATE TRIGGER " + std::string(st->body_text));
  TRY(InsertSchemaRow("trigger", trig->name, tab->name, 0, trig->sql));
  TRY(BumpSchemaCookie());
  schema_.AddTrigger(std::move(trig));
  return Status();
}

Status Connection::Drop(ast::DropStmt* st) {
  std::string name(st->name);
  switch (st->object) {
    case ast::ObjectKind::kTable:
    case ast::ObjectKind::kView: {
      bool want_view = st->object == ast::ObjectKind::kView;
      Table* t = schema_.FindTable(name);
      if (t == nullptr) {
        if (st->if_exists) return Status();
        return Status(kError, std::string(want_view ? "no such view: " : "no such table: ") + name);
      }
      if (SystemTable(t)) return Status(kError, "table " + t->name + " may not be dropped");
      if (t->is_view && !want_view) {
        return Status(kError, "use DROP VIEW to delete view " + t->name);
      }
      if (!t->is_view && want_view) {
        return Status(kError, "use DROP TABLE to delete table " + t->name);
      }
      if (ddl_dry_run_) return Status();
      if (!t->is_view) {
        std::vector<uint32_t> roots{t->root};
        for (Index* idx : t->indexes) roots.push_back(idx->root);
        TRY(DropTrees(std::move(roots)));
      }
      for (Index* idx : t->indexes) TRY(DeleteSchemaRows(idx->name));
      for (Trigger* trig : t->triggers) TRY(DeleteSchemaRows(trig->name));
      TRY(DeleteSchemaRows(t->name));
      if (t->autoincrement) {
        if (Table* seq = schema_.FindTable("sqlite_sequence"))
          TRY(DeleteRowsNamed(seq->root, t->name));
      }
      TRY(BumpSchemaCookie());
      schema_.RemoveTable(t->name);
      return Status();
    }
    case ast::ObjectKind::kIndex: {
      Index* idx = schema_.FindIndex(name);
      if (idx == nullptr) {
        if (st->if_exists) return Status();
        return Status(kError, "no such index: " + name);
      }
      if (idx->origin != 'c') {
        return Status(kError,
                      "index associated with UNIQUE or PRIMARY KEY constraint cannot be dropped");
      }
      if (ddl_dry_run_) return Status();
      TRY(DropTrees({idx->root}));
      TRY(DeleteSchemaRows(idx->name));
      TRY(BumpSchemaCookie());
      schema_.RemoveIndex(idx->name);
      return Status();
    }
    case ast::ObjectKind::kTrigger: {
      Trigger* trig = schema_.FindTrigger(name);
      if (trig == nullptr) {
        if (st->if_exists) return Status();
        return Status(kError, "no such trigger: " + name);
      }
      if (ddl_dry_run_) return Status();
      TRY(DeleteSchemaRows(trig->name));
      TRY(BumpSchemaCookie());
      schema_.RemoveTrigger(trig->name);
      return Status();
    }
  }
  return Status();
}

void Connection::SetDdlErrorOffset(std::string_view where) {
  if (!ddl_dry_run_ || where.data() == nullptr) return;
  if (where.data() >= ddl_text_.data() && where.data() < ddl_text_.data() + ddl_text_.size()) {
    last_error_offset_ = static_cast<int>(where.data() - ddl_text_.data());
  }
}

Status Connection::ValidateDdl(ast::Stmt* st, std::string_view text, Arena* arena) {
  ddl_dry_run_ = true;
  ddl_text_ = text;
  last_error_offset_ = -1;
  Status s = ExecDdl(st, text, arena);
  ddl_dry_run_ = false;
  return s;
}

Status Connection::ExecDdl(ast::Stmt* st, std::string_view sql, Arena* arena) {
  switch (st->kind) {
    case ast::StmtKind::kCreateTable:
      return CreateTable(st->As<ast::CreateTableStmt>(), sql, arena);
    case ast::StmtKind::kCreateIndex:
      return CreateIndex(st->As<ast::CreateIndexStmt>(), sql, arena);
    case ast::StmtKind::kCreateView:
      return CreateView(st->As<ast::CreateViewStmt>(), sql);
    case ast::StmtKind::kCreateTrigger:
      return CreateTrigger(st->As<ast::CreateTriggerStmt>(), sql);
    case ast::StmtKind::kDrop:
      return Drop(st->As<ast::DropStmt>());
    case ast::StmtKind::kReindex: {
      auto* r = st->As<ast::ReindexStmt>();
      if (!r->name.empty() && schema_.FindTable(r->name) == nullptr &&
          schema_.FindIndex(r->name) == nullptr && FindBuiltinCollation(r->name) == nullptr) {
        return Status(kError, "unable to identify the object to be reindexed");
      }
      return Status();
    }
    case ast::StmtKind::kAnalyze:
      return Status();
    case ast::StmtKind::kVacuum:  // checked here; run by ExecVacuum
      return ValidateVacuum(st->As<ast::VacuumStmt>());
    case ast::StmtKind::kCreateVirtualTable:
      return Status(
          kError, "no such module: " + std::string(st->As<ast::CreateVirtualTableStmt>()->module));
    case ast::StmtKind::kAlterTable:
      return AlterTable(st->As<ast::AlterTableStmt>(), arena);
    case ast::StmtKind::kAttach:
    case ast::StmtKind::kDetach:
      return Status(kError, "ATTACH and DETACH are not supported yet");
    default:
      return Status(kInternal, "not a DDL statement");
  }
}

Status Connection::AlterTable(ast::AlterTableStmt* st, Arena* arena) {
  (void)st;
  (void)arena;
  return Status(kError, "ALTER TABLE is not supported yet");
}

// ---- loading ------------------------------------------------------------------

namespace {

// The newest schema format (header offset 44) this code reads.
constexpr uint32_t kMaxSchemaFormat = 4;

// SQLite's error for a sqlite_schema row that cannot be used.
Status MalformedSchema(std::string_view name, std::string_view why = {}) {
  std::string msg = "malformed database schema (" + std::string(name) + ")";
  if (!why.empty()) msg += " - " + std::string(why);
  return Status(kCorrupt, msg);
}

}  // namespace

Status Connection::LoadSchema() {
  schema_.Clear();
  if (main_->page_count() == 0) return Status();
  struct Row {
    std::string type, name, tbl;
    int64_t root = 0;
    std::string sql;
    bool has_sql = false;
  };
  std::vector<Row> rows;
  {
    bool began = false;
    if (!main_->in_transaction()) {
      TRY(main_->BeginTransaction(false));
      began = true;
    }
    uint32_t enc = 0;
    (void)main_->GetMeta(Meta::kTextEncoding, &enc);
    // As SQLite reads the field: its low two bits, 0 meaning UTF-8.
    if ((enc & 3) == 0) enc = kUtf8;
    SetTextEncoding(static_cast<uint8_t>(enc & 3));
    BtCursor cur;
    Status st = main_->OpenCursor(1, false, &cur);
    if (st.ok()) st = cur.First();
    std::string buf;
    while (st.ok() && !cur.eof()) {
      Value v[5];
      int nf = 0;
      st = ReadSchemaFields(&cur, &buf, v, 5, &nf);
      if (!st.ok()) break;
      if (nf < 5) {
        st = CORRUPT();
        break;
      }
      Row row;
      row.type = std::string(v[0].is_text() ? v[0].text() : "");
      row.name = std::string(v[1].is_text() ? v[1].text() : "");
      row.tbl = std::string(v[2].is_text() ? v[2].text() : "");
      row.root = v[3].is_int() ? v[3].int_value() : -1;  // -1: invalid
      row.has_sql = v[4].is_text();
      if (row.has_sql) row.sql = std::string(v[4].text());
      rows.push_back(std::move(row));
      st = cur.Next();
    }
    cur.Close();
    if (began) (void)main_->Commit();
    TRY(st);
    uint32_t cookie = 0;
    (void)main_->GetMeta(Meta::kSchemaCookie, &cookie);
    schema_.cookie = cookie;
    uint32_t format = 0;
    (void)main_->GetMeta(Meta::kSchemaFormat, &format);
    // Only the low byte counts, as in SQLite.
    if ((format & 0xff) > kMaxSchemaFormat) return Status(kError, "unsupported file format");
  }
  // Each row is checked as SQLite does; a row that does not hold up makes
  // the whole schema unusable ("malformed database schema (name)").
  const int64_t page_count = main_->page_count();
  for (const Row& row : rows) {
    if (row.has_sql && (row.root < 0 || row.root > page_count)) {
      return MalformedSchema(row.name, "invalid rootpage");
    }
  }
  Arena arena;
  auto parse = [&arena](const Row& row, ast::StmtKind kind, ast::Stmt** out) -> Status {
    Parser p(&arena, arena.CopyString(row.sql));
    Result<ast::Stmt*> r = p.ParseStatement();
    if (!r.ok()) return MalformedSchema(row.name, r.status().message());
    if (*r == nullptr || (*r)->kind != kind) return MalformedSchema(row.name);
    *out = *r;
    return Status();
  };
  // Tables, indexes and views share one namespace; a name used twice (or
  // not the one the row gives) is damage.
  auto taken = [this](std::string_view name) {
    return schema_.FindTable(name) != nullptr || schema_.FindIndex(name) != nullptr;
  };
  std::vector<std::unique_ptr<Index>> pending_auto;
  for (const Row& row : rows) {
    if (row.type != "table" || !row.has_sql) continue;
    ast::Stmt* s = nullptr;
    TRY(parse(row, ast::StmtKind::kCreateTable, &s));
    BuiltTable built;
    Status st = BuildTable(s->As<ast::CreateTableStmt>(), row.sql, &built);
    if (!st.ok()) return MalformedSchema(row.name, st.message());
    if (!EqualsIgnoreCase(built.table->name, row.name) || taken(row.name) || row.root < 2) {
      return MalformedSchema(row.name);
    }
    built.table->root = static_cast<uint32_t>(row.root);
    schema_.AddTable(std::move(built.table));
    for (auto& idx : built.auto_indexes) pending_auto.push_back(std::move(idx));
  }
  for (auto& idx : pending_auto) {
    for (const Row& row : rows) {
      if (row.type == "index" && EqualsIgnoreCase(row.name, idx->name)) {
        idx->root = static_cast<uint32_t>(row.root);
      }
    }
    if (taken(idx->name)) return MalformedSchema(idx->name);
    schema_.AddIndex(std::move(idx));
  }
  for (const Row& row : rows) {
    if (!row.has_sql || row.type == "table" || row.type == "trigger") continue;
    ast::Stmt* s = nullptr;
    if (row.type == "index") {
      TRY(parse(row, ast::StmtKind::kCreateIndex, &s));
      auto* ci = s->As<ast::CreateIndexStmt>();
      Table* t = schema_.FindTable(ci->table);
      if (t == nullptr)
        return MalformedSchema(row.name, "no such table: main." + std::string(ci->table));
      std::unique_ptr<Index> idx;
      Status st = ::basalt::BuildIndex(ci, t, row.sql, &idx);
      if (!st.ok()) return MalformedSchema(row.name, st.message());
      if (!EqualsIgnoreCase(idx->name, row.name) || taken(row.name))
        return MalformedSchema(row.name);
      idx->root = static_cast<uint32_t>(row.root);
      schema_.AddIndex(std::move(idx));
    } else if (row.type == "view") {
      TRY(parse(row, ast::StmtKind::kCreateView, &s));
      std::unique_ptr<Table> view = BuildView(s->As<ast::CreateViewStmt>(), row.sql);
      if (!EqualsIgnoreCase(view->name, row.name) || taken(row.name))
        return MalformedSchema(row.name);
      schema_.AddTable(std::move(view));
    } else {
      return MalformedSchema(row.name);
    }
  }
  for (const Row& row : rows) {
    if (row.type != "trigger" || !row.has_sql) continue;
    ast::Stmt* s = nullptr;
    TRY(parse(row, ast::StmtKind::kCreateTrigger, &s));
    std::unique_ptr<Trigger> trig = BuildTrigger(s->As<ast::CreateTriggerStmt>(), row.sql);
    if (!EqualsIgnoreCase(trig->name, row.name) || schema_.FindTrigger(row.name) != nullptr) {
      return MalformedSchema(row.name);
    }
    schema_.AddTrigger(std::move(trig));
  }
  schema_.Touch();
  return Status();
}

}  // namespace basalt

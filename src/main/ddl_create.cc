// CREATE TABLE / INDEX / VIEW / TRIGGER, in the database the statement
// names (lang_createtable, lang_createindex, lang_createview,
// lang_createtrigger).
#include "common/assert.h"
#include "exec/codegen.h"
#include "main/authorize.h"
#include "main/ddl.h"
#include "main/generated_exprs.h"
#include "main/schema_build.h"
#include "parser/parser.h"
#include "planner/resolve.h"

namespace basalt {

namespace {

bool Reserved(std::string_view name) {
  return name.size() >= 7 && EqualsIgnoreCase(name.substr(0, 7), "sqlite_");
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

// The first database qualifier in a SELECT (FROM items, nested queries,
// CTE bodies) that is not `own`; empty if none.
struct ForeignRefFinder {
  std::string_view own;
  std::string_view found;

  void Select(const ast::Select* s) {
    for (; s != nullptr && found.empty(); s = s->prior) {
      if (s->with != nullptr) {
        for (const ast::Cte* c : s->with->ctes) Select(c->select);
      }
      if (s->from != nullptr) From(s->from);
      if (s->columns != nullptr) List(s->columns);
      for (const ast::ExprList* row : s->values) List(row);
      Expr(s->where);
      Expr(s->having);
      List(s->group_by);
      List(s->order_by);
    }
  }
  void From(const ast::FromList* from) {
    for (size_t i = 0; i < from->size() && found.empty(); ++i) {
      const ast::FromItem* item = (*from)[i];
      if (!item->schema.empty() && !EqualsIgnoreCase(item->schema, own)) found = item->schema;
      if (item->subquery != nullptr) Select(item->subquery);
      if (item->nested != nullptr) From(item->nested);
      Expr(item->on);
    }
  }
  void List(const ast::ExprList* l) {
    if (l == nullptr) return;
    for (size_t i = 0; i < l->size(); ++i) Expr((*l)[i]);
  }
  void Expr(const ast::Expr* e) {
    if (e == nullptr || !found.empty()) return;
    Expr(e->left);
    Expr(e->right);
    List(e->list);
    if (e->select != nullptr) Select(e->select);
  }
};

}  // namespace

void DdlExecutor::SetImposter(int db, bool on, uint32_t root) {
  imposter_db_ = on ? db : -1;
  imposter_root_ = on ? root : 0;
  if (on || root == 0) return;
  for (const auto& [dbi, name] : imposters_) {
    if (dbi < store_->size() && store_->at(dbi)->schema.FindTable(name) != nullptr) {
      store_->at(dbi)->schema.RemoveTable(name);
    }
  }
  imposters_.clear();
}

Status DdlExecutor::CreateImposter(ast::CreateTableStmt* st, Arena* arena) {
  TRY(store_->EnsureSchema(imposter_db_));
  Database* db = store_->at(imposter_db_);
  bool exists = false;
  TRY(CheckNameFree(db, st->name, st->name_text, st->if_not_exists, &exists, st->body_text));
  if (exists) return Status();
  BuiltTable built;
  TRY(BuildTable(st, "CREATE TABLE " + std::string(st->body_text), &built));
  TRY(CheckTableExprs(st, built.table.get(), arena));
  if (dry_run_) return Status();
  built.table->SetRoot(imposter_root_);
  imposters_.emplace_back(imposter_db_, built.table->name);
  db->schema.AddTable(std::move(built.table));
  db->schema.Touch();
  return Status();
}

Status DdlExecutor::CreateTable(ast::CreateTableStmt* st, Arena* arena) {
  if (imposter_db_ >= 0 && st->as_select == nullptr) return CreateImposter(st, arena);
  int dbi = 0;
  TRY(TargetDb(st->schema, st->temp, "table", &dbi));
  TRY(store_->EnsureSchema(dbi));
  Database* db = store_->at(dbi);
  bool exists = false;
  TRY(CheckNameFree(db, st->name, st->name_text, st->if_not_exists, &exists, st->body_text));
  if (exists) return Status();
  BuiltTable built;
  if (st->as_select != nullptr) {
    TRY(CreateTableAs(st, arena, &built));
  } else {
    TRY(BuildTable(st, "CREATE TABLE " + std::string(st->body_text), &built));
    TRY(CheckTableExprs(st, built.table.get(), arena));
  }
  if (dry_run_) return Status();
  bool need_sequence =
      built.table->autoincrement && db->schema.FindTable("sqlite_sequence") == nullptr;
  Table* t = built.table.get();
  // A WITHOUT ROWID table's rows live in an index B-tree (its primary key).
  ASSIGN_OR_RETURN(Pgno root,
                   db->bt->CreateTree(t->without_rowid ? TreeKind::kIndex : TreeKind::kTable));
  t->SetRoot(root);
  TRY(db->InsertSchemaRow("table", t->name, t->name, root, t->sql));
  for (auto& idx : built.auto_indexes) {
    ASSIGN_OR_RETURN(Pgno iroot, db->bt->CreateTree(TreeKind::kIndex));
    idx->root = iroot;
    TRY(db->InsertSchemaRow("index", idx->name, t->name, iroot, std::string_view()));
  }
  if (need_sequence) TRY(db->CreateSequenceTable());
  TRY(db->BumpSchemaCookie());
  db->schema.AddTable(std::move(built.table));
  for (auto& idx : built.auto_indexes) db->schema.AddIndex(std::move(idx));
  if (st->as_select != nullptr) TRY(FillTableAs(db, t, st));
  return Status();
}

namespace {

// The authorizer hook of CREATE TABLE ... AS SELECT's query: the first
// question (the top SELECT) is answered OK without asking the user's hook;
// every other one goes to it.
struct CtasAuth {
  AuthHook user;
  bool first = true;
  static int Hook(void* arg, int action, const char* a1, const char* a2, const char* db,
                  const char* ctx) {
    auto* self = static_cast<CtasAuth*>(arg);
    if (self->first) {
      self->first = false;
      BASALT_DCHECK(action == kAuthSelect);
      if (action == kAuthSelect) return 0;
    }
    return self->user.fn(self->user.arg, action, a1, a2, db, ctx);
  }
};

}  // namespace

// CREATE TABLE ... AS SELECT: the columns are the query's result columns,
// with the declared types their affinities give, laid out as SQLite writes
// them into sqlite_schema.
Status DdlExecutor::CreateTableAs(ast::CreateTableStmt* st, Arena* arena, BuiltTable* built) {
  Arena scratch;
  CompileContext ctx;
  InitContext(&ctx, dry_run_ ? &scratch : arena);
  ast::Select* query = st->as_select;
  if (dry_run_) {
    // The dry run must leave the statement's AST as the parser made it.
    query = ctx.ParseSelect(st->as_select->span);
    if (query == nullptr) return ctx.error;
  }
  ast::SelectStmt probe;
  probe.select = query;
  // SQLite resolves the query (its column reads) before it asks SQLITE_SELECT
  // for it, then asks about the schema row's UPDATE. The compiler's first
  // question is always the top SELECT's (Resolver::ResolveSelect asks before
  // resolving anything), so the hook lets that one through unasked and it
  // is asked once the query compiled.
  CtasAuth ctas;
  if (dry_run_ && auth_ != nullptr && auth_->fn != nullptr) {
    ctas.user = *auth_;
    ctx.auth = AuthHook{&CtasAuth::Hook, &ctas};
  }
  Result<std::unique_ptr<Program>> p = CompileStatement(&probe, &ctx);
  if (p.ok() && dry_run_ && auth_ != nullptr) {
    Status denied;
    if (Authorize(*auth_, kAuthSelect, nullptr, nullptr, nullptr, &denied) == AuthResult::kDenied) {
      return denied;
    }
    int dbi = 0;
    TRY(TargetDb(st->schema, st->temp, "table", &dbi));
    TRY(AuthorizeSchemaRowUpdate(*auth_, store_->catalog(), dbi == Catalog::kTemp,
                                 store_->catalog().name(dbi)));
  }
  if (!p.ok() || dry_run_) return p.ok() ? Status() : p.status();
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
    c.affinity =
        static_cast<Affinity>(prog.column_affinities.size() > i ? prog.column_affinities[i] : 'A');
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
  built->table = std::move(t);
  return Status();
}

// Fills a new CREATE TABLE ... AS SELECT table: INSERT INTO db.t SELECT ...
Status DdlExecutor::FillTableAs(Database* db, const Table* t, ast::CreateTableStmt* st) {
  Arena a2;
  std::string ins = "INSERT INTO " + QuoteIdent(db->name) + "." + QuoteIdent(t->name) + " " +
                    std::string(st->as_select->span);
  std::string_view text = a2.CopyString(ins);
  Parser parser(&a2, text);
  Result<ast::Stmt*> r = parser.ParseStatement();
  if (!r.ok()) return r.status();
  CompileContext ctx;
  InitContext(&ctx, &a2);
  Result<std::unique_ptr<Program>> p = CompileStatement(*r, &ctx);
  if (!p.ok()) return p.status();
  return Run(p->get());
}

namespace {

// Whether e holds a subquery (scalar, EXISTS or IN (SELECT ...)) anywhere.
bool HasSubquery(const ast::Expr* e) {
  if (e == nullptr) return false;
  if (e->select != nullptr || e->kind == ast::ExprKind::kSubquery ||
      e->kind == ast::ExprKind::kExists) {
    return true;
  }
  if (HasSubquery(e->left) || HasSubquery(e->right)) return true;
  if (e->list != nullptr) {
    for (size_t i = 0; i < e->list->size(); ++i) {
      if (HasSubquery((*e->list)[i])) return true;
    }
  }
  return false;
}

// The first parameter (?, ?N, :name...) in e, or null.
const ast::Expr* FindParam(const ast::Expr* e) {
  if (e == nullptr) return nullptr;
  if (e->kind == ast::ExprKind::kParam) return e;
  if (const ast::Expr* p = FindParam(e->left)) return p;
  if (const ast::Expr* p = FindParam(e->right)) return p;
  if (e->list != nullptr) {
    for (size_t i = 0; i < e->list->size(); ++i) {
      if (const ast::Expr* p = FindParam((*e->list)[i])) return p;
    }
  }
  return nullptr;
}

}  // namespace

// CHECK constraints must name existing columns and have no subqueries or
// parameters; DEFAULT values must be constant.
Status DdlExecutor::CheckTableExprs(ast::CreateTableStmt* st, const Table* t, Arena* arena) {
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
          return is_subquery(x) || x->kind == ast::ExprKind::kParam ||
                 (x->kind == ast::ExprKind::kColumn &&
                  !(x->table.empty() &&
                    (EqualsIgnoreCase(x->text, "true") || EqualsIgnoreCase(x->text, "false"))));
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
  if (checks.empty() && !t->has_generated) return Status();
  CompileContext ctx;
  InitContext(&ctx, arena);
  UseDdlQuoting(&ctx);
  Resolver resolver(&ctx);
  std::vector<Source> srcs;
  srcs.push_back(resolver.MakeTableSource(t, "", 0));
  Scope scope;
  scope.sources = &srcs;
  for (ast::Expr* e : checks) {
    if (has(e, is_subquery)) return Status(kError, "subqueries prohibited in CHECK constraints");
    if (const ast::Expr* p = FindParam(e)) {
      SetErrorOffset(p->span);
      return Status(kError, "parameters prohibited in CHECK constraints");
    }
    if (!resolver.ResolveExpr(e, &scope)) {
      if (dry_run_ && error_offset_ != nullptr) *error_offset_ = ctx.error_offset;
      return ctx.error;
    }
  }
  ctx.schema_exprs = true;  // generated columns are schema expressions
  Status gen = CheckGeneratedExprs(st, t, &ctx, &resolver);
  if (!gen.ok() && dry_run_ && error_offset_ != nullptr) *error_offset_ = ctx.error_offset;
  return gen;
}

Status DdlExecutor::BuildIndexRows(Index* idx, Arena* arena) {
  CompileContext ctx;
  InitContext(&ctx, arena);
  UseDdlQuoting(&ctx);
  Result<std::unique_ptr<Program>> p = CompileIndexBuild(idx, &ctx);
  if (!p.ok()) return p.status();
  return Run(p->get());
}

Status DdlExecutor::CreateIndex(ast::CreateIndexStmt* st, Arena* arena) {
  Table* tab = nullptr;
  int dbi = -1;
  if (!st->schema.empty()) {
    TRY(TargetDb(st->schema, false, "index", &dbi));
    TRY(store_->EnsureSchema(dbi));
    tab = store_->at(dbi)->schema.FindTable(st->table);
    if (tab == nullptr) return Status(kError, "no such table: " + Qualified(dbi, st->table));
  } else {
    tab = store_->catalog().FindTable("", st->table);
    if (tab == nullptr) return Status(kError, "no such table: main." + std::string(st->table));
    dbi = tab->db();
  }
  Database* db = store_->at(dbi);
  if (Reserved(st->name)) {
    return Status(kError, "object name reserved for internal use: " + std::string(st->name));
  }
  if (tab->is_view) return Status(kError, "views may not be indexed");
  if (st->columns != nullptr) {
    for (size_t i = 0; i < st->columns->size(); ++i) {
      if (HasSubquery((*st->columns)[i])) {
        return Status(kError, "subqueries prohibited in index expressions");
      }
    }
  }
  if (HasSubquery(st->where)) {
    return Status(kError, "subqueries prohibited in partial index WHERE clauses");
  }
  if (st->columns != nullptr) {
    for (size_t i = 0; i < st->columns->size(); ++i) {
      if (const ast::Expr* p = FindParam((*st->columns)[i])) {
        SetErrorOffset(p->span);
        return Status(kError, "parameters prohibited in index expressions");
      }
    }
  }
  if (const ast::Expr* p = FindParam(st->where)) {
    SetErrorOffset(p->span);
    return Status(kError, "parameters prohibited in partial index WHERE clauses");
  }
  if (Reserved(tab->name)) return Status(kError, "table " + tab->name + " may not be indexed");
  if (db->schema.FindIndex(st->name) != nullptr) {
    if (st->if_not_exists) return Status();
    return Status(kError, "index " + std::string(st->name) + " already exists");
  }
  if (db->schema.FindTable(st->name) != nullptr) {
    return Status(kError, "there is already a table named " + std::string(st->name));
  }
  int max_columns = limits_ != nullptr ? limits_->get(LimitId::kColumn) : 2000;
  if (st->columns != nullptr && st->columns->size() > static_cast<size_t>(max_columns)) {
    return Status(kError, "too many columns in index");
  }
  std::unique_ptr<Index> idx;
  std::string text = std::string(st->unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ") +
                     std::string(st->body_text);
  std::string_view bad;
  Status bs = ::basalt::BuildIndex(st, tab, text, &idx, &bad);
  if (!bs.ok()) {
    SetErrorOffset(bad);
    return bs;
  }
  if (dry_run_) return Status();
  ASSIGN_OR_RETURN(Pgno root, db->bt->CreateTree(TreeKind::kIndex));
  idx->root = root;
  TRY(BuildIndexRows(idx.get(), arena));
  TRY(db->InsertSchemaRow("index", idx->name, tab->name, root, text));
  TRY(db->BumpSchemaCookie());
  db->schema.AddIndex(std::move(idx));
  return Status();
}

Status DdlExecutor::CreateView(ast::CreateViewStmt* st, Arena* arena) {
  (void)arena;
  int dbi = 0;
  TRY(TargetDb(st->schema, st->temp, "table", &dbi));
  TRY(store_->EnsureSchema(dbi));
  Database* db = store_->at(dbi);
  bool exists = false;
  TRY(CheckNameFree(db, st->name, st->name_text, st->if_not_exists, &exists, st->body_text));
  if (exists) return Status();
  if (dbi != Catalog::kTemp) {
    // Only a TEMP view may name objects of other databases.
    ForeignRefFinder f{db->name, {}};
    f.Select(st->select);
    if (!f.found.empty()) {
      SetErrorOffset(st->name);
      return Status(kError, "view " + std::string(st->name) +
                                " cannot reference objects in database " + std::string(f.found));
    }
  }
  if (dry_run_) return Status();
  std::unique_ptr<Table> v = BuildView(st, "CREATE VIEW " + std::string(st->body_text));
  TRY(db->InsertSchemaRow("view", v->name, v->name, 0, v->sql));
  TRY(db->BumpSchemaCookie());
  db->schema.AddTable(std::move(v));
  return Status();
}

Status DdlExecutor::CreateTrigger(ast::CreateTriggerStmt* st, Arena* arena) {
  (void)arena;
  const Catalog& cat = store_->catalog();
  int dbi = -1;  // the trigger's database; -1: main unless its table is TEMP
  if (st->temp) {
    if (!st->schema.empty() && !EqualsIgnoreCase(st->schema, "temp")) {
      SetErrorOffset(st->schema);
      return Status(kError, "temporary trigger may not have qualified name");
    }
    dbi = Catalog::kTemp;
  } else if (!st->schema.empty()) {
    TRY(TargetDb(st->schema, false, "trigger", &dbi));
  }
  Table* tab = nullptr;
  int tdb = -1;
  if (!st->table_schema.empty()) {
    tdb = cat.Find(st->table_schema);
    if (tdb < 0) return Status(kError, "unknown database " + std::string(st->table_schema));
    tab = cat.schema(tdb)->FindTable(st->table);
  } else if (dbi >= 0 && dbi != Catalog::kTemp) {
    tab = cat.schema(dbi)->FindTable(st->table);
  } else {
    tab = cat.FindTable("", st->table);
  }
  if (dbi < 0) dbi = tab != nullptr && tab->owner->is_temp() ? Catalog::kTemp : Catalog::kMain;
  if (tdb >= 0 && dbi != Catalog::kTemp && tdb != dbi) {
    SetErrorOffset(st->name);
    return Status(kError, "trigger " + std::string(st->name) +
                              " cannot reference objects in database " +
                              std::string(st->table_schema));
  }
  TRY(store_->EnsureSchema(dbi));
  Database* db = store_->at(dbi);
  if (Reserved(st->name)) {
    return Status(kError, "object name reserved for internal use: " + std::string(st->name));
  }
  if (db->schema.FindTrigger(st->name) != nullptr) {
    if (st->if_not_exists) return Status();
    SetErrorOffset(st->name_text);
    return Status(kError, "trigger " + std::string(st->name_text) + " already exists");
  }
  if (tab == nullptr) {
    return Status(kError, "no such table: " + Qualified(tdb >= 0 ? tdb : dbi, st->table));
  }
  if (Reserved(tab->name)) return Status(kError, "cannot create trigger on system table");
  const std::string where = Qualified(tab->db(), tab->name);
  if (tab->is_view && st->time != ast::TriggerTime::kInsteadOf) {
    return Status(kError, std::string("cannot create ") +
                              (st->time == ast::TriggerTime::kBefore ? "BEFORE" : "AFTER") +
                              " trigger on view: " + where);
  }
  if (!tab->is_view && st->time == ast::TriggerTime::kInsteadOf) {
    return Status(kError, "cannot create INSTEAD OF trigger on table: " + tab->name);
  }
  // SQLite checks this when the whole trigger is parsed, after the above.
  if (st->uses_params) return Status(kError, "trigger cannot use variables");
  if (dry_run_) return Status();
  std::unique_ptr<Trigger> trig =
      BuildTrigger(st, "CREATE TRIGGER " + std::string(st->body_text), dbi == Catalog::kTemp);
  TRY(db->InsertSchemaRow("trigger", trig->name, tab->name, 0, trig->sql));
  TRY(db->BumpSchemaCookie());
  db->schema.AddTrigger(std::move(trig));
  return Status();
}

}  // namespace basalt

#include "main/vtab_manager.h"

#include <algorithm>
#include <functional>

#include "common/assert.h"
#include "main/schema_build.h"
#include "parser/parser.h"
#include "record/affinity.h"

namespace basalt {

namespace {

// Removes the word HIDDEN from a declared column type; true if it was
// there (the column is then hidden, as SQLite reads declared vtab schemas).
bool StripHidden(std::string* type) {
  const std::string lower = LowerAscii(*type);
  for (size_t at = lower.find("hidden"); at != std::string::npos;
       at = lower.find("hidden", at + 1)) {
    const bool starts = at == 0 || lower[at - 1] == ' ';
    const bool ends = at + 6 == lower.size() || lower[at + 6] == ' ';
    if (!starts || !ends) continue;
    size_t from = at, to = at + 6;
    if (to < type->size()) {
      ++to;  // the space after it
    } else if (from > 0) {
      --from;  // the space before it
    }
    type->erase(from, to - from);
    return true;
  }
  return false;
}

}  // namespace

VtabManager::~VtabManager() { RollbackAll(); }

void VtabManager::SetModule(std::string_view name, std::shared_ptr<VtabModule> module) {
  eponymous_.erase(LowerAscii(name));
  modules_.Set(name, std::move(module));
  store_->Invalidate();
}

Status VtabManager::DeclareColumns(Table* t, const std::string& declared) {
  Arena arena;
  Parser parser(&arena, arena.CopyString(declared));
  Result<ast::Stmt*> r = parser.ParseStatement();
  if (!r.ok()) return r.status();
  if (*r == nullptr || (*r)->kind != ast::StmtKind::kCreateTable) {
    return Status(kError, "vtable constructor did not declare schema: " + t->name);
  }
  BuiltTable built;
  TRY(BuildTable((*r)->As<ast::CreateTableStmt>(), declared, &built));
  t->vtab_pk = -1;
  if (built.table->pk_index != nullptr && !built.table->pk_index->columns.empty()) {
    t->vtab_pk = built.table->pk_index->columns[0];
  }
  t->columns = std::move(built.table->columns);
  for (Column& c : t->columns) {
    // The affinity comes from the type as declared, HIDDEN included.
    c.hidden = StripHidden(&c.decl_type);
    c.primary_key = false;
  }
  t->rowid_alias = -1;
  return Status();
}

VtabArgs VtabManager::ArgsFor(const Table& t) const {
  VtabArgs a;
  a.module = t.module;
  a.db = store_->at(t.db())->name;
  a.table = t.name;
  a.args = t.module_args;
  return a;
}

Status VtabManager::AskDeclareNow() {
  declare_asked_ = true;
  if (auth_ == nullptr || auth_->fn == nullptr) return Status();
  Status denied;
  auto refused = [&](int action, const char* col) {
    return Authorize(*auth_, action, "sqlite_master", col, "main", &denied) == AuthResult::kDenied;
  };
  bool no = false;
  for (const char* col : {"type", "name", "tbl_name", "rootpage", "sql"}) {
    if (!no) no = refused(kAuthUpdate, col);
  }
  if (!no && refused(kAuthRead, "ROWID")) {
    no = true;
    if (denied.code() == kAuth) {
      bool qualify = store_->catalog().size() > 2;
      denied = Status(kAuth, std::string("access to ") + (qualify ? "main." : "") +
                                 "sqlite_master.ROWID is prohibited");
    }
  }
  if (!no) return Status();
  return denied;
}

Status VtabManager::CallConstructor(const std::function<Status()>& ctor) {
  // Constructors may nest (one may connect another table): each has its
  // own "asked" flag.
  const bool outer = declare_asked_;
  declare_asked_ = false;
  Status st = ctor();
  const bool asked = declare_asked_;
  declare_asked_ = outer;
  if (!st.ok() || asked) return st;
  Status denied = AskDeclareNow();
  declare_asked_ = outer;
  return denied.ok() ? Status() : Status(kDeclareRefused, denied.message());
}

Table* VtabManager::Eponymous(std::string_view name, Status* st) {
  *st = Status();
  std::string key = LowerAscii(name);
  auto it = eponymous_.find(key);
  if (it != eponymous_.end()) return it->second.get();
  VtabModule* m = modules_.Find(name);
  if (m == nullptr && builtin_) {
    if (std::shared_ptr<VtabModule> made = builtin_(name)) {
      modules_.Set(name, made);
      m = made.get();
    }
  }
  if (m == nullptr || !(m->eponymous() || m->eponymous_only())) return nullptr;
  auto t = std::make_unique<Table>();
  t->name = std::string(name);
  t->owner = &store_->main()->schema;
  t->is_virtual = true;
  t->module = std::string(name);
  std::string declared;
  // A refusal is the error of the statement that used the table.
  *st = CallConstructor([&] { return m->Connect(ArgsFor(*t), &t->vtab, &declared); });
  if (st->code() == kDeclareRefused) *st = Status(kError, st->message());
  if (st->ok()) *st = DeclareColumns(t.get(), declared);
  if (!st->ok()) return nullptr;
  Table* raw = t.get();
  eponymous_[key] = std::move(t);
  return raw;
}

Status VtabManager::Connect(Table* t) {
  BASALT_DCHECK(t->is_virtual);
  if (t->vtab != nullptr) return Status();
  VtabModule* m = modules_.Find(t->module);
  if (m == nullptr) return Status(kError, "no such module: " + t->module);
  std::string declared;
  Status st = CallConstructor([&] { return m->Connect(ArgsFor(*t), &t->vtab, &declared); });
  if (st.code() == kDeclareRefused) {
    st = Status(kError, st.message());
  } else {
    TRY(st);
  }
  if (st.ok()) st = DeclareColumns(t, declared);
  if (!st.ok()) t->vtab.reset();
  return st;
}

Status VtabManager::TableFromSchemaRow(const ast::CreateVirtualTableStmt* st, std::string sql,
                                       std::unique_ptr<Table>* out) {
  auto t = std::make_unique<Table>();
  t->name = std::string(st->name);
  t->sql = std::move(sql);
  t->is_virtual = true;
  t->module = std::string(st->module);
  for (std::string_view a : st->args) t->module_args.emplace_back(a);
  *out = std::move(t);
  return Status();
}

Status VtabManager::Create(const ast::CreateVirtualTableStmt* st, const std::string& db_name,
                           std::unique_ptr<Table>* out) {
  VtabModule* m = modules_.Find(st->module);
  if (m == nullptr || m->eponymous_only()) {
    return Status(kError, "no such module: " + std::string(st->module));
  }
  TRY(TableFromSchemaRow(st, "CREATE VIRTUAL TABLE " + std::string(st->body_text), out));
  Table* t = out->get();
  VtabArgs args;
  args.module = t->module;
  args.db = db_name;
  args.table = t->name;
  args.args = t->module_args;
  std::string declared;
  Status s = CallConstructor([&] { return m->Create(args, &t->vtab, &declared); });
  if (s.code() != kDeclareRefused) TRY(s);
  if (!s.ok()) {
    // As when sqlite3_declare_vtab fails inside xCreate: the table is only
    // disconnected (what it made is undone with the failed statement).
    t->vtab.reset();
    return Status(kError, "vtable constructor failed: " + t->name);
  }
  s = DeclareColumns(t, declared);
  if (!s.ok()) {
    (void)t->vtab->Destroy();
    t->vtab.reset();
  }
  return s;
}

Status VtabManager::Join(Vtab* vt, int savepoint_level) {
  if (!vt->transactional()) return Status();
  if (std::find(joined_.begin(), joined_.end(), vt) != joined_.end()) return Status();
  TRY(vt->Begin());
  joined_.push_back(vt);
  vt->set_joined(this);
  for (int i = 0; i < savepoint_level; ++i) TRY(vt->Savepoint(i));
  return Status();
}

void VtabManager::Adopt(Vtab* vt) {
  if (!vt->transactional()) return;
  if (std::find(joined_.begin(), joined_.end(), vt) != joined_.end()) return;
  joined_.push_back(vt);
  vt->set_joined(this);
}

void VtabManager::Forget(Vtab* vt) {
  vt->set_joined(nullptr);
  joined_.erase(std::remove(joined_.begin(), joined_.end(), vt), joined_.end());
}

Status VtabManager::SyncAll() {
  for (Vtab* vt : joined_) TRY(vt->Sync());
  return Status();
}

void VtabManager::CommitAll() {
  std::vector<Vtab*> done;
  done.swap(joined_);
  for (Vtab* vt : done) vt->set_joined(nullptr);
  for (Vtab* vt : done) (void)vt->Commit();
}

void VtabManager::RollbackAll() {
  std::vector<Vtab*> done;
  done.swap(joined_);
  for (Vtab* vt : done) vt->set_joined(nullptr);
  for (Vtab* vt : done) (void)vt->Rollback();
}

Status VtabManager::Savepoint(int op, int level) {
  for (Vtab* vt : joined_) {
    switch (op) {
      case 0:
        TRY(vt->Savepoint(level));
        break;
      case 1:
        TRY(vt->Release(level));
        break;
      default:
        TRY(vt->RollbackTo(level));
        break;
    }
  }
  return Status();
}

}  // namespace basalt

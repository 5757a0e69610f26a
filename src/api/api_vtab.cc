// Virtual tables through the C API: sqlite3_create_module and friends. A
// module registered here is wrapped in the engine's VtabModule / Vtab /
// VtabCursor interfaces (catalog/vtab.h); sqlite3_index_info is built from
// and read back into IndexInfo around each xBestIndex call.
#include <cstdarg>
#include <cstring>
#include <memory>
#include <string>

#include "api/guard.h"
#include "api/handles.h"
#include "catalog/function.h"
#include "catalog/vtab.h"
#include "main/connection.h"

namespace basalt::api {
namespace {

// The sqlite3_declare_vtab / sqlite3_vtab_config target of the xCreate or
// xConnect running on this thread (SQLite keeps it on the connection; a
// constructor runs synchronously on the caller's thread).
struct Declaration {
  sqlite3* db = nullptr;
  std::string sql;
  bool declared = false;
  bool constraint_support = false;
  int risk = 0;
  Declaration* outer = nullptr;  // a constructor that runs SQL may nest
};
thread_local Declaration* tl_declaration = nullptr;

// sqlite3_vtab_on_conflict answers from the xUpdate running on this thread.
thread_local int tl_on_conflict = 0;

// sqlite3_index_info with the planner's view of it, for the vtab_* helpers.
struct IndexInfoBox {
  sqlite3_index_info info{};
  IndexInfo* src = nullptr;
};

// Takes the message a method left in zErrMsg (freeing it).
Status VtabError(sqlite3_vtab* vt, int rc, const char* fallback) {
  std::string msg = fallback;
  if (vt != nullptr && vt->zErrMsg != nullptr) {
    msg = vt->zErrMsg;
    sqlite3_free(vt->zErrMsg);
    vt->zErrMsg = nullptr;
  } else if (fallback == nullptr || *fallback == '\0') {
    msg = ResultCodeText(rc);
  }
  return Status(rc, msg);
}

class ApiModule;

class ApiCursor : public VtabCursor {
 public:
  ApiCursor(sqlite3_vtab* vt, sqlite3_vtab_cursor* c) : vt_(vt), c_(c) {}
  ~ApiCursor() override { vt_->pModule->xClose(c_); }
  Status Filter(int idx_num, const std::string& idx_str, int argc, Value** argv) override {
    int rc = vt_->pModule->xFilter(c_, idx_num, idx_str.empty() ? nullptr : idx_str.c_str(), argc,
                                   reinterpret_cast<sqlite3_value**>(argv));
    return rc == SQLITE_OK ? Status() : VtabError(vt_, rc, "");
  }
  Status Next() override {
    int rc = vt_->pModule->xNext(c_);
    return rc == SQLITE_OK ? Status() : VtabError(vt_, rc, "");
  }
  bool Eof() override { return vt_->pModule->xEof(c_) != 0; }
  Status Column(FuncContext* ctx, int i) override {
    int rc = vt_->pModule->xColumn(c_, reinterpret_cast<sqlite3_context*>(ctx), i);
    if (ctx->is_error) {
      Status st(ctx->error_code != 0 ? ctx->error_code : SQLITE_ERROR, ctx->error_msg);
      ctx->is_error = false;
      return st;
    }
    return rc == SQLITE_OK ? Status() : VtabError(vt_, rc, "");
  }
  Status Rowid(int64_t* rowid) override {
    sqlite3_int64 r = 0;
    int rc = vt_->pModule->xRowid(c_, &r);
    *rowid = r;
    return rc == SQLITE_OK ? Status() : VtabError(vt_, rc, "");
  }

 private:
  sqlite3_vtab* vt_;
  sqlite3_vtab_cursor* c_;
};

class ApiVtab : public Vtab {
 public:
  ApiVtab(std::shared_ptr<const ApiModule> mod, sqlite3_vtab* vt) : mod_(std::move(mod)), vt_(vt) {}
  ~ApiVtab() override {
    if (vt_ != nullptr) vt_->pModule->xDisconnect(vt_);
  }
  const sqlite3_module* m() const { return vt_->pModule; }

  Status BestIndex(IndexInfo* info) override;
  Status Open(std::unique_ptr<VtabCursor>* out) override {
    sqlite3_vtab_cursor* c = nullptr;
    int rc = m()->xOpen(vt_, &c);
    if (rc != SQLITE_OK) return VtabError(vt_, rc, "");
    c->pVtab = vt_;
    *out = std::make_unique<ApiCursor>(vt_, c);
    return Status();
  }
  Status Destroy() override {
    int (*destroy)(sqlite3_vtab*) = m()->xDestroy ? m()->xDestroy : m()->xDisconnect;
    sqlite3_vtab* vt = vt_;
    int rc = destroy(vt);
    if (rc != SQLITE_OK) return VtabError(vt, rc, "");
    vt_ = nullptr;
    return Status();
  }
  bool writable() const override { return m()->xUpdate != nullptr; }
  Status Update(int argc, Value** argv, int64_t* rowid, int on_conflict) override {
    if (m()->xUpdate == nullptr) return Status(kError, "table is read-only");
    sqlite3_int64 r = 0;
    int saved = tl_on_conflict;
    tl_on_conflict = on_conflict;
    int rc = m()->xUpdate(vt_, argc, reinterpret_cast<sqlite3_value**>(argv), &r);
    tl_on_conflict = saved;
    *rowid = r;
    return rc == SQLITE_OK ? Status() : VtabError(vt_, rc, "");
  }
  bool transactional() const override { return m()->xBegin != nullptr; }
  Status Begin() override { return Call(m()->xBegin); }
  Status Sync() override { return Call(m()->xSync); }
  Status Commit() override { return Call(m()->xCommit); }
  Status Rollback() override { return Call(m()->xRollback); }
  Status Savepoint(int level) override { return Call2(m()->iVersion >= 2, m()->xSavepoint, level); }
  Status Release(int level) override { return Call2(m()->iVersion >= 2, m()->xRelease, level); }
  Status RollbackTo(int level) override {
    return Call2(m()->iVersion >= 2, m()->xRollbackTo, level);
  }
  const FunctionDef* FindFunction(int nargs, const FunctionDef& base) override;
  bool can_rename() const override { return m()->xRename != nullptr; }
  Status Rename(std::string_view new_name) override {
    if (m()->xRename == nullptr) return Status();
    std::string n(new_name);
    int rc = m()->xRename(vt_, n.c_str());
    return rc == SQLITE_OK ? Status() : VtabError(vt_, rc, "");
  }

 private:
  Status Call(int (*f)(sqlite3_vtab*)) {
    if (f == nullptr) return Status();
    int rc = f(vt_);
    return rc == SQLITE_OK ? Status() : VtabError(vt_, rc, "");
  }
  Status Call2(bool present, int (*f)(sqlite3_vtab*, int), int level) {
    if (!present || f == nullptr) return Status();
    int rc = f(vt_, level);
    return rc == SQLITE_OK ? Status() : VtabError(vt_, rc, "");
  }

  std::shared_ptr<const ApiModule> mod_;  // keeps the module's client data alive
  sqlite3_vtab* vt_;
  // What xFindFunction supplied, by name and argument count (the latest
  // answer for each; earlier ones stay alive for statements that use them).
  std::vector<std::unique_ptr<FunctionDef>> overloads_;
};

class ApiModule : public VtabModule, public std::enable_shared_from_this<ApiModule> {
 public:
  ApiModule(sqlite3* db, const sqlite3_module* m, void* aux, void (*destroy)(void*))
      : db_(db), m_(m), aux_(aux), destroy_(destroy) {}
  ~ApiModule() override {
    if (destroy_ != nullptr) destroy_(aux_);
  }
  Status Create(const VtabArgs& args, std::unique_ptr<Vtab>* out, std::string* declared) override {
    return Construct(m_->xCreate, args, out, declared);
  }
  Status Connect(const VtabArgs& args, std::unique_ptr<Vtab>* out, std::string* declared) override {
    return Construct(m_->xConnect, args, out, declared);
  }
  bool eponymous() const override { return m_->xCreate == m_->xConnect; }
  bool eponymous_only() const override { return m_->xCreate == nullptr; }
  bool ShadowName(std::string_view suffix) const override {
    if (m_->iVersion < 3 || m_->xShadowName == nullptr) return false;
    std::string s(suffix);
    return m_->xShadowName(s.c_str()) != 0;
  }

 private:
  using Ctor = int (*)(sqlite3*, void*, int, const char* const*, sqlite3_vtab**, char**);
  Status Construct(Ctor ctor, const VtabArgs& args, std::unique_ptr<Vtab>* out,
                   std::string* declared) {
    if (ctor == nullptr) return Status(kError, "no such module: " + args.module);
    std::vector<const char*> argv{args.module.c_str(), args.db.c_str(), args.table.c_str()};
    for (const std::string& a : args.args) argv.push_back(a.c_str());
    Declaration decl;
    decl.db = db_;
    decl.outer = tl_declaration;
    tl_declaration = &decl;
    sqlite3_vtab* vt = nullptr;
    char* err = nullptr;
    int rc = ctor(db_, aux_, static_cast<int>(argv.size()), argv.data(), &vt, &err);
    tl_declaration = decl.outer;
    if (rc != SQLITE_OK) {
      std::string msg =
          err != nullptr ? std::string(err) : "vtable constructor failed: " + args.table;
      sqlite3_free(err);
      if (rc == SQLITE_NOMEM) return Status(kNoMem);
      return Status(rc, msg);
    }
    sqlite3_free(err);
    if (vt == nullptr) return Status(kError, "vtable constructor failed: " + args.table);
    vt->pModule = m_;
    vt->nRef = 1;
    vt->zErrMsg = nullptr;
    auto wrapped = std::make_unique<ApiVtab>(shared_from_this(), vt);
    if (!decl.declared) {
      return Status(kError, "vtable constructor did not declare schema: " + args.table);
    }
    wrapped->constraint_support = decl.constraint_support;
    wrapped->risk = decl.risk;
    *declared = decl.sql;
    *out = std::move(wrapped);
    return Status();
  }

  sqlite3* db_;
  const sqlite3_module* m_;
  void* aux_;
  void (*destroy_)(void*);
};

// An overloading function: the module's callback through the same calling
// convention as sqlite3_create_function's (the def carries it).
void OverloadTrampoline(FuncContext* ctx, int argc, Value** argv) {
  using XFunc = void (*)(sqlite3_context*, int, sqlite3_value**);
  reinterpret_cast<XFunc>(ctx->def->api_func)(reinterpret_cast<sqlite3_context*>(ctx), argc,
                                              reinterpret_cast<sqlite3_value**>(argv));
}

const FunctionDef* ApiVtab::FindFunction(int nargs, const FunctionDef& base) {
  if (vt_ == nullptr || m()->xFindFunction == nullptr) return nullptr;
  void (*fn)(sqlite3_context*, int, sqlite3_value**) = nullptr;
  void* arg = nullptr;
  // SQLite passes the name in lower case (FunctionDef::name is).
  if (m()->xFindFunction(vt_, nargs, base.name.c_str(), &fn, &arg) == 0 || fn == nullptr) {
    return nullptr;
  }
  for (const auto& d : overloads_) {
    if (d->name == base.name && d->nargs == nargs && d->api_func == reinterpret_cast<void*>(fn) &&
        d->user_data == arg) {
      return d.get();
    }
  }
  auto def = std::make_unique<FunctionDef>();
  def->name = base.name;
  def->nargs = nargs;
  def->flags = base.flags & ~kFuncDeterministic;
  def->api_func = reinterpret_cast<void*>(fn);
  def->scalar = OverloadTrampoline;
  def->user_data = arg;  // the module's: never freed here (destroy stays null)
  overloads_.push_back(std::move(def));
  return overloads_.back().get();
}

Status ApiVtab::BestIndex(IndexInfo* info) {
  const size_t nc = info->constraints.size();
  const size_t no = info->order_by.size();
  std::vector<sqlite3_index_info::sqlite3_index_constraint> cons(nc);
  std::vector<sqlite3_index_info::sqlite3_index_orderby> order(no);
  std::vector<sqlite3_index_info::sqlite3_index_constraint_usage> usage(nc);
  for (size_t i = 0; i < nc; ++i) {
    cons[i].iColumn = info->constraints[i].column;
    cons[i].op = info->constraints[i].op;
    cons[i].usable = info->constraints[i].usable ? 1 : 0;
    cons[i].iTermOffset = static_cast<int>(i);
    usage[i].argvIndex = 0;
    usage[i].omit = 0;
  }
  for (size_t i = 0; i < no; ++i) {
    order[i].iColumn = info->order_by[i].column;
    order[i].desc = info->order_by[i].desc ? 1 : 0;
  }
  IndexInfoBox box;
  box.src = info;
  sqlite3_index_info& ii = box.info;
  ii.nConstraint = static_cast<int>(nc);
  ii.aConstraint = cons.data();
  ii.nOrderBy = static_cast<int>(no);
  ii.aOrderBy = order.data();
  ii.aConstraintUsage = usage.data();
  ii.estimatedCost = 5e98;
  ii.estimatedRows = 25;
  ii.colUsed = info->col_used;
  int rc = m()->xBestIndex(vt_, &ii);
  std::string idx_str = ii.idxStr != nullptr ? ii.idxStr : "";
  if (ii.needToFreeIdxStr) sqlite3_free(ii.idxStr);
  if (rc != SQLITE_OK) {
    if (rc == SQLITE_CONSTRAINT) return Status(kConstraint, "");
    return VtabError(vt_, rc, "");
  }
  if (vt_->zErrMsg != nullptr) return VtabError(vt_, SQLITE_ERROR, "");
  for (size_t i = 0; i < nc; ++i) {
    info->constraints[i].argv_index = usage[i].argvIndex;
    info->constraints[i].omit = usage[i].omit != 0;
  }
  info->idx_num = ii.idxNum;
  info->idx_str = std::move(idx_str);
  info->order_by_consumed = ii.orderByConsumed != 0;
  info->estimated_cost = ii.estimatedCost;
  info->estimated_rows = ii.estimatedRows;
  info->idx_flags = ii.idxFlags;
  return Status();
}

int RegisterModule(sqlite3* db, const char* name, const sqlite3_module* module, void* aux,
                   void (*destroy)(void*)) {
  if (!HasConnection(db) || name == nullptr) {
    if (destroy != nullptr) destroy(aux);
    return SQLITE_MISUSE;
  }
  bool owned = false;  // the module took aux (its destructor calls destroy)
  int rc = Guard(db, kCodeOnThrow, [&] {
    std::shared_ptr<VtabModule> m;
    if (module != nullptr) {
      m = std::make_shared<ApiModule>(db, module, aux, destroy);
      owned = true;
    }
    db->conn->vtabs().SetModule(name, std::move(m));
    return SQLITE_OK;
  });
  // Out of memory before the module existed: aux is destroyed, as after
  // any failure.
  if (!owned && module != nullptr && destroy != nullptr) destroy(aux);
  return rc;
}

const IndexInfo* SourceOf(sqlite3_index_info* info) {
  return reinterpret_cast<IndexInfoBox*>(info)->src;
}

}  // namespace
}  // namespace basalt::api

using basalt::api::SourceOf;
using basalt::api::tl_declaration;

extern "C" {

int sqlite3_create_module(sqlite3* db, const char* name, const sqlite3_module* module,
                          void* client_data) {
  return basalt::api::RegisterModule(db, name, module, client_data, nullptr);
}

int sqlite3_create_module_v2(sqlite3* db, const char* name, const sqlite3_module* module,
                             void* client_data, void (*destroy)(void*)) {
  return basalt::api::RegisterModule(db, name, module, client_data, destroy);
}

int sqlite3_drop_modules(sqlite3* db, const char** keep) {
  if (!basalt::api::HasConnection(db)) return SQLITE_MISUSE;
  return basalt::api::Guard(db, basalt::api::kCodeOnThrow, [&] {
    std::vector<std::string> kept;
    for (const char** k = keep; k != nullptr && *k != nullptr; ++k) kept.emplace_back(*k);
    basalt::VtabManager& vt = db->conn->vtabs();
    for (const std::string& name : vt.modules().Names()) {
      bool stays = false;
      for (const std::string& k : kept) stays |= basalt::EqualsIgnoreCase(k, name);
      if (!stays) vt.SetModule(name, nullptr);
    }
    return SQLITE_OK;
  });
}

int sqlite3_declare_vtab(sqlite3* db, const char* sql) {
  basalt::api::Declaration* d = tl_declaration;
  return basalt::api::Guard(db, basalt::api::kCodeOnThrow, [&] {
    if (d == nullptr || d->db != db || sql == nullptr) {
      return basalt::api::SetError(db, SQLITE_MISUSE, "bad parameter or other API misuse");
    }
    // The text must be a CREATE TABLE statement.
    std::unique_ptr<basalt::Table> probe = std::make_unique<basalt::Table>();
    probe->name.assign(1, 'x');
    basalt::Status st = basalt::VtabManager::DeclareColumns(probe.get(), sql);
    if (!st.ok()) return basalt::api::SetError(db, SQLITE_ERROR, st.message());
    // The authorizer questions of the declaration, here as in SQLite.
    st = db->conn->vtabs().AskDeclareNow();
    if (!st.ok()) return basalt::api::SetError(db, SQLITE_ERROR, st.message());
    d->sql = sql;
    d->declared = true;
    return SQLITE_OK;
  });
}

int sqlite3_vtab_config(sqlite3* db, int op, ...) {
  basalt::api::Declaration* d = tl_declaration;
  if (d == nullptr || d->db != db) return SQLITE_MISUSE;
  int rc = SQLITE_OK;
  va_list ap;
  va_start(ap, op);
  switch (op) {
    case SQLITE_VTAB_CONSTRAINT_SUPPORT:
      d->constraint_support = va_arg(ap, int) != 0;
      break;
    case SQLITE_VTAB_INNOCUOUS:
      d->risk = 1;
      break;
    case SQLITE_VTAB_DIRECTONLY:
      d->risk = 2;
      break;
    default:
      rc = SQLITE_MISUSE;
      break;
  }
  va_end(ap);
  return rc;
}

int sqlite3_vtab_on_conflict(sqlite3* db) {
  (void)db;
  int c = basalt::api::tl_on_conflict;
  return c == 0 ? SQLITE_ABORT : c;
}

int sqlite3_vtab_nochange(sqlite3_context* ctx) {
  return ctx != nullptr && basalt::api::AsCtx(ctx)->vtab_nochange ? 1 : 0;
}

const char* sqlite3_vtab_collation(sqlite3_index_info* info, int i) {
  const basalt::IndexInfo* src = SourceOf(info);
  if (i < 0 || static_cast<size_t>(i) >= src->constraints.size()) return "BINARY";
  const basalt::Collation* c = src->constraints[static_cast<size_t>(i)].coll;
  return c != nullptr ? c->name : "BINARY";
}

int sqlite3_vtab_distinct(sqlite3_index_info* info) { return SourceOf(info)->distinct; }

int sqlite3_vtab_in(sqlite3_index_info* info, int i, int handle) {
  // IN constraints reach xFilter one value at a time (the list is never
  // handed over whole), so no constraint "can be processed all at once".
  (void)info;
  (void)i;
  (void)handle;
  return 0;
}

int sqlite3_vtab_in_first(sqlite3_value* list, sqlite3_value** out) {
  (void)list;
  if (out != nullptr) *out = nullptr;
  return SQLITE_MISUSE;
}

int sqlite3_vtab_in_next(sqlite3_value* list, sqlite3_value** out) {
  (void)list;
  if (out != nullptr) *out = nullptr;
  return SQLITE_MISUSE;
}

int sqlite3_vtab_rhs_value(sqlite3_index_info* info, int i, sqlite3_value** out) {
  const basalt::IndexInfo* src = SourceOf(info);
  if (out != nullptr) *out = nullptr;
  if (i < 0 || static_cast<size_t>(i) >= src->constraints.size()) return SQLITE_MISUSE;
  const basalt::Value* v = src->constraints[static_cast<size_t>(i)].rhs;
  if (v == nullptr) return SQLITE_NOTFOUND;
  *out = basalt::api::AsApi(const_cast<basalt::Value*>(v));
  return SQLITE_OK;
}

}  // extern "C"

// sqlite3_update_hook and the preupdate hook (sqlite3_preupdate_hook and
// the accessors its callback may call). The VM side is exec/change_hooks.h:
// VmEnv::change_hooks stays null while neither hook is set, so the write
// opcodes ask nothing then.
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include "api/guard.h"
#include "api/handles.h"
#include "catalog/schema.h"
#include "exec/change_hooks.h"
#include "main/database.h"

using basalt::ChangeHooks;
using basalt::ChangeOp;
using basalt::PreUpdateFrame;
using basalt::Table;
using basalt::Value;
using basalt::api::AsApi;
using basalt::api::GuardVoid;
using basalt::api::HasConnection;

namespace {

using UpdateFn = void (*)(void*, int, const char*, const char*, sqlite3_int64);
using PreUpdateFn = void (*)(void*, sqlite3*, int, const char*, const char*, sqlite3_int64,
                             sqlite3_int64);

const char* DbNameOf(sqlite3* db, const Table* t) {
  return db->conn->dbs().at(t->db())->name.c_str();
}

void FireUpdate(ChangeHooks* h, ChangeOp op, const Table* t, int64_t rowid) {
  auto* db = static_cast<sqlite3*>(h->owner);
  auto fn = reinterpret_cast<UpdateFn>(h->update_cb);
  fn(h->update_arg, static_cast<int>(op), DbNameOf(db, t), t->name.c_str(), rowid);
}

void FirePreUpdate(ChangeHooks* h, const PreUpdateFrame& f) {
  auto* db = static_cast<sqlite3*>(h->owner);
  auto fn = reinterpret_cast<PreUpdateFn>(h->preupdate_cb);
  // The value copies of an outer call (a hook inside a hook's statement is
  // not allowed, but keep them intact anyway).
  std::vector<Value> saved_old, saved_new;
  saved_old.swap(h->old_values);
  saved_new.swap(h->new_values);
  const size_t n = f.table->columns.size();
  h->old_values.assign(f.old_row != nullptr ? n : 0, Value());
  h->new_values.assign(f.new_row != nullptr ? n : 0, Value());
  fn(h->preupdate_arg, db, static_cast<int>(f.op), DbNameOf(db, f.table), f.table->name.c_str(),
     f.key1, f.key2);
  h->old_values.swap(saved_old);
  h->new_values.swap(saved_new);
}

// Points env->change_hooks at the hook state while a hook is set (C1).
void Sync(sqlite3* db) {
  basalt::VmEnv* env = db->conn->env();
  ChangeHooks* h = &env->hook_state;
  h->owner = db;
  h->fire_update = &FireUpdate;
  h->fire_preupdate = &FirePreUpdate;
  h->has_update = h->update_cb != nullptr;
  h->has_preupdate = h->preupdate_cb != nullptr;
  env->change_hooks = (h->has_update || h->has_preupdate) ? h : nullptr;
  db->conn->options().preupdate_hook = h->has_preupdate;
}

const PreUpdateFrame* CurrentFrame(sqlite3* db) {
  if (!HasConnection(db)) return nullptr;
  return db->conn->env()->hook_state.current;
}

// sqlite3_preupdate_old / _new: column i of `row` (null: the wrong side for
// this operation), copied into `cache` so the register stays untouched.
int ReadColumn(sqlite3* db, int i, sqlite3_value** out, bool old_side) {
  const PreUpdateFrame* f = CurrentFrame(db);
  if (f == nullptr) return SQLITE_MISUSE;
  ChangeHooks* h = &db->conn->env()->hook_state;
  const Value* row = old_side ? f->old_row : f->new_row;
  std::vector<Value>& cache = old_side ? h->old_values : h->new_values;
  if (row == nullptr) return SQLITE_MISUSE;
  if (i < 0 || static_cast<size_t>(i) >= cache.size()) return SQLITE_RANGE;
  // SQLite numbers the values as the record stores them: VIRTUAL generated
  // columns are skipped, and the last numbers (as many as there are
  // VIRTUAL columns) are out of range.
  int col = -1;
  for (int k = 0; k <= i; ++k) {
    do {
      ++col;
      if (static_cast<size_t>(col) >= f->table->columns.size()) return SQLITE_RANGE;
    } while (f->table->columns[static_cast<size_t>(col)].is_virtual());
  }
  Value& v = cache[static_cast<size_t>(i)];
  v = row[1 + col];
  if (old_side && f->old_fields >= 0 && i >= f->old_fields) v.SetNull();
  // What SQLite reads back from the record: a REAL column holding an
  // integral value is stored as an integer, and its record reader applies
  // REAL affinity by field number, which for a WITHOUT ROWID table (key
  // columns first) is another column's.
  const std::vector<basalt::Column>& cols = f->table->columns;
  const bool from_record = old_side || f->op == ChangeOp::kInsert;
  if (from_record && cols[static_cast<size_t>(col)].affinity == basalt::Affinity::kReal &&
      v.is_real()) {
    double d = v.real_value();
    if (d >= -9.2233720368547758e18 && d < 9.2233720368547758e18 &&
        static_cast<double>(static_cast<int64_t>(d)) == d) {
      v.SetInt(static_cast<int64_t>(d));
    }
  }
  if (old_side && v.is_int()) {
    int field = f->table->without_rowid ? f->table->Field(col) : i;
    if (cols[static_cast<size_t>(field)].affinity == basalt::Affinity::kReal) {
      v.SetReal(static_cast<double>(v.int_value()));
    }
  }
  *out = AsApi(&v);
  return SQLITE_OK;
}

}  // namespace

extern "C" {

void* sqlite3_update_hook(sqlite3* db, UpdateFn fn, void* arg) {
  void* prev = nullptr;
  if (!HasConnection(db)) return nullptr;
  GuardVoid(db, [&] {
    ChangeHooks* h = &db->conn->env()->hook_state;
    prev = h->update_arg;
    h->update_cb = reinterpret_cast<ChangeHooks::AnyFn>(fn);
    h->update_arg = arg;
    Sync(db);
  });
  return prev;
}

void* sqlite3_preupdate_hook(sqlite3* db, PreUpdateFn fn, void* arg) {
  void* prev = nullptr;
  if (!HasConnection(db)) return nullptr;
  GuardVoid(db, [&] {
    ChangeHooks* h = &db->conn->env()->hook_state;
    prev = h->preupdate_arg;
    h->preupdate_cb = reinterpret_cast<ChangeHooks::AnyFn>(fn);
    h->preupdate_arg = arg;
    Sync(db);
  });
  return prev;
}

// The accessors run inside the callback, on the thread that holds the
// connection's mutex already: they take no lock.
int sqlite3_preupdate_old(sqlite3* db, int i, sqlite3_value** out) {
  try {
    return ReadColumn(db, i, out, true);
  } catch (...) {
    return SQLITE_NOMEM;
  }
}

int sqlite3_preupdate_new(sqlite3* db, int i, sqlite3_value** out) {
  try {
    return ReadColumn(db, i, out, false);
  } catch (...) {
    return SQLITE_NOMEM;
  }
}

int sqlite3_preupdate_count(sqlite3* db) {
  const PreUpdateFrame* f = CurrentFrame(db);
  return f != nullptr ? static_cast<int>(f->table->columns.size()) : 0;
}

int sqlite3_preupdate_depth(sqlite3* db) {
  const PreUpdateFrame* f = CurrentFrame(db);
  return f != nullptr ? f->depth : 0;
}

int sqlite3_preupdate_blobwrite(sqlite3* db) {
  const PreUpdateFrame* f = CurrentFrame(db);
  return f != nullptr ? f->blob_column : -1;
}

}  // extern "C"

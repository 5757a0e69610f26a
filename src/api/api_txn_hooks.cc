// Connection callbacks: sqlite3_progress_handler, sqlite3_commit_hook,
// sqlite3_rollback_hook; and sqlite3_enable_shared_cache.
#include <atomic>
#include <string>

#include "api/guard.h"
#include "api/handles.h"

using basalt::api::Guard;
using basalt::api::GuardVoid;
using basalt::api::HasConnection;

namespace {

// sqlite3_enable_shared_cache's setting. Basalt has no shared cache: every
// connection keeps its own page cache whatever this says (SQLite documents
// the mode as discouraged and optional); the call only records the choice.
std::atomic<int> shared_cache_mode{0};

}  // namespace

extern "C" {

// n < 1 or a null callback turns the handler off.
void sqlite3_progress_handler(sqlite3* db, int n, int (*cb)(void*), void* arg) {
  if (!HasConnection(db)) return;
  GuardVoid(db, [&] {
    basalt::ProgressHook& p = db->conn->env()->progress;
    if (n > 0 && cb != nullptr) {
      p.fn = cb;
      p.arg = arg;
      p.period = n;
    } else {
      p.fn = nullptr;
      p.arg = nullptr;
      p.period = 1;
    }
    p.count = 0;
  });
}

void* sqlite3_commit_hook(sqlite3* db, int (*cb)(void*), void* arg) {
  if (!HasConnection(db)) return nullptr;
  return Guard(db, static_cast<void*>(nullptr), [&] {
    basalt::TxnHooks& h = db->conn->txn().hooks();
    void* old = h.commit_arg;
    h.commit = cb;
    h.commit_arg = arg;
    return old;
  });
}

void* sqlite3_rollback_hook(sqlite3* db, void (*cb)(void*), void* arg) {
  if (!HasConnection(db)) return nullptr;
  return Guard(db, static_cast<void*>(nullptr), [&] {
    basalt::TxnHooks& h = db->conn->txn().hooks();
    void* old = h.rollback_arg;
    h.rollback = cb;
    h.rollback_arg = arg;
    return old;
  });
}

// Installed on the databases open now (attached later ones keep removing
// every free page).
int sqlite3_autovacuum_pages(sqlite3* db,
                             unsigned (*cb)(void*, const char*, unsigned, unsigned, unsigned),
                             void* arg, void (*destroy)(void*)) {
  if (!HasConnection(db)) {
    if (destroy != nullptr) destroy(arg);
    return SQLITE_MISUSE;
  }
  return Guard(db, basalt::api::kCodeOnThrow, [&] {
    if (db->cb.av_destroy != nullptr) db->cb.av_destroy(db->cb.av_arg);
    db->cb.av_pages = cb;
    db->cb.av_arg = arg;
    db->cb.av_destroy = destroy;
    basalt::SchemaStore& dbs = db->conn->dbs();
    for (int i = 0; i < dbs.size(); ++i) {
      basalt::Database* d = dbs.at(i);
      if (d->bt == nullptr) continue;
      if (cb == nullptr) {
        d->bt->SetAutoVacuumPages(nullptr);
        continue;
      }
      std::string name = d->name;
      d->bt->SetAutoVacuumPages([db, name](uint32_t pages, uint32_t nfree, uint32_t size) {
        const ApiCallbacks& c = db->cb;
        return c.av_pages != nullptr ? c.av_pages(c.av_arg, name.c_str(), pages, nfree, size)
                                     : nfree;
      });
    }
    return SQLITE_OK;
  });
}

int sqlite3_enable_shared_cache(int enable) {
  shared_cache_mode.store(enable != 0 ? 1 : 0, std::memory_order_relaxed);
  return SQLITE_OK;
}

}  // extern "C"

// Connection handles: the pool that keeps closed handles for reuse (so a
// stale handle never points at freed memory), the statement list, and the
// last step of closing a connection.
#include <mutex>
#include <vector>

#include "api/handles.h"

namespace basalt::api {

namespace {

// Invariant P1: free.capacity() >= total, so RetireHandle never allocates.
struct Pool {
  std::mutex mu;
  std::vector<sqlite3*> free;
  size_t total = 0;  // handles ever made (all alive: none is deleted)
};

Pool& ThePool() {
  static auto* pool = new Pool();  // never destroyed: handles may outlive exit
  return *pool;
}

}  // namespace

sqlite3* AcquireHandle() {
  Pool& p = ThePool();
  std::lock_guard<std::mutex> g(p.mu);
  if (!p.free.empty()) {
    sqlite3* db = p.free.back();
    p.free.pop_back();
    return db;
  }
  if (p.free.capacity() < p.total + 1) p.free.reserve(p.total < 8 ? 16 : 2 * p.total);  // P1
  auto* db = new sqlite3();
  ++p.total;
  return db;
}

void RetireHandle(sqlite3* db) noexcept {
  BASALT_DCHECK(db->conn == nullptr && db->stmts == nullptr);
  db->state.store(DbState::kClosed, std::memory_order_relaxed);
  db->err_code = SQLITE_OK;
  std::string().swap(db->err_msg);
  db->err_offset = -1;
  db->has_msg = false;
  db->extended_codes = false;
  db->cb = ApiCallbacks();
  db->scratch = ApiScratch();
  db->active_backups = 0;
  Pool& p = ThePool();
  std::lock_guard<std::mutex> g(p.mu);
  BASALT_DCHECK(p.free.size() < p.free.capacity());
  p.free.push_back(db);  // P1: within capacity
}

void LinkStatement(sqlite3* db, sqlite3_stmt* s) noexcept {
  s->db = db;
  s->newer = nullptr;
  s->older = db->stmts;
  if (db->stmts != nullptr) db->stmts->newer = s;
  db->stmts = s;
}

void UnlinkStatement(sqlite3_stmt* s) noexcept {
  if (s->newer != nullptr) {
    s->newer->older = s->older;
  } else {
    BASALT_DCHECK(s->db->stmts == s);
    s->db->stmts = s->older;
  }
  if (s->older != nullptr) s->older->newer = s->newer;
  s->newer = s->older = nullptr;
}

void DestroyConnection(sqlite3* db) noexcept {
  BASALT_DCHECK(db->stmts == nullptr);
  std::unique_ptr<Connection> conn = std::move(db->conn);
  db->state.store(DbState::kClosed, std::memory_order_relaxed);
  if (conn == nullptr) return;
  // Roll back here, where a failure can be caught: the destructor must not
  // meet one. If the rollback keeps failing (out of memory), the connection
  // is leaked rather than destroyed half undone.
  for (int attempt = 0; attempt < 3; ++attempt) {
    try {
      (void)conn->RollbackForClose();
      conn.reset();
      return;
    } catch (...) {
    }
  }
  (void)conn.release();
}

void RetireIfUnheld(sqlite3* db) noexcept {
  // Still held: the application entered sqlite3_db_mutex around the close.
  // The handle cannot be reused safely then; it stays closed, out of the
  // pool.
  if (db->mutex != nullptr && db->mutex->Held()) return;
  RetireHandle(db);
}

}  // namespace basalt::api

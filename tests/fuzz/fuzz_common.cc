#include "fuzz_common.h"

#include <chrono>
#include <cstring>

namespace basalt_fuzz {
namespace {

int64_t NowMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

// Called every kStepsPerCall VM instructions: a nonzero return interrupts.
constexpr int kStepsPerCall = 64;
int OnProgress(void* arg) {
  auto* b = static_cast<Budget*>(arg);
  b->steps_left -= kStepsPerCall;
  if (b->steps_left <= 0) return 1;
  return NowMs() > b->deadline_ms ? 1 : 0;
}

int Authorize(void*, int action, const char* a1, const char*, const char*, const char*) {
  if (action == SQLITE_ATTACH) {
    if (a1 == nullptr || a1[0] == 0 || std::strcmp(a1, ":memory:") == 0) return SQLITE_OK;
    return SQLITE_DENY;
  }
  return SQLITE_OK;
}

}  // namespace

void ConfigureConnection(sqlite3* db, Budget* budget, int64_t steps, int64_t millis) {
  budget->steps_left = steps;
  budget->deadline_ms = NowMs() + millis;
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1000000);
  sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, 100000);
  sqlite3_limit(db, SQLITE_LIMIT_EXPR_DEPTH, 500);
  sqlite3_limit(db, SQLITE_LIMIT_COMPOUND_SELECT, 100);
  sqlite3_limit(db, SQLITE_LIMIT_VDBE_OP, 100000);
  sqlite3_limit(db, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 1000);
  sqlite3_limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 50);
  sqlite3_progress_handler(db, kStepsPerCall, OnProgress, budget);
}

void DenyFileAccess(sqlite3* db) { sqlite3_set_authorizer(db, Authorize, nullptr); }

int StepAll(sqlite3_stmt* stmt, int max_rows) {
  int rc;
  int rows = 0;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    int n = sqlite3_column_count(stmt);
    for (int i = 0; i < n; ++i) {
      switch (sqlite3_column_type(stmt, i)) {
        case SQLITE_INTEGER:
          (void)sqlite3_column_int64(stmt, i);
          break;
        case SQLITE_FLOAT:
          (void)sqlite3_column_double(stmt, i);
          break;
        default:
          (void)sqlite3_column_text(stmt, i);
          (void)sqlite3_column_bytes(stmt, i);
          break;
      }
      (void)sqlite3_column_name(stmt, i);
      (void)sqlite3_column_decltype(stmt, i);
    }
    if (++rows >= max_rows) break;
  }
  return rc;
}

int RunScript(sqlite3* db, const char* sql, int max_rows) {
  int prepared = 0;
  const char* tail = sql;
  while (tail != nullptr && *tail != 0) {
    sqlite3_stmt* stmt = nullptr;
    const char* next = nullptr;
    int rc = sqlite3_prepare_v2(db, tail, -1, &stmt, &next);
    if (rc != SQLITE_OK) {
      // Resume after the next semicolon (a rough statement boundary is enough here).
      const char* semi = std::strchr(tail, ';');
      if (semi == nullptr) break;
      next = semi + 1;
    } else {
      ++prepared;
    }
    if (stmt != nullptr) {
      StepAll(stmt, max_rows);
      sqlite3_finalize(stmt);
    }
    if (next == nullptr || next <= tail) break;
    tail = next;
  }
  return prepared;
}

}  // namespace basalt_fuzz

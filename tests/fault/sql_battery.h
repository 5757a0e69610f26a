// A battery of SQL steps for fault loops (out of memory, I/O errors) over
// the C API: DDL (tables, indexes, a view, triggers), DML with indexes and
// triggers, queries with sorts, GROUP BY, subqueries and a window, ALTER
// TABLE, VACUUM, the switch to WAL, DML in WAL mode and a checkpoint.
//
// Every step is one statement or one BEGIN ... COMMIT block, so that after
// a failure the database holds either the state before the step or the
// state after it (never a part). The loop (RunFaultLoop):
//   1. a reference run without faults keeps, for each step, a copy of the
//      database file before it, the digest of the rows before and after,
//      and the result of a query step;
//   2. for each step and n = 1, 2, ...: a fresh copy of the file, a new
//      connection, the step's prelude, then the step with the n-th fault
//      point armed (once, or every point from the n-th on), until a run
//      fires no fault;
//   3. after each run: the error code must be one the fault allows; with
//      faults off, an open transaction is rolled back; integrity_check
//      says "ok" and the digest is the state before or after the step; the
//      same holds on a second connection opened afterwards; nothing leaks.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sqlite3.h"

namespace basalt::faulttest {

struct BatteryStep {
  const char* prelude;  // run without faults before the step (or nullptr)
  const char* sql;      // the step (its rows, if any, are hashed)
};

// The steps, in order; they build on each other.
const std::vector<BatteryStep>& Battery();

// The fault under test. Arm(n, persistent) makes fault point n (1-based)
// fail, and with `persistent` every later one; Disarm() stops failing and
// returns whether a fault fired. AcceptableError(rc) says whether a failed
// step may answer rc. LiveCount() (or nullptr) counts live allocations,
// for the leak check.
struct FaultHooks {
  std::function<void(long, bool)> arm;
  std::function<bool()> disarm;
  std::function<bool(int)> acceptable_error;
  std::function<long()> live_count;
  const char* vfs = nullptr;                      // the VFS the faulted connections use
  const char* setup = "PRAGMA synchronous=FULL";  // run on every connection opened
};

struct LoopResult {
  long runs = 0;          // connections the step ran on with a fault armed
  long fault_points = 0;  // runs in which a fault fired
  long rows_checked = 0;  // rows compared by the digests
  std::vector<std::string> problems;
};

// The whole loop over the battery, in `dir` (created if missing). Stops
// collecting after a few problems.
LoopResult RunFaultLoop(const std::string& dir, const FaultHooks& hooks, bool persistent);

// A hash of every row of the battery's tables and of sqlite_schema, in a
// fixed order; *rows counts the rows read. "error: ..." on error.
std::string Digest(sqlite3* db, long* rows);

}  // namespace basalt::faulttest

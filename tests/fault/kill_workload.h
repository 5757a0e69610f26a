// The workload of the process-kill test (kill_test.cc): what each writer
// slot's transactions change, as SQL text both Basalt and the sqlite3 shell
// run, and the state a slot's rows must be in after its first m
// transactions committed (and no others).
//
// Slot s runs transactions n = 1, 2, 3, ... in order, whichever process
// (Basalt or sqlite3) serves the slot. Transaction n of slot s:
//   1. inserts RowsIn(n) rows (s, n, k, upd = 0, v = Payload(s, n, k, 0)) into
//      t, some of them larger than a page (overflow chains);
//   2. rewrites the even-k rows of transaction n - 1 (upd = n, a payload of
//      another length, so overflow chains grow, shrink or vanish);
//   3. deletes every row of transaction n - 3 (pages go to the freelist and
//      come back);
//   4. inserts (s, n, RowsIn(n)) into c, one row per transaction ever;
//   5. sets h(s) = n with INSERT OR REPLACE.
// So after m transactions the rows of slot s are fully determined by m:
// ExpectedSlotState(s, m) is exactly what SlotStateQuery(s) must print.
#pragma once

#include <cstdint>
#include <string>

namespace basalt::testing {

// The tables (created once, by the parent, before any writer runs).
extern const char* const kKillSchema;

// Rows inserted by transaction n (most are small; every ninth is large
// enough to spill a small page cache).
int RowsIn(int64_t txn);

// The text stored for row (slot, txn, k) after the update numbered `upd`
// (0: as inserted). ASCII letters and digits only, 1 to 12000 bytes.
std::string Payload(int slot, int64_t txn, int k, int64_t upd);

// BEGIN IMMEDIATE; ...transaction n of the slot...; COMMIT; (each statement
// ends with ";\n").
std::string TxnSql(int slot, int64_t txn);

// Statements printing a slot's state, one row per line, values separated by
// '|' (the sqlite3 shell's list mode, and tests/unit/main/sql_session).
std::string SlotStateQuery(int slot);

// What SlotStateQuery(slot) prints once transactions 1..m of the slot have
// committed.
std::string ExpectedSlotState(int slot, int64_t m);

// The first line where `got` and `want` differ, both sides shortened (for
// failure messages); empty if they are equal.
std::string FirstDifference(const std::string& got, const std::string& want);

}  // namespace basalt::testing

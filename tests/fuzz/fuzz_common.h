// Shared set-up of the C API fuzz targets: a connection whose every statement
// runs under a budget, so that no input can hang the fuzzer or exhaust memory.
#pragma once

#include <cstdint>

#include "sqlite3.h"

namespace basalt_fuzz {

// Budget of one fuzz input: VM steps (counted through the progress handler)
// and wall-clock milliseconds; whichever runs out first interrupts.
struct Budget {
  int64_t steps_left = 0;
  int64_t deadline_ms = 0;
};

// Sets the limits every target uses on db (value lengths, SQL length, depths,
// compound terms, ...) and installs the progress handler that consumes
// *budget. The budget must outlive db.
void ConfigureConnection(sqlite3* db, Budget* budget, int64_t steps, int64_t millis);

// Denies ATTACH of anything but an in-memory database (run.sh also runs the
// fuzzers in a scratch directory, for VACUUM INTO and the like).
void DenyFileAccess(sqlite3* db);

// Steps stmt to completion (or until the budget or `max_rows` stops it),
// reading every column of every row as each storage class.
int StepAll(sqlite3_stmt* stmt, int max_rows);

// Prepares and runs every statement of sql (NUL-terminated); returns the
// number of statements that prepared.
int RunScript(sqlite3* db, const char* sql, int max_rows);

}  // namespace basalt_fuzz

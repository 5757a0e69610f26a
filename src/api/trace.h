// Trace events the statement entry points raise (api_trace.cc); each is a
// no-op unless the connection asked for it.
#pragma once

#include "api/handles.h"

namespace basalt::api {

// Before the first step of an execution: SQLITE_TRACE_STMT (or the legacy
// trace with the expanded SQL), and the start of the profile timer.
void TraceStart(sqlite3_stmt* s);
// After the trace settings change: the VM's hook for trigger comments.
void SyncTraceHook(sqlite3* db);
// A step returned a row: SQLITE_TRACE_ROW.
void TraceRow(sqlite3_stmt* s);
// The execution ended (done, error, reset or finalize while running):
// SQLITE_TRACE_PROFILE and the legacy profile callback, once.
void TraceEnd(sqlite3_stmt* s);
// The connection is closing: SQLITE_TRACE_CLOSE.
void TraceClose(sqlite3* db);

// After a statement ended: sqlite3_wal_hook for each WAL database that
// committed (api_misc.cc).
void RunWalHook(sqlite3* db);

inline bool Traced(const sqlite3* db) { return db->cb.trace_mask != 0; }

}  // namespace basalt::api

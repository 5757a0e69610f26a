// The update hook and the preupdate hook (sqlite3_update_hook,
// sqlite3_preupdate_hook) as the VM sees them.
//
// Which writes fire them is decided by the code generator through P5 bits
// of Insert, IdxInsert and Delete (program.h: kInsPreHook, kInsUpdHook,
// kInsHookOnly); the VM looks at them only when VmEnv::change_hooks is set,
// which the C API does only while at least one hook is installed, so a
// connection without hooks pays one null test per written row.
//
// Invariants:
//   C1. VmEnv::change_hooks is null or points at a ChangeHooks with at least
//       one of update / preupdate set.
//   C2. ChangeHooks::current is non-null exactly while a preupdate callback
//       runs; it points at the frame of that call (the sqlite3_preupdate_*
//       accessors read it).
#pragma once

#include <cstdint>
#include <vector>

#include "record/value.h"

namespace basalt {

struct Table;

// SQLite's operation codes (SQLITE_DELETE, SQLITE_INSERT, SQLITE_UPDATE).
enum class ChangeOp : int { kDelete = 9, kInsert = 18, kUpdate = 23 };

// One preupdate event: the row before and after, as registers laid out the
// way the code generator keeps rows (the rowid, then every column).
struct PreUpdateFrame {
  ChangeOp op = ChangeOp::kInsert;
  const Table* table = nullptr;
  const Value* old_row = nullptr;  // [0] rowid, [1..] columns; null for INSERT
  const Value* new_row = nullptr;  // likewise; null for DELETE
  int depth = 0;                   // trigger nesting of the write
  int blob_column = -1;            // sqlite3_blob_write's column, else -1
  // Fields of the old row's record (a row written before ALTER TABLE ADD
  // COLUMN has fewer: SQLite's preupdate_old reads NULL past them); -1: all.
  int old_fields = -1;
  int64_t key1 = 0;
  int64_t key2 = 0;
};

struct ChangeHooks {
  // Called by the VM; `fire_*` are installed by the C API layer, which turns
  // the event into the user's callback (database name, table name).
  void (*fire_update)(ChangeHooks* h, ChangeOp op, const Table* t, int64_t rowid) = nullptr;
  void (*fire_preupdate)(ChangeHooks* h, const PreUpdateFrame& f) = nullptr;
  // The application's callbacks (stored as a generic function pointer; the
  // C API casts them back to their real types) and their first arguments.
  using AnyFn = void (*)();
  AnyFn update_cb = nullptr;
  AnyFn preupdate_cb = nullptr;
  void* update_arg = nullptr;
  void* preupdate_arg = nullptr;
  bool has_update = false;
  bool has_preupdate = false;
  const PreUpdateFrame* current = nullptr;  // C2
  void* owner = nullptr;                    // the API's connection handle
  // Copies of the values the sqlite3_preupdate_old / _new accessors handed
  // out during the current call (one slot per column; the registers
  // themselves are never given to the application).
  std::vector<Value> old_values;
  std::vector<Value> new_values;
};

}  // namespace basalt

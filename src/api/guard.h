// The one mechanism every sqlite3_* entry point runs its body through:
//
//   return Guard(db, on_throw, [&] { ... });
//
//   * holds the connection's mutex for the length of the call (serialized
//     connections; nothing for multi-thread / single-thread ones), and
//   * keeps C++ exceptions inside the library: std::bad_alloc becomes
//     SQLITE_NOMEM with "out of memory" as the connection's error (what
//     SQLite reports), any other exception SQLITE_INTERNAL; the entry point
//     then returns on_throw (kCodeOnThrow: the code itself).
//
// The target names where an error goes and which mutex to hold: a
// connection (its mutex), a function context (its statement's connection
// is already locked by the step that called the function, so none), or
// nullptr (values: no connection, no lock).
//
// Invariant G1: no exception leaves an extern "C" function of src/api; in
// particular none unwinds through an application's C callback, since every
// API a callback can call is guarded.
#pragma once

#include <climits>
#include <cstddef>
#include <type_traits>

#include "api/handles.h"

namespace basalt::api {

// Holds a connection's mutex (if it has one) until the end of the scope.
class MutexLock {
 public:
  explicit MutexLock(sqlite3_mutex* mu) noexcept : mu_(mu) {
    if (mu_ != nullptr) biased_ = mu_->EnterConnection();
  }
  ~MutexLock() {
    if (mu_ != nullptr) mu_->LeaveConnection(biased_);
  }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  sqlite3_mutex* mu_;
  bool biased_ = false;
};

inline sqlite3_mutex* MutexOf(sqlite3* db) noexcept { return db != nullptr ? db->mutex : nullptr; }
inline sqlite3_mutex* MutexOf(FuncContext*) noexcept { return nullptr; }
inline sqlite3_mutex* MutexOf(std::nullptr_t) noexcept { return nullptr; }

// Called inside a catch block: records the exception being handled as the
// target's error and returns its result code.
int NoteException(sqlite3* db) noexcept;
int NoteException(FuncContext* ctx) noexcept;
int NoteException(std::nullptr_t) noexcept;

// on_throw value meaning "return the error code of the exception".
inline constexpr int kCodeOnThrow = INT_MIN;

template <typename Target, typename R, typename Body>
R Guard(Target target, R on_throw, Body&& body) noexcept {
  MutexLock lock(MutexOf(target));
  try {
    return body();
  } catch (...) {
    int code = NoteException(target);
    if constexpr (std::is_same_v<R, int>) {
      if (on_throw == kCodeOnThrow) return code;
    }
    (void)code;
    return on_throw;
  }
}

// The same for entry points that return nothing.
template <typename Target, typename Body>
void GuardVoid(Target target, Body&& body) noexcept {
  MutexLock lock(MutexOf(target));
  try {
    body();
  } catch (...) {
    NoteException(target);
  }
}

}  // namespace basalt::api

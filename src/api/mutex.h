// The mutex behind sqlite3_mutex handles and every connection's lock
// (sqlite3_db_mutex), and the library's threading mode (sqlite3_config).
//
// A sqlite3_mutex knows which thread holds it, so that recursive entry,
// sqlite3_mutex_try on a fast mutex the caller already holds (SQLITE_BUSY,
// as a pthread mutex answers) and sqlite3_mutex_held work.
//
// The lock is a futex word (FutexLock). Every API call of a serialized
// connection enters its mutex, and an atomic read-modify-write costs tens
// of cycles, so a connection's mutex is *biased*: the first thread to
// enter it owns it and enters and leaves with plain loads and stores, no
// atomic read-modify-write, for as long as no other thread comes. The
// first other thread *inflates* the mutex, once: it takes the futex,
// marks the mutex inflated, makes every thread of the process pass a full
// memory barrier (membarrier(2), so the owner's cheap entry needs no
// fence of its own), and waits until the owner is outside any call. From
// then on everyone, the owner included, uses the futex. Without
// membarrier(2) connection mutexes start inflated.
//
// Invariants:
//   M1. owner_ is the tag of the thread holding the futex, or 0; only the
//       holder writes its own tag, so a thread reading its own tag there
//       holds it (a relaxed load is enough for that question).
//   M2. depth_ counts the futex holder's entries (1 for a fast mutex); only
//       the holder touches it.
//   M3. A no-op mutex (single-thread mode) never blocks and counts as held.
//   B1. bias_owner_, once set (0 -> tag, by compare-exchange), never
//       changes until Rebias(); bias_depth_ is written only by that thread
//       and counts its entries made without the futex.
//   B2. inflated_ goes from false to true only while holding the futex, and
//       the membarrier(2) follows before the futex is released.
//   B3. Mutual exclusion: a thread inside without the futex has stored
//       bias_depth_ > 0 and then seen inflated_ false; the inflating thread
//       stores inflated_ true, runs membarrier(2), and then waits for
//       bias_depth_ == 0 (and so does everyone who takes the futex later).
//       membarrier(2) orders the owner's store before its load or the
//       inflater's store before the owner's load: one of them sees the
//       other. The owner's release store of bias_depth_ 0 makes its work
//       visible to whoever waited for it.
#pragma once

#include <pthread.h>

#include <atomic>
#include <cstdint>

#include "common/assert.h"

namespace basalt::api {

// The calling thread's identity as a non-zero integer (the thread pointer:
// one register read).
inline uintptr_t ThreadTag() noexcept {
#if defined(__has_builtin) && __has_builtin(__builtin_thread_pointer)
  return reinterpret_cast<uintptr_t>(__builtin_thread_pointer()) | 1u;
#else
  return static_cast<uintptr_t>(pthread_self()) | 1u;
#endif
}

// Whether membarrier(2) can order other threads' memory accesses (checked
// and registered once); and the barrier itself.
bool ProcessBarrierAvailable() noexcept;
void ProcessBarrier() noexcept;

// A non-recursive lock on one 32-bit word: 0 free, 1 held, 2 held with
// (possible) sleepers. Waiters spin briefly, then sleep on the futex.
class FutexLock {
 public:
  void lock() noexcept {
    uint32_t expected = 0;
    if (word_.compare_exchange_strong(expected, 1, std::memory_order_acquire,
                                      std::memory_order_relaxed)) {
      return;
    }
    LockSlow();
  }
  bool try_lock() noexcept {
    uint32_t expected = 0;
    return word_.compare_exchange_strong(expected, 1, std::memory_order_acquire,
                                         std::memory_order_relaxed);
  }
  void unlock() noexcept {
    if (word_.exchange(0, std::memory_order_release) == 2) Wake();
  }

 private:
  void LockSlow() noexcept;  // library.cc
  void Wake() noexcept;
  std::atomic<uint32_t> word_{0};
};

// The type of ThreadingMode values (SQLITE_CONFIG_SINGLETHREAD / MULTITHREAD
// / SERIALIZED).
enum class ThreadingMode : int { kSingleThread = 1, kMultiThread = 2, kSerialized = 3 };
ThreadingMode CurrentThreadingMode() noexcept;

}  // namespace basalt::api

struct sqlite3_mutex {
  // kConnection: recursive and biased (a connection's own mutex).
  enum class Kind : uint8_t { kFast, kRecursive, kNoop, kConnection };

  constexpr explicit sqlite3_mutex(Kind kind = Kind::kRecursive) noexcept : kind_(kind) {}
  sqlite3_mutex(const sqlite3_mutex&) = delete;
  sqlite3_mutex& operator=(const sqlite3_mutex&) = delete;

  Kind kind() const noexcept { return kind_; }

  // A connection mutex for a new connection: unbiased, not yet inflated
  // (inflated at once when membarrier(2) is missing). Nobody may hold it.
  void Rebias() noexcept;

  void Enter() noexcept {
    if (kind_ == Kind::kNoop) return;
    const uintptr_t me = basalt::api::ThreadTag();
    if (kind_ == Kind::kConnection && EnterBiased(me)) return;
    EnterLocked(me);
  }

  // The same for a connection's mutex, as the API's entry points use it:
  // returns whether it entered without the futex, which the matching
  // LeaveConnection must be told.
  bool EnterConnection() noexcept {
    BASALT_DCHECK(kind_ == Kind::kConnection);
    const uintptr_t me = basalt::api::ThreadTag();
    if (bias_owner_.load(std::memory_order_relaxed) == me && EnterBiasedOwned()) return true;
    return EnterConnectionSlow(me);
  }
  void LeaveConnection(bool biased) noexcept {
    if (biased) {
      // Only the bias owner enters biased, and only it writes bias_depth_.
      bias_depth_.store(bias_depth_.load(std::memory_order_relaxed) - 1, std::memory_order_release);
      return;
    }
    LeaveLocked();
  }

  // true when entered (SQLITE_OK), false when another thread holds it or
  // the caller holds this fast mutex (SQLITE_BUSY).
  bool TryEnter() noexcept;

  void Leave() noexcept {
    if (kind_ == Kind::kNoop) return;
    const uintptr_t me = basalt::api::ThreadTag();
    if (kind_ == Kind::kConnection && LeaveBiased(me)) return;
    LeaveLocked();
  }

  // A no-op mutex counts as held (and as not held), as SQLite's does.
  bool Held() const noexcept {
    if (kind_ == Kind::kNoop) return true;
    const uintptr_t me = basalt::api::ThreadTag();
    if (owner_.load(std::memory_order_relaxed) == me) return true;
    return kind_ == Kind::kConnection && bias_owner_.load(std::memory_order_relaxed) == me &&
           bias_depth_.load(std::memory_order_relaxed) > 0;
  }
  bool NotHeld() const noexcept { return kind_ == Kind::kNoop || !Held(); }

 private:
  // Entry without the futex (B1, B3); false: take the futex instead.
  bool EnterBiased(uintptr_t me) noexcept {
    uintptr_t owner = bias_owner_.load(std::memory_order_relaxed);
    if (owner != me) {
      if (owner != 0 || inflated_.load(std::memory_order_relaxed)) return false;
      if (!bias_owner_.compare_exchange_strong(owner, me, std::memory_order_relaxed)) return false;
    }
    return EnterBiasedOwned();
  }

  // EnterBiased for the bias owner.
  bool EnterBiasedOwned() noexcept {
    int depth = bias_depth_.load(std::memory_order_relaxed);
    bias_depth_.store(depth + 1, std::memory_order_relaxed);
    // Only the compiler must keep the store before the load: the inflating
    // thread's membarrier(2) supplies the processor's barrier (B3). A
    // nested call (depth > 0) is inside already, inflated or not.
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (depth > 0 || !inflated_.load(std::memory_order_relaxed)) return true;
    bias_depth_.store(0, std::memory_order_release);  // inflated: back out
    return false;
  }

  // Out of line (library.cc), to keep the callers' fast paths small: the
  // first claim of the bias, or the futex.
  bool EnterConnectionSlow(uintptr_t me) noexcept;
  void LeaveLocked() noexcept;

  bool LeaveBiased(uintptr_t me) noexcept {
    if (bias_owner_.load(std::memory_order_relaxed) != me) return false;
    int depth = bias_depth_.load(std::memory_order_relaxed);
    if (depth == 0) return false;  // entered through the futex
    bias_depth_.store(depth - 1, std::memory_order_release);
    return true;
  }

  void EnterLocked(uintptr_t me) noexcept {
    if (owner_.load(std::memory_order_relaxed) == me) {
      // Re-entering a fast mutex deadlocks in SQLite; here it is a bug.
      BASALT_DCHECK(kind_ != Kind::kFast);
      ++depth_;
      return;
    }
    mu_.lock();
    if (kind_ == Kind::kConnection) FinishInflation(true);
    owner_.store(me, std::memory_order_relaxed);
    depth_ = 1;
  }

  // With the futex held: inflates if still needed (B2), then waits until
  // the owner is outside its last call made without the futex (B3); with
  // `wait` false returns false instead of waiting.
  bool FinishInflation(bool wait) noexcept;

  basalt::api::FutexLock mu_;
  std::atomic<uintptr_t> owner_{0};  // M1
  int depth_ = 0;                    // M2
  std::atomic<uintptr_t> bias_owner_{0};
  std::atomic<int> bias_depth_{0};
  std::atomic<bool> inflated_{false};
  Kind kind_;
};

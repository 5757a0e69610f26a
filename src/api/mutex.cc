// sqlite3_mutex: the futex lock, the biased connection mutex (see mutex.h
// for the protocol and its invariants), the static mutexes, and the
// sqlite3_mutex_* interface.
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <new>

#include "api/mutex.h"
#include "sqlite3.h"

namespace basalt::api {

namespace {

constexpr int kFirstStatic = SQLITE_MUTEX_STATIC_MAIN;
constexpr int kLastStatic = SQLITE_MUTEX_STATIC_VFS3;

constinit sqlite3_mutex g_static_mutexes[kLastStatic - kFirstStatic + 1] = {
    sqlite3_mutex(sqlite3_mutex::Kind::kFast), sqlite3_mutex(sqlite3_mutex::Kind::kFast),
    sqlite3_mutex(sqlite3_mutex::Kind::kFast), sqlite3_mutex(sqlite3_mutex::Kind::kFast),
    sqlite3_mutex(sqlite3_mutex::Kind::kFast), sqlite3_mutex(sqlite3_mutex::Kind::kFast),
    sqlite3_mutex(sqlite3_mutex::Kind::kFast), sqlite3_mutex(sqlite3_mutex::Kind::kFast),
    sqlite3_mutex(sqlite3_mutex::Kind::kFast), sqlite3_mutex(sqlite3_mutex::Kind::kFast),
    sqlite3_mutex(sqlite3_mutex::Kind::kFast), sqlite3_mutex(sqlite3_mutex::Kind::kFast)};
constinit sqlite3_mutex g_noop_mutex(sqlite3_mutex::Kind::kNoop);

sqlite3_mutex* StaticMutex(int id) { return &g_static_mutexes[id - kFirstStatic]; }
sqlite3_mutex* NoopMutex() { return &g_noop_mutex; }

}  // namespace

void FutexLock::LockSlow() noexcept {
  // A short spin first: the holder is usually inside one quick API call.
  for (int i = 0; i < 64; ++i) {
    uint32_t expected = 0;
    if (word_.load(std::memory_order_relaxed) == 0 &&
        word_.compare_exchange_weak(expected, 1, std::memory_order_acquire,
                                    std::memory_order_relaxed)) {
      return;
    }
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  // Then sleep: mark the word contended (2) and wait while it stays so.
  while (word_.exchange(2, std::memory_order_acquire) != 0) {
    syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word_), FUTEX_WAIT_PRIVATE, 2, nullptr, nullptr,
            0);
  }
}

void FutexLock::Wake() noexcept {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word_), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr,
          0);
}

bool ProcessBarrierAvailable() noexcept {
  static const bool available = [] {
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (cmds < 0 || (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) return false;
    return syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
  }();
  return available;
}

void ProcessBarrier() noexcept {
  if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) return;
  // Registered by ProcessBarrierAvailable; should the registration be
  // missing (a kernel that drops it across fork(2)), register and retry.
  (void)syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
  long rc = syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
  BASALT_DCHECK(rc == 0);
  (void)rc;
}

}  // namespace basalt::api

void sqlite3_mutex::Rebias() noexcept {
  BASALT_DCHECK(kind_ == Kind::kConnection && depth_ == 0 && bias_depth_.load() == 0);
  bias_owner_.store(0, std::memory_order_relaxed);
  inflated_.store(!basalt::api::ProcessBarrierAvailable(), std::memory_order_relaxed);
}

bool sqlite3_mutex::FinishInflation(bool wait) noexcept {
  if (!inflated_.load(std::memory_order_relaxed)) {
    inflated_.store(true, std::memory_order_seq_cst);
    basalt::api::ProcessBarrier();  // B3: after it, the owner sees inflated_ or we see its depth
  }
  // The owner may still be inside a call it entered without the futex.
  for (int spins = 0; bias_depth_.load(std::memory_order_acquire) != 0; ++spins) {
    if (!wait) return false;
    if (spins < 64) {
      sched_yield();
    } else {
      struct timespec ts = {0, 50 * 1000};  // 50 us
      nanosleep(&ts, nullptr);
    }
  }
  return true;
}

bool sqlite3_mutex::EnterConnectionSlow(uintptr_t me) noexcept {
  if (EnterBiased(me)) return true;
  EnterLocked(me);
  return false;
}

void sqlite3_mutex::LeaveLocked() noexcept {
  BASALT_DCHECK(owner_.load(std::memory_order_relaxed) == basalt::api::ThreadTag());
  if (--depth_ > 0) return;
  owner_.store(0, std::memory_order_relaxed);
  mu_.unlock();
}

bool sqlite3_mutex::TryEnter() noexcept {
  if (kind_ == Kind::kNoop) return true;
  const uintptr_t me = basalt::api::ThreadTag();
  if (kind_ == Kind::kConnection && EnterBiased(me)) return true;
  if (owner_.load(std::memory_order_relaxed) == me) {
    if (kind_ == Kind::kFast) return false;
    ++depth_;
    return true;
  }
  if (!mu_.try_lock()) return false;
  if (kind_ == Kind::kConnection && !FinishInflation(false)) {
    mu_.unlock();  // the owner is inside a call: busy
    return false;
  }
  owner_.store(me, std::memory_order_relaxed);
  depth_ = 1;
  return true;
}

using basalt::api::ThreadingMode;

extern "C" {

sqlite3_mutex* sqlite3_mutex_alloc(int id) {
  if (id == SQLITE_MUTEX_FAST || id == SQLITE_MUTEX_RECURSIVE) {
    if (sqlite3_initialize() != SQLITE_OK) return nullptr;
    if (basalt::api::CurrentThreadingMode() == ThreadingMode::kSingleThread) {
      return basalt::api::NoopMutex();
    }
    return new (std::nothrow)
        sqlite3_mutex(id == SQLITE_MUTEX_RECURSIVE ? sqlite3_mutex::Kind::kRecursive
                                                   : sqlite3_mutex::Kind::kFast);
  }
  if (id < basalt::api::kFirstStatic || id > basalt::api::kLastStatic) return nullptr;
  if (basalt::api::CurrentThreadingMode() == ThreadingMode::kSingleThread) {
    return basalt::api::NoopMutex();
  }
  return basalt::api::StaticMutex(id);
}

void sqlite3_mutex_free(sqlite3_mutex* m) {
  // A connection's mutex (sqlite3_db_mutex) belongs to the connection.
  if (m == nullptr || m->kind() == sqlite3_mutex::Kind::kNoop ||
      m->kind() == sqlite3_mutex::Kind::kConnection) {
    return;
  }
  // Static mutexes are never freed.
  for (int id = basalt::api::kFirstStatic; id <= basalt::api::kLastStatic; ++id) {
    if (m == basalt::api::StaticMutex(id)) return;
  }
  delete m;
}

void sqlite3_mutex_enter(sqlite3_mutex* m) {
  if (m != nullptr) m->Enter();
}

int sqlite3_mutex_try(sqlite3_mutex* m) {
  if (m == nullptr) return SQLITE_OK;
  return m->TryEnter() ? SQLITE_OK : SQLITE_BUSY;
}

void sqlite3_mutex_leave(sqlite3_mutex* m) {
  if (m != nullptr) m->Leave();
}

// As documented: a NULL mutex counts as held and as not held.
int sqlite3_mutex_held(sqlite3_mutex* m) { return m == nullptr || m->Held() ? 1 : 0; }
int sqlite3_mutex_notheld(sqlite3_mutex* m) { return m == nullptr || m->NotHeld() ? 1 : 0; }

}  // extern "C"

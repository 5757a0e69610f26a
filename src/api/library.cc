// Library set-up: sqlite3_initialize / sqlite3_shutdown / sqlite3_config
// and the threading mode (the mutexes themselves are in mutex.cc).
//
// The threading mode (threadsafe.html) decides which mutexes exist:
//   single-thread  no mutex at all: sqlite3_mutex_alloc hands out a no-op
//                  mutex and connections get none;
//   multi-thread   real mutexes, but a connection has one only when opened
//                  with SQLITE_OPEN_FULLMUTEX;
//   serialized     (the default) every connection has one unless opened
//                  with SQLITE_OPEN_NOMUTEX.
// The mode can change only while the library is not initialized.
#include <atomic>
#include <cstdarg>
#include <mutex>

#include "api/config.h"
#include "api/mutex.h"
#include "common/mem.h"
#include "os/vfs.h"
#include "sqlite3.h"

namespace basalt::api {

namespace {

std::atomic<int> g_mode{static_cast<int>(ThreadingMode::kSerialized)};
std::atomic<bool> g_initialized{false};

// Constant-initialized (no allocation, nothing to destroy): usable from
// any entry point at any time, even out of memory.
std::mutex g_init_mutex;

std::mutex& InitMutex() { return g_init_mutex; }

}  // namespace

ThreadingMode CurrentThreadingMode() noexcept {
  return static_cast<ThreadingMode>(g_mode.load(std::memory_order_relaxed));
}

}  // namespace basalt::api

extern "C" {

// Compiled with mutexes: SQLite's THREADSAFE=1, whatever the runtime mode.
int sqlite3_threadsafe(void) { return 1; }

int sqlite3_initialize(void) {
  if (basalt::api::g_initialized.load(std::memory_order_acquire)) return SQLITE_OK;
  std::lock_guard<std::mutex> g(basalt::api::InitMutex());
  if (basalt::api::g_initialized.load(std::memory_order_relaxed)) return SQLITE_OK;
  const basalt::mem::Methods& m = basalt::mem::Current();
  if (m.xInit != nullptr) {
    int rc = m.xInit(m.pAppData);
    if (rc != SQLITE_OK) return rc;
  }
  basalt::api::g_initialized.store(true, std::memory_order_release);
  return SQLITE_OK;
}

// Every connection must be closed first (as documented); Basalt keeps no
// other resources that need releasing, so this ends the initialized state
// (letting sqlite3_config work again) and shuts the heap's methods down.
int sqlite3_shutdown(void) {
  std::lock_guard<std::mutex> g(basalt::api::InitMutex());
  if (!basalt::api::g_initialized.load(std::memory_order_relaxed)) return SQLITE_OK;
  const basalt::mem::Methods& m = basalt::mem::Current();
  if (m.xShutdown != nullptr) m.xShutdown(m.pAppData);
  basalt::api::g_initialized.store(false, std::memory_order_release);
  return SQLITE_OK;
}

int sqlite3_config(int op, ...) {
  std::lock_guard<std::mutex> g(basalt::api::InitMutex());
  if (basalt::api::g_initialized.load(std::memory_order_relaxed)) return SQLITE_MISUSE;
  switch (op) {
    case SQLITE_CONFIG_SINGLETHREAD:
    case SQLITE_CONFIG_MULTITHREAD:
    case SQLITE_CONFIG_SERIALIZED:
      basalt::api::g_mode.store(op, std::memory_order_relaxed);
      return SQLITE_OK;
    default: {
      // The other options (api_config.cc); unknown ones, or those Basalt
      // cannot set, give a non-zero code, as documented.
      va_list ap;
      va_start(ap, op);
      int rc = basalt::api::ConfigOption(op, ap);
      va_end(ap);
      return rc;
    }
  }
}

int sqlite3_sleep(int ms) {
  if (ms < 0) ms = 0;
  sqlite3_initialize();
  basalt::DefaultVfs()->Sleep(ms * 1000);
  return ms;
}

}  // extern "C"

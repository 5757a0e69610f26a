// The threading modes and the sqlite3_mutex_* interface: which connections
// get a mutex (SQLITE_OPEN_NOMUTEX / FULLMUTEX, sqlite3_config), when
// sqlite3_config may be called, and how the mutexes behave. Compared with
// the system libsqlite3; the parts that change the library's global mode
// run in a child process.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

#include "engines.h"
#include "transcript.h"

// Declared by sqlite3.h only without NDEBUG (as SQLite's header does);
// Basalt exports them in every build.
extern "C" int sqlite3_mutex_held(sqlite3_mutex*);
extern "C" int sqlite3_mutex_notheld(sqlite3_mutex*);

namespace basalt::apitest {
namespace {

constexpr int kRwc = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;

// Whether a connection opened with `extra` flags has a mutex.
bool HasDbMutex(const Api& a, int extra) {
  sqlite3* db = nullptr;
  a.open_v2(":memory:", &db, kRwc | extra, nullptr);
  bool has = a.db_mutex(db) != nullptr;
  a.close(db);
  return has;
}

TEST(Mutex, ConnectionMutexFollowsOpenFlags) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    t->Int("threadsafe", a.threadsafe());
    t->Bool("default (serialized) has a mutex", HasDbMutex(a, 0));
    t->Bool("NOMUTEX", HasDbMutex(a, SQLITE_OPEN_NOMUTEX));
    t->Bool("FULLMUTEX", HasDbMutex(a, SQLITE_OPEN_FULLMUTEX));
    t->Bool("NOMUTEX|FULLMUTEX", HasDbMutex(a, SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_FULLMUTEX));
  });
}

TEST(Mutex, ApiBehaviour) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3_mutex* fast = a.mutex_alloc(SQLITE_MUTEX_FAST);
    sqlite3_mutex* rec = a.mutex_alloc(SQLITE_MUTEX_RECURSIVE);
    t->Bool("alloc FAST", fast != nullptr);
    t->Bool("alloc RECURSIVE", rec != nullptr);
    sqlite3_mutex* fast2 = a.mutex_alloc(SQLITE_MUTEX_FAST);
    t->Bool("two FAST mutexes differ", fast != fast2);
    a.mutex_free(fast2);
    t->Bool("a static mutex is always the same",
            a.mutex_alloc(SQLITE_MUTEX_STATIC_APP1) == a.mutex_alloc(SQLITE_MUTEX_STATIC_APP1));
    t->Bool("static mutexes differ",
            a.mutex_alloc(SQLITE_MUTEX_STATIC_APP1) != a.mutex_alloc(SQLITE_MUTEX_STATIC_APP2));
    t->Int("try FAST", a.mutex_try(fast));
    t->Int("try FAST again, same thread", a.mutex_try(fast));
    int other = -1;
    std::thread([&] { other = a.mutex_try(fast); }).join();
    t->Int("try FAST from another thread", other);
    a.mutex_leave(fast);
    std::thread([&] {
      other = a.mutex_try(fast);
      if (other == SQLITE_OK) a.mutex_leave(fast);
    }).join();
    t->Int("try FAST from another thread once left", other);

    a.mutex_enter(rec);
    t->Int("try RECURSIVE while held, same thread", a.mutex_try(rec));
    std::thread([&] { other = a.mutex_try(rec); }).join();
    t->Int("try RECURSIVE from another thread", other);
    a.mutex_leave(rec);
    std::thread([&] { other = a.mutex_try(rec); }).join();
    t->Int("still held once (entered twice, left once)", other);
    a.mutex_leave(rec);
    std::thread([&] {
      other = a.mutex_try(rec);
      if (other == SQLITE_OK) a.mutex_leave(rec);
    }).join();
    t->Int("free after the second leave", other);
    a.mutex_free(fast);
    a.mutex_free(rec);
  });
}

// Basalt only: the system library has no sqlite3_mutex_held (debug
// builds only), so this is checked against the documentation.
TEST(Mutex, HeldAndNotHeld) {
  sqlite3_mutex* m = sqlite3_mutex_alloc(SQLITE_MUTEX_RECURSIVE);
  EXPECT_TRUE(sqlite3_mutex_notheld(m));
  EXPECT_FALSE(sqlite3_mutex_held(m));
  sqlite3_mutex_enter(m);
  EXPECT_TRUE(sqlite3_mutex_held(m));
  EXPECT_FALSE(sqlite3_mutex_notheld(m));
  bool held_elsewhere = true;
  std::thread([&] { held_elsewhere = sqlite3_mutex_held(m); }).join();
  EXPECT_FALSE(held_elsewhere);
  sqlite3_mutex_leave(m);
  EXPECT_FALSE(sqlite3_mutex_held(m));
  sqlite3_mutex_free(m);
  // "If the argument to sqlite3_mutex_held() is a NULL pointer then the
  // routine should return 1."
  EXPECT_TRUE(sqlite3_mutex_held(nullptr));
  EXPECT_TRUE(sqlite3_mutex_notheld(nullptr));
}

// The connection's mutex is held for the length of a call, so another
// thread that holds it (sqlite3_db_mutex) keeps a call waiting.
TEST(Mutex, EntryPointsHoldTheConnectionMutex) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
  sqlite3_mutex* m = sqlite3_db_mutex(db);
  ASSERT_NE(m, nullptr);
  sqlite3_mutex_enter(m);
  std::atomic<bool> finished{false};
  std::thread th([&] {
    EXPECT_EQ(sqlite3_exec(db, "SELECT 1", nullptr, nullptr, nullptr), SQLITE_OK);
    finished.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(finished.load());
  // The holder itself may call in (the mutex is recursive).
  EXPECT_EQ(sqlite3_exec(db, "SELECT 1", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_mutex_leave(m);
  th.join();
  EXPECT_TRUE(finished.load());
  EXPECT_EQ(sqlite3_close(db), SQLITE_OK);
}

// Runs `body` in a child process (the threading mode is process-wide) and
// returns what it wrote to the pipe.
template <typename Body>
std::string InChild(Body&& body) {
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string out = body();
    (void)!write(fds[1], out.data(), out.size());
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status)) out += "child crashed";
  return out;
}

TEST(Mutex, ConfigChangesTheThreadingModeOnlyWhileUninitialized) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    t->Str("child",
           InChild([&] {
             Transcript c;
             // (The parent has used the library: start from a shut-down one.)
             c.Int("shutdown", a.shutdown());
             c.Int("config(SERIALIZED) while not initialized", a.config(SQLITE_CONFIG_SERIALIZED));
             c.Int("config(unknown op)", a.config(9999));
             c.Int("config(MULTITHREAD)", a.config(SQLITE_CONFIG_MULTITHREAD));
             c.Bool("multi-thread: default connection has a mutex", HasDbMutex(a, 0));
             c.Bool("multi-thread: FULLMUTEX", HasDbMutex(a, SQLITE_OPEN_FULLMUTEX));
             c.Int("config after an open", a.config(SQLITE_CONFIG_SERIALIZED));
             c.Int("shutdown", a.shutdown());
             c.Int("config(SINGLETHREAD) after shutdown", a.config(SQLITE_CONFIG_SINGLETHREAD));
             c.Bool("single-thread: FULLMUTEX", HasDbMutex(a, SQLITE_OPEN_FULLMUTEX));
             c.Bool("single-thread: mutex_alloc non-NULL",
                    a.mutex_alloc(SQLITE_MUTEX_FAST) != nullptr);
             c.Int("threadsafe", a.threadsafe());
             c.Int("config after mutex_alloc", a.config(SQLITE_CONFIG_SERIALIZED));
             a.shutdown();
             c.Int("config(SERIALIZED)", a.config(SQLITE_CONFIG_SERIALIZED));
             c.Int("initialize", a.initialize());
             c.Int("initialize twice", a.initialize());
             c.Int("config while initialized", a.config(SQLITE_CONFIG_MULTITHREAD));
             c.Bool("serialized again", HasDbMutex(a, 0));
             return c.text();
           }).c_str());
  });
}

}  // namespace
}  // namespace basalt::apitest

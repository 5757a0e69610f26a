// VACUUM through SQL: the file shrinks to its live content (empty
// freelist), every row and setting survives, page size and auto-vacuum
// requests take effect, WAL mode works, SQLite's errors; an I/O error or a
// power cut during VACUUM leaves the old database (or the new one), never
// a mix.
#include <gtest/gtest.h>

#include "main/statement.h"
#include "os/fault_vfs.h"
#include "os/mem_vfs.h"
#include "sql_session.h"

namespace basalt::testing {
namespace {

constexpr const char* kPath = "/vac.db";

constexpr const char* kSetup =
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a, b TEXT);"
    "CREATE INDEX ta ON t(a);"
    "CREATE INDEX tb ON t(b DESC, a);"
    "CREATE TABLE r(x, y);"  // rowids without an INTEGER PRIMARY KEY
    "CREATE TABLE s(id INTEGER PRIMARY KEY AUTOINCREMENT, v);"
    "CREATE TABLE w(k TEXT PRIMARY KEY, v, UNIQUE(v, k));"
    "CREATE VIEW tv AS SELECT a, count(*) AS n FROM t GROUP BY a;"
    "CREATE TRIGGER tr AFTER DELETE ON r BEGIN INSERT INTO s(v) VALUES(old.x); END;"
    "BEGIN;"
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)"
    "  INSERT INTO t SELECT i, i % 17, printf('%.*c', i % 300, 'b') || i FROM n;"
    "INSERT INTO r SELECT id * 3, zeroblob(id % 7 * 500) FROM t;"
    "INSERT INTO w SELECT 'k' || id, b FROM t WHERE id % 2 = 0;"
    "COMMIT;"
    "DELETE FROM t WHERE id % 5 <> 0;"
    "DELETE FROM r WHERE rowid % 4 <> 1;"
    "DELETE FROM w WHERE v LIKE '%1';"
    "PRAGMA user_version = 42; PRAGMA application_id = 1234;";

// Everything VACUUM must keep (not the page layout).
constexpr const char* kContent =
    "SELECT * FROM t ORDER BY id; SELECT rowid, * FROM r ORDER BY rowid;"
    "SELECT * FROM s ORDER BY id; SELECT * FROM w ORDER BY k; SELECT * FROM tv;"
    "SELECT * FROM sqlite_sequence; SELECT type, name, tbl_name, sql FROM sqlite_schema;"
    "SELECT count(*) FROM t INDEXED BY tb WHERE b > 'b';"
    "PRAGMA user_version; PRAGMA application_id;";

std::string Q(Connection* c, const std::string& sql) {
  ExecResult r = Exec(c, sql);
  EXPECT_EQ(r.code, 0) << sql << ": " << r.error;
  return r.output;
}

int64_t Int(Connection* c, const std::string& sql) { return std::stoll(Q(c, sql)); }

// A new connection on the file finds `content`, and `state` for `checks`.
void ExpectOnReopen(MemVfs* mem, const std::string& content, const std::string& checks,
                    const std::string& state) {
  auto again = OpenDb(mem, kPath);
  ASSERT_TRUE(again);
  EXPECT_EQ(Q(again.get(), kContent), content);
  EXPECT_EQ(Q(again.get(), checks), state);
}

std::unique_ptr<Connection> MakeDb(MemVfs* mem, const std::string& pragmas = "") {
  auto c = OpenDb(mem, kPath);
  EXPECT_TRUE(c);
  if (c) {
    EXPECT_EQ(Exec(c.get(), pragmas + kSetup).error, "");
  }
  return c;
}

TEST(SqlVacuum, ShrinksAndKeepsEverything) {
  MemVfs mem;
  auto c = MakeDb(&mem);
  ASSERT_TRUE(c);
  const std::string content = Q(c.get(), kContent);
  const int64_t pages = Int(c.get(), "PRAGMA page_count");
  const int64_t cookie = Int(c.get(), "PRAGMA schema_version");
  ASSERT_GT(Int(c.get(), "PRAGMA freelist_count"), pages / 2);
  ASSERT_EQ(Exec(c.get(), "VACUUM").error, "");
  EXPECT_EQ(Q(c.get(), "PRAGMA freelist_count"), "0\n");
  EXPECT_LT(Int(c.get(), "PRAGMA page_count"), pages / 2);
  EXPECT_EQ(Q(c.get(), "PRAGMA integrity_check"), "ok\n");
  EXPECT_EQ(Q(c.get(), kContent), content);
  EXPECT_EQ(Int(c.get(), "PRAGMA schema_version"), cookie + 1);
  std::string bytes;
  ASSERT_TRUE(mem.GetFile(kPath, &bytes));
  EXPECT_EQ(int64_t(bytes.size()), Int(c.get(), "PRAGMA page_count") * 4096);
  // The database goes on as before: AUTOINCREMENT continues, triggers fire.
  ASSERT_EQ(Exec(c.get(),
                 "INSERT INTO s(v) VALUES('after'); DELETE FROM r WHERE rowid = 3;"
                 "VACUUM main; PRAGMA integrity_check;")
                .output,
            "ok\n");
  const std::string changed = Q(c.get(), kContent);
  EXPECT_NE(changed, content);
  c.reset();
  ExpectOnReopen(&mem, changed, "PRAGMA integrity_check; PRAGMA freelist_count", "ok\n0\n");
}

TEST(SqlVacuum, InMemoryDatabase) {
  auto r = Connection::Open(":memory:", 0x2 | 0x4);
  ASSERT_TRUE(r.ok());
  Connection* c = r->get();
  ASSERT_EQ(Exec(c, kSetup).error, "");
  const std::string content = Q(c, kContent);
  ASSERT_GT(Int(c, "PRAGMA freelist_count"), 0);
  ASSERT_EQ(Exec(c, "VACUUM").error, "");
  EXPECT_EQ(Q(c, "PRAGMA freelist_count; PRAGMA integrity_check"), "0\nok\n");
  EXPECT_EQ(Q(c, kContent), content);
}

TEST(SqlVacuum, PageSizeChange) {
  MemVfs mem;
  auto c = MakeDb(&mem);
  ASSERT_TRUE(c);
  const std::string content = Q(c.get(), kContent);
  int64_t prev = 4096;
  for (int size : {1024, 65536, 512, 4096}) {
    SCOPED_TRACE(size);
    const std::string set = "PRAGMA page_size=" + std::to_string(size) + ";";
    // Only VACUUM makes it happen.
    EXPECT_EQ(Q(c.get(), set + "PRAGMA page_size"), std::to_string(prev) + "\n");
    prev = size;
    ASSERT_EQ(Exec(c.get(), "VACUUM").error, "");
    EXPECT_EQ(Int(c.get(), "PRAGMA page_size"), size);
    EXPECT_EQ(Q(c.get(), "PRAGMA integrity_check; PRAGMA freelist_count"), "ok\n0\n");
    EXPECT_EQ(Q(c.get(), kContent), content);
    std::string bytes;
    ASSERT_TRUE(mem.GetFile(kPath, &bytes));
    EXPECT_EQ(int64_t(bytes.size()), Int(c.get(), "PRAGMA page_count") * size);
    auto other = OpenDb(&mem, kPath);
    ASSERT_TRUE(other);
    EXPECT_EQ(Int(other.get(), "PRAGMA page_size"), size);
    EXPECT_EQ(Q(other.get(), kContent), content);
  }
}

TEST(SqlVacuum, AutoVacuumModes) {
  MemVfs mem;
  auto c = MakeDb(&mem);
  ASSERT_TRUE(c);
  const std::string content = Q(c.get(), kContent);
  // Without VACUUM the request waits.
  EXPECT_EQ(Q(c.get(), "PRAGMA auto_vacuum=FULL; PRAGMA auto_vacuum"), "0\n");
  for (int mode : {1, 2, 0, 2, 1, 0}) {
    SCOPED_TRACE(mode);
    ASSERT_EQ(Exec(c.get(), "PRAGMA auto_vacuum=" + std::to_string(mode) + "; VACUUM").error, "");
    EXPECT_EQ(Int(c.get(), "PRAGMA auto_vacuum"), mode);
    EXPECT_EQ(Q(c.get(), "PRAGMA integrity_check; PRAGMA freelist_count"), "ok\n0\n");
    EXPECT_EQ(Q(c.get(), kContent), content);
    auto other = OpenDb(&mem, kPath);
    ASSERT_TRUE(other);
    EXPECT_EQ(Int(other.get(), "PRAGMA auto_vacuum"), mode);
  }
  // FULL mode shrinks at every commit from now on.
  ASSERT_EQ(Exec(c.get(), "PRAGMA auto_vacuum=FULL; VACUUM").error, "");
  const int64_t pages = Int(c.get(), "PRAGMA page_count");
  ASSERT_EQ(Exec(c.get(), "DELETE FROM r").error, "");
  EXPECT_LT(Int(c.get(), "PRAGMA page_count"), pages);
  EXPECT_EQ(Q(c.get(), "PRAGMA integrity_check; PRAGMA freelist_count"), "ok\n0\n");
}

TEST(SqlVacuum, WalMode) {
  MemVfs mem;
  auto c = MakeDb(&mem, "PRAGMA journal_mode=WAL;");
  ASSERT_TRUE(c);
  const std::string content = Q(c.get(), kContent);
  const int64_t pages = Int(c.get(), "PRAGMA page_count");
  auto reader = OpenDb(&mem, kPath);
  ASSERT_TRUE(reader);
  ASSERT_EQ(Q(reader.get(), kContent), content);
  // The page size cannot change in WAL mode (the request is dropped).
  ASSERT_EQ(Exec(c.get(), "PRAGMA page_size=1024; VACUUM").error, "");
  EXPECT_EQ(Q(c.get(), "PRAGMA page_size; PRAGMA journal_mode"), "4096\nwal\n");
  EXPECT_EQ(Q(c.get(), "PRAGMA integrity_check; PRAGMA freelist_count"), "ok\n0\n");
  EXPECT_LT(Int(c.get(), "PRAGMA page_count"), pages / 2);
  EXPECT_EQ(Q(c.get(), kContent), content);
  // Another connection sees the rebuilt database (new root pages).
  EXPECT_EQ(Q(reader.get(), kContent), content);
  EXPECT_EQ(Q(reader.get(), "PRAGMA integrity_check"), "ok\n");
  ASSERT_EQ(Exec(c.get(), "PRAGMA auto_vacuum=INCREMENTAL; VACUUM; PRAGMA wal_checkpoint").error,
            "");
  EXPECT_EQ(Q(reader.get(), "PRAGMA auto_vacuum; PRAGMA integrity_check"), "2\nok\n");
  c.reset();
  reader.reset();
  ExpectOnReopen(&mem, content, "PRAGMA integrity_check; PRAGMA journal_mode", "ok\nwal\n");
}

TEST(SqlVacuum, Errors) {
  MemVfs mem;
  auto c = MakeDb(&mem);
  ASSERT_TRUE(c);
  ExecResult r = Exec(c.get(), "BEGIN; VACUUM");
  EXPECT_EQ(r.code, kError);
  EXPECT_EQ(r.error, "cannot VACUUM from within a transaction");
  ASSERT_EQ(Exec(c.get(), "ROLLBACK").error, "");
  r = Exec(c.get(), "VACUUM nosuch");
  EXPECT_EQ(r.code, kError);
  EXPECT_EQ(r.error, "unknown database nosuch");
  EXPECT_EQ(Exec(c.get(), "VACUUM temp").error, "");
  // A statement half-way through its rows.
  size_t tail = 0;
  auto sel = c->Prepare("SELECT id FROM t", &tail);
  ASSERT_TRUE(sel.ok());
  ASSERT_EQ((*sel)->Step(), kRow);
  r = Exec(c.get(), "VACUUM");
  EXPECT_EQ(r.code, kError);
  EXPECT_EQ(r.error, "cannot VACUUM - SQL statements in progress");
  (*sel)->Reset();
  EXPECT_EQ(Exec(c.get(), "VACUUM").error, "");
  r = Exec(c.get(), "VACUUM INTO 5");
  EXPECT_EQ(r.error, "non-text filename");
  r = Exec(c.get(), "VACUUM INTO NULL");
  EXPECT_EQ(r.error, "non-text filename");
  c.reset();
  auto ro = Connection::Open(kPath, 0x1, &mem);
  ASSERT_TRUE(ro.ok());
  r = Exec(ro->get(), "VACUUM");
  EXPECT_EQ(r.code & 0xff, kReadOnly);
  EXPECT_EQ(r.error, "attempt to write a readonly database");
  // VACUUM INTO only reads.
  EXPECT_EQ(Exec(ro->get(), "VACUUM INTO '/copy.db'").error, "");
}

TEST(SqlVacuum, Into) {
  MemVfs mem;
  auto c = MakeDb(&mem);
  ASSERT_TRUE(c);
  const std::string content = Q(c.get(), kContent);
  const int64_t pages = Int(c.get(), "PRAGMA page_count");
  ASSERT_EQ(Exec(c.get(), "VACUUM INTO '/copy.db'").error, "");
  ExecResult r = Exec(c.get(), "VACUUM INTO '/copy.db'");
  EXPECT_EQ(r.code, kError);
  EXPECT_EQ(r.error, "output file already exists");
  // The source is unchanged.
  EXPECT_EQ(Int(c.get(), "PRAGMA page_count"), pages);
  EXPECT_GT(Int(c.get(), "PRAGMA freelist_count"), 0);
  auto copy = OpenDb(&mem, "/copy.db");
  ASSERT_TRUE(copy);
  EXPECT_EQ(Q(copy.get(), kContent), content);
  EXPECT_EQ(Q(copy.get(), "PRAGMA integrity_check; PRAGMA freelist_count"), "ok\n0\n");
  EXPECT_LT(Int(copy.get(), "PRAGMA page_count"), pages / 2);
  std::string journal;
  EXPECT_FALSE(mem.GetFile("/copy.db-journal", &journal));
  // A pending page size and auto-vacuum mode apply to the copy; the name
  // may be any text expression or a bound parameter.
  ASSERT_EQ(Exec(c.get(),
                 "PRAGMA page_size=1024; PRAGMA auto_vacuum=FULL;"
                 "VACUUM INTO '/co' || 'py2.db'")
                .error,
            "");
  auto copy2 = OpenDb(&mem, "/copy2.db");
  ASSERT_TRUE(copy2);
  EXPECT_EQ(Q(copy2.get(), "PRAGMA page_size; PRAGMA auto_vacuum; PRAGMA integrity_check"),
            "1024\n1\nok\n");
  EXPECT_EQ(Q(copy2.get(), kContent), content);
  size_t tail = 0;
  auto st = c->Prepare("VACUUM INTO ?", &tail);
  ASSERT_TRUE(st.ok());
  ASSERT_EQ((*st)->Bind(1, Value::Text("/copy3.db")), kOk);
  ASSERT_EQ((*st)->Step(), kDone) << (*st)->status().message();
  auto copy3 = OpenDb(&mem, "/copy3.db");
  ASSERT_TRUE(copy3);
  EXPECT_EQ(Q(copy3.get(), kContent), content);
}

// Every VFS operation of a VACUUM fails in turn (I/O error, disk full,
// short write): the statement fails with SQLite's code, the connection stays
// usable, and the database is the old or the vacuumed one, intact.
// What VACUUM is asked to change (`change`: pragmas run before it), and
// how the old and the new database answer kState.
struct Change {
  const char* change;
  const char* before;
  const char* after;
};
constexpr const char* kState = "PRAGMA auto_vacuum; PRAGMA page_size; PRAGMA integrity_check";
const Change kToFull{"PRAGMA auto_vacuum=FULL;", "0\n4096\nok\n", "1\n4096\nok\n"};
const Change kTo1024{"PRAGMA page_size=1024;", "0\n4096\nok\n", "0\n1024\nok\n"};
const Change kTo65536{"PRAGMA page_size=65536;", "0\n4096\nok\n", "0\n65536\nok\n"};

void FaultSweep(const char* pragmas, const Change& change, FaultKind kind) {
  MemVfs seed_vfs;
  std::string seed;
  std::string content;
  {
    auto c = MakeDb(&seed_vfs, pragmas);
    ASSERT_TRUE(c);
    content = Q(c.get(), kContent);
    c.reset();
    ASSERT_TRUE(seed_vfs.GetFile(kPath, &seed));
  }
  // The VFS operations of one VACUUM; about 200 of them are tried.
  int64_t total = 0;
  {
    MemVfs mem;
    mem.PutFile(kPath, seed);
    FaultVfs fv(&mem);
    auto c = OpenDb(&fv, kPath);
    ASSERT_TRUE(c);
    ASSERT_EQ(Exec(c.get(), std::string("PRAGMA cache_size=10;") + change.change).error, "");
    fv.ClearFault();
    ASSERT_EQ(Exec(c.get(), "VACUUM").error, "");
    total = fv.op_count();
  }
  ASSERT_GT(total, 20);
  const int64_t step = total > 200 ? total / 200 : 1;
  int failed = 0, kept_old = 0;
  for (int64_t n = 1; n < total + 10; n += n < 40 ? 1 : step) {
    SCOPED_TRACE("fault at operation " + std::to_string(n));
    MemVfs mem;
    mem.PutFile(kPath, seed);
    FaultVfs fv(&mem);
    auto c = OpenDb(&fv, kPath);
    ASSERT_TRUE(c);
    ASSERT_EQ(Exec(c.get(), std::string("PRAGMA cache_size=10;") + change.change).error, "");
    fv.InjectFault(kind, n);
    ExecResult r = Exec(c.get(), "VACUUM");
    const bool fired = fv.fault_fired();
    fv.ClearFault();
    if (!fired) {
      EXPECT_EQ(r.code, 0) << r.error;
      break;
    }
    if (r.code != 0) {
      ++failed;
      const int primary = r.code & 0xff;
      EXPECT_TRUE(primary == kIoErr || primary == kFull || primary == kCantOpen)
          << r.code << " " << r.error;
    }
    EXPECT_EQ(Q(c.get(), kContent), content);
    const std::string state = Q(c.get(), kState);
    EXPECT_TRUE(state == change.before || state == change.after) << state;
    kept_old += state == change.before;
    c.reset();
    ExpectOnReopen(&mem, content, kState, state);
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_GT(failed, 5);
  EXPECT_GT(kept_old, 5);
}

TEST(SqlVacuum, IoErrorsDeleteJournal) { FaultSweep("", kToFull, FaultKind::kIoError); }
TEST(SqlVacuum, IoErrorsWal) {
  FaultSweep("PRAGMA journal_mode=WAL;", kToFull, FaultKind::kIoError);
}
TEST(SqlVacuum, DiskFull) { FaultSweep("", kToFull, FaultKind::kDiskFull); }
TEST(SqlVacuum, IoErrorsPageSize) { FaultSweep("", kTo1024, FaultKind::kIoError); }
TEST(SqlVacuum, ShortWritesPageSize) {
  FaultSweep("PRAGMA journal_mode=TRUNCATE;", kTo65536, FaultKind::kShortWrite);
}

// The power fails at each write point of a VACUUM: whatever survives opens
// as the old or the new database, intact.
void PowerLoss(const Change& change) {
  MemVfs seed_vfs;
  std::string seed, content;
  {
    auto c = MakeDb(&seed_vfs);
    ASSERT_TRUE(c);
    content = Q(c.get(), kContent);
    c.reset();
    ASSERT_TRUE(seed_vfs.GetFile(kPath, &seed));
  }
  int64_t total = 0;
  {
    MemVfs mem;
    mem.PutFile(kPath, seed);
    FaultVfs fv(&mem);
    auto c = OpenDb(&fv, kPath);
    ASSERT_TRUE(c);
    ASSERT_EQ(Exec(c.get(), std::string("PRAGMA cache_size=10;") + change.change + "VACUUM").error,
              "");
    total = fv.write_points();
  }
  ASSERT_GT(total, 10);
  int trials = 0, old_state = 0;
  const int64_t step = total > 300 ? total / 150 : 1;
  for (int64_t k = 1; k <= total; k += step) {
    SCOPED_TRACE(k);
    for (auto survival : {FaultVfs::Survival::kRandom, FaultVfs::Survival::kNone}) {
      MemVfs mem;
      mem.PutFile(kPath, seed);
      FaultVfs fv(&mem);
      {
        auto c = OpenDb(&fv, kPath);
        ASSERT_TRUE(c);
        fv.CrashAt(k);
        (void)Exec(c.get(), std::string("PRAGMA cache_size=10;") + change.change + "VACUUM");
      }
      if (!fv.crashed()) continue;
      ++trials;
      MemVfs after;
      for (auto& [p, bytes] : fv.SurvivingFiles(uint64_t(k), survival)) after.PutFile(p, bytes);
      auto c = OpenDb(&after, kPath);
      ASSERT_TRUE(c);
      EXPECT_EQ(Q(c.get(), kContent), content);
      const std::string state = Q(c.get(), kState);
      EXPECT_TRUE(state == change.before || state == change.after) << state;
      old_state += state == change.before;
      if (::testing::Test::HasFailure()) return;
    }
  }
  EXPECT_GT(trials, 10);
  EXPECT_GT(old_state, 5);
}

TEST(SqlVacuum, PowerLoss) { PowerLoss(kToFull); }
TEST(SqlVacuum, PowerLossPageSize) { PowerLoss(kTo1024); }

}  // namespace
}  // namespace basalt::testing

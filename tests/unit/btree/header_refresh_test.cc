// Page 1's header changed by another connection (sqlite3) between our
// transactions: a database created in a file that was empty when we opened
// it, reserved bytes and auto-vacuum mode changed by VACUUM, and a page
// size change we cannot follow (an error, and nothing written).
#include "btree/btree.h"
#include "btree_test_util.h"
#include "os/vfs.h"
#include "pager/file_pager.h"
#include "sqlite_cli.h"

namespace basalt::testing {
namespace {

std::unique_ptr<Btree> OpenFile(const std::string& path) {
  auto pager = OpenFilePager(DefaultVfs(), path, PagerOptions());
  EXPECT_TRUE(pager.ok());
  if (!pager.ok()) return nullptr;
  auto r = Btree::Open(std::move(pager).value());
  EXPECT_TRUE(r.ok()) << r.status().message();
  if (!r.ok()) return nullptr;
  return std::move(r).value();
}

// Rows written here that need overflow pages and cells sized by the
// usable page size.
void AddRows(SchemaDb& db, TableModel& t, int64_t from, int n) {
  for (int64_t k = from; k < from + n; ++k) {
    db.Insert(t, k, {Field::Int(k), Field::Text(std::string(size_t(k * 131 % 9000), 'v'))});
  }
}

std::string Dump(const std::string& path, const std::string& table) {
  return RunSqlite(path, "SELECT rowid, * FROM " + table + " ORDER BY rowid");
}

TEST(HeaderRefresh, EmptyFileCreatedElsewhere) {
  if (!HaveSqlite()) GTEST_SKIP() << "no " << kSqlite;
  std::string path = TempPath("hdrempty");  // exists, empty
  SchemaDb db(OpenFile(path));
  ASSERT_OK(db.bt().BeginTransaction(false));
  EXPECT_EQ(db.bt().page_count(), 0u);
  ASSERT_OK(db.bt().Commit());
  EXPECT_EQ(db.bt().auto_vacuum(), 0);
  ASSERT_EQ(RunSqlite(path,
                      "PRAGMA auto_vacuum=FULL;"
                      "CREATE TABLE t(a INTEGER, b TEXT); CREATE INDEX tb ON t(b);"
                      "INSERT INTO t SELECT value, printf('%.*c', value * 77 % 6000, 'q')"
                      "  FROM generate_series(1, 80);"
                      "DELETE FROM t WHERE a % 4 = 0; PRAGMA integrity_check;"),
            "ok");
  ASSERT_OK(db.bt().BeginTransaction(true));
  EXPECT_EQ(db.bt().auto_vacuum(), 1);
  db.Load();
  TableModel t{"t", {{1}}, {"tb"}, {}};
  db.LoadRows(&t);
  EXPECT_EQ(t.rows.size(), 60u);
  AddRows(db, t, 100, 60);
  db.Add("table", "u", "u", "CREATE TABLE u(a INTEGER, b TEXT)");
  TableModel u{"u", {}, {}, {}};
  AddRows(db, u, 1, 30);
  ASSERT_OK(db.bt().Commit());
  EXPECT_EQ(RunSqlite(path, "PRAGMA integrity_check; PRAGMA freelist_count"), "ok\n0");
  EXPECT_EQ(Dump(path, "t"), SchemaDb::Dump(t));
  EXPECT_EQ(Dump(path, "u"), SchemaDb::Dump(u));
  unlink(path.c_str());
}

TEST(HeaderRefresh, ReservedBytesChangedElsewhere) {
  if (!HaveSqlite()) GTEST_SKIP() << "no " << kSqlite;
  std::string path = TempPath("hdrreserve");
  unlink(path.c_str());
  ASSERT_EQ(RunSqlite(path, "CREATE TABLE t(a INTEGER, b TEXT); CREATE INDEX tb ON t(b);"), "");
  SchemaDb db(OpenFile(path));
  TableModel t{"t", {{1}}, {"tb"}, {}};
  ASSERT_OK(db.bt().BeginTransaction(true));
  db.Load();
  AddRows(db, t, 1, 50);
  ASSERT_OK(db.bt().Commit());
  EXPECT_EQ(db.bt().usable_size(), 4096u);
  for (int reserve : {24, 40}) {  // SQLite only ever grows the reserve
    SCOPED_TRACE(reserve);
    ASSERT_EQ(RunSqlite(path, ".filectrl reserve_bytes " + std::to_string(reserve) + "\nVACUUM;"),
              std::to_string(reserve));
    ASSERT_OK(db.bt().BeginTransaction(true));
    EXPECT_EQ(db.bt().usable_size(), 4096u - reserve);
    db.Load();
    AddRows(db, t, 1000 + reserve * 100, 50);
    for (int64_t k = 1; k < 40; k += 3) {
      if (t.rows.count(k)) db.Delete(t, k);
    }
    ASSERT_OK(db.bt().Commit());
    EXPECT_INTEGRITY(db.bt(), db.IntegrityRoots());
    EXPECT_EQ(RunSqlite(path, "PRAGMA integrity_check"), "ok");
    EXPECT_EQ(Dump(path, "t"), SchemaDb::Dump(t));
  }
  unlink(path.c_str());
}

TEST(HeaderRefresh, AutoVacuumChangedByVacuumElsewhere) {
  if (!HaveSqlite()) GTEST_SKIP() << "no " << kSqlite;
  std::string path = TempPath("hdrav");
  unlink(path.c_str());
  ASSERT_EQ(RunSqlite(path,
                      "CREATE TABLE t(a INTEGER, b TEXT); CREATE INDEX tb ON t(b);"
                      "CREATE TABLE w(x);"),
            "");
  SchemaDb db(OpenFile(path));
  TableModel t{"t", {{1}}, {"tb"}, {}};
  ASSERT_OK(db.bt().BeginTransaction(true));
  db.Load();
  AddRows(db, t, 1, 60);
  ASSERT_OK(db.bt().Commit());
  EXPECT_EQ(db.bt().auto_vacuum(), 0);
  int64_t next = 100;
  for (int mode : {2, 1, 0}) {
    SCOPED_TRACE(mode);
    static const char* kNames[] = {"NONE", "FULL", "INCREMENTAL"};
    ASSERT_EQ(RunSqlite(path, std::string("PRAGMA auto_vacuum=") + kNames[mode] + "; VACUUM;"), "");
    ASSERT_OK(db.bt().BeginTransaction(true));
    EXPECT_EQ(db.bt().auto_vacuum(), mode);
    db.Load();
    AddRows(db, t, next, 40);
    next += 100;
    std::vector<int64_t> keys;
    for (auto& [k, v] : t.rows) keys.push_back(k);
    for (size_t i = 0; i < keys.size(); i += 4) db.Delete(t, keys[i]);
    // A new table, then the old one dropped (in auto-vacuum mode a root
    // moves into its place).
    std::string name = std::to_string(mode);
    name.insert(0, 1, 'n');
    db.Add("table", name, name, "CREATE TABLE " + name + "(a INTEGER, b TEXT)");
    db.Drop("w");
    db.Add("table", "w", "w", "CREATE TABLE w(x)");
    if (mode == 2) ASSERT_OK(db.bt().IncrementalVacuum(3));
    ASSERT_OK(db.bt().Commit());
    EXPECT_INTEGRITY(db.bt(), db.IntegrityRoots());
    EXPECT_EQ(RunSqlite(path, "PRAGMA integrity_check; PRAGMA auto_vacuum"),
              "ok\n" + std::to_string(mode));
    EXPECT_EQ(Dump(path, "t"), SchemaDb::Dump(t));
  }
  unlink(path.c_str());
}

TEST(HeaderRefresh, PageSizeChangedElsewhereIsFollowed) {
  // Another process's VACUUM gives the file a new page size: the next
  // transaction reads and writes pages of that size (as SQLite does).
  if (!HaveSqlite()) GTEST_SKIP() << "no " << kSqlite;
  std::string path = TempPath("hdrps");
  unlink(path.c_str());
  ASSERT_EQ(RunSqlite(path, "CREATE TABLE t(a INTEGER, b TEXT); CREATE INDEX tb ON t(b);"), "");
  SchemaDb db(OpenFile(path));
  TableModel t{"t", {{1}}, {"tb"}, {}};
  ASSERT_OK(db.bt().BeginTransaction(true));
  db.Load();
  AddRows(db, t, 1, 50);
  ASSERT_OK(db.bt().Commit());
  int64_t next = 100;
  for (int ps : {1024, 65536, 512, 4096}) {
    SCOPED_TRACE(ps);
    ASSERT_EQ(
        RunSqlite(path, "PRAGMA page_size=" + std::to_string(ps) + "; VACUUM; PRAGMA page_size"),
        std::to_string(ps));
    ASSERT_OK(db.bt().BeginTransaction(true));
    EXPECT_EQ(db.bt().usable_size(), uint32_t(ps));
    db.Load();  // VACUUM may have moved the roots
    AddRows(db, t, next, 30);
    next += 100;
    for (int64_t k = 1; k < 40; k += 5) {
      if (t.rows.count(k)) db.Delete(t, k);
    }
    ASSERT_OK(db.bt().Commit());
    EXPECT_INTEGRITY(db.bt(), db.IntegrityRoots());
    EXPECT_EQ(RunSqlite(path, "PRAGMA integrity_check"), "ok");
    EXPECT_EQ(Dump(path, "t"), SchemaDb::Dump(t));
  }
  unlink(path.c_str());
}

}  // namespace
}  // namespace basalt::testing

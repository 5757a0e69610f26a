// Auto-vacuum databases exchanged with the real sqlite3: databases it
// writes in FULL and INCREMENTAL mode are changed here (rows, new and
// dropped trees, incremental vacuum) and must still pass its
// integrity_check with the content we expect; databases built here must
// pass it too; and our pointer-map messages match its own.
#include <map>

#include "btree/btree.h"
#include "btree_test_util.h"
#include "common/coding.h"
#include "sqlite_cli.h"

namespace basalt::testing {
namespace {

const char* ModeName(int mode) { return mode == 1 ? "FULL" : "INCREMENTAL"; }

std::string Repeat(char c, size_t n) { return std::string(n, c); }

std::string Commit(SchemaDb& db) {
  Status st = db.bt().Commit();
  return st.ok() ? "" : st.message();
}

void ExpectSqliteSees(const std::string& path, int mode, const std::vector<TableModel*>& tables) {
  EXPECT_EQ(RunSqlite(path, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(RunSqlite(path, "PRAGMA auto_vacuum"), std::to_string(mode));
  if (mode == 1) {
    EXPECT_EQ(RunSqlite(path, "PRAGMA freelist_count"), "0");
  }
  for (TableModel* t : tables) {
    EXPECT_EQ(RunSqlite(path, "SELECT rowid, * FROM " + t->name + " ORDER BY rowid"),
              SchemaDb::Dump(*t))
        << t->name;
  }
}

TEST(AutoVacuumCompat, SqliteDatabaseChangedHere) {
  if (!HaveSqlite()) GTEST_SKIP() << "no " << kSqlite;
  for (int mode : {1, 2}) {
    SCOPED_TRACE(mode);
    std::string path = TempPath("avtheirs");
    unlink(path.c_str());
    ASSERT_EQ(
        RunSqlite(path,
                  std::string("PRAGMA page_size=1024; PRAGMA auto_vacuum=") + ModeName(mode) +
                      ";"
                      "CREATE TABLE t1(a INTEGER, b TEXT); CREATE INDEX t1b ON t1(b);"
                      "CREATE TABLE t2(x TEXT);"
                      "CREATE TABLE t3(y INTEGER, z TEXT); CREATE INDEX t3zy ON t3(z, y);"
                      "INSERT INTO t1 SELECT value, printf('%.*c', (value*37)%2500, 'k') || value"
                      "  FROM generate_series(1,400);"
                      "INSERT INTO t2 SELECT printf('%.*c', (value*91)%5000, 'q')"
                      "  FROM generate_series(1,200);"
                      "INSERT INTO t3 SELECT value % 50,"
                      "  'z' || (value*13 % 300) || printf('%.*c', value % 1500, 'w')"
                      "  FROM generate_series(1,600);"
                      "DELETE FROM t1 WHERE a % 3 = 0; DELETE FROM t2 WHERE rowid % 4 = 1;"
                      "DELETE FROM t3 WHERE y < 10;"
                      "PRAGMA integrity_check;"),
        "ok");
    auto r = Btree::OpenImage(ReadFile(path));
    ASSERT_TRUE(r.ok());
    SchemaDb db(std::move(r).value());
    EXPECT_EQ(db.bt().auto_vacuum(), mode);
    TableModel t1{"t1", {{1}}, {"t1b"}, {}};
    TableModel t2{"t2", {}, {}, {}};
    TableModel t3{"t3", {{1, 0}}, {"t3zy"}, {}};
    ASSERT_OK(db.bt().BeginTransaction(false));
    db.Load();
    db.LoadRows(&t1);
    db.LoadRows(&t2);
    db.LoadRows(&t3);
    // Our checker accepts sqlite3's pointer maps.
    EXPECT_INTEGRITY(db.bt(), db.IntegrityRoots());
    ASSERT_OK(db.bt().Commit());
    ExpectSqliteSees(path, mode, {&t1, &t2, &t3});
    uint32_t free_before = 0;
    ASSERT_OK(db.bt().FreelistCount(&free_before));
    if (mode == 2) {
      EXPECT_GT(free_before, 0u);
    }

    // 1. Rows in, rows out.
    ASSERT_OK(db.bt().BeginTransaction(true));
    for (int i = 0; i < 300; ++i) {
      db.Insert(t1, 1000 + i,
                {Field::Int(i), Field::Text(Repeat('n', (i * 53) % 3000) + std::to_string(i))});
    }
    int n = 0;
    for (auto it = t3.rows.begin(); it != t3.rows.end() && n < 150; ++n) {
      int64_t k = (it++)->first;
      db.Delete(t3, k);
    }
    for (int i = 0; i < 50; ++i) db.Insert(t2, 5000 + i, {Field::Text(Repeat('p', i * 97))});
    ASSERT_EQ(Commit(db), "");
    if (HasFatalFailure()) return;

    // 2. A new table and index, a dropped table (a root moves), deletes.
    ASSERT_OK(db.bt().BeginTransaction(true));
    db.Add("table", "t4", "t4", "CREATE TABLE t4(p TEXT)");
    db.Add("index", "t4p", "t4", "CREATE INDEX t4p ON t4(p)");
    TableModel t4{"t4", {{0}}, {"t4p"}, {}};
    for (int i = 0; i < 200; ++i) {
      db.Insert(t4, i + 1, {Field::Text(std::to_string(i * 7 % 200) + Repeat('r', i * 11 % 2000))});
    }
    Pgno t4p_root = db.root("t4p");
    db.Drop("t2");
    EXPECT_NE(db.root("t4p"), t4p_root);  // moved into t2's root page
    std::vector<int64_t> keys;
    for (auto& [k, v] : t1.rows) keys.push_back(k);
    for (size_t i = 0; i < keys.size(); i += 2) db.Delete(t1, keys[i]);
    ASSERT_EQ(Commit(db), "");
    if (HasFatalFailure()) return;
    EXPECT_INTEGRITY(db.bt(), db.IntegrityRoots());

    if (mode == 2) {
      // 3. Incremental vacuum, a few pages, then the rest.
      uint32_t free_pages = 0;
      ASSERT_OK(db.bt().FreelistCount(&free_pages));
      ASSERT_GT(free_pages, 7u);
      Pgno size = db.bt().page_count();
      ASSERT_OK(db.bt().BeginTransaction(true));
      ASSERT_OK(db.bt().IncrementalVacuum(7));
      ASSERT_EQ(Commit(db), "");
      EXPECT_LE(db.bt().page_count(), size - 7);
      EXPECT_INTEGRITY(db.bt(), db.IntegrityRoots());
      std::string img;
      ASSERT_OK(db.bt().CopyImage(&img));
      WriteFile(path, img);
      EXPECT_EQ(RunSqlite(path, "PRAGMA integrity_check; PRAGMA freelist_count"),
                "ok\n" + std::to_string(free_pages - 7));
      ASSERT_OK(db.bt().BeginTransaction(true));
      ASSERT_OK(db.bt().IncrementalVacuum(0));
      ASSERT_EQ(Commit(db), "");
      ASSERT_OK(db.bt().FreelistCount(&free_pages));
      EXPECT_EQ(free_pages, 0u);
    }
    std::string img;
    ASSERT_OK(db.bt().CopyImage(&img));
    WriteFile(path, img);
    ExpectSqliteSees(path, mode, {&t1, &t3, &t4});
    EXPECT_NE(RunSqlite(path, "SELECT count(*) FROM t2").find("no such table: t2"),
              std::string::npos);

    // sqlite3 carries on with it, and we read the result.
    EXPECT_EQ(RunSqlite(path,
                        "INSERT INTO t4 SELECT p || 'x' FROM t4; DROP TABLE t1;"
                        "PRAGMA incremental_vacuum; PRAGMA integrity_check"),
              "ok");
    auto back = Btree::OpenImage(ReadFile(path));
    ASSERT_TRUE(back.ok());
    SchemaDb db2(std::move(back).value());
    ASSERT_OK(db2.bt().BeginTransaction(false));
    db2.Load();
    EXPECT_EQ(db2.rows().count("t1"), 0u);
    EXPECT_INTEGRITY(db2.bt(), db2.IntegrityRoots());
    TableModel t4b{"t4", {{0}}, {"t4p"}, {}};
    db2.LoadRows(&t4b);
    EXPECT_EQ(t4b.rows.size(), 400u);
    ASSERT_OK(db2.bt().Commit());
    unlink(path.c_str());
  }
}

TEST(AutoVacuumCompat, DatabaseBuiltHereCheckedBySqlite) {
  if (!HaveSqlite()) GTEST_SKIP() << "no " << kSqlite;
  for (int mode : {1, 2}) {
    for (uint32_t ps : {512u, 4096u}) {
      SCOPED_TRACE(std::to_string(mode) + " " + std::to_string(ps));
      auto bt = NewDb(ps);
      ASSERT_OK(bt->SetAutoVacuum(mode));
      SchemaDb db(std::move(bt));
      std::mt19937_64 rng(ps * 10 + mode);
      std::map<std::string, TableModel> tables;
      int next_table = 0;
      for (int txn = 0; txn < 12; ++txn) {
        ASSERT_OK(db.bt().BeginTransaction(true));
        if (tables.size() < 2 || rng() % 3 == 0) {
          std::string name = std::to_string(next_table++);
          name.insert(0, 1, 't');
          db.Add("table", name, name, "CREATE TABLE " + name + "(a INTEGER, b TEXT)");
          db.Add("index", name + "b", name, "CREATE INDEX " + name + "b ON " + name + "(b)");
          tables[name] = TableModel{name, {{1}}, {name + "b"}, {}};
        }
        if (tables.size() > 2 && rng() % 3 == 0) {
          auto it = tables.begin();
          std::advance(it, rng() % tables.size());
          db.Drop(it->first + "b");
          db.Drop(it->first);
          tables.erase(it);
        }
        for (auto& [name, t] : tables) {
          for (int i = 0; i < 60; ++i) {
            int64_t k = int64_t(rng() % 300);
            if (t.rows.count(k)) {
              db.Delete(t, k);
            } else {
              size_t len = rng() % 5 == 0 ? rng() % (ps * 4) : rng() % 100;
              db.Insert(t, k, {Field::Int(int64_t(rng() % 1000)), Field::Text(Repeat('c', len))});
            }
          }
        }
        if (HasFatalFailure()) return;
        ASSERT_EQ(Commit(db), "");
        if (mode == 2 && txn % 4 == 3) {
          ASSERT_OK(db.bt().BeginTransaction(true));
          ASSERT_OK(db.bt().IncrementalVacuum(uint32_t(rng() % 20)));
          ASSERT_EQ(Commit(db), "");
        }
      }
      EXPECT_INTEGRITY(db.bt(), db.IntegrityRoots());
      std::string img;
      ASSERT_OK(db.bt().CopyImage(&img));
      std::string path = TempPath("avours");
      WriteFile(path, img);
      std::vector<TableModel*> list;
      for (auto& [name, t] : tables) list.push_back(&t);
      ExpectSqliteSees(path, mode, list);
      EXPECT_EQ(RunSqlite(path, "PRAGMA page_count"), std::to_string(db.bt().page_count()));
      unlink(path.c_str());
    }
  }
}

// Corrupts one pointer-map entry of each kind in a database sqlite3 wrote;
// both integrity checks must say the same.
TEST(AutoVacuumCompat, PtrmapMessagesMatchSqlite) {
  if (!HaveSqlite()) GTEST_SKIP() << "no " << kSqlite;
  std::string path = TempPath("avmsg");
  unlink(path.c_str());
  ASSERT_EQ(RunSqlite(path,
                      "PRAGMA page_size=1024; PRAGMA auto_vacuum=INCREMENTAL;"
                      "CREATE TABLE t(a INTEGER, b TEXT); CREATE INDEX tb ON t(b);"
                      "INSERT INTO t SELECT value, printf('%.*c', value * 29 % 4000, 'x') || value"
                      "  FROM generate_series(1,300);"
                      "DELETE FROM t WHERE a % 5 = 0; PRAGMA integrity_check;"),
            "ok");
  const std::string good = ReadFile(path);
  const uint32_t ps = 1024;
  // Entries of the first pointer map (page 2): pages 3 .. 2 + 1024 / 5.
  std::map<int, Pgno> first_of_type;
  const Pgno pages = Pgno(good.size() / ps);
  for (Pgno p = 3; p <= std::min<Pgno>(pages, 2 + ps / 5); ++p) {
    int type = uint8_t(good[ps + 5 * (p - 3)]);
    if (!first_of_type.count(type)) first_of_type[type] = p;
  }
  for (int type = 1; type <= 5; ++type) ASSERT_TRUE(first_of_type.count(type)) << type;
  for (int type = 1; type <= 5; ++type) {
    for (int how = 0; how < 2; ++how) {
      SCOPED_TRACE(std::to_string(type) + "/" + std::to_string(how));
      std::string bad = good;
      uint8_t* e = reinterpret_cast<uint8_t*>(bad.data()) + ps + 5 * (first_of_type[type] - 3);
      if (how == 0) {
        Put32(e + 1, Get32(e + 1) + 1);  // wrong parent
      } else {
        e[0] = 0;  // unreadable entry
      }
      WriteFile(path, bad);
      std::string theirs = RunSqlite(path, "PRAGMA integrity_check");
      EXPECT_NE(theirs, "ok");
      auto r = Btree::OpenImage(bad);
      ASSERT_TRUE(r.ok());
      SchemaDb db(std::move(r).value());
      ASSERT_OK(db.bt().BeginTransaction(false));
      db.Load();
      std::vector<IntegrityRoot> roots;
      for (auto& [name, row] : db.rows()) roots.push_back({row.root});
      std::vector<std::string> msgs;
      ASSERT_OK(db.bt().IntegrityCheck(roots, 100, &msgs));
      ASSERT_OK(db.bt().Commit());
      EXPECT_EQ(FormatIntegrityReport(msgs), theirs);
    }
  }
  unlink(path.c_str());
}

}  // namespace
}  // namespace basalt::testing

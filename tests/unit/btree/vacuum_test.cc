// VACUUM through the B-tree primitives, the way the connection layer does
// it: a compact copy built in memory with CopyTree, then CopyContentFrom
// inside the database's write transaction. The result must pass sqlite3's
// integrity_check with an empty freelist and the same content; a rollback
// or a power cut leaves the old database (or the new one) intact.
#include <sys/stat.h>

#include <cstdlib>
#include <map>

#include "btree/btree.h"
#include "btree_test_util.h"
#include "os/fault_vfs.h"
#include "os/mem_vfs.h"
#include "os/vfs.h"
#include "pager/file_pager.h"
#include "sqlite_cli.h"

namespace basalt::testing {
namespace {

std::vector<Field> Decode(const std::string& rec) {
  std::vector<Field> f;
  EXPECT_TRUE(
      DecodeRecordForTest(reinterpret_cast<const uint8_t*>(rec.data()), uint32_t(rec.size()), &f));
  return f;
}

std::string Encode(const std::vector<Field>& f) { return EncodeRecordForTest(f); }

// sqlite_schema rows in rowid order: (rowid, fields).
std::vector<std::pair<int64_t, std::vector<Field>>> SchemaRows(Btree& bt) {
  std::vector<std::pair<int64_t, std::vector<Field>>> rows;
  BtCursor s;
  EXPECT_OK(bt.OpenCursor(1, false, &s));
  EXPECT_OK(s.First());
  while (!s.eof()) {
    rows.emplace_back(s.rowid(), Decode(Payload(s)));
    EXPECT_OK(s.Next());
  }
  return rows;
}

// Every tree's entries by object name (independent of root pages), plus
// the meta values VACUUM keeps.
std::string Content(Btree& bt) {
  EXPECT_OK(bt.BeginTransaction(false));
  std::string out;
  for (auto& [rowid, f] : SchemaRows(bt)) {
    out += '#';
    out += std::to_string(rowid);
    for (int i : {0, 1, 4}) out += " " + f[i].s;
    out += '\n';
    if (f[3].i == 0) continue;
    BtCursor c;
    EXPECT_OK(bt.OpenCursor(Pgno(f[3].i), false, &c));
    EXPECT_OK(c.First());
    while (!c.eof()) {
      if (c.is_table()) out += std::to_string(c.rowid()) + ":";
      out += Payload(c) + "\n";
      EXPECT_OK(c.Next());
    }
  }
  for (Meta m :
       {Meta::kDefaultCacheSize, Meta::kTextEncoding, Meta::kUserVersion, Meta::kApplicationId}) {
    uint32_t v;
    EXPECT_OK(bt.GetMeta(m, &v));
    out += "meta " + std::to_string(v) + "\n";
  }
  EXPECT_OK(bt.Commit());
  return out;
}

// The connection layer's VACUUM: trees created in sqlite_schema order
// first (so that auto-vacuum roots need no moving), entries copied, meta
// values carried over, then the pages copied back. av: the new database's
// auto-vacuum mode (-1: keep). Leaves bt's write transaction open.
Status TryVacuumUncommitted(Btree& bt, int av) {
  TRY(bt.BeginTransaction(true));
  ASSIGN_OR_RETURN(auto made, Btree::OpenInMemory(bt.page_size()));
  Btree& src = *made;
  TRY(src.SetAutoVacuum(av < 0 ? bt.auto_vacuum() : av));
  TRY(src.BeginTransaction(true));
  auto rows = SchemaRows(bt);
  std::vector<Pgno> new_roots;
  for (auto& [rowid, f] : rows) {
    Pgno root = 0;
    if (f[3].i != 0) {
      ASSIGN_OR_RETURN(root,
                       src.CreateTree(f[0].s == "table" ? TreeKind::kTable : TreeKind::kIndex));
    }
    new_roots.push_back(root);
  }
  {
    BtCursor schema;
    TRY(src.OpenCursor(1, true, &schema));
    for (size_t i = 0; i < rows.size(); ++i) {
      std::vector<Field> f = rows[i].second;
      if (new_roots[i] != 0) TRY(src.CopyTree(&bt, Pgno(f[3].i), new_roots[i]));
      f[3] = Field::Int(new_roots[i]);
      std::string rec = Encode(f);
      TRY(schema.InsertRow(rows[i].first, reinterpret_cast<const uint8_t*>(rec.data()),
                           uint32_t(rec.size())));
    }
  }
  uint32_t v;
  TRY(bt.GetMeta(Meta::kSchemaCookie, &v));
  TRY(src.SetMeta(Meta::kSchemaCookie, v + 1));
  for (Meta m :
       {Meta::kDefaultCacheSize, Meta::kTextEncoding, Meta::kUserVersion, Meta::kApplicationId}) {
    TRY(bt.GetMeta(m, &v));
    TRY(src.SetMeta(m, v));
  }
  TRY(src.Commit());
  return bt.CopyContentFrom(&src);
}

void VacuumUncommitted(Btree& bt, int av) { ASSERT_OK(TryVacuumUncommitted(bt, av)); }

void Vacuum(Btree& bt, int av = -1) {
  VacuumUncommitted(bt, av);
  if (::testing::Test::HasFatalFailure()) return;
  ASSERT_OK(bt.Commit());
}

std::unique_ptr<Btree> OpenFile(Vfs* vfs, const std::string& path, int cache_size = -2000) {
  PagerOptions opt;
  opt.cache_size = cache_size;
  auto pager = OpenFilePager(vfs, path, opt);
  EXPECT_TRUE(pager.ok());
  if (!pager.ok()) return nullptr;
  auto r = Btree::Open(std::move(pager).value());
  EXPECT_TRUE(r.ok());
  if (!r.ok()) return nullptr;
  return std::move(r).value();
}

// A fragmented database written by sqlite3.
const char* kFragmented =
    "PRAGMA page_size=1024; PRAGMA user_version=42; PRAGMA application_id=7;"
    "CREATE TABLE t1(a INTEGER, b TEXT); CREATE INDEX t1b ON t1(b);"
    "CREATE TABLE t2(x TEXT, y INTEGER); CREATE INDEX t2yx ON t2(y, x);"
    "CREATE TABLE t3(z TEXT);"
    "CREATE VIEW v AS SELECT * FROM t1;"
    "INSERT INTO t1 SELECT value, printf('%.*c', (value * 37) % 3000, 'b') || value"
    "  FROM generate_series(1, 800);"
    "INSERT INTO t2 SELECT printf('%.*c', value % 700, 'x'), value % 13"
    "  FROM generate_series(1, 1500);"
    "INSERT INTO t3 SELECT printf('%.*c', value * 91 % 9000, 'z') FROM generate_series(1, 200);"
    "DELETE FROM t1 WHERE a % 3 <> 0; DELETE FROM t2 WHERE rowid % 5 <> 1;"
    "DELETE FROM t3 WHERE rowid % 2 = 0;";

std::string SqliteDump(const std::string& path) {
  return RunSqlite(path,
                   "SELECT rowid, * FROM t1 ORDER BY rowid; SELECT rowid, * FROM t2 ORDER BY rowid;"
                   "SELECT rowid, * FROM t3 ORDER BY rowid; SELECT count(*) FROM v;"
                   "PRAGMA user_version; PRAGMA application_id;");
}

TEST(Vacuum, FragmentedSqliteDatabase) {
  if (!HaveSqlite()) GTEST_SKIP() << "no " << kSqlite;
  // none -> none, none -> FULL -> INCREMENTAL -> none: VACUUM also carries
  // the auto-vacuum mode the new database was built with.
  for (int start : {0, 1}) {
    SCOPED_TRACE(start);
    std::string path = TempPath("vacuum");
    unlink(path.c_str());
    ASSERT_EQ(RunSqlite(path, std::string(start ? "PRAGMA auto_vacuum=INCREMENTAL;" : "") +
                                  kFragmented + "PRAGMA integrity_check;"),
              "ok");
    const std::string dump = SqliteDump(path);
    const int pages_before = std::stoi(RunSqlite(path, "PRAGMA page_count"));
    ASSERT_GT(std::stoi(RunSqlite(path, "PRAGMA freelist_count")), 100);
    auto bt = OpenFile(DefaultVfs(), path);
    ASSERT_TRUE(bt);
    const std::string content = Content(*bt);
    for (int av : {-1, 1, 2, 0}) {
      SCOPED_TRACE(av);
      Vacuum(*bt, av);
      if (HasFatalFailure()) return;
      int mode = av < 0 ? start * 2 : av;
      EXPECT_EQ(bt->auto_vacuum(), mode);
      EXPECT_EQ(Content(*bt), content);
      EXPECT_EQ(
          RunSqlite(path, "PRAGMA integrity_check; PRAGMA freelist_count; PRAGMA auto_vacuum"),
          "ok\n0\n" + std::to_string(mode));
      EXPECT_EQ(SqliteDump(path), dump);
      EXPECT_LT(std::stoi(RunSqlite(path, "PRAGMA page_count")), pages_before * 2 / 3);
      EXPECT_EQ(RunSqlite(path, "PRAGMA page_count"), std::to_string(bt->page_count()));
    }
    // sqlite3 writes after our VACUUM, we read after its writes.
    EXPECT_EQ(RunSqlite(path, "INSERT INTO t3 SELECT z || 'q' FROM t3; PRAGMA integrity_check"),
              "ok");
    ASSERT_OK(bt->BeginTransaction(false));
    EXPECT_EQ(bt->auto_vacuum(), 0);
    ASSERT_OK(bt->Commit());
    unlink(path.c_str());
  }
}

TEST(Vacuum, RollbackKeepsTheOldDatabase) {
  if (!HaveSqlite()) GTEST_SKIP() << "no " << kSqlite;
  std::string path = TempPath("vacrb");
  unlink(path.c_str());
  ASSERT_EQ(RunSqlite(path, std::string(kFragmented) + "PRAGMA integrity_check;"), "ok");
  const std::string before = ReadFile(path);
  auto bt = OpenFile(DefaultVfs(), path, 10);  // a small cache: changes spill to the file
  ASSERT_TRUE(bt);
  const std::string content = Content(*bt);
  VacuumUncommitted(*bt, 1);
  ASSERT_FALSE(HasFatalFailure());
  ASSERT_OK(bt->Rollback());
  EXPECT_EQ(Content(*bt), content);
  EXPECT_EQ(bt->auto_vacuum(), 0);
  EXPECT_EQ(ReadFile(path), before);
  unlink(path.c_str());
}

TEST(Vacuum, InMemoryDatabase) {
  auto bt = NewDb(512);
  ASSERT_OK(bt->BeginTransaction(true));
  auto t = bt->CreateTree(TreeKind::kTable);
  auto ix = bt->CreateTree(TreeKind::kIndex);
  ASSERT_TRUE(t.ok() && ix.ok());
  BtCursor schema, ct, ci;
  ASSERT_OK(bt->OpenCursor(1, true, &schema));
  for (auto [name, root, type] :
       {std::tuple<const char*, Pgno, const char*>{"t", *t, "table"}, {"ti", *ix, "index"}}) {
    std::string rec = Encode({Field::Text(type), Field::Text(name), Field::Text("t"),
                              Field::Int(root), Field::Text("-")});
    ASSERT_OK(
        schema.InsertRow(root, reinterpret_cast<const uint8_t*>(rec.data()), uint32_t(rec.size())));
  }
  ASSERT_OK(bt->OpenCursor(*t, true, &ct));
  ASSERT_OK(bt->OpenCursor(*ix, true, &ci));
  for (int64_t k = 0; k < 3000; ++k) {
    std::string v = MakeValue(k, k % 11 == 0 ? 1500 : 40);
    ASSERT_OK(ct.InsertRow(k, reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size())));
    std::string key = std::to_string(100000 + k * 7919 % 3000) + v.substr(0, 300);
    ASSERT_OK(ci.InsertKey(reinterpret_cast<const uint8_t*>(key.data()), uint32_t(key.size()),
                           StringSearch, &key));
  }
  for (int64_t k = 0; k < 3000; k += 1 + k % 3) {
    int res;
    ASSERT_OK(ct.SeekRowid(k, &res));
    ASSERT_EQ(res, 0);
    ASSERT_OK(ct.Delete());
  }
  ASSERT_OK(ci.First());
  for (int i = 0; !ci.eof(); ++i) {
    if (i % 2 == 0) {
      ASSERT_OK(ci.Delete());
    }
    ASSERT_OK(ci.Next());
  }
  schema.Close();
  ct.Close();
  ci.Close();
  ASSERT_OK(bt->Commit());
  const std::string content = Content(*bt);
  const Pgno pages = bt->page_count();
  uint32_t free_pages;
  ASSERT_OK(bt->FreelistCount(&free_pages));
  ASSERT_GT(free_pages, 100u);
  // An open cursor cannot survive a VACUUM.
  BtCursor reader;
  ASSERT_OK(bt->BeginTransaction(false));
  ASSERT_OK(bt->OpenCursor(*t, false, &reader));
  ASSERT_OK(reader.First());
  Vacuum(*bt);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(reader.Next().code(), kAbort);
  reader.Close();
  EXPECT_EQ(Content(*bt), content);
  ASSERT_OK(bt->FreelistCount(&free_pages));
  EXPECT_EQ(free_pages, 0u);
  EXPECT_LT(bt->page_count(), pages);
  EXPECT_INTEGRITY(*bt, {{*t}, {*ix}});
}

TEST(Vacuum, AppendKeyBuildsDenseIndexes) {
  auto bt = NewDb(1024);
  ASSERT_OK(bt->BeginTransaction(true));
  auto a = bt->CreateTree(TreeKind::kIndex);
  auto b = bt->CreateTree(TreeKind::kIndex);
  ASSERT_TRUE(a.ok() && b.ok());
  BtCursor ca, cb;
  ASSERT_OK(bt->OpenCursor(*a, true, &ca));
  ASSERT_OK(bt->OpenCursor(*b, true, &cb));
  std::vector<std::string> keys;
  for (int i = 0; i < 20000; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "key%08d", i);
    keys.push_back(std::string(buf) + (i % 500 == 0 ? std::string(3000, 'o') : ""));
  }
  for (auto& k : keys) {
    ASSERT_OK(ca.AppendKey(reinterpret_cast<const uint8_t*>(k.data()), uint32_t(k.size())));
  }
  // The same keys in random order through InsertKey take more pages.
  std::vector<std::string> shuffled = keys;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(3));
  for (auto& k : shuffled) {
    ASSERT_OK(cb.InsertKey(reinterpret_cast<const uint8_t*>(k.data()), uint32_t(k.size()),
                           StringSearch, &k));
  }
  ASSERT_OK(ca.First());
  for (auto& k : keys) {
    ASSERT_FALSE(ca.eof());
    ASSERT_EQ(Payload(ca), k);
    ASSERT_OK(ca.Next());
  }
  EXPECT_TRUE(ca.eof());
  ca.Close();
  cb.Close();
  EXPECT_INTEGRITY(*bt, {{*a, MemcmpKeyCompare}, {*b, MemcmpKeyCompare}});
  // Compare the trees' sizes: a copy of each into fresh databases.
  for (Pgno root : {*a, *b}) {
    auto copy = NewDb(1024);
    ASSERT_OK(copy->BeginTransaction(true));
    auto r = copy->CreateTree(TreeKind::kIndex);
    ASSERT_TRUE(r.ok());
    ASSERT_OK(copy->CopyTree(bt.get(), root, *r));
    ASSERT_OK(copy->Commit());
    EXPECT_INTEGRITY(*copy, {{*r, MemcmpKeyCompare}});
    uint32_t free_pages;
    ASSERT_OK(copy->FreelistCount(&free_pages));
    EXPECT_EQ(free_pages, 0u);
  }
  // CopyTree refuses a table into an index.
  auto t = bt->CreateTree(TreeKind::kTable);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(bt->CopyTree(bt.get(), *a, *t).code(), kMisuse);
  ASSERT_OK(bt->Commit());
}

// Power cuts during the VACUUM's commit (and the FULL auto-vacuum commit
// that follows a big delete): after recovery, by us or by sqlite3, the
// database is intact with the same content.
TEST(Vacuum, PowerLossDuringCommit) {
  if (!HaveSqlite()) GTEST_SKIP() << "no " << kSqlite;
  std::string seed_path = TempPath("vacseed");
  unlink(seed_path.c_str());
  ASSERT_EQ(RunSqlite(seed_path, std::string("PRAGMA auto_vacuum=FULL;") + kFragmented +
                                     "PRAGMA integrity_check;"),
            "ok");
  const std::string seed_db = ReadFile(seed_path);
  unlink(seed_path.c_str());
  std::string expected;
  {
    MemVfs mem;
    mem.PutFile("/v.db", seed_db);
    auto bt = OpenFile(&mem, "/v.db");
    ASSERT_TRUE(bt);
    expected = Content(*bt);
  }
  // Each trial: VACUUM into FULL mode, then delete most of t3 (its commit
  // moves pages and truncates); the power fails at write point k.
  auto run = [&](Vfs* vfs) {
    auto bt = OpenFile(vfs, "/v.db", 10);
    if (!bt) return;
    if (!TryVacuumUncommitted(*bt, 1).ok() || !bt->Commit().ok()) return;
    if (!bt->BeginTransaction(true).ok()) return;
    auto rows = SchemaRows(*bt);
    for (auto& [rowid, f] : rows) {
      if (f[1].s != "t3") continue;
      BtCursor c;
      if (!bt->OpenCursor(Pgno(f[3].i), true, &c).ok()) return;
      Status st = c.First();
      while (st.ok() && !c.eof()) {
        st = c.Delete();
        if (st.ok()) st = c.Next();
      }
      if (!st.ok()) return;
    }
    (void)bt->Commit();
  };
  int64_t total;
  std::string after_delete;
  {
    MemVfs mem;
    mem.PutFile("/v.db", seed_db);
    {
      FaultVfs fault(&mem);
      run(&fault);
      ASSERT_FALSE(HasFatalFailure());
      total = fault.write_points();
    }
    auto bt = OpenFile(&mem, "/v.db");
    ASSERT_TRUE(bt);
    after_delete = Content(*bt);
    ASSERT_TRUE(after_delete != expected);
  }
  ASSERT_GT(total, 20);
  std::string dir = TempPath("vacdir");
  unlink(dir.c_str());
  ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
  int trials = 0;
  // BASALT_FAULT_FULL=1: every write point.
  const int64_t step = std::getenv("BASALT_FAULT_FULL") ? 1 : std::max<int64_t>(1, total / 60);
  for (int64_t k = 1; k <= total; k += step) {
    SCOPED_TRACE(k);
    MemVfs mem;
    mem.PutFile("/v.db", seed_db);
    FaultVfs fault(&mem);
    fault.CrashAt(k);
    run(&fault);
    ASSERT_FALSE(HasFatalFailure());
    if (!fault.crashed()) continue;
    ++trials;
    auto files = fault.SurvivingFiles(uint64_t(k), FaultVfs::Survival::kRandom);
    // sqlite3 recovers from the files as they are (hot journal included).
    for (const char* name : {"v.db", "v.db-journal"}) unlink((dir + "/" + name).c_str());
    for (auto& [p, bytes] : files) WriteFile(dir + "/" + p.substr(p.rfind('/') + 1), bytes);
    EXPECT_EQ(RunSqlite(dir + "/v.db", "PRAGMA integrity_check"), "ok");
    // And so do we.
    MemVfs after;
    for (auto& [p, bytes] : files) after.PutFile(p, bytes);
    auto bt = OpenFile(&after, "/v.db");
    ASSERT_TRUE(bt);
    std::string got = Content(*bt);
    ASSERT_OK(bt->BeginTransaction(false));
    std::vector<IntegrityRoot> roots;
    for (auto& [rowid, f] : SchemaRows(*bt)) {
      if (f[3].i != 0) roots.push_back({Pgno(f[3].i)});
    }
    EXPECT_INTEGRITY(*bt, roots);
    ASSERT_OK(bt->Commit());
    EXPECT_TRUE(got == expected || got == after_delete) << "partial content";
  }
  EXPECT_GT(trials, 20);
  for (const char* name : {"v.db", "v.db-journal"}) unlink((dir + "/" + name).c_str());
  rmdir(dir.c_str());
}

}  // namespace
}  // namespace basalt::testing

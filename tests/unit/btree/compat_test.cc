// File-format compatibility with the real sqlite3: databases built here must
// pass `PRAGMA integrity_check` and be queryable by sqlite3, and databases
// written by sqlite3 must read back through our cursors.
#include <map>

#include "btree/btree.h"
#include "btree_test_util.h"
#include "sqlite_cli.h"

namespace basalt::testing {
namespace {

// Builds databases through the B-tree API the way the engine will.
class Builder {
 public:
  explicit Builder(uint32_t page_size) {
    bt_ = NewDb(page_size);
    EXPECT_OK(bt_->BeginTransaction(true));
    EXPECT_OK(bt_->OpenCursor(1, true, &schema_));
  }

  Pgno AddSchema(const std::string& type, const std::string& name, const std::string& tbl,
                 TreeKind kind, const std::string& sql) {
    auto r = bt_->CreateTree(kind);
    EXPECT_TRUE(r.ok());
    std::string rec = EncodeRecordForTest(
        {Field::Text(type), Field::Text(name), Field::Text(tbl), Field::Int(*r), Field::Text(sql)});
    EXPECT_OK(schema_.InsertRow(++schema_rows_, reinterpret_cast<const uint8_t*>(rec.data()),
                                uint32_t(rec.size())));
    uint32_t cookie;
    EXPECT_OK(bt_->GetMeta(Meta::kSchemaCookie, &cookie));
    EXPECT_OK(bt_->SetMeta(Meta::kSchemaCookie, cookie + 1));
    return *r;
  }

  void RemoveLastSchemaRow() {
    int res;
    EXPECT_OK(schema_.SeekRowid(schema_rows_, &res));
    EXPECT_EQ(res, 0);
    EXPECT_OK(schema_.Delete());
  }

  Btree& bt() { return *bt_; }

  std::string Image() {
    std::string img;
    EXPECT_OK(bt_->CopyImage(&img));
    return img;
  }

 private:
  std::unique_ptr<Btree> bt_;
  BtCursor schema_;
  int64_t schema_rows_ = 0;
};

TEST(Compat, SqliteAcceptsOurDatabase) {
  if (!HaveSqlite()) GTEST_SKIP() << "no " << kSqlite;
  for (uint32_t page_size : {512u, 1024u, 4096u, 65536u}) {
    SCOPED_TRACE(page_size);
    Builder b(page_size);
    Btree& bt = b.bt();
    Pgno t = b.AddSchema("table", "t", "t", TreeKind::kTable, "CREATE TABLE t(a INTEGER, b TEXT)");
    Pgno ta = b.AddSchema("index", "t_a", "t", TreeKind::kIndex, "CREATE INDEX t_a ON t(a)");
    Pgno tb = b.AddSchema("index", "t_b", "t", TreeKind::kIndex, "CREATE INDEX t_b ON t(b)");
    Pgno u = b.AddSchema("table", "u", "u", TreeKind::kTable, "CREATE TABLE u(x TEXT)");
    Pgno gone = b.AddSchema("table", "gone", "gone", TreeKind::kTable, "CREATE TABLE gone(y)");

    BtCursor ct, cta, ctb, cu, cg;
    ASSERT_OK(bt.OpenCursor(t, true, &ct));
    ASSERT_OK(bt.OpenCursor(ta, true, &cta, RecordKeyCompare));
    ASSERT_OK(bt.OpenCursor(tb, true, &ctb, RecordKeyCompare));
    ASSERT_OK(bt.OpenCursor(u, true, &cu));
    ASSERT_OK(bt.OpenCursor(gone, true, &cg));
    std::mt19937 rng(page_size);
    const int kRows = 3000;
    std::map<int64_t, int64_t> a_of;      // rowid -> a
    std::map<int64_t, std::string> b_of;  // rowid -> b
    for (int64_t r = 1; r <= kRows; ++r) {
      int64_t a = int64_t(rng() % 1000) - 200;
      size_t len = r % 97 == 0 ? 20000 + rng() % 30000 : rng() % 200;
      std::string text = MakeValue(r, len);
      b_of[r] = text;
      std::string rec = EncodeRecordForTest({Field::Int(a), Field::Text(text)});
      ASSERT_OK(
          ct.InsertRow(r, reinterpret_cast<const uint8_t*>(rec.data()), uint32_t(rec.size())));
      std::string key = EncodeRecordForTest({Field::Int(a), Field::Int(r)});
      ASSERT_OK(cta.InsertKey(reinterpret_cast<const uint8_t*>(key.data()), uint32_t(key.size()),
                              RecordSearch, &key));
      std::string bkey = EncodeRecordForTest({Field::Text(text), Field::Int(r)});
      ASSERT_OK(ctb.InsertKey(reinterpret_cast<const uint8_t*>(bkey.data()), uint32_t(bkey.size()),
                              RecordSearch, &bkey));
      a_of[r] = a;
    }
    // Delete a third of t (rows and index entries): pages go to the freelist.
    for (int64_t r = 3; r <= kRows; r += 3) {
      int res;
      ASSERT_OK(ct.SeekRowid(r, &res));
      ASSERT_EQ(res, 0);
      ASSERT_OK(ct.Delete());
      std::string key = EncodeRecordForTest({Field::Int(a_of[r]), Field::Int(r)});
      ASSERT_OK(cta.SeekIndex(RecordSearch, &key, &res));
      ASSERT_EQ(res, 0);
      ASSERT_OK(cta.Delete());
      std::string bkey = EncodeRecordForTest({Field::Text(b_of[r]), Field::Int(r)});
      ASSERT_OK(ctb.SeekIndex(RecordSearch, &bkey, &res));
      ASSERT_EQ(res, 0);
      ASSERT_OK(ctb.Delete());
    }
    int64_t rows_t = kRows - kRows / 3;
    for (int64_t r = 1; r <= 500; ++r) {
      std::string rec = EncodeRecordForTest({Field::Text(MakeValue(r, r % 50 == 0 ? 5000 : 30))});
      ASSERT_OK(cu.InsertRow(r * 1000, reinterpret_cast<const uint8_t*>(rec.data()),
                             uint32_t(rec.size())));
      ASSERT_OK(
          cg.InsertRow(r, reinterpret_cast<const uint8_t*>(rec.data()), uint32_t(rec.size())));
    }
    cg.Close();
    b.RemoveLastSchemaRow();
    ASSERT_OK(bt.DropTree(gone));
    ASSERT_OK(bt.Commit());
    EXPECT_INTEGRITY(bt, {{t}, {ta, RecordKeyCompare}, {tb, RecordKeyCompare}, {u}});
    uint32_t free_pages;
    ASSERT_OK(bt.FreelistCount(&free_pages));
    EXPECT_GT(free_pages, 0u);

    std::string path = TempPath("ours");
    WriteFile(path, b.Image());
    EXPECT_EQ(RunSqlite(path, "PRAGMA integrity_check"), "ok");
    EXPECT_EQ(RunSqlite(path, "SELECT count(*) FROM t"), std::to_string(rows_t));
    EXPECT_EQ(RunSqlite(path, "SELECT count(*) FROM u"), "500");
    int64_t between = 0;
    for (auto& [r, a] : a_of) {
      if (r % 3 != 0 && a >= 10 && a <= 20) ++between;
    }
    EXPECT_EQ(RunSqlite(path, "SELECT count(*) FROM t INDEXED BY t_a WHERE a BETWEEN 10 AND 20"),
              std::to_string(between));
    int64_t from_m = 0;
    for (auto& [r, v] : b_of) {
      if (r % 3 != 0 && v >= "m") ++from_m;
    }
    EXPECT_EQ(RunSqlite(path, "SELECT count(*) FROM t INDEXED BY t_b WHERE b >= 'm'"),
              std::to_string(from_m));
    EXPECT_EQ(RunSqlite(path, "SELECT count(*) FROM sqlite_schema"), "4");
    EXPECT_EQ(RunSqlite(path, "PRAGMA freelist_count"), std::to_string(free_pages));
    EXPECT_EQ(RunSqlite(path, "PRAGMA page_size"), std::to_string(page_size));
    // sqlite3 can keep writing to it.
    EXPECT_EQ(RunSqlite(path,
                        "INSERT INTO t SELECT a+1, b||'x' FROM t; DELETE FROM u WHERE rowid%3000=0;"
                        "PRAGMA integrity_check"),
              "ok");
    // And we read back what sqlite3 wrote.
    auto back = Btree::OpenImage(ReadFile(path));
    ASSERT_TRUE(back.ok());
    EXPECT_INTEGRITY(**back, {{t}, {ta, RecordKeyCompare}, {tb, RecordKeyCompare}, {u}});
    BtCursor c;
    ASSERT_OK((*back)->BeginTransaction(false));
    ASSERT_OK((*back)->OpenCursor(t, false, &c));
    int64_t n;
    ASSERT_OK(c.Count(&n));
    EXPECT_EQ(n, 2 * rows_t);
    c.Close();
    ASSERT_OK((*back)->Commit());
    unlink(path.c_str());
  }
}

// Enough schema rows that sqlite_schema (rooted at page 1) becomes a deep
// tree, then shrinks again.
TEST(Compat, LargeSchemaOnPage1) {
  if (!HaveSqlite()) GTEST_SKIP() << "no " << kSqlite;
  Builder b(512);
  std::vector<Pgno> roots;
  for (int i = 0; i < 300; ++i) {
    std::string name = "table_with_a_longish_name_" + std::to_string(i);
    roots.push_back(b.AddSchema(
        "table", name, name, TreeKind::kTable,
        "CREATE TABLE " + name + "(a, b, c, d TEXT DEFAULT '" + std::string(i % 40, 'q') + "')"));
  }
  ASSERT_OK(b.bt().Commit());
  std::string path = TempPath("schema");
  WriteFile(path, b.Image());
  EXPECT_EQ(RunSqlite(path, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(RunSqlite(path, "SELECT count(*) FROM sqlite_schema"), "300");
  EXPECT_EQ(RunSqlite(path, "SELECT count(*) FROM table_with_a_longish_name_299"), "0");
  // sqlite3 drops most of them; we read what is left.
  std::string drops;
  for (int i = 0; i < 300; ++i) {
    if (i % 50 != 0) drops += "DROP TABLE table_with_a_longish_name_" + std::to_string(i) + ";";
  }
  EXPECT_EQ(RunSqlite(path, drops + "PRAGMA integrity_check"), "ok");
  auto back = Btree::OpenImage(ReadFile(path));
  ASSERT_TRUE(back.ok());
  BtCursor s;
  ASSERT_OK((*back)->BeginTransaction(true));
  ASSERT_OK((*back)->OpenCursor(1, true, &s));
  int64_t n;
  ASSERT_OK(s.Count(&n));
  EXPECT_EQ(n, 6);
  s.Close();
  ASSERT_OK((*back)->Commit());
  unlink(path.c_str());
}

// Page 1 as an interior page with no cells and one child (the child's cell
// does not fit on page 1): sqlite3 must accept that too.
TEST(Compat, EmptyInteriorPage1) {
  if (!HaveSqlite()) GTEST_SKIP() << "no " << kSqlite;
  Builder b(512);
  std::string pad(380, 'p');
  b.AddSchema("table", "one", "one", TreeKind::kTable, "CREATE TABLE one(a DEFAULT '" + pad + "')");
  Pgno two = b.AddSchema("table", "two", "two", TreeKind::kTable,
                         "CREATE TABLE two(a DEFAULT '" + pad + "')");
  b.RemoveLastSchemaRow();
  ASSERT_OK(b.bt().DropTree(two));
  ASSERT_OK(b.bt().Commit());
  std::string img = b.Image();
  ASSERT_EQ(uint8_t(img[100]), 5);  // page 1: table interior
  ASSERT_EQ(uint8_t(img[104]), 0);  // with no cells
  std::string path = TempPath("empty1");
  WriteFile(path, img);
  EXPECT_EQ(RunSqlite(path, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(RunSqlite(path, "SELECT name FROM sqlite_schema"), "one");
  unlink(path.c_str());
}

TEST(Compat, WeReadSqliteDatabase) {
  if (!HaveSqlite()) GTEST_SKIP() << "no " << kSqlite;
  std::string path = TempPath("theirs");
  unlink(path.c_str());
  std::string out =
      RunSqlite(path,
                "PRAGMA page_size=1024;"
                "CREATE TABLE big(id INTEGER PRIMARY KEY, name TEXT, n INTEGER);"
                "CREATE INDEX big_name ON big(name);"
                "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<5000)"
                " INSERT INTO big SELECT x, 'name' || (x*7919 % 5000), x*x FROM c;"
                "UPDATE big SET name = name || printf('%.3000c', 'z') WHERE id % 100 = 0;"
                "DELETE FROM big WHERE id % 7 = 0;"
                "SELECT count(*) FROM big;");
  ASSERT_EQ(out, "4286");
  auto r = Btree::OpenImage(ReadFile(path));
  ASSERT_TRUE(r.ok()) << r.status().code();
  Btree& bt = **r;
  EXPECT_EQ(bt.page_size(), 1024u);
  ASSERT_OK(bt.BeginTransaction(false));
  uint32_t v;
  ASSERT_OK(bt.GetMeta(Meta::kSchemaFormat, &v));
  EXPECT_EQ(v, 4u);
  ASSERT_OK(bt.GetMeta(Meta::kTextEncoding, &v));
  EXPECT_EQ(v, 1u);
  // Find the roots in sqlite_schema.
  BtCursor s;
  ASSERT_OK(bt.OpenCursor(1, false, &s));
  std::map<std::string, Pgno> roots;
  ASSERT_OK(s.First());
  while (!s.eof()) {
    std::string rec = Payload(s);
    std::vector<Field> f;
    ASSERT_TRUE(DecodeRecordForTest(reinterpret_cast<const uint8_t*>(rec.data()),
                                    uint32_t(rec.size()), &f));
    roots[f[1].s] = Pgno(f[3].i);
    ASSERT_OK(s.Next());
  }
  ASSERT_EQ(roots.size(), 2u);
  EXPECT_INTEGRITY(bt, {{roots["big"]}, {roots["big_name"], RecordKeyCompare}});
  BtCursor t;
  ASSERT_OK(bt.OpenCursor(roots["big"], false, &t));
  EXPECT_TRUE(t.is_table());
  ASSERT_OK(t.First());
  int64_t count = 0, expect_id = 1;
  while (!t.eof()) {
    if (expect_id % 7 == 0) ++expect_id;
    ASSERT_EQ(t.rowid(), expect_id);
    std::string rec = Payload(t);
    std::vector<Field> f;
    ASSERT_TRUE(DecodeRecordForTest(reinterpret_cast<const uint8_t*>(rec.data()),
                                    uint32_t(rec.size()), &f));
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[0].kind, Field::kNull);  // INTEGER PRIMARY KEY is the rowid
    std::string name = "name" + std::to_string(expect_id * 7919 % 5000);
    if (expect_id % 100 == 0) name += std::string(3000, 'z');
    EXPECT_EQ(f[1].s, name);
    EXPECT_EQ(f[2].i, expect_id * expect_id);
    ++count;
    ++expect_id;
    ASSERT_OK(t.Next());
  }
  EXPECT_EQ(count, 4286);
  // The index: ordered by (name, rowid), seekable.
  BtCursor ix;
  ASSERT_OK(bt.OpenCursor(roots["big_name"], false, &ix, RecordKeyCompare));
  EXPECT_FALSE(ix.is_table());
  int64_t n;
  ASSERT_OK(ix.Count(&n));
  EXPECT_EQ(n, 4286);
  std::string key = EncodeRecordForTest({Field::Text("name1234")});
  int res;
  ASSERT_OK(ix.SeekIndex(RecordSearch, &key, &res));
  ASSERT_FALSE(ix.eof());
  if (res < 0) ASSERT_OK(ix.Next());
  std::string rec = Payload(ix);
  std::vector<Field> f;
  ASSERT_TRUE(
      DecodeRecordForTest(reinterpret_cast<const uint8_t*>(rec.data()), uint32_t(rec.size()), &f));
  EXPECT_EQ(f[0].s, "name1234");
  EXPECT_EQ((f[1].i * 7919) % 5000, 1234);
  ASSERT_OK(bt.Commit());

  // Modify it here, then let sqlite3 check and read it.
  ASSERT_OK(bt.BeginTransaction(true));
  BtCursor w;
  ASSERT_OK(bt.OpenCursor(roots["big"], true, &w));
  ASSERT_OK(w.First());
  int64_t deleted = 0;
  while (!w.eof()) {
    if (w.rowid() % 2 == 0) {
      ASSERT_OK(w.Delete());
      ++deleted;
    }
    ASSERT_OK(w.Next());
  }
  w.Close();
  // The index is now stale: rebuild it from scratch via ClearTree.
  ASSERT_OK(bt.ClearTree(roots["big_name"]));
  ASSERT_OK(bt.OpenCursor(roots["big"], false, &t));
  BtCursor wi;
  ASSERT_OK(bt.OpenCursor(roots["big_name"], true, &wi, RecordKeyCompare));
  ASSERT_OK(t.First());
  while (!t.eof()) {
    std::string rec2 = Payload(t);
    std::vector<Field> g;
    ASSERT_TRUE(DecodeRecordForTest(reinterpret_cast<const uint8_t*>(rec2.data()),
                                    uint32_t(rec2.size()), &g));
    std::string k = EncodeRecordForTest({Field::Text(g[1].s), Field::Int(t.rowid())});
    ASSERT_OK(wi.InsertKey(reinterpret_cast<const uint8_t*>(k.data()), uint32_t(k.size()),
                           RecordSearch, &k));
    ASSERT_OK(t.Next());
  }
  t.Close();
  wi.Close();
  ASSERT_OK(bt.Commit());
  std::string img;
  ASSERT_OK(bt.CopyImage(&img));
  WriteFile(path, img);
  EXPECT_EQ(RunSqlite(path, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(RunSqlite(path, "SELECT count(*) FROM big"), std::to_string(4286 - deleted));
  unlink(path.c_str());
}

}  // namespace
}  // namespace basalt::testing

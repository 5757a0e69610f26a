// The backup API (memory and file databases, incremental steps, a source
// written between steps, errors), incremental BLOB I/O (read, write,
// reopen, expiry, errors) and serialize / deserialize: each scenario runs
// on Basalt and on the system libsqlite3 and the transcripts must match.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "engines.h"
#include "query.h"
#include "transcript.h"

namespace basalt::apitest {
namespace {

constexpr int kRwc = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;

sqlite3* OpenFile(const Api& a, const std::string& path) {
  sqlite3* db = nullptr;
  a.open_v2(path.c_str(), &db, kRwc, nullptr);
  return db;
}

void Fill(const Api& a, sqlite3* db) {
  Exec(a, db,
       "CREATE TABLE t(x, y); WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM c "
       "WHERE n < 200) INSERT INTO t SELECT n, randomblob(100) FROM c; "
       "CREATE INDEX tx ON t(x)");
}

TEST(Backup, MemoryToMemoryIncremental) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* src = OpenMemory(a);
    sqlite3* dst = OpenMemory(a);
    Fill(a, src);
    sqlite3_backup* b = a.backup_init(dst, "main", src, "main");
    t->Bool("init", b != nullptr);
    t->Int("remaining before", a.backup_remaining(b));
    t->Int("pagecount before", a.backup_pagecount(b));
    t->Int("step 3", a.backup_step(b, 3));
    t->Int("remaining", a.backup_remaining(b));
    t->Int("pagecount", a.backup_pagecount(b));
    Exec(a, src, "INSERT INTO t VALUES(1000, 'late')");
    int rc, steps = 0;
    while ((rc = a.backup_step(b, 5)) == SQLITE_OK) ++steps;
    t->Int("last step", rc);
    t->Int("steps", steps);
    t->Int("remaining after", a.backup_remaining(b));
    t->Int("finish", a.backup_finish(b));
    t->Int("dest errcode", a.errcode(dst));
    t->Str("copied", Rows(a, dst, "SELECT count(*), sum(x), max(y) = 'late' FROM t").c_str());
    t->Str("index", Rows(a, dst, "PRAGMA integrity_check").c_str());
    a.close(src);
    a.close(dst);
  });
}

TEST(Backup, FilesAndErrors) {
  std::string dir = TempDir("backup");
  SameAsSqlite([&](const Api& a, Transcript* t) {
    sqlite3* src = OpenFile(a, dir + "/src-" + a.name + ".db");
    Fill(a, src);
    sqlite3* dst = OpenFile(a, dir + "/dst-" + a.name + ".db");
    Exec(a, dst, "PRAGMA page_size = 1024; CREATE TABLE old(z)");
    sqlite3_backup* b = a.backup_init(dst, "main", src, "main");
    t->Int("all at once", a.backup_step(b, -1));
    t->Int("again", a.backup_step(b, -1));
    t->Int("finish", a.backup_finish(b));
    t->Str("copied", Rows(a, dst, "SELECT count(*) FROM t").c_str());
    t->Str("old gone", Rows(a, dst, "SELECT count(*) FROM old").c_str());
    t->Str("page size", Rows(a, dst, "PRAGMA page_size").c_str());
    t->Bool("unknown source", a.backup_init(dst, "main", src, "nosuch") == nullptr);
    t->Str("message", a.errmsg(dst));
    t->Bool("same connection", a.backup_init(src, "main", src, "main") == nullptr);
    t->Str("message", a.errmsg(src));
    Exec(a, dst, "BEGIN; INSERT INTO t VALUES(0, 0)");
    t->Bool("dest in transaction", a.backup_init(dst, "main", src, "main") == nullptr);
    t->Str("message", a.errmsg(dst));
    Exec(a, dst, "ROLLBACK");
    sqlite3* mem = OpenMemory(a);
    Exec(a, mem, "PRAGMA page_size = 512; CREATE TABLE m(x)");
    b = a.backup_init(mem, "main", src, "main");
    t->Int("memory dest, other page size", a.backup_step(b, -1));
    t->Int("finish", a.backup_finish(b));
    t->Str("message", a.errmsg(mem));
    b = a.backup_init(mem, "main", src, "temp");
    t->Int("empty temp source", a.backup_step(b, -1));
    t->Int("finish", a.backup_finish(b));
    t->Str("now empty", Rows(a, mem, "SELECT count(*) FROM sqlite_schema").c_str());
    a.close(mem);
    a.close(src);
    a.close(dst);
  });
}

TEST(Blob, ReadWriteReopenExpire) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = OpenMemory(a);
    Exec(a, db,
         "CREATE TABLE t(id INTEGER PRIMARY KEY, b, n, k); CREATE INDEX tk ON t(k); "
         "INSERT INTO t VALUES(1, x'00112233445566778899', 5, 'k'), (2, 'hello world', 6, 'j'), "
         "(3, NULL, 7, 'i'); CREATE VIEW v AS SELECT * FROM t; "
         "CREATE TABLE w(a PRIMARY KEY, b) WITHOUT ROWID");
    sqlite3_blob* bl = nullptr;
    t->Int("open", a.blob_open(db, "main", "t", "b", 1, 1, &bl));
    t->Int("bytes", a.blob_bytes(bl));
    char buf[32] = {0};
    t->Int("read", a.blob_read(bl, buf, 4, 2));
    t->Int("byte", static_cast<unsigned char>(buf[3]));
    t->Int("read past end", a.blob_read(bl, buf, 4, 8));
    t->Str("message", a.errmsg(db));
    t->Int("write", a.blob_write(bl, "\xff\xee", 2, 0));
    t->Str("after write", Rows(a, db, "SELECT hex(b) FROM t WHERE id = 1").c_str());
    t->Int("write past end", a.blob_write(bl, "abc", 3, 9));
    t->Int("reopen 2", a.blob_reopen(bl, 2));
    t->Int("bytes", a.blob_bytes(bl));
    std::memset(buf, 0, sizeof buf);
    t->Int("read text", a.blob_read(bl, buf, 5, 6));
    t->Str("text", buf);
    t->Int("write text", a.blob_write(bl, "W", 1, 6));
    t->Str("typeof", Rows(a, db, "SELECT typeof(b), b FROM t WHERE id = 2").c_str());
    t->Int("reopen null", a.blob_reopen(bl, 3));
    t->Str("message", a.errmsg(db));
    t->Int("read after failed reopen", a.blob_read(bl, buf, 1, 0));
    t->Int("close", a.blob_close(bl));
    t->Int("open again", a.blob_open(db, "main", "t", "b", 1, 0, &bl));
    Exec(a, db, "UPDATE t SET n = n + 1 WHERE id = 1");
    t->Int("read expired", a.blob_read(bl, buf, 1, 0));
    t->Str("message", a.errmsg(db));
    t->Int("close", a.blob_close(bl));
    a.blob_open(db, "main", "t", "b", 1, 0, &bl);
    t->Int("write read-only", a.blob_write(bl, "x", 1, 0));
    t->Str("message", a.errmsg(db));
    t->Int("close busy connection", a.close(db));
    a.blob_close(bl);
    struct Case {
      const char* db;
      const char* table;
      const char* col;
      sqlite3_int64 row;
      int flags;
    };
    const Case cases[] = {{"main", "nosuch", "b", 1, 0}, {"main", "t", "nosuch", 1, 0},
                          {"main", "t", "b", 9, 0},      {"main", "t", "n", 1, 0},
                          {"main", "v", "b", 1, 0},      {"main", "w", "b", 1, 0},
                          {"main", "t", "k", 1, 1},      {"nosuch", "t", "b", 1, 0}};
    for (const Case& c : cases) {
      bl = nullptr;
      int rc = a.blob_open(db, c.db, c.table, c.col, c.row, c.flags, &bl);
      t->Int(std::string("open ") + c.table + "." + c.col, rc);
      t->Str("message", a.errmsg(db));
      t->Bool("null handle", bl == nullptr);
    }
    t->Int("close", a.close(db));
  });
}

TEST(Serialize, RoundTrip) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = OpenMemory(a);
    sqlite3_int64 size = 123;
    unsigned char* img = a.serialize(db, "main", &size, 0);
    t->Bool("empty database", img == nullptr);
    t->Int("size", size);
    Fill(a, db);
    img = a.serialize(db, "main", &size, 0);
    t->Bool("image", img != nullptr);
    t->Int("size", size);
    t->Bool("nocopy", a.serialize(db, "main", &size, SQLITE_SERIALIZE_NOCOPY) == nullptr);
    t->Bool("unknown schema", a.serialize(db, "nosuch", &size, 0) == nullptr);
    sqlite3* other = OpenMemory(a);
    t->Int("deserialize",
           a.deserialize(other, "main", img, size, size,
                         SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE));
    t->Str("rows", Rows(a, other, "SELECT count(*), sum(x) FROM t").c_str());
    t->Str("write", Exec(a, other, "INSERT INTO t VALUES(0, 0)").c_str());
    unsigned char* ro = a.serialize(db, "main", &size, 0);
    t->Int("read-only",
           a.deserialize(other, "main", ro, size, size,
                         SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY));
    t->Str("read-only write", Exec(a, other, "INSERT INTO t VALUES(0, 0)").c_str());
    static unsigned char junk[] = {0, 1, 3};
    t->Int("junk", a.deserialize(other, "main", junk, 3, 3, 0));
    t->Str("select 1", Rows(a, other, "SELECT 1").c_str());
    t->Str("junk schema", Rows(a, other, "SELECT count(*) FROM sqlite_schema").c_str());
    t->Int("temp", a.deserialize(other, "temp", junk, 3, 3, 0));
    a.close(other);
    a.close(db);
  });
}

}  // namespace
}  // namespace basalt::apitest

// sqlite3_str, strglob/strlike, keywords, randomness, compile options,
// database information (filename, name, read-only, transaction state,
// column metadata, file_control), status counters and sqlite3_db_config:
// each scenario runs on Basalt and on the system libsqlite3 and the
// transcripts must match.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "engines.h"
#include "query.h"
#include "transcript.h"

namespace basalt::apitest {
namespace {

TEST(Str, BuildAppendFinish) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3_str* s = a.str_new(nullptr);
    t->Int("empty length", a.str_length(s));
    t->Str("empty value", a.str_value(s));
    a.str_append(s, "abcdef", 3);
    a.str_appendall(s, "-xyz");
    a.str_appendchar(s, 3, '.');
    a.str_appendf(s, "[%d %q %s]", 42, "it's", "z");
    t->Str("value", a.str_value(s));
    t->Int("length", a.str_length(s));
    t->Int("errcode", a.str_errcode(s));
    a.str_reset(s);
    t->Int("after reset", a.str_length(s));
    char* out = a.str_finish(s);
    t->Str("finish of empty", out);
    a.free(out);
    sqlite3* db = OpenMemory(a);
    a.limit(db, SQLITE_LIMIT_LENGTH, 10);
    s = a.str_new(db);
    a.str_appendall(s, "12345");
    a.str_appendall(s, "67890");
    t->Int("too big", a.str_errcode(s));
    t->Int("length after", a.str_length(s));
    a.str_appendall(s, "x");
    t->Int("still", a.str_errcode(s));
    out = a.str_finish(s);
    t->Str("finish after error", out);
    a.free(out);
    s = a.str_new(db);
    a.str_appendall(s, "ok");
    out = a.str_finish(s);
    t->Str("finish", out);
    a.free(out);
    a.close(db);
  });
}

TEST(Str, GlobLikeKeywords) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    const char* pairs[][2] = {{"a*c", "abc"}, {"a?c", "abbc"}, {"[a-c]x", "bx"}, {"A*", "abc"},
                              {"*", ""},      {"a%c", "ABC"},  {"a_c", "abc"},   {"%", "x"}};
    for (auto& p : pairs) {
      t->Int(std::string("glob ") + p[0] + " " + p[1], a.strglob(p[0], p[1]) == 0);
      t->Int(std::string("like ") + p[0] + " " + p[1], a.strlike(p[0], p[1], 0) == 0);
    }
    t->Int("like escape", a.strlike("a!%", "a%", '!') == 0);
    t->Int("like escape no", a.strlike("a!%", "ab", '!') == 0);
    t->Int("keyword count", a.keyword_count());
    std::set<std::string> names;
    for (int i = 0; i < a.keyword_count(); ++i) {
      const char* z = nullptr;
      int n = 0;
      if (a.keyword_name(i, &z, &n) == SQLITE_OK)
        names.insert(std::string(z, static_cast<size_t>(n)));
    }
    std::string all;
    for (const std::string& n : names) all += n + " ";
    t->Str("keywords", all.c_str());
    t->Int("out of range", a.keyword_name(1000, nullptr, nullptr));
    for (const char* w : {"select", "SELECT", "selects", "temp", "_rowid_", "rowid", "x"}) {
      t->Int(std::string("check ") + w, a.keyword_check(w, static_cast<int>(strlen(w))) != 0);
    }
    const char16_t done[] = u"SELECT 1;";
    const char16_t notyet[] = u"SELECT 'a";
    t->Int("complete16", a.complete16(done));
    t->Int("incomplete16", a.complete16(notyet));
    unsigned char r1[16] = {0}, r2[16] = {0};
    a.randomness(16, r1);
    a.randomness(16, r2);
    t->Bool("random differs", std::equal(r1, r1 + 16, r2) == false);
    t->Int("option THREADSAFE=1", a.compileoption_used("THREADSAFE=1"));
    t->Int("option SQLITE_ENABLE_FTS5", a.compileoption_used("SQLITE_ENABLE_FTS5"));
    t->Int("option nonsense", a.compileoption_used("NONSENSE"));
    t->Bool("option 0 exists", a.compileoption_get(0) != nullptr);
    t->Str("option 10000", a.compileoption_get(10000));
  });
}

TEST(Info, DatabasesAndMetadata) {
  std::string dir = TempDir("info");
  SameAsSqlite([&](const Api& a, Transcript* t) {
    std::string path = dir + "/m-" + a.name + ".db";
    sqlite3* db = nullptr;
    a.open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    Exec(a, db,
         "CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT, a TEXT NOT NULL COLLATE NOCASE, "
         "b); CREATE TABLE w(k, v, PRIMARY KEY(k, v)) WITHOUT ROWID; ATTACH ':memory:' AS aux");
    t->Bool("filename", std::string(a.db_filename(db, "main")) == path);
    t->Str("aux filename", a.db_filename(db, "aux"));
    t->Str("nosuch filename", a.db_filename(db, "nosuch"));
    for (int i = 0; i < 4; ++i) t->Str("db_name", a.db_name(db, i));
    t->Int("readonly main", a.db_readonly(db, "main"));
    t->Int("readonly nosuch", a.db_readonly(db, "nosuch"));
    t->Int("txn none", a.txn_state(db, nullptr));
    Exec(a, db, "BEGIN; SELECT * FROM t");
    t->Int("txn read", a.txn_state(db, "main"));
    Exec(a, db, "INSERT INTO t(a) VALUES('x')");
    t->Int("txn write", a.txn_state(db, nullptr));
    t->Int("txn aux", a.txn_state(db, "aux"));
    t->Int("txn nosuch", a.txn_state(db, "nosuch"));
    Exec(a, db, "COMMIT");
    const char* cols[][2] = {{"t", "id"}, {"t", "a"}, {"t", "b"},     {"t", "rowid"},
                             {"t", "zz"}, {"w", "v"}, {"nosuch", "a"}};
    for (auto& c : cols) {
      const char *decl = nullptr, *coll = nullptr;
      int nn = -1, pk = -1, ai = -1;
      int rc = a.table_column_metadata(db, nullptr, c[0], c[1], &decl, &coll, &nn, &pk, &ai);
      std::string what = std::string(c[0]) + "." + c[1];
      t->Int(what, rc);
      if (rc != SQLITE_OK) {
        t->Str("message", a.errmsg(db));
        continue;
      }
      t->Str("decl", decl);
      t->Str("coll", coll);
      t->Int("notnull pk autoinc", nn * 100 + pk * 10 + ai);
    }
    unsigned version = 0;
    t->Int("data version rc", a.file_control(db, "main", SQLITE_FCNTL_DATA_VERSION, &version));
    t->Int("unknown op", a.file_control(db, "main", 12345, nullptr));
    t->Int("cacheflush", a.db_cacheflush(db));
    t->Int("close", a.close(db));
  });
}

TEST(Status, CountersAndDbConfig) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3_int64 cur = -1, hi = -1;
    t->Int("status64 memory", a.status64(SQLITE_STATUS_MEMORY_USED, &cur, &hi, 0));
    t->Bool("memory > 0", cur > 0 && hi >= cur);
    t->Int("status64 bad op", a.status64(99, &cur, &hi, 0));
    t->Bool("memory_used > 0", a.memory_used() > 0);
    sqlite3* db = OpenMemory(a);
    Exec(a, db, "CREATE TABLE t(x); INSERT INTO t VALUES(3),(1),(2)");
    sqlite3_stmt* s = nullptr;
    a.prepare_v2(db, "SELECT x FROM t ORDER BY x", -1, &s, nullptr);
    for (int run = 0; run < 2; ++run) {
      while (a.step(s) == SQLITE_ROW) {
      }
      a.reset(s);
    }
    t->Int("runs", a.stmt_status(s, SQLITE_STMTSTATUS_RUN, 0));
    t->Int("sorts", a.stmt_status(s, SQLITE_STMTSTATUS_SORT, 1));
    t->Int("sorts after reset", a.stmt_status(s, SQLITE_STMTSTATUS_SORT, 0));
    t->Bool("vm steps", a.stmt_status(s, SQLITE_STMTSTATUS_VM_STEP, 0) > 0);
    t->Bool("memused", a.stmt_status(s, SQLITE_STMTSTATUS_MEMUSED, 0) > 0);
    Exec(a, db, "CREATE TABLE u(y)");
    a.step(s);
    a.reset(s);
    t->Int("reprepare", a.stmt_status(s, SQLITE_STMTSTATUS_REPREPARE, 0));
    a.finalize(s);
    int c = -1, h = -1;
    t->Int("deferred fks", a.db_status(db, SQLITE_DBSTATUS_DEFERRED_FKS, &c, &h, 0));
    t->Int("value", c);
    Exec(a, db,
         "PRAGMA foreign_keys = ON; CREATE TABLE p(id PRIMARY KEY); "
         "CREATE TABLE ch(pid REFERENCES p DEFERRABLE INITIALLY DEFERRED); BEGIN; "
         "INSERT INTO ch VALUES(5)");
    a.db_status(db, SQLITE_DBSTATUS_DEFERRED_FKS, &c, &h, 0);
    t->Int("deferred now", c);
    Exec(a, db, "ROLLBACK");
    t->Int("bad op", a.db_status(db, 999, &c, &h, 0));
    const int ops[] = {SQLITE_DBCONFIG_ENABLE_FKEY,
                       SQLITE_DBCONFIG_ENABLE_TRIGGER,
                       SQLITE_DBCONFIG_ENABLE_VIEW,
                       SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION,
                       SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER,
                       SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
                       SQLITE_DBCONFIG_ENABLE_QPSG,
                       SQLITE_DBCONFIG_TRIGGER_EQP,
                       SQLITE_DBCONFIG_RESET_DATABASE,
                       SQLITE_DBCONFIG_DEFENSIVE,
                       SQLITE_DBCONFIG_WRITABLE_SCHEMA,
                       SQLITE_DBCONFIG_LEGACY_ALTER_TABLE,
                       SQLITE_DBCONFIG_DQS_DML,
                       SQLITE_DBCONFIG_DQS_DDL,
                       SQLITE_DBCONFIG_LEGACY_FILE_FORMAT,
                       SQLITE_DBCONFIG_TRUSTED_SCHEMA};
    for (int op : ops) {
      int v = -1;
      t->Int("db_config " + std::to_string(op), a.db_config(db, op, -1, &v));
      t->Int("value", v);
      a.db_config(db, op, 1, &v);
      t->Int("set 1", v);
      a.db_config(db, op, 0, &v);
      t->Int("set 0", v);
    }
    int fk = -1;
    a.db_config(db, SQLITE_DBCONFIG_ENABLE_FKEY, 1, &fk);
    t->Str("pragma foreign_keys", Rows(a, db, "PRAGMA foreign_keys").c_str());
    t->Int("unknown db_config", a.db_config(db, 5000, 0, nullptr));
    a.close(db);
  });
}

}  // namespace
}  // namespace basalt::apitest

// sqlite3_limit, sqlite3_progress_handler, the commit and rollback hooks,
// tracing (trace_v2, trace, profile, expanded SQL), user collations and
// sqlite3_set_authorizer: each scenario runs on Basalt and on the system
// libsqlite3 and the transcripts must match.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "engines.h"
#include "query.h"
#include "transcript.h"

namespace basalt::apitest {
namespace {

const Api* limits_api = nullptr;
// big(n): a text of n bytes, through sqlite3_result_text.
void Big(sqlite3_context* ctx, int, sqlite3_value** argv) {
  std::string s(static_cast<size_t>(limits_api->value_int64(argv[0])), 'x');
  limits_api->result_text(ctx, s.c_str(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
}

// The limits enforced while statements run: function results, LIKE
// patterns, trigger nesting.
TEST(Limits, RunTimeLimits) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    limits_api = &a;
    sqlite3* db = OpenMemory(a);
    a.create_function(db, "big", 1, SQLITE_UTF8, nullptr, Big, nullptr, nullptr);
    a.limit(db, SQLITE_LIMIT_LENGTH, 50);
    t->Str("big 50", Rows(a, db, "SELECT length(big(50))").c_str());
    t->Str("big 51", Rows(a, db, "SELECT length(big(51))").c_str());
    a.limit(db, SQLITE_LIMIT_LENGTH, 1000000);
    a.limit(db, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 5);
    t->Str("like 5", Rows(a, db, "SELECT 'abcde' LIKE 'abcd%'").c_str());
    t->Str("like 6", Rows(a, db, "SELECT 'abcdef' LIKE 'abcde%'").c_str());
    t->Str("glob 6", Rows(a, db, "SELECT 'abcdef' GLOB 'abcde*'").c_str());
    Exec(a, db,
         "PRAGMA recursive_triggers = ON; CREATE TABLE c(n); CREATE TRIGGER tr AFTER INSERT ON c "
         "WHEN new.n < 20 BEGIN INSERT INTO c VALUES(new.n + 1); END");
    a.limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 10);
    t->Str("depth 10", Exec(a, db, "INSERT INTO c VALUES(15)").c_str());
    t->Str("depth 11", Exec(a, db, "INSERT INTO c VALUES(5)").c_str());
    t->Str("rows", Rows(a, db, "SELECT count(*), max(n) FROM c").c_str());
    a.close(db);
  });
}

TEST(Limits, GetSetClampAndEnforce) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = OpenMemory(a);
    for (int id = -1; id <= 12; ++id) {
      t->Int("limit " + std::to_string(id), a.limit(db, id, -1));
    }
    t->Int("set column 1<<30 (old)", a.limit(db, SQLITE_LIMIT_COLUMN, 1 << 30));
    t->Int("column now", a.limit(db, SQLITE_LIMIT_COLUMN, -1));
    t->Int("set worker threads 100", a.limit(db, SQLITE_LIMIT_WORKER_THREADS, 100));
    t->Int("worker threads now", a.limit(db, SQLITE_LIMIT_WORKER_THREADS, -1));
    a.limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, 2);
    t->Str("two variables", Rows(a, db, "SELECT ?1, ?2").c_str());
    t->Str("three variables", Rows(a, db, "SELECT ?, ?, ?").c_str());
    t->Str("?3", Rows(a, db, "SELECT ?3").c_str());
    a.limit(db, SQLITE_LIMIT_EXPR_DEPTH, 3);
    t->Str("deep expression", Rows(a, db, "SELECT 1+(2+(3+(4+5)))").c_str());
    a.limit(db, SQLITE_LIMIT_COMPOUND_SELECT, 2);
    t->Str("compound of 3", Rows(a, db, "SELECT 1 UNION SELECT 2 UNION SELECT 3").c_str());
    a.limit(db, SQLITE_LIMIT_FUNCTION_ARG, 2);
    t->Str("3 arguments", Rows(a, db, "SELECT coalesce(NULL, NULL, 3)").c_str());
    a.limit(db, SQLITE_LIMIT_ATTACHED, 0);
    t->Str("attach", Exec(a, db, "ATTACH ':memory:' AS x").c_str());
    a.limit(db, SQLITE_LIMIT_SQL_LENGTH, 20);
    t->Str("19 bytes", Rows(a, db, "SELECT 12345678901").c_str());
    t->Str("long", Rows(a, db, "SELECT 1234567890123456789012").c_str());
    a.limit(db, SQLITE_LIMIT_SQL_LENGTH, 1000);
    a.limit(db, SQLITE_LIMIT_LENGTH, 10);
    sqlite3_stmt* s = nullptr;
    a.prepare_v2(db, "SELECT ?", -1, &s, nullptr);
    t->Int("bind 10 bytes", a.bind_text(s, 1, "0123456789", 10, SQLITE_STATIC));
    t->Int("bind 11 bytes", a.bind_text(s, 1, "0123456789a", 11, SQLITE_STATIC));
    t->Str("message", a.errmsg(db));
    t->Int("zeroblob64 11", a.bind_zeroblob64(s, 1, 11));
    a.finalize(s);
    a.close(db);
  });
}

int CountCalls(void* p) {
  ++*static_cast<int*>(p);
  return 0;
}
int StopAtOnce(void*) { return 1; }

TEST(Progress, CalledAndStops) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = OpenMemory(a);
    int calls = 0;
    a.progress_handler(db, 1, CountCalls, &calls);
    t->Str("create", Exec(a, db, "CREATE TABLE t(x)").c_str());
    t->Bool("called", calls > 0);
    calls = 0;
    Exec(a, db,
         "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM c WHERE n<1000) "
         "INSERT INTO t SELECT n FROM c");
    t->Bool("called many times", calls > 100);
    a.progress_handler(db, 1, StopAtOnce, nullptr);
    t->Str("stopped", Rows(a, db, "SELECT count(*) FROM t").c_str());
    t->Str("stopped ddl", Exec(a, db, "CREATE TABLE u(x)").c_str());
    a.progress_handler(db, 0, nullptr, nullptr);
    calls = 0;
    t->Str("cleared", Rows(a, db, "SELECT count(*) FROM t").c_str());
    a.close(db);
  });
}

struct HookLog {
  std::vector<std::string> events;
  int commit_answer = 0;
};
int OnCommit(void* p) {
  auto* log = static_cast<HookLog*>(p);
  log->events.push_back("commit");
  return log->commit_answer;
}
void OnRollback(void* p) { static_cast<HookLog*>(p)->events.push_back("rollback"); }

TEST(Hooks, CommitAndRollback) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = OpenMemory(a);
    HookLog log;
    t->Bool("first commit_hook returns null", a.commit_hook(db, OnCommit, &log) == nullptr);
    t->Bool("first rollback_hook returns null", a.rollback_hook(db, OnRollback, &log) == nullptr);
    Exec(a, db, "CREATE TABLE t(x)");
    Exec(a, db, "SELECT * FROM t");
    Exec(a, db, "BEGIN; INSERT INTO t VALUES(1); COMMIT");
    Exec(a, db, "BEGIN; INSERT INTO t VALUES(2); ROLLBACK");
    Exec(a, db, "BEGIN; SELECT 1; ROLLBACK");
    log.commit_answer = 1;
    t->Str("vetoed", Exec(a, db, "INSERT INTO t VALUES(3)").c_str());
    t->Int("extended", a.extended_errcode(db));
    t->Str("rows", Rows(a, db, "SELECT * FROM t").c_str());
    std::string all;
    for (const std::string& e : log.events) all += e + " ";
    t->Str("events", all.c_str());
    t->Bool("replacing returns the old arg", a.commit_hook(db, nullptr, nullptr) == &log);
    a.close(db);
  });
}

int TraceV2(unsigned kind, void* ctx, void* p, void* x) {
  auto* out = static_cast<std::vector<std::string>*>(ctx);
  std::string line = std::to_string(kind);
  if (kind == SQLITE_TRACE_STMT) line += " " + std::string(static_cast<const char*>(x));
  if (kind == SQLITE_TRACE_PROFILE) line += *static_cast<sqlite3_int64*>(x) >= 0 ? " t" : " ?";
  (void)p;
  out->push_back(line);
  return 0;
}
void LegacyTrace(void* ctx, const char* sql) {
  static_cast<std::vector<std::string>*>(ctx)->push_back(std::string("legacy ") + sql);
}
void Profile(void* ctx, const char* sql, sqlite3_uint64) {
  static_cast<std::vector<std::string>*>(ctx)->push_back(std::string("profile ") + sql);
}

TEST(Trace, EventsAndExpandedSql) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = OpenMemory(a);
    std::vector<std::string> log;
    // (No ROW events during DDL: SQLite reports one for each row of the
    // nested statement that reads the new schema back, Basalt none.)
    a.trace_v2(db, SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE, TraceV2, &log);
    Exec(a, db, "CREATE TABLE t(x); INSERT INTO t VALUES(1),(2)");
    a.trace_v2(db, SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE | SQLITE_TRACE_ROW, TraceV2, &log);
    Rows(a, db, "SELECT x FROM t");
    a.trace_v2(db, 0, nullptr, nullptr);
    a.trace(db, LegacyTrace, &log);
    a.profile(db, Profile, &log);
    sqlite3_stmt* s = nullptr;
    a.prepare_v2(db, "SELECT ?1, :b, ?, @c, $d, 'q?'", -1, &s, nullptr);
    a.bind_int(s, 1, 7);
    a.bind_text(s, 2, "it's", -1, SQLITE_STATIC);
    a.bind_blob(s, 4, "\x01\xab", 2, SQLITE_STATIC);
    char* x = a.expanded_sql(s);
    t->Str("expanded", x);
    a.free(x);
    a.step(s);
    a.finalize(s);
    a.profile(db, nullptr, nullptr);
    a.trace(db, nullptr, nullptr);
    a.limit(db, SQLITE_LIMIT_LENGTH, 20);
    a.prepare_v2(db, "SELECT ?", -1, &s, nullptr);
    a.bind_text(s, 1, "0123456789012345678", -1, SQLITE_STATIC);
    x = a.expanded_sql(s);
    t->Str("too long expanded", x);
    a.free(x);
    a.finalize(s);
    for (const std::string& l : log) t->Str("event", l.c_str());
    a.close(db);
  });
}

int ReverseCompare(void*, int n1, const void* a, int n2, const void* b) {
  int c = std::memcmp(a, b, static_cast<size_t>(n1 < n2 ? n1 : n2));
  if (c == 0) c = n1 - n2;
  return -c;
}
int destroyed = 0;
void CountDestroy(void*) { ++destroyed; }
void Needed(void* ctx, sqlite3* db, int, const char* name) {
  auto* a = static_cast<const Api*>(ctx);
  if (std::strcmp(name, "late") == 0)
    a->create_collation(db, "late", SQLITE_UTF8, nullptr, ReverseCompare);
}

TEST(Collation, UserCollations) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = OpenMemory(a);
    destroyed = 0;
    Exec(a, db, "CREATE TABLE t(x); INSERT INTO t VALUES('a'),('c'),('B')");
    t->Str("unknown", Rows(a, db, "SELECT x FROM t ORDER BY x COLLATE rev").c_str());
    t->Int("create",
           a.create_collation_v2(db, "rev", SQLITE_UTF8, nullptr, ReverseCompare, CountDestroy));
    t->Str("order", Rows(a, db, "SELECT x FROM t ORDER BY x COLLATE rev").c_str());
    t->Str("compare", Rows(a, db, "SELECT 'a' < 'b' COLLATE rev").c_str());
    t->Str("index", Exec(a, db, "CREATE INDEX i ON t(x COLLATE rev)").c_str());
    t->Str("by index", Rows(a, db, "SELECT x FROM t INDEXED BY i ORDER BY x COLLATE rev").c_str());
    t->Str("column", Exec(a, db, "CREATE TABLE u(y TEXT COLLATE rev)").c_str());
    t->Int("replace",
           a.create_collation_v2(db, "rev", SQLITE_UTF16LE, nullptr, ReverseCompare, nullptr));
    t->Int("destroyed", destroyed);
    t->Str("utf16 order", Rows(a, db, "SELECT x FROM t ORDER BY x COLLATE rev").c_str());
    t->Int("delete", a.create_collation(db, "rev", SQLITE_UTF8, nullptr, nullptr));
    t->Str("deleted", Rows(a, db, "SELECT x FROM t ORDER BY x COLLATE rev").c_str());
    const char16_t name16[] = u"rev16";
    t->Int("create16", a.create_collation16(db, name16, SQLITE_UTF8, nullptr, ReverseCompare));
    t->Str("rev16", Rows(a, db, "SELECT x FROM t ORDER BY x COLLATE rev16").c_str());
    t->Int("needed", a.collation_needed(db, const_cast<Api*>(&a), Needed));
    t->Str("late", Rows(a, db, "SELECT x FROM t ORDER BY x COLLATE late").c_str());
    t->Str("never", Rows(a, db, "SELECT x FROM t ORDER BY x COLLATE never").c_str());
    a.close(db);
  });
}

struct AuthLog {
  std::vector<std::string> calls;
  int deny_action = -1;
  std::string deny_arg2;
  int answer = SQLITE_DENY;
};
int Authorizer(void* p, int action, const char* a1, const char* a2, const char* db,
               const char* trig) {
  auto* log = static_cast<AuthLog*>(p);
  auto s = [](const char* z) { return z != nullptr ? std::string(z) : std::string("NULL"); };
  log->calls.push_back(std::to_string(action) + " " + s(a1) + " " + s(a2) + " " + s(db) + " " +
                       s(trig));
  if (action == log->deny_action && (log->deny_arg2.empty() || log->deny_arg2 == s(a2))) {
    return log->answer;
  }
  return SQLITE_OK;
}

TEST(Authorizer, ActionsDenyAndIgnore) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = OpenMemory(a);
    AuthLog log;
    Exec(a, db, "CREATE TABLE t(a, b); INSERT INTO t VALUES(1, 2)");
    t->Int("set", a.set_authorizer(db, Authorizer, &log));
    t->Str("select", Rows(a, db, "SELECT a, b FROM t").c_str());
    t->Str("star", Rows(a, db, "SELECT * FROM t WHERE rowid = 1").c_str());
    t->Str("insert", Exec(a, db, "INSERT INTO t VALUES(3, 4)").c_str());
    t->Str("update", Exec(a, db, "UPDATE t SET b = 5 WHERE a = 3").c_str());
    t->Str("delete", Exec(a, db, "DELETE FROM t WHERE a = 3").c_str());
    // (Not compared yet: SQLite also authorizes the statements it runs on
    // sqlite_master for DDL -- UPDATE of its columns, READ of ROWID ... --
    // which Basalt does not ask about. Only the DDL statements' own
    // actions are asked, in AuthorizerDdl below.)
    t->Str("txn", Exec(a, db, "BEGIN; SAVEPOINT s; RELEASE s; COMMIT").c_str());
    t->Str("pragma", Exec(a, db, "PRAGMA user_version = 3").c_str());
    for (const std::string& c : log.calls) t->Str("call", c.c_str());
    log.calls.clear();
    log.deny_action = SQLITE_READ;
    log.deny_arg2 = "b";
    t->Str("read denied", Rows(a, db, "SELECT a, b FROM t").c_str());
    t->Int("code", a.errcode(db));
    log.answer = SQLITE_IGNORE;
    t->Str("read ignored", Rows(a, db, "SELECT a, b FROM t").c_str());
    log.deny_action = SQLITE_SELECT;
    log.deny_arg2.clear();
    log.answer = SQLITE_DENY;
    t->Str("select denied", Rows(a, db, "SELECT 1").c_str());
    log.deny_action = SQLITE_INSERT;
    t->Str("insert denied", Exec(a, db, "INSERT INTO t VALUES(9, 9)").c_str());
    log.deny_action = SQLITE_FUNCTION;
    log.deny_arg2 = "abs";
    t->Str("function denied", Rows(a, db, "SELECT abs(-1), length('ab')").c_str());
    log.answer = SQLITE_IGNORE;
    t->Str("function ignored", Rows(a, db, "SELECT abs(-1), length('ab')").c_str());
    log.deny_action = SQLITE_INSERT;
    log.deny_arg2.clear();
    log.answer = 42;
    t->Str("malfunction", Exec(a, db, "INSERT INTO t VALUES(9, 9)").c_str());
    t->Int("clear", a.set_authorizer(db, nullptr, nullptr));
    t->Str("after clear", Rows(a, db, "SELECT a, b FROM t").c_str());
    a.close(db);
  });
}

// The first action of each DDL statement, denied (so that SQLite asks
// nothing about the statements it would run on sqlite_master next, which
// Basalt does not reproduce).
TEST(Authorizer, DdlFirstActionDenied) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = OpenMemory(a);
    Exec(a, db,
         "CREATE TABLE t(a); CREATE INDEX ti ON t(a); CREATE VIEW v AS SELECT 1; "
         "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END");
    AuthLog log;
    a.set_authorizer(db, Authorizer, &log);
    log.deny_action = SQLITE_INSERT;
    t->Str("create", Exec(a, db, "CREATE TABLE u(x)").c_str());
    t->Str("create temp", Exec(a, db, "CREATE TEMP TABLE u(x)").c_str());
    t->Str("create index", Exec(a, db, "CREATE INDEX tj ON t(a)").c_str());
    t->Str("create view", Exec(a, db, "CREATE VIEW w AS SELECT 2").c_str());
    log.deny_action = SQLITE_DELETE;
    t->Str("drop table", Exec(a, db, "DROP TABLE t").c_str());
    t->Str("drop index", Exec(a, db, "DROP INDEX ti").c_str());
    t->Str("drop view", Exec(a, db, "DROP VIEW v").c_str());
    log.deny_action = SQLITE_DROP_TRIGGER;
    t->Str("drop trigger", Exec(a, db, "DROP TRIGGER tr").c_str());
    log.deny_action = SQLITE_CREATE_TRIGGER;
    t->Str("create trigger",
           Exec(a, db, "CREATE TRIGGER t2 AFTER DELETE ON t BEGIN SELECT 1; END").c_str());
    for (const std::string& c : log.calls) t->Str("call", c.c_str());
    a.close(db);
  });
}

// COMMIT while a SELECT is still reading is allowed (only active writers
// make it fail), and the reader goes on with its rows.
TEST(Transactions, CommitUnderReader) {
  std::string dir = TempDir("commit");
  SameAsSqlite([&](const Api& a, Transcript* t) {
    for (const std::string& path : {std::string(":memory:"), dir + "/c-" + a.name + ".db"}) {
      sqlite3* db = nullptr;
      a.open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
      Exec(a, db, "CREATE TABLE t(c); INSERT INTO t VALUES(0),(1),(2); CREATE TABLE t2(c)");
      sqlite3_stmt* s = nullptr;
      a.prepare_v2(db, "SELECT c FROM t", -1, &s, nullptr);
      while (a.step(s) == SQLITE_ROW) {
        t->Int("row", a.column_int(s, 0));
        t->Str("begin+insert", Exec(a, db, "BEGIN; INSERT INTO t2 VALUES(1)").c_str());
        t->Str("commit", Exec(a, db, "COMMIT").c_str());
        t->Int("autocommit", a.get_autocommit(db));
      }
      a.finalize(s);
      t->Str("t2", Rows(a, db, "SELECT count(*) FROM t2").c_str());
      a.prepare_v2(db, "INSERT INTO t2 SELECT c FROM t RETURNING c", -1, &s, nullptr);
      Exec(a, db, "BEGIN");
      t->Int("writer step", a.step(s));
      t->Str("commit under writer", Exec(a, db, "COMMIT").c_str());
      a.finalize(s);
      t->Str("commit after writer", Exec(a, db, "COMMIT").c_str());
      t->Str("t2 now", Rows(a, db, "SELECT count(*) FROM t2").c_str());
      a.close(db);
    }
  });
}

struct AvLog {
  std::string calls;
  unsigned answer = 0;
  int destroyed = 0;
};
unsigned AvPages(void* p, const char* db, unsigned pages, unsigned nfree, unsigned size) {
  auto* log = static_cast<AvLog*>(p);
  log->calls += std::string(db) + " " + std::to_string(pages) + " " + std::to_string(nfree) + " " +
                std::to_string(size) + "; ";
  return log->answer;
}
void AvDestroy(void* p) { ++static_cast<AvLog*>(p)->destroyed; }

TEST(Hooks, AutovacuumPages) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = OpenMemory(a);
    Exec(a, db,
         "PRAGMA auto_vacuum = FULL; CREATE TABLE t(x); WITH RECURSIVE c(n) AS (SELECT 1 UNION "
         "ALL SELECT n+1 FROM c WHERE n < 400) INSERT INTO t SELECT randomblob(300) FROM c");
    AvLog log;
    t->Int("set", a.autovacuum_pages(db, AvPages, &log, AvDestroy));
    log.answer = 0;
    Exec(a, db, "DELETE FROM t WHERE rowid % 2 = 0");
    t->Str("calls", log.calls.c_str());
    t->Str("free after none", Rows(a, db, "PRAGMA freelist_count").c_str());
    log.calls.clear();
    log.answer = 5;
    Exec(a, db, "DELETE FROM t WHERE rowid % 3 = 0");
    t->Str("calls", log.calls.c_str());
    t->Str("free after 5", Rows(a, db, "PRAGMA freelist_count").c_str());
    log.calls.clear();
    log.answer = 100000;
    Exec(a, db, "DELETE FROM t WHERE rowid % 5 = 0");
    t->Str("calls", log.calls.c_str());
    t->Str("free after all", Rows(a, db, "PRAGMA freelist_count").c_str());
    t->Str("integrity", Rows(a, db, "PRAGMA integrity_check").c_str());
    t->Int("replace", a.autovacuum_pages(db, nullptr, nullptr, nullptr));
    t->Int("destroyed", log.destroyed);
    a.close(db);
  });
}

TEST(SharedCache, EnableAnswersOk) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    t->Int("enable", a.enable_shared_cache(1));
    t->Int("disable", a.enable_shared_cache(0));
  });
}

}  // namespace
}  // namespace basalt::apitest

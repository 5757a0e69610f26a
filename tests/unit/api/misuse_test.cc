// NULL, failed and closed handles: every answer SQLite defines is compared
// with the system libsqlite3; where SQLite's behaviour is undefined (it
// crashes on NULL in builds without SQLITE_ENABLE_API_ARMOR, as Debian's),
// Basalt must not crash and answers what API_ARMOR builds answer.
#include <gtest/gtest.h>

#include <string>

#include "engines.h"
#include "transcript.h"

namespace basalt::apitest {
namespace {

constexpr int kRwc = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;

TEST(Misuse, NullHandlesAsSqlite) {
  std::string t = SameAsSqlite([](const Api& a, Transcript* t) {
    t->Int("close(NULL)", a.close(nullptr));
    t->Int("close_v2(NULL)", a.close_v2(nullptr));
    t->Int("finalize(NULL)", a.finalize(nullptr));
    t->Int("reset(NULL)", a.reset(nullptr));
    t->Int("step(NULL)", a.step(nullptr));
    sqlite3_stmt* s = reinterpret_cast<sqlite3_stmt*>(&t);  // must be overwritten
    t->Int("prepare_v2(NULL)", a.prepare_v2(nullptr, "SELECT 1", -1, &s, nullptr));
    t->Bool("  *stmt set to NULL", s == nullptr);
    t->Str("errmsg(NULL)", a.errmsg(nullptr));
    t->Int("errcode(NULL)", a.errcode(nullptr));
    t->Int("extended_errcode(NULL)", a.extended_errcode(nullptr));
    t->Int("error_offset(NULL)", a.error_offset(nullptr));
    t->Int("exec(NULL)", a.exec(nullptr, "SELECT 1", nullptr, nullptr, nullptr));
    t->Int("column_count(NULL)", a.column_count(nullptr));
    t->Int("data_count(NULL)", a.data_count(nullptr));
    t->Int("column_int(NULL)", a.column_int(nullptr, 0));
    t->Int("column_int64(NULL)", a.column_int64(nullptr, 0));
    t->Int("column_type(NULL)", a.column_type(nullptr, 0));
    t->Str("column_text(NULL)", a.column_text(nullptr, 0));
    t->Int("column_bytes(NULL)", a.column_bytes(nullptr, 0));
    t->Bool("column_value(NULL) non-null", a.column_value(nullptr, 0) != nullptr);
    t->Int("bind_int(NULL)", a.bind_int(nullptr, 1, 1));
    t->Int("bind_text(NULL)", a.bind_text(nullptr, 1, "x", -1, SQLITE_STATIC));
    t->Int("bind_null(NULL)", a.bind_null(nullptr, 1));
    t->Int("bind_parameter_count(NULL)", a.bind_parameter_count(nullptr));
    t->Str("bind_parameter_name(NULL)", a.bind_parameter_name(nullptr, 1));
    t->Str("sql(NULL)", a.sql(nullptr));
    t->Str("expanded_sql(NULL)", a.expanded_sql(nullptr));
    t->Int("stmt_busy(NULL)", a.stmt_busy(nullptr));
    t->Int("stmt_readonly(NULL)", a.stmt_readonly(nullptr));
    t->Int("stmt_isexplain(NULL)", a.stmt_isexplain(nullptr));
    t->Bool("db_handle(NULL) is NULL", a.db_handle(nullptr) == nullptr);
    a.mutex_enter(nullptr);
    a.mutex_leave(nullptr);
    a.mutex_free(nullptr);
    t->Int("mutex_try(NULL)", a.mutex_try(nullptr));
    t->Int("threadsafe()", a.threadsafe());
  });
  // The values that matter most, spelled out.
  EXPECT_NE(t.find("step(NULL) -> 21"), std::string::npos);
  EXPECT_NE(t.find("prepare_v2(NULL) -> 21"), std::string::npos);
  EXPECT_NE(t.find("errmsg(NULL) -> \"out of memory\""), std::string::npos);
  EXPECT_NE(t.find("finalize(NULL) -> 0"), std::string::npos);
}

// SQLite (without API_ARMOR) dereferences these NULL handles; Basalt
// returns what an armored SQLite returns instead of crashing.
TEST(Misuse, NullHandlesSqliteCrashesOn) {
  EXPECT_EQ(sqlite3_changes(nullptr), 0);
  EXPECT_EQ(sqlite3_changes64(nullptr), 0);
  EXPECT_EQ(sqlite3_total_changes(nullptr), 0);
  EXPECT_EQ(sqlite3_last_insert_rowid(nullptr), 0);
  EXPECT_EQ(sqlite3_busy_timeout(nullptr, 10), SQLITE_MISUSE);
  EXPECT_EQ(sqlite3_busy_handler(nullptr, nullptr, nullptr), SQLITE_MISUSE);
  EXPECT_EQ(sqlite3_extended_result_codes(nullptr, 1), SQLITE_MISUSE);
  EXPECT_EQ(sqlite3_db_mutex(nullptr), nullptr);
  EXPECT_EQ(sqlite3_next_stmt(nullptr, nullptr), nullptr);
  EXPECT_EQ(
      sqlite3_create_function(nullptr, "f", 1, SQLITE_UTF8, nullptr, nullptr, nullptr, nullptr),
      SQLITE_MISUSE);
  EXPECT_EQ(sqlite3_column_name(nullptr, 0), nullptr);
  EXPECT_EQ(sqlite3_column_decltype(nullptr, 0), nullptr);
  EXPECT_EQ(sqlite3_clear_bindings(nullptr), SQLITE_MISUSE);
  sqlite3_interrupt(nullptr);
  EXPECT_EQ(sqlite3_open_v2(":memory:", nullptr, kRwc, nullptr), SQLITE_MISUSE);
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, "SELECT 1", -1, nullptr, nullptr), SQLITE_MISUSE);
}

TEST(Misuse, FailedOpensAsSqlite) {
  std::string dir = TempDir("misuse");
  SameAsSqlite([&](const Api& a, Transcript* t) {
    sqlite3* db = nullptr;
    for (int flags : {0, SQLITE_OPEN_CREATE, SQLITE_OPEN_READONLY | SQLITE_OPEN_CREATE}) {
      db = nullptr;
      t->Int("open_v2(bad flags " + std::to_string(flags) + ")",
             a.open_v2(":memory:", &db, flags, nullptr));
      t->Bool("  handle returned", db != nullptr);
      t->Int("  errcode", a.errcode(db));
      t->Str("  errmsg", a.errmsg(db));
      sqlite3_stmt* s = reinterpret_cast<sqlite3_stmt*>(&s);
      t->Int("  prepare_v2", a.prepare_v2(db, "SELECT 1", -1, &s, nullptr));
      t->Int("  close", a.close(db));
    }

    db = nullptr;
    t->Int("open_v2(no such vfs)", a.open_v2(":memory:", &db, kRwc, "nosuchvfs"));
    t->Bool("  handle returned", db != nullptr);
    t->Str("  errmsg", a.errmsg(db));
    t->Int("  close", a.close(db));

    db = nullptr;
    std::string missing = dir + "/no/such/dir/x.db";
    t->Int("open_v2(missing dir)", a.open_v2(missing.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr));
    t->Bool("  handle returned", db != nullptr);
    t->Str("  errmsg", a.errmsg(db));
    t->Int("  errcode", a.errcode(db));
    t->Int("  extended_errcode", a.extended_errcode(db));
    sqlite3_stmt* s = reinterpret_cast<sqlite3_stmt*>(&s);
    t->Int("  prepare_v2", a.prepare_v2(db, "SELECT 1", -1, &s, nullptr));
    t->Bool("  *stmt NULL", s == nullptr);
    t->Int("  exec", a.exec(db, "SELECT 1", nullptr, nullptr, nullptr));
    t->Str("  errmsg after", a.errmsg(db));
    t->Int("  close", a.close(db));
  });
}

TEST(Misuse, StatementErrorsAsSqlite) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = nullptr;
    a.open_v2(":memory:", &db, kRwc, nullptr);
    sqlite3_stmt* s = nullptr;
    t->Int("prepare syntax error", a.prepare_v2(db, "SELECT FROM", -1, &s, nullptr));
    t->Str("  errmsg", a.errmsg(db));
    t->Int("  error_offset", a.error_offset(db));
    t->Int("prepare NULL sql", a.prepare_v2(db, nullptr, -1, &s, nullptr));
    t->Str("  errmsg unchanged", a.errmsg(db));
    t->Int("exec NULL sql", a.exec(db, nullptr, nullptr, nullptr, nullptr));

    a.prepare_v2(db, "SELECT ?1 UNION ALL SELECT 2", -1, &s, nullptr);
    t->Int("bind out of range", a.bind_int(s, 5, 1));
    t->Str("  errmsg", a.errmsg(db));
    t->Int("bind", a.bind_int(s, 1, 7));
    t->Int("step", a.step(s));
    t->Int("bind while running", a.bind_int(s, 1, 1));
    t->Str("  errmsg", a.errmsg(db));
    t->Int("clear_bindings while running", a.clear_bindings(s));
    t->Int("column_int", a.column_int(s, 0));
    t->Int("column_int out of range", a.column_int(s, 9));
    t->Int("column_type out of range", a.column_type(s, -1));
    t->Str("column_name out of range", a.column_name(s, 3));
    t->Int("step", a.step(s));
    t->Int("step", a.step(s));
    t->Int("data_count at end", a.data_count(s));
    t->Int("step again (restarts)", a.step(s));
    t->Int("finalize", a.finalize(s));

    a.exec(db, "CREATE TABLE t(a UNIQUE)", nullptr, nullptr, nullptr);
    a.exec(db, "INSERT INTO t VALUES(1)", nullptr, nullptr, nullptr);
    a.prepare_v2(db, "INSERT INTO t VALUES(1)", -1, &s, nullptr);
    t->Int("step constraint", a.step(s));
    t->Str("  errmsg", a.errmsg(db));
    t->Int("  extended_errcode", a.extended_errcode(db));
    t->Int("reset", a.reset(s));
    t->Int("reset again", a.reset(s));
    t->Int("step constraint", a.step(s));
    t->Int("finalize", a.finalize(s));
    t->Int("extended_result_codes on", a.extended_result_codes(db, 1));
    a.prepare_v2(db, "INSERT INTO t VALUES(1)", -1, &s, nullptr);
    t->Int("step constraint (extended)", a.step(s));
    t->Int("  errcode", a.errcode(db));
    t->Int("finalize", a.finalize(s));
    t->Int("close", a.close(db));
  });
}

// Using a connection after sqlite3_close is undefined in SQLite. Basalt
// keeps closed handles' memory (for reuse by later opens), so such calls
// find a closed handle and answer SQLITE_MISUSE, never touching freed
// memory (this test runs clean under AddressSanitizer).
TEST(Misuse, UseAfterCloseIsMisuseNotACrash) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE t(a)", nullptr, nullptr, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_close(db), SQLITE_OK);
  EXPECT_EQ(sqlite3_errcode(db), SQLITE_MISUSE);
  EXPECT_EQ(sqlite3_extended_errcode(db), SQLITE_MISUSE);
  EXPECT_STREQ(sqlite3_errmsg(db), "bad parameter or other API misuse");
  sqlite3_stmt* s = reinterpret_cast<sqlite3_stmt*>(&s);
  EXPECT_EQ(sqlite3_prepare_v2(db, "SELECT 1", -1, &s, nullptr), SQLITE_MISUSE);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(sqlite3_exec(db, "SELECT 1", nullptr, nullptr, nullptr), SQLITE_MISUSE);
  EXPECT_EQ(sqlite3_close(db), SQLITE_MISUSE);
  EXPECT_EQ(sqlite3_close_v2(db), SQLITE_MISUSE);
  EXPECT_EQ(sqlite3_changes(db), 0);
  EXPECT_EQ(sqlite3_busy_timeout(db, 5), SQLITE_MISUSE);
  EXPECT_EQ(sqlite3_next_stmt(db, nullptr), nullptr);
  EXPECT_EQ(sqlite3_db_mutex(db), nullptr);
  sqlite3_interrupt(db);
}

}  // namespace
}  // namespace basalt::apitest

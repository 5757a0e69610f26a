// PRAGMA results belong to the moment a statement runs: a prepared PRAGMA
// (or SELECT from pragma_NAME) stepped again after the schema or the data
// changed returns the new rows. Also the result columns of each PRAGMA
// form as the C API sees them before the first step (expectations from
// the system sqlite3 through Python's sqlite3 module).
#include <gtest/gtest.h>
#include <unistd.h>

#include "main/statement.h"
#include "os/vfs.h"
#include "sql_session.h"

namespace basalt::testing {
namespace {

class PragmaPrepared : public ::testing::Test {
 protected:
  void SetUp() override {
    auto c = Connection::Open(":memory:", 6);
    ASSERT_TRUE(c.ok());
    conn_ = std::move(c).value();
  }

  std::unique_ptr<Statement> Prepare(const std::string& sql) {
    size_t tail = 0;
    auto st = conn_->Prepare(sql, &tail);
    EXPECT_TRUE(st.ok()) << sql << ": " << st.status().message();
    return st.ok() ? std::move(st).value() : nullptr;
  }

  // Steps s to the end (after a reset): rows as "v|v", one per line.
  static std::string Run(Statement* s) {
    s->Reset();
    std::string out;
    int rc;
    while ((rc = s->Step()) == kRow) {
      for (int i = 0; i < s->column_count(); ++i) {
        if (i > 0) out += '|';
        Value* v = s->column(i);
        if (v->is_null()) {
          out += "NULL";
        } else if (v->is_int()) {
          out += std::to_string(v->int_value());
        } else {
          out += std::string(v->text());
        }
      }
      out += '\n';
    }
    EXPECT_EQ(rc, kDone) << s->status().message();
    return out;
  }

  static std::string Names(Statement* s) {
    std::string out;
    for (int i = 0; i < s->column_count(); ++i) out += (i ? "," : "") + s->column_name(i);
    return out;
  }

  std::unique_ptr<Connection> conn_;
};

TEST_F(PragmaPrepared, TableInfoFollowsARecreatedTable) {
  ASSERT_EQ(Exec(conn_.get(), "CREATE TABLE t(a INTEGER PRIMARY KEY, b)").code, 0);
  auto pragma = Prepare("PRAGMA table_info(t)");
  auto select = Prepare("SELECT name, pk FROM pragma_table_info('t')");
  ASSERT_TRUE(pragma && select);
  EXPECT_EQ(Run(pragma.get()), "0|a|INTEGER|0|NULL|1\n1|b||0|NULL|0\n");
  EXPECT_EQ(Run(select.get()), "a|1\nb|0\n");

  ASSERT_EQ(Exec(conn_.get(), "DROP TABLE t; CREATE TABLE t(x TEXT NOT NULL, y DEFAULT 3, z)").code,
            0);
  EXPECT_EQ(Run(pragma.get()), "0|x|TEXT|1|NULL|0\n1|y||0|3|0\n2|z||0|NULL|0\n");
  EXPECT_EQ(Run(select.get()), "x|0\ny|0\nz|0\n");

  ASSERT_EQ(Exec(conn_.get(), "DROP TABLE t").code, 0);
  EXPECT_EQ(Run(pragma.get()), "");
  EXPECT_EQ(Run(select.get()), "");
}

TEST_F(PragmaPrepared, IndexListSeesANewIndex) {
  ASSERT_EQ(Exec(conn_.get(), "CREATE TABLE t(a, b UNIQUE)").code, 0);
  auto pragma = Prepare("PRAGMA index_list(t)");
  auto select = Prepare("SELECT name, \"unique\" FROM pragma_index_list('t')");
  ASSERT_TRUE(pragma && select);
  EXPECT_EQ(Run(pragma.get()), "0|sqlite_autoindex_t_1|1|u|0\n");
  EXPECT_EQ(Run(select.get()), "sqlite_autoindex_t_1|1\n");
  ASSERT_EQ(Exec(conn_.get(), "CREATE INDEX t_a ON t(a) WHERE a > 0").code, 0);
  EXPECT_EQ(Run(pragma.get()), "0|t_a|0|c|1\n1|sqlite_autoindex_t_1|1|u|0\n");
  EXPECT_EQ(Run(select.get()), "t_a|0\nsqlite_autoindex_t_1|1\n");
}

TEST_F(PragmaPrepared, HeaderValuesAreReadEachRun) {
  auto pragma = Prepare("PRAGMA user_version");
  ASSERT_TRUE(pragma);
  EXPECT_EQ(Run(pragma.get()), "0\n");
  ASSERT_EQ(Exec(conn_.get(), "PRAGMA user_version = 9").code, 0);
  EXPECT_EQ(Run(pragma.get()), "9\n");
  auto count = Prepare("PRAGMA page_count");
  ASSERT_TRUE(count);
  EXPECT_EQ(Run(count.get()), "1\n");
  ASSERT_EQ(Exec(conn_.get(), "CREATE TABLE t(x); INSERT INTO t VALUES(randomblob(10000))").code,
            0);
  EXPECT_EQ(Run(count.get()), "4\n");
}

// Needs the planner to scan virtual tables (the lead's part): until then a
// SELECT from pragma_NAME is computed when it is prepared, so a change that
// leaves the schema alone is not seen. Enable when the pragma virtual
// tables replace the prepare-time rows.
TEST_F(PragmaPrepared, SelectFromPragmaSeesDataChanges) {
  ASSERT_EQ(Exec(conn_.get(), "CREATE TABLE t(x)").code, 0);
  auto select = Prepare("SELECT * FROM pragma_page_count()");
  auto version = Prepare("SELECT * FROM pragma_user_version");
  ASSERT_TRUE(select && version);
  EXPECT_EQ(Run(select.get()), "2\n");
  EXPECT_EQ(Run(version.get()), "0\n");
  ASSERT_EQ(
      Exec(conn_.get(), "INSERT INTO t VALUES(randomblob(10000)); PRAGMA user_version = 4").code,
      0);
  EXPECT_EQ(Run(select.get()), "4\n");
  EXPECT_EQ(Run(version.get()), "4\n");
}

TEST_F(PragmaPrepared, ColumnNamesOfEachForm) {
  const struct {
    const char* sql;
    const char* names;
  } kCases[] = {
      {"PRAGMA table_info(t)", "cid,name,type,notnull,dflt_value,pk"},
      {"PRAGMA table_info", "cid,name,type,notnull,dflt_value,pk"},
      {"PRAGMA main.table_xinfo(t)", "cid,name,type,notnull,dflt_value,pk,hidden"},
      {"PRAGMA user_version", "user_version"},
      {"PRAGMA user_version = 5", ""},
      {"PRAGMA busy_timeout = 5", "timeout"},
      {"PRAGMA default_cache_size", "cache_size"},
      {"PRAGMA cache_size = 5", ""},
      {"PRAGMA journal_mode = memory", "journal_mode"},
      {"PRAGMA foreign_keys", "foreign_keys"},
      {"PRAGMA foreign_keys = 1", ""},
      {"PRAGMA case_sensitive_like", ""},
      {"PRAGMA encoding = 'UTF-8'", ""},
      {"PRAGMA wal_checkpoint", "busy,log,checkpointed"},
      {"PRAGMA mmap_size = 5", "mmap_size"},
      {"PRAGMA integrity_check(3)", "integrity_check"},
      {"PRAGMA foreign_key_check", "table,rowid,parent,fkid"},
      {"PRAGMA function_list", "name,builtin,type,enc,narg,flags"},
      {"PRAGMA secure_delete = 1", "secure_delete"},
      {"PRAGMA temp_store_directory = ''", ""},
      {"PRAGMA nosuch", ""},
      {"PRAGMA nosuch = 1", ""},
  };
  for (const auto& c : kCases) {
    auto s = Prepare(c.sql);
    ASSERT_TRUE(s) << c.sql;
    EXPECT_EQ(Names(s.get()), c.names) << c.sql;
  }
}

TEST_F(PragmaPrepared, UnknownSchemaFailsAtPrepare) {
  size_t t0 = 0;
  auto enc = conn_->Prepare("PRAGMA encoding = 'latin1'", &t0);  // only while empty
  ASSERT_FALSE(enc.ok());
  EXPECT_EQ(enc.status().message(), "unsupported encoding: latin1");
  size_t tail = 0;
  auto st = conn_->Prepare("PRAGMA  'aux'.user_version", &tail);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.status().message(), "unknown database 'aux'");
  EXPECT_EQ(conn_->last_error_offset(), 8);
  st = conn_->Prepare("PRAGMA aux.nosuch", &tail);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.status().message(), "unknown database aux");
  // Attached later: a statement prepared before DETACH fails when it runs.
  ASSERT_EQ(Exec(conn_.get(), "ATTACH ':memory:' AS aux").code, 0);
  auto s = Prepare("PRAGMA aux.user_version");
  ASSERT_TRUE(s);
  EXPECT_EQ(Run(s.get()), "0\n");
  ASSERT_EQ(Exec(conn_.get(), "DETACH aux").code, 0);
  s->Reset();
  EXPECT_EQ(s->Step(), kError);
}

// The errors sqlite3_prepare reports for these statements (checked with
// the system sqlite3); a statement prepared earlier reports them when it
// runs.
TEST_F(PragmaPrepared, ErrorsAtPrepare) {
  ASSERT_EQ(Exec(conn_.get(),
                 "CREATE TABLE p(id INTEGER PRIMARY KEY, v); CREATE TABLE c(x REFERENCES p(v));"
                 "CREATE TABLE x(a); CREATE VIEW w AS SELECT a FROM x;")
                .code,
            0);
  auto fk = Prepare("PRAGMA foreign_key_check(p)");
  ASSERT_TRUE(fk);
  const struct {
    const char* sql;
    const char* error;
  } kCases[] = {
      {"PRAGMA integrity_check(nosuch)", "no such table: nosuch"},
      {"PRAGMA quick_check('nosuch')", "no such table: nosuch"},
      {"PRAGMA foreign_key_check(nosuch)", "no such table: nosuch"},
      {"PRAGMA foreign_key_check(c)", "foreign key mismatch - \"c\" referencing \"p\""},
      {"PRAGMA foreign_key_check", "foreign key mismatch - \"c\" referencing \"p\""},
      {"PRAGMA temp_store_directory = '/nonexistent/directory'", "not a writable directory"},
  };
  for (const auto& c : kCases) {
    size_t tail = 0;
    auto st = conn_->Prepare(c.sql, &tail);
    ASSERT_FALSE(st.ok()) << c.sql;
    EXPECT_EQ(st.status().message(), c.error) << c.sql;
  }
  ASSERT_EQ(Exec(conn_.get(), "DROP TABLE x").code, 0);
  size_t tail = 0;
  auto view = conn_->Prepare("PRAGMA table_info(w)", &tail);
  EXPECT_FALSE(view.ok());
  ASSERT_EQ(Exec(conn_.get(), "BEGIN").code, 0);
  auto sync = conn_->Prepare("PRAGMA synchronous = 1", &tail);
  ASSERT_FALSE(sync.ok());
  EXPECT_EQ(sync.status().message(), "Safety level may not be changed inside a transaction");
  ASSERT_EQ(Exec(conn_.get(), "COMMIT").code, 0);
  // Prepared before the mismatch existed: the error comes when it runs.
  ASSERT_EQ(
      Exec(conn_.get(), "DROP TABLE c; CREATE TABLE p2(a); CREATE TABLE c2(b REFERENCES p2(a))")
          .code,
      0);
  EXPECT_EQ(Run(fk.get()), "");
  auto all = Prepare("PRAGMA integrity_check");
  ASSERT_TRUE(all);
  size_t t2 = 0;
  auto bad = conn_->Prepare("PRAGMA foreign_key_check", &t2);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "foreign key mismatch - \"c2\" referencing \"p2\"");
}

// PRAGMA data_version on two connections to one file (rollback journal):
// it moves when the other connection commits, not for the connection's
// own commits or rollbacks (sequence checked with the system sqlite3).
TEST(PragmaDataVersion, MovesForOtherConnectionsCommits) {
  char tmpl[] = "/tmp/basalt-dv-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl, path = dir + "/db";
  {
    auto a = OpenDb(DefaultVfs(), path);
    auto b = OpenDb(DefaultVfs(), path);
    ASSERT_TRUE(a && b);
    auto dv = [](Connection* c) { return Exec(c, "PRAGMA data_version").output; };
    EXPECT_EQ(dv(a.get()) + dv(b.get()), "1\n1\n");
    ASSERT_EQ(Exec(a.get(), "CREATE TABLE t(x)").code, 0);
    EXPECT_EQ(dv(a.get()) + dv(b.get()), "1\n2\n");
    ASSERT_EQ(Exec(a.get(), "INSERT INTO t VALUES(1)").code, 0);
    EXPECT_EQ(dv(a.get()) + dv(b.get()), "1\n3\n");
    ASSERT_EQ(Exec(b.get(), "INSERT INTO t VALUES(2)").code, 0);
    EXPECT_EQ(dv(a.get()) + dv(b.get()), "2\n3\n");
    ASSERT_EQ(Exec(a.get(), "BEGIN; INSERT INTO t VALUES(3); ROLLBACK").code, 0);
    EXPECT_EQ(dv(a.get()) + dv(b.get()), "2\n3\n");
    ASSERT_EQ(Exec(b.get(), "PRAGMA user_version = 3").code, 0);
    EXPECT_EQ(dv(a.get()) + dv(b.get()), "3\n3\n");
  }
  for (const char* s : {"", "-journal"}) ::unlink((path + s).c_str());
  ::rmdir(dir.c_str());
}

}  // namespace
}  // namespace basalt::testing

// Two connections on one database file: each sees the other's schema
// changes (the schema cookie is checked when a transaction starts), and
// statements prepared before a change are compiled again when they run.
#include <gtest/gtest.h>
#include <unistd.h>

#include "main/statement.h"
#include "os/vfs.h"
#include "sql_session.h"

namespace basalt::testing {
namespace {

class TwoConnections : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/basalt-schema-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    path_ = dir_ + "/db";
    a_ = OpenDb(DefaultVfs(), path_);
    b_ = OpenDb(DefaultVfs(), path_);
    ASSERT_TRUE(a_ && b_);
  }
  void TearDown() override {
    a_.reset();
    b_.reset();
    for (const char* s : {"", "-journal", "-wal", "-shm"}) ::unlink((path_ + s).c_str());
    ::rmdir(dir_.c_str());
  }
  std::string dir_, path_;
  std::unique_ptr<Connection> a_, b_;
};

TEST_F(TwoConnections, NewTableIsVisibleToTheOther) {
  EXPECT_EQ(Exec(b_.get(), "SELECT count(*) FROM sqlite_schema").output, "0\n");
  ASSERT_EQ(Exec(a_.get(), "CREATE TABLE t(x); INSERT INTO t VALUES(1),(2);").code, 0);
  ExecResult r = Exec(b_.get(), "SELECT sum(x) FROM t");
  EXPECT_EQ(r.code, 0) << r.error;
  EXPECT_EQ(r.output, "3\n");
}

TEST_F(TwoConnections, PreparedStatementFollowsARecreatedTable) {
  ASSERT_EQ(Exec(a_.get(), "CREATE TABLE t(x, y); INSERT INTO t VALUES(1, 2);").code, 0);
  size_t tail = 0;
  auto st = b_->Prepare("SELECT * FROM t", &tail);
  ASSERT_TRUE(st.ok());
  Statement* s = st->get();
  ASSERT_EQ(s->Step(), kRow);
  EXPECT_EQ(s->column_count(), 2);
  s->Reset();
  ASSERT_EQ(
      Exec(a_.get(), "DROP TABLE t; CREATE TABLE t(p, q, r); INSERT INTO t VALUES(7, 8, 9);").code,
      0);
  ASSERT_EQ(s->Step(), kRow);
  EXPECT_EQ(s->column_count(), 3);
  EXPECT_EQ(s->column(2)->int_value(), 9);
  EXPECT_EQ(s->Step(), kDone);
}

TEST_F(TwoConnections, DroppedTableIsGoneForTheOther) {
  ASSERT_EQ(Exec(a_.get(), "CREATE TABLE t(x); CREATE INDEX ti ON t(x);").code, 0);
  ASSERT_EQ(Exec(b_.get(), "INSERT INTO t VALUES(5)").code, 0);
  ASSERT_EQ(Exec(a_.get(), "DROP TABLE t").code, 0);
  ExecResult r = Exec(b_.get(), "SELECT * FROM t");
  EXPECT_EQ(r.code, kError);
  EXPECT_EQ(r.error, "no such table: t");
  EXPECT_EQ(Exec(b_.get(), "PRAGMA integrity_check").output, "ok\n");
}

TEST_F(TwoConnections, WriterBlocksWriterWithBusy) {
  ASSERT_EQ(Exec(a_.get(), "CREATE TABLE t(x); BEGIN IMMEDIATE; INSERT INTO t VALUES(1);").code, 0);
  ExecResult r = Exec(b_.get(), "INSERT INTO t VALUES(2)");
  EXPECT_EQ(r.code, kBusy);
  EXPECT_EQ(r.error, "database is locked");
  ASSERT_EQ(Exec(a_.get(), "COMMIT").code, 0);
  EXPECT_EQ(Exec(b_.get(), "INSERT INTO t VALUES(2); SELECT count(*) FROM t").output, "2\n");
}

}  // namespace
}  // namespace basalt::testing

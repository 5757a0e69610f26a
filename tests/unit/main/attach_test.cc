// Attached database files: a transaction that changes two files in
// rollback-journal mode commits both or neither, through a super-journal,
// whatever moment the power fails; in WAL mode each file commits on its
// own. Files are exchanged through an in-memory VFS.
#include <gtest/gtest.h>

#include <string>

#include "main/connection.h"
#include "os/fault_vfs.h"
#include "os/mem_vfs.h"
#include "sql_session.h"

namespace basalt::testing {
namespace {

constexpr const char* kMain = "/db/main.db";
constexpr const char* kAux = "/db/aux.db";

std::string Q(Connection* c, const std::string& sql) {
  ExecResult r = Exec(c, sql);
  EXPECT_EQ(r.error, "") << sql;
  return r.output;
}

// Two files with one table each, committed.
void MakeSeed(MemVfs* vfs, const std::string& mode) {
  auto c = OpenDb(vfs, kMain);
  ASSERT_TRUE(c);
  ASSERT_EQ(Exec(c.get(), "PRAGMA journal_mode=" + mode + "; ATTACH '" + kAux +
                              "' AS aux; PRAGMA aux.journal_mode=" + mode +
                              "; CREATE TABLE m(x); CREATE TABLE aux.a(y);"
                              "INSERT INTO m VALUES(1); INSERT INTO aux.a VALUES(1);")
                .error,
            "");
}

const char* kChange =
    "BEGIN; INSERT INTO m SELECT x + 1 FROM m; INSERT INTO aux.a SELECT y + 1 FROM aux.a;"
    "INSERT INTO m SELECT x + 10 FROM m; INSERT INTO aux.a SELECT y + 10 FROM aux.a; COMMIT;";

// count(*) of both tables after reopening, as "m|a".
std::string Counts(Vfs* vfs) {
  auto c = OpenDb(vfs, kMain);
  if (!c) return "open failed";
  ExecResult r =
      Exec(c.get(), std::string("ATTACH '") + kAux +
                        "' AS aux; SELECT (SELECT count(*) FROM m), (SELECT count(*) FROM aux.a);"
                        "PRAGMA integrity_check; PRAGMA aux.integrity_check;");
  if (!r.error.empty()) return r.error;
  return r.output;
}

TEST(Attach, TwoFilesCommitTogether) {
  MemVfs vfs;
  MakeSeed(&vfs, "DELETE");
  {
    auto c = OpenDb(&vfs, kMain);
    ASSERT_TRUE(c);
    ASSERT_EQ(Exec(c.get(), std::string("ATTACH '") + kAux + "' AS aux;" + kChange).error, "");
  }
  EXPECT_EQ(Counts(&vfs), "4|4\nok\nok\n");
  // No journal or super-journal is left behind.
  for (const char* leftover : {"/db/main.db-journal", "/db/aux.db-journal"}) {
    bool exists = true;
    ASSERT_TRUE(vfs.Access(leftover, AccessMode::kExists, &exists).ok());
    EXPECT_FALSE(exists) << leftover;
  }
}

TEST(Attach, RollbackUndoesBothFiles) {
  MemVfs vfs;
  MakeSeed(&vfs, "DELETE");
  auto c = OpenDb(&vfs, kMain);
  ASSERT_TRUE(c);
  ASSERT_EQ(Exec(c.get(), std::string("ATTACH '") + kAux +
                              "' AS aux; BEGIN; INSERT INTO m VALUES(5); DELETE FROM aux.a;"
                              "ROLLBACK;")
                .error,
            "");
  EXPECT_EQ(Q(c.get(), "SELECT count(*) FROM m; SELECT count(*) FROM aux.a;"), "1\n1\n");
}

// The power fails at every write point of the two-file commit: after the
// reboot both files hold the old rows or both the new ones.
void PowerLoss(const std::string& mode, bool expect_atomic) {
  MemVfs seed_vfs;
  MakeSeed(&seed_vfs, mode);
  std::string seed_main, seed_aux;
  ASSERT_TRUE(seed_vfs.GetFile(kMain, &seed_main));
  ASSERT_TRUE(seed_vfs.GetFile(kAux, &seed_aux));
  int64_t total = 0;
  {
    MemVfs mem;
    mem.PutFile(kMain, seed_main);
    mem.PutFile(kAux, seed_aux);
    FaultVfs fv(&mem);
    auto c = OpenDb(&fv, kMain);
    ASSERT_TRUE(c);
    ASSERT_EQ(Exec(c.get(), std::string("ATTACH '") + kAux + "' AS aux;").error, "");
    const int64_t before = fv.write_points();
    ASSERT_EQ(Exec(c.get(), kChange).error, "");
    total = fv.write_points() - before;
  }
  ASSERT_GT(total, 6);
  int trials = 0, old_rows = 0, new_rows = 0, mixed = 0;
  for (int64_t k = 1; k <= total; ++k) {
    SCOPED_TRACE(k);
    for (auto survival :
         {FaultVfs::Survival::kRandom, FaultVfs::Survival::kNone, FaultVfs::Survival::kAll}) {
      MemVfs mem;
      mem.PutFile(kMain, seed_main);
      mem.PutFile(kAux, seed_aux);
      FaultVfs fv(&mem);
      {
        auto c = OpenDb(&fv, kMain);
        ASSERT_TRUE(c);
        ASSERT_EQ(Exec(c.get(), std::string("ATTACH '") + kAux + "' AS aux;").error, "");
        fv.CrashAt(k);
        (void)Exec(c.get(), kChange);
      }
      if (!fv.crashed()) continue;
      ++trials;
      MemVfs after;
      for (auto& [p, bytes] : fv.SurvivingFiles(uint64_t(k), survival)) after.PutFile(p, bytes);
      const std::string counts = Counts(&after);
      if (counts == "1|1\nok\nok\n") {
        ++old_rows;
      } else if (counts == "4|4\nok\nok\n") {
        ++new_rows;
      } else {
        ++mixed;
        if (expect_atomic) ADD_FAILURE() << "after a crash at write point " << k << ": " << counts;
      }
    }
  }
  EXPECT_GT(trials, 6);
  EXPECT_GT(old_rows, 0);
  if (expect_atomic) {
    EXPECT_EQ(mixed, 0);
  }
  (void)new_rows;
}

TEST(Attach, PowerLossDeleteJournal) { PowerLoss("DELETE", true); }
TEST(Attach, PowerLossTruncateJournal) { PowerLoss("TRUNCATE", true); }
TEST(Attach, PowerLossPersistJournal) { PowerLoss("PERSIST", true); }
// In WAL mode each file commits on its own (as SQLite documents): every
// state after a crash is intact, but the two files need not agree.
TEST(Attach, PowerLossWal) { PowerLoss("WAL", false); }

}  // namespace
}  // namespace basalt::testing

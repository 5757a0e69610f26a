// Damaged database files: a file that is not a database, is truncated, or
// has random bytes changed in its header, page headers, cell pointers, cells,
// page-number fields or whole pages must give "file is not a database"
// (SQLITE_NOTADB) or "database disk image is malformed" (SQLITE_CORRUPT),
// never a crash, a hang or an out-of-bounds read (run it in the sanitizer
// build for the last).
//
// Valid databases are built with Basalt (page sizes 512 to 4096, one with
// auto_vacuum=FULL and one INCREMENTAL so pointer maps exist; overflow rows
// in tables and indexes; deleted rows leaving a freelist). Each case copies
// one, damages it (corrupt_mutate.h), opens the copy and runs a fixed script
// of reads, index queries, PRAGMA integrity_check, writes and a DROP TABLE;
// every statement must succeed or fail with a code from a small set
// (AllowedCode). Cases run in forked children, batch by batch, each case
// under an alarm: a crash, sanitizer report or hang ends the child, and the
// parent reports the case (seed and mutation) and goes on with the next.
//
// BASALT_FAULT_FULL=1: the long run; BASALT_CORRUPT_CASES=n: n cases;
// BASALT_CORRUPT_SEED=n: the run's seed (printed by every run);
// BASALT_CORRUPT_CASE=i: only case i, in this process (for a debugger), and
// BASALT_CORRUPT_WRITE=path also writes its damaged file there.
#include <gtest/gtest.h>
#include <limits.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>

#include "corrupt_mutate.h"
#include "os/mem_vfs.h"
#include "sql_session.h"

namespace basalt::testing {
namespace {

constexpr int kCaseSeconds = 20;  // a case running longer is a hang
constexpr int kBatch = 250;       // cases per child process
// About 20 s in a Release build (2 ms a case), a minute under the sanitizers.
#if defined(__SANITIZE_ADDRESS__)
constexpr uint64_t kDefaultCases = 4000;
#else
constexpr uint64_t kDefaultCases = 10000;
#endif

struct Base {
  std::string name;
  uint32_t page_size;
  std::string image;
};

// ---- building the valid databases ----

// Deterministic text of length n for row i.
std::string Text(const char* prefix, int i, int n) {
  std::string s = std::string(prefix) + std::to_string(i) + "-";
  uint32_t x = uint32_t(i) * 2654435761u + 17;
  while (int(s.size()) < n) {
    x = x * 1103515245u + 12345u;
    s += char('a' + (x >> 16) % 26);
  }
  return s;
}

const char* const kSchema =
    "CREATE TABLE t1(a INTEGER PRIMARY KEY, b TEXT, c BLOB);\n"
    "CREATE INDEX t1b ON t1(b);\n"
    "CREATE TABLE t2(x INTEGER, y TEXT, z);\n"
    "CREATE INDEX t2xy ON t2(x, y);\n"
    "CREATE UNIQUE INDEX t2y ON t2(y);\n"
    "CREATE TABLE t3(k TEXT PRIMARY KEY, v REAL, w TEXT);\n"
    "CREATE INDEX t3v ON t3(v);\n"
    "CREATE TABLE t4(p INTEGER, q TEXT);\n"
    "CREATE INDEX t4q ON t4(q);\n"
    "CREATE VIEW v1 AS SELECT a, x FROM t1 JOIN t2 ON a = x;\n"
    "CREATE TRIGGER tr4 AFTER INSERT ON t4 BEGIN UPDATE t3 SET v = v + 1 WHERE k = 'k-1'; END;\n";

std::string Rows() {
  std::string sql = "BEGIN;\n";
  for (int i = 1; i <= 240; ++i) {
    int blob = i % 10 == 0 ? 900 + 37 * i : i % 50;  // every tenth row overflows
    sql += "INSERT INTO t1(b, c) VALUES ('" + Text("b", i, 5 + i % 30) + "', zeroblob(" +
           std::to_string(blob) + "));\n";
    sql += "INSERT INTO t2 VALUES (" + std::to_string(i % 60) + ", 'y-" + std::to_string(i) +
           "', " + (i % 3 == 0 ? std::string("NULL") : std::to_string(i * 1.25)) + ");\n";
    if (i % 2 == 0) {
      sql += "INSERT INTO t3 VALUES ('k-" + std::to_string(i) + "', " + std::to_string(i * 0.5) +
             ", '" + Text("w", i, 20 + i % 200) + "');\n";
    }
    if (i % 6 == 0) {  // index keys that overflow too
      sql += "INSERT INTO t4 VALUES (" + std::to_string(i) + ", '" + Text("q", i, 100 + 13 * i) +
             "');\n";
    }
  }
  sql += "COMMIT;\n";
  sql += "DELETE FROM t1 WHERE a % 4 = 1;\n";  // leaves free pages
  sql += "DELETE FROM t3 WHERE v > 90 AND v < 100;\n";
  return sql;
}

std::string BuildBase(uint32_t page_size, const char* auto_vacuum) {
  MemVfs vfs;
  const std::string path = "/base.db";
  {
    auto c = OpenDb(&vfs, path);
    EXPECT_NE(c, nullptr);
    if (!c) return "";
    std::string setup = "PRAGMA page_size = " + std::to_string(page_size) + ";\n" +
                        "PRAGMA auto_vacuum = " + auto_vacuum + ";\n";
    for (const std::string& sql : {setup, std::string(kSchema), Rows()}) {
      ExecResult r = Exec(c.get(), sql);
      EXPECT_EQ(r.code, 0) << r.error;
    }
  }
  std::string image;
  EXPECT_TRUE(vfs.GetFile(path, &image));
  return image;
}

const std::vector<Base>& Bases() {
  static const std::vector<Base> bases = [] {
    std::vector<Base> v;
    v.push_back({"512", 512, BuildBase(512, "NONE")});
    v.push_back({"1024", 1024, BuildBase(1024, "NONE")});
    v.push_back({"4096", 4096, BuildBase(4096, "NONE")});
    v.push_back({"1024-autovacuum-full", 1024, BuildBase(1024, "FULL")});
    v.push_back({"2048-autovacuum-incremental", 2048, BuildBase(2048, "INCREMENTAL")});
    return v;
  }();
  return bases;
}

// ---- the script run on every damaged copy ----

struct Step {
  const char* sql;
  bool writes;
};

const Step kScript[] = {
    {"SELECT * FROM t1", false},
    {"SELECT count(*) FROM t1", false},
    {"SELECT a, b FROM t1 WHERE b BETWEEN 'b1' AND 'b5' ORDER BY b", false},
    {"SELECT count(*) FROM t1 INDEXED BY t1b WHERE b > ''", false},
    {"SELECT max(a), min(b), sum(length(c)) FROM t1", false},
    {"SELECT * FROM t1 WHERE a = 50", false},
    {"SELECT a FROM t1 ORDER BY a DESC LIMIT 30", false},
    {"SELECT b FROM t1 ORDER BY b DESC", false},
    {"SELECT * FROM t2", false},
    {"SELECT count(*) FROM t2", false},
    {"SELECT x, y FROM t2 WHERE x = 17", false},
    {"SELECT z FROM t2 WHERE y = 'y-40'", false},
    {"SELECT * FROM t3", false},
    {"SELECT count(*) FROM t3 WHERE k > 'k-5'", false},
    {"SELECT v FROM t3 WHERE v > 10.5 ORDER BY v DESC", false},
    {"SELECT p, length(q) FROM t4 WHERE q > 'q1' ORDER BY q", false},
    {"SELECT * FROM v1", false},
    {"PRAGMA integrity_check", false},
    {"INSERT INTO t1(b, c) VALUES ('inserted', zeroblob(2000))", true},
    {"UPDATE t1 SET b = b || '-u' WHERE a % 7 = 1", true},
    {"DELETE FROM t1 WHERE a % 11 = 2", true},
    {"INSERT INTO t3 VALUES ('k-new', 1.5, 'w'), ('k-new2', 2.5, zeroblob(3000))", true},
    {"INSERT OR REPLACE INTO t3 VALUES ('k-10', 3.5, 'replaced')", true},
    {"BEGIN", false},
    {"INSERT INTO t2 SELECT x + 1000, y || '-c', z FROM t2 WHERE x < 50", true},
    {"UPDATE t3 SET w = upper(w) WHERE v < 100", true},
    {"INSERT INTO t4 VALUES (1, 'new')", true},
    {"DELETE FROM t4 WHERE rowid % 2 = 0", true},
    {"COMMIT", true},
    {"DROP TABLE t2", true},
    {"PRAGMA incremental_vacuum(5)", true},
    {"VACUUM", true},
    {"SELECT count(*), max(b) FROM t1", false},
    {"SELECT k, v FROM t3 ORDER BY v", false},
};
constexpr int kSteps = int(std::size(kScript));

// The codes a statement on a damaged database may end with. Besides
// SQLITE_CORRUPT and SQLITE_NOTADB:
//   SQLITE_ERROR     a damaged schema may lose a table ("no such table"), or
//                    declare an unsupported schema format; COMMIT/ROLLBACK
//                    with no transaction after BEGIN failed.
//   SQLITE_READONLY  writes, when a changed header byte 18 (write version
//                    above 2) makes the file read-only, as in SQLite.
//   SQLITE_CONSTRAINT writes: a damaged UNIQUE index or key may hold the
//                    value being inserted.
bool AllowedCode(int code, const Step& step) {
  switch (code & 0xff) {
    case 0:
    case kError:
    case kCorrupt:
    case kNotADb:
      return true;
    case kReadOnly:
    case kConstraint:
      return step.writes;
    default:
      return false;
  }
}

// The message must be SQLite's for the code.
bool AllowedMessage(int code, const std::string& msg) {
  switch (code & 0xff) {
    case kCorrupt:
      return msg == "database disk image is malformed" ||
             msg.rfind("malformed database schema", 0) == 0;
    case kNotADb:
      return msg == "file is not a database";
    default:
      return true;
  }
}

struct CaseResult {
  int32_t codes[kSteps];
  int32_t bad_step;  // -1: every code allowed
  char rare[200];    // the first statement ending with another code than OK,
                     // SQLITE_CORRUPT or SQLITE_NOTADB, and its message
};

CaseResult RunScript(const std::string& image, std::string* detail) {
  CaseResult res{};
  res.bad_step = -1;
  MemVfs vfs;
  const std::string path = "/case.db";
  vfs.PutFile(path, image);
  auto opened = Connection::Open(path, kOpenReadWrite | kOpenCreate, &vfs);
  std::unique_ptr<Connection> c;
  int open_code = 0;
  if (opened.ok()) {
    c = std::move(opened).value();
  } else {
    open_code = opened.status().code();
  }
  for (int i = 0; i < kSteps; ++i) {
    ExecResult r;
    if (c) {
      r = Exec(c.get(), kScript[i].sql);
    } else {
      r.code = open_code;
      r.error = "open: " + opened.status().message();
    }
    res.codes[i] = r.code;
    int primary = r.code & 0xff;
    if (res.rare[0] == '\0' && primary != 0 && primary != kCorrupt && primary != kNotADb) {
      std::snprintf(res.rare, sizeof res.rare, "%s: %s", kScript[i].sql, r.error.c_str());
    }
    if (res.bad_step < 0 &&
        (!AllowedCode(r.code, kScript[i]) || !AllowedMessage(r.code, r.error))) {
      res.bad_step = i;
      *detail = std::string(kScript[i].sql) + ": code " + std::to_string(r.code) + ", " + r.error;
    }
    // Leave no transaction open (the BEGIN ... COMMIT batch may fail midway).
    if (c && !c->autocommit() && std::string_view(kScript[i].sql) == "COMMIT") {
      Exec(c.get(), "ROLLBACK");
    }
  }
  return res;
}

// ---- the run ----

uint64_t EnvNumber(const char* name, uint64_t dflt) {
  const char* e = std::getenv(name);
  return e != nullptr && *e != '\0' ? std::strtoull(e, nullptr, 0) : dflt;
}

struct CaseInput {
  const Base* base;
  Mutation m;
};

CaseInput MakeCase(uint64_t seed, uint64_t i) {
  const Base& b = Bases()[i % Bases().size()];
  return {&b, Mutate(b.image, b.page_size, CaseSeed(seed, i))};
}

std::string Describe(uint64_t seed, uint64_t i) {
  CaseInput in = MakeCase(seed, i);
  return "seed " + std::to_string(seed) + " case " + std::to_string(i) + " (base " + in.base->name +
         "): " + in.m.what;
}

enum RecordKind : int32_t { kStart = 1, kDone = 2 };
struct Record {
  int32_t kind;
  int32_t index;
  CaseResult result;
};
static_assert(sizeof(Record) <= PIPE_BUF, "one write, never split");

[[noreturn]] void RunBatch(uint64_t seed, uint64_t from, uint64_t to, int fd) {
  for (uint64_t i = from; i < to; ++i) {
    Record rec{};
    rec.kind = kStart;
    rec.index = int32_t(i);
    if (write(fd, &rec, sizeof rec) != ssize_t(sizeof rec)) _exit(2);
    alarm(kCaseSeconds);
    CaseInput in = MakeCase(seed, i);
    std::string detail;
    rec.result = RunScript(in.m.bytes, &detail);
    alarm(0);
    if (rec.result.bad_step >= 0) {
      std::fprintf(stderr, "BAD CODE: %s\n  %s\n", Describe(seed, i).c_str(), detail.c_str());
    }
    rec.kind = kDone;
    if (write(fd, &rec, sizeof rec) != ssize_t(sizeof rec)) _exit(2);
  }
  _exit(0);
}

struct Tally {
  uint64_t cases = 0;
  std::map<int, uint64_t> per_code;    // primary code -> statements
  std::map<int, uint64_t> first_err;   // primary code of a case's first failure -> cases
  std::map<int, std::string> example;  // a case with each rarer code
  std::vector<std::string> failures;

  void Add(uint64_t seed, uint64_t i, const CaseResult& r) {
    for (int s = 0; s < kSteps; ++s) {
      int c = r.codes[s] & 0xff;
      if (r.rare[0] != '\0' && c != 0 && c != kCorrupt && c != kNotADb && !example.count(c)) {
        example[c] = Describe(seed, i) + "\n      " + r.rare;
      }
    }
    ++cases;
    int first = 0;
    for (int i = 0; i < kSteps; ++i) {
      ++per_code[r.codes[i] & 0xff];
      if (first == 0) first = r.codes[i] & 0xff;
    }
    ++first_err[first];
  }
};

const char* CodeName(int code) {
  switch (code) {
    case 0:
      return "OK";
    case kError:
      return "SQLITE_ERROR";
    case kReadOnly:
      return "SQLITE_READONLY";
    case kCorrupt:
      return "SQLITE_CORRUPT";
    case kConstraint:
      return "SQLITE_CONSTRAINT";
    case kNotADb:
      return "SQLITE_NOTADB";
    default:
      return "other";
  }
}

// Runs cases [0, n) in forked children; a child that dies takes the case it
// was in with it and the next child starts after that case.
Tally RunCases(uint64_t seed, uint64_t n) {
  Tally t;
  uint64_t next = 0;
  while (next < n) {
    const uint64_t end = std::min(n, next + kBatch);
    int fds[2];
    if (pipe(fds) != 0) {
      t.failures.push_back("pipe failed");
      break;
    }
    std::fflush(nullptr);
    pid_t pid = fork();
    if (pid == 0) {
      close(fds[0]);
      RunBatch(seed, next, end, fds[1]);
    }
    close(fds[1]);
    int64_t started = -1;
    Record rec;
    while (read(fds[0], &rec, sizeof rec) == ssize_t(sizeof rec)) {
      if (rec.kind == kStart) {
        started = rec.index;
        continue;
      }
      started = -1;
      next = uint64_t(rec.index) + 1;
      t.Add(seed, uint64_t(rec.index), rec.result);
      if (rec.result.bad_step >= 0) {
        t.failures.push_back("wrong code: " + Describe(seed, uint64_t(rec.index)) + " step " +
                             kScript[rec.result.bad_step].sql);
      }
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && started < 0) continue;
    if (started < 0) started = int64_t(next);  // died before its first case started
    std::string how = WIFSIGNALED(status) ? (WTERMSIG(status) == SIGALRM
                                                 ? "hang (alarm)"
                                                 : "signal " + std::to_string(WTERMSIG(status)))
                                          : "exit status " + std::to_string(WEXITSTATUS(status));
    t.failures.push_back(how + ": " + Describe(seed, uint64_t(started)));
    ++t.cases;
    next = uint64_t(started) + 1;
  }
  return t;
}

TEST(CorruptFile, BasesAreValid) {
  for (const Base& b : Bases()) {
    ASSERT_FALSE(b.image.empty());
    std::string detail;
    CaseResult r = RunScript(b.image, &detail);
    for (int i = 0; i < kSteps; ++i) EXPECT_EQ(r.codes[i], 0) << b.name << ": " << kScript[i].sql;
    MemVfs vfs;
    vfs.PutFile("/x.db", b.image);
    auto c = OpenDb(&vfs, "/x.db");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(Exec(c.get(), "PRAGMA integrity_check").output, "ok\n") << b.name;
  }
}

// ---- fixed cases ----
// The expected codes are what the system sqlite3 3.40.1 shell reports for
// the same files (`sqlite3 FILE 'SELECT count(*) FROM t1'` and its exit
// status).

// The image with the text `from` (on page 1: sqlite_schema) replaced by
// `to`, of the same length.
std::string WithText(std::string image, std::string_view from, std::string_view to) {
  size_t at = image.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(from.size(), to.size());
  if (at != std::string::npos) image.replace(at, from.size(), to);
  return image;
}

std::string WithBytes(std::string image, size_t at, std::initializer_list<uint8_t> bytes) {
  for (uint8_t b : bytes) image[at++] = char(b);
  return image;
}

struct FixedCase {
  const char* name;
  std::string image;
  const char* sql;
  int code;                       // primary code expected
  const char* message = nullptr;  // the message expected, when given
};

std::vector<FixedCase> FixedCases() {
  const std::string& db = Bases()[1].image;  // 1024-byte pages
  std::mt19937 rng(42);
  std::string noise(50, '\0');
  for (char& ch : noise) ch = char(rng());
  const char* count = "SELECT count(*) FROM t1";
  return {
      {"empty file: a valid empty database", "", count, kError},  // no such table
      {"empty file", "", "CREATE TABLE t(a); INSERT INTO t VALUES (1); SELECT * FROM t", 0},
      {"50 random bytes", noise, count, kNotADb},
      {"50 random bytes, no table used", noise, "SELECT 1", 0},
      {"a text file", "hello, this is not a database\nsecond line\n", count, kNotADb},
      {"page size 3", WithBytes(db, 16, {0, 3}), count, kNotADb},
      {"page size field 0 (131072 does not fit)", WithBytes(db, 16, {0, 0}), count, kNotADb},
      {"page size 65535", WithBytes(db, 16, {0xff, 0xff}), count, kNotADb},
      {"page size 32768 on a file of 1024-byte pages", WithBytes(db, 16, {0x80, 0}), count,
       kCorrupt},
      {"page size 65536 on a file of 1024-byte pages", WithBytes(db, 16, {0, 1}), count, kCorrupt},
      {"magic changed", WithBytes(db, 14, {'4'}), count, kNotADb},
      {"read version 3", WithBytes(db, 19, {3}), count, kNotADb},
      {"write version 3: readable", WithBytes(db, 18, {3}), count, 0},
      {"write version 3: read-only", WithBytes(db, 18, {3}), "DELETE FROM t1", kReadOnly},
      {"max payload fraction 65", WithBytes(db, 21, {65}), count, kNotADb},
      {"header database size 9999", WithBytes(db, 28, {0, 0, 0x27, 0x0f}), count, kCorrupt},
      {"schema format 9", WithBytes(db, 44, {0, 0, 0, 9}), count, kError},
      {"text encoding 7 (read as UTF-16be)", WithBytes(db, 56, {0, 0, 0, 7}), count, kCorrupt},
      {"text encoding 5 (read as UTF-8)", WithBytes(db, 56, {0, 0, 0, 5}), count, 0},
      {"text encoding 0 (read as UTF-8)", WithBytes(db, 56, {0, 0, 0, 0}), count, 0},
      {"schema format: only the low byte counts", WithBytes(db, 44, {0x70, 0, 4, 4}), count, 0},
      {"truncated to 100 bytes", db.substr(0, 100), count, kCorrupt},
      {"truncated to 100 bytes, no table used", db.substr(0, 100), "SELECT 1", 0},
      {"truncated to 94 bytes (inside the header)", db.substr(0, 94), count, kCorrupt},
      {"truncated to 24 bytes", db.substr(0, 24), count, kCorrupt},
      {"truncated to 20 bytes (payload fractions cut)", db.substr(0, 20), count, kNotADb},
      {"truncated to 17 bytes", db.substr(0, 17), count, kNotADb},
      {"truncated to half its size", db.substr(0, db.size() / 2), count, kCorrupt},
      {"truncated to half its size: integrity_check", db.substr(0, db.size() / 2),
       "PRAGMA integrity_check", kCorrupt},
      {"50 random bytes: integrity_check", noise, "PRAGMA integrity_check", kNotADb},
      {"truncated to 1.5 pages", db.substr(0, 1536), count, kCorrupt},
      {"schema: syntax error", WithText(db, "CREATE VIEW v1", "CREATX VIEW v1"), count, kCorrupt,
       "malformed database schema (v1) - near \"CREATX\": syntax error"},
      {"schema: a second table t1", WithText(db, "TABLE t4(", "TABLE t1("), count, kCorrupt,
       "malformed database schema (t4)"},
      {"schema: an index named like another", WithText(db, "INDEX t2y ON", "INDEX t1b ON"), count,
       kCorrupt, "malformed database schema (t2y)"},
      {"schema: an index on a missing table", WithText(db, "t4q ON t4(", "t4q ON t9("), count,
       kCorrupt, "malformed database schema (t4q) - no such table: main.t9"},
      {"schema: a trigger named differently", WithText(db, "TRIGGER tr4", "TRIGGER tr5"), count,
       kCorrupt, "malformed database schema (tr4)"},
  };
}

TEST(CorruptFile, FixedCases) {
  for (const FixedCase& f : FixedCases()) {
    MemVfs vfs;
    vfs.PutFile("/f.db", f.image);
    auto c = OpenDb(&vfs, "/f.db");
    ASSERT_NE(c, nullptr) << f.name;
    ExecResult r = Exec(c.get(), f.sql);
    EXPECT_EQ(r.code & 0xff, f.code) << f.name << ": " << r.error;
    if (f.message != nullptr) {
      EXPECT_EQ(r.error, f.message) << f.name;
    }
    EXPECT_TRUE(AllowedMessage(r.code, r.error)) << f.name << ": " << r.error;
    // Whatever the first statement said, later ones behave the same way.
    ExecResult again = Exec(c.get(), f.sql);
    if (f.code != 0) {
      EXPECT_EQ(again.code & 0xff, f.code) << f.name << " (again): " << again.error;
    }
  }
}

TEST(CorruptFile, RandomMutations) {
  const bool full = std::getenv("BASALT_FAULT_FULL") != nullptr;
  const uint64_t seed = EnvNumber("BASALT_CORRUPT_SEED", std::random_device{}());
  if (const char* one = std::getenv("BASALT_CORRUPT_CASE")) {
    uint64_t i = std::strtoull(one, nullptr, 0);
    std::printf("%s\n", Describe(seed, i).c_str());
    std::string detail;
    const std::string bytes = MakeCase(seed, i).m.bytes;
    if (const char* out = std::getenv("BASALT_CORRUPT_WRITE")) {  // for a look with sqlite3
      std::FILE* f = std::fopen(out, "wb");
      ASSERT_NE(f, nullptr) << out;
      std::fwrite(bytes.data(), 1, bytes.size(), f);
      std::fclose(f);
    }
    CaseResult r = RunScript(bytes, &detail);
    for (int s = 0; s < kSteps; ++s) std::printf("  %5d  %s\n", r.codes[s], kScript[s].sql);
    EXPECT_LT(r.bad_step, 0) << detail;
    return;
  }
  const uint64_t n = EnvNumber("BASALT_CORRUPT_CASES", full ? 25000 : kDefaultCases);
  std::printf("corrupt_test: seed %llu (BASALT_CORRUPT_SEED=%llu reproduces), %llu cases\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(n));
  (void)Bases();  // built once, before the children fork
  auto start = std::chrono::steady_clock::now();
  Tally t = RunCases(seed, n);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("corrupt_test: %llu cases in %.1f s\n", static_cast<unsigned long long>(t.cases),
              secs);
  for (auto [code, count] : t.per_code) {
    std::printf("  statements %-18s %llu\n", CodeName(code),
                static_cast<unsigned long long>(count));
  }
  for (auto [code, count] : t.first_err) {
    std::printf("  cases whose first error is %-18s %llu\n", code == 0 ? "(none)" : CodeName(code),
                static_cast<unsigned long long>(count));
  }
  for (const auto& [code, text] : t.example) {
    std::printf("  e.g. %s: %s\n", CodeName(code), text.c_str());
  }
  for (const std::string& f : t.failures) ADD_FAILURE() << f;
  EXPECT_EQ(t.cases, n);
}

}  // namespace
}  // namespace basalt::testing

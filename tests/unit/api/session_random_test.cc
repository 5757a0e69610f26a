// Random change sequences (fixed seeds, so both libraries run the same SQL):
// changesets, patchsets, their concatenation and inversion, and applying
// them with conflicts, compared byte for byte with the system libsqlite3.
#include <random>

#include "session_test_util.h"

namespace basalt::sessiontest {
namespace {

const char* kSchema =
    "CREATE TABLE a(id INTEGER PRIMARY KEY, x, y);"
    "CREATE TABLE b(k1 TEXT, k2 INTEGER, v, PRIMARY KEY(k1, k2));"
    "CREATE TABLE c(k REAL PRIMARY KEY, v TEXT) WITHOUT ROWID;";

std::string RandomValue(std::mt19937* g) {
  switch ((*g)() % 6) {
    case 0:
      return "NULL";
    case 1:
      return std::to_string(static_cast<int>((*g)() % 2000) - 1000);
    case 2:
      return std::to_string((*g)() % 1000) + ".25";
    case 3:
      return "'s" + std::to_string((*g)() % 50) + "'";
    case 4:
      return "x'" + std::string(2 * ((*g)() % 4), 'a') + "'";
    default:
      return "printf('%.*c', " + std::to_string((*g)() % 300) + ", 'w')";
  }
}

// One random statement over the three tables (keys from small ranges, so
// rows are changed again and again).
std::string RandomStatement(std::mt19937* g) {
  const int key = static_cast<int>((*g)() % 40);
  const std::string k = std::to_string(key);
  const std::string tk = "'t" + std::to_string(key % 7) + "'";
  const std::string rk = std::to_string(key % 13) + ".5";
  switch ((*g)() % 9) {
    case 0:
      return "INSERT OR REPLACE INTO a VALUES(" + k + ", " + RandomValue(g) + ", " +
             RandomValue(g) + ")";
    case 1:
      return "UPDATE a SET x = " + RandomValue(g) + " WHERE id % 5 = " + std::to_string(key % 5);
    case 2:
      return "DELETE FROM a WHERE id = " + k;
    case 3:
      return "UPDATE a SET id = id + 100 WHERE id = " + k;
    case 4:
      return "INSERT OR IGNORE INTO b VALUES(" + tk + ", " + std::to_string(key % 3) + ", " +
             RandomValue(g) + ")";
    case 5:
      return "UPDATE b SET v = " + RandomValue(g) + " WHERE k2 = " + std::to_string(key % 3);
    case 6:
      return "DELETE FROM b WHERE k1 = " + tk;
    case 7:
      return "INSERT OR REPLACE INTO c VALUES(" + rk + ", " + RandomValue(g) + ")";
    default:
      return "DELETE FROM c WHERE k = " + rk;
  }
}

std::vector<std::string> Script(unsigned seed, int n) {
  std::mt19937 g(seed);
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(RandomStatement(&g));
  return out;
}

// Runs `before`, then records `during` (twice: two sessions one after the
// other); returns changeset 1, patchset 1, changeset 2, patchset 2.
std::vector<std::string> Record(const Lib* L, const std::vector<std::string>& before,
                                const std::vector<std::string>& during) {
  sqlite3* db = OpenMemory(L);
  Exec(L, db, kSchema);
  for (const std::string& sql : before) Exec(L, db, sql);
  std::vector<std::string> out;
  const size_t half = during.size() / 2;
  for (int part = 0; part < 2; ++part) {
    sqlite3_session* s = nullptr;
    L->session_create(db, "main", &s);
    L->session_attach(s, nullptr);
    for (size_t i = part ? half : 0; i < (part ? during.size() : half); ++i) Exec(L, db, during[i]);
    int n = 0;
    void* p = nullptr;
    L->session_changeset(s, &n, &p);
    out.push_back(Take(L, n, p));
    L->session_patchset(s, &n, &p);
    out.push_back(Take(L, n, p));
    L->session_delete(s);
  }
  L->close(db);
  return out;
}

std::string HexOf(const std::string& s) { return Hex(s.data(), static_cast<int>(s.size())); }

int Cycle(void* arg, int kind, sqlite3_changeset_iter*) {
  int* n = static_cast<int*>(arg);
  ++*n;
  if (kind == SQLITE_CHANGESET_DATA || kind == SQLITE_CHANGESET_CONFLICT) {
    return *n % 2 ? SQLITE_CHANGESET_REPLACE : SQLITE_CHANGESET_OMIT;
  }
  return SQLITE_CHANGESET_OMIT;
}

std::string ApplyTo(const Lib* L, const std::vector<std::string>& target, std::string cs) {
  sqlite3* db = OpenMemory(L);
  Exec(L, db, kSchema);
  for (const std::string& sql : target) Exec(L, db, sql);
  int calls = 0;
  int rc = L->cs_apply(db, static_cast<int>(cs.size()), cs.data(), nullptr, &Cycle, &calls);
  std::string out = "rc" + std::to_string(rc) + " calls" + std::to_string(calls) + "\n";
  for (const char* t : {"a", "b", "c"}) out += Dump(L, db, std::string("SELECT * FROM ") + t);
  L->close(db);
  return out;
}

TEST(SessionRandom, ChangesetsConcatInvertApplyMatchSqlite) {
  BASALT_REQUIRE_LIBS();
  size_t bytes = 0;
  int with_conflicts = 0;
  for (unsigned seed = 1; seed <= 40; ++seed) {
    std::vector<std::string> before = Script(seed * 7919, 60);
    std::vector<std::string> during = Script(seed, 200);
    std::vector<std::string> rb = Record(B, before, during), rs = Record(S, before, during);
    ASSERT_EQ(rb.size(), rs.size());
    for (size_t i = 0; i < rb.size(); ++i) {
      ASSERT_EQ(HexOf(rb[i]), HexOf(rs[i])) << "seed " << seed << " output " << i;
    }
    int n = 0;
    void* p = nullptr;
    for (size_t first : {size_t{0}, size_t{1}}) {  // changesets, then patchsets
      std::string pa = rs[first], pb = rs[first + 2];
      sqlite3_changegroup* gb = nullptr;
      sqlite3_changegroup* gs = nullptr;
      B->cg_new(&gb);
      S->cg_new(&gs);
      for (std::string* x : {&pa, &pb}) {
        EXPECT_EQ(B->cg_add(gb, static_cast<int>(x->size()), x->data()),
                  S->cg_add(gs, static_cast<int>(x->size()), x->data()));
      }
      int nb = 0, ns = 0;
      void* pbuf = nullptr;
      void* sbuf = nullptr;
      B->cg_output(gb, &nb, &pbuf);
      S->cg_output(gs, &ns, &sbuf);
      ASSERT_EQ(HexOf(Take(B, nb, pbuf)), HexOf(Take(S, ns, sbuf)))
          << "changegroup " << first << ", seed " << seed;
      B->cg_delete(gb);
      S->cg_delete(gs);
    }
    std::string a = rs[0], b = rs[2];
    int rc1 = B->cs_concat(static_cast<int>(a.size()), a.data(), static_cast<int>(b.size()),
                           b.data(), &n, &p);
    std::string cb = Take(B, n, p);
    int rc2 = S->cs_concat(static_cast<int>(a.size()), a.data(), static_cast<int>(b.size()),
                           b.data(), &n, &p);
    std::string cs = Take(S, n, p);
    EXPECT_EQ(rc1, rc2);
    ASSERT_EQ(HexOf(cb), HexOf(cs)) << "concat, seed " << seed;
    B->cs_invert(static_cast<int>(cs.size()), cs.data(), &n, &p);
    std::string ib = Take(B, n, p);
    S->cs_invert(static_cast<int>(cs.size()), cs.data(), &n, &p);
    ASSERT_EQ(HexOf(ib), HexOf(Take(S, n, p))) << "invert, seed " << seed;
    // Applied to a database that went its own way: conflicts of every kind.
    std::vector<std::string> target = before;
    for (const std::string& sql : Script(seed + 1000, 40)) target.push_back(sql);
    std::string applied = ApplyTo(S, target, cs);
    EXPECT_EQ(ApplyTo(B, target, cs), applied) << "apply, seed " << seed;
    if (applied.find(" calls0\n") == std::string::npos) ++with_conflicts;
    bytes += cs.size();
    EXPECT_EQ(ApplyTo(B, target, rs[1]), ApplyTo(S, target, rs[1])) << "patchset, seed " << seed;
  }
  // The hooks see the same calls for the same statements.
  for (unsigned seed = 1; seed <= 40; ++seed) {
    std::vector<std::string> script = {
        "CREATE TABLE a(id INTEGER PRIMARY KEY, x, y)",
        "CREATE TABLE b(k1 TEXT, k2 INTEGER, v, PRIMARY KEY(k1, k2))",
        "CREATE TABLE c(k REAL PRIMARY KEY, v TEXT) WITHOUT ROWID"};
    for (const std::string& sql : Script(seed, 80)) script.push_back(sql);
    EXPECT_EQ(HookTranscript(B, script, 3, "DELETE FROM a"),
              HookTranscript(S, script, 3, "DELETE FROM a"))
        << "hooks, seed " << seed;
  }
  // The scenarios are not empty: sizable changesets, conflicts in most.
  EXPECT_GT(bytes, 40u * 500);
  EXPECT_GT(with_conflicts, 30);
}

}  // namespace
}  // namespace basalt::sessiontest

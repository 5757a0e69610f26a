// The session extension: for the same changes, both libraries must write
// byte-identical changesets and patchsets, iterate them the same way, and
// invert / concatenate / group them into identical bytes.
#include "session_test_util.h"

namespace basalt::sessiontest {
namespace {

const char* kSchema =
    "CREATE TABLE t1(a INTEGER PRIMARY KEY, b, c);"
    "CREATE TABLE t2(x TEXT, y INTEGER, z, PRIMARY KEY(y, x));"
    "CREATE TABLE t3(k TEXT PRIMARY KEY, v) WITHOUT ROWID;"
    "CREATE TABLE nopk(a, b);"
    "CREATE TABLE skipme(id INTEGER PRIMARY KEY, v);"
    "CREATE TABLE log(id INTEGER PRIMARY KEY, what);"
    "CREATE TRIGGER t3_log AFTER INSERT ON t3 BEGIN INSERT INTO log(what) VALUES(new.k); END;";

// Rows before the session starts (so UPDATE and DELETE have old values).
const char* kSeed =
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<300) "
    "INSERT INTO t1 SELECT i, 'b' || i, i * 1.5 FROM n;"
    "INSERT INTO t2 VALUES('p', 1, x'00ff'), ('q', 2, NULL), ('r', 3, 3.25);"
    "INSERT INTO t3 VALUES('one', 1), ('two', 2);";

// Changes while the session records: many rows (the hash table grows),
// every kind of value, rows changed twice, deleted and re-inserted,
// inserted and deleted, key changes, indirect changes.
const char* kChanges =
    "UPDATE t1 SET b = 'changed' || a WHERE a % 7 = 0;"
    "DELETE FROM t1 WHERE a % 11 = 0;"
    "WITH RECURSIVE n(i) AS (SELECT 301 UNION ALL SELECT i+1 FROM n WHERE i<420) "
    "INSERT INTO t1 SELECT i, NULL, x'abcd' FROM n;"
    "UPDATE t1 SET c = NULL WHERE a BETWEEN 50 AND 60;"
    "UPDATE t1 SET a = a + 1000 WHERE a BETWEEN 100 AND 103;"
    "DELETE FROM t1 WHERE a = 5; INSERT INTO t1 VALUES(5, 'back', 5.0);"
    "DELETE FROM t1 WHERE a = 6; INSERT INTO t1 VALUES(6, 'b6', 9.0);"
    "INSERT INTO t1 VALUES(2000, 'gone', 1); DELETE FROM t1 WHERE a = 2000;"
    "UPDATE t1 SET b = 'b8' WHERE a = 8;"
    "UPDATE t2 SET z = 'zz' WHERE y = 1; UPDATE t2 SET x = 'qq' WHERE y = 2;"
    "INSERT INTO t2 VALUES('s', 4, -1e300); DELETE FROM t2 WHERE y = 3;"
    "INSERT INTO t3 VALUES('three', 3.5); UPDATE t3 SET v = 22 WHERE k = 'two';"
    "DELETE FROM t3 WHERE k = 'one';"
    "INSERT INTO nopk VALUES(1, 2); INSERT INTO skipme VALUES(1, 1);"
    "UPDATE t1 SET b = 'same' WHERE a = 9; UPDATE t1 SET b = 'b9' WHERE a = 9;";

int SkipFilter(void*, const char* table) { return std::string(table) != "skipme"; }

struct Outputs {
  std::string changeset, patchset, strm_changeset, strm_patchset, explicit_changeset;
  int empty_before = -1, empty_after = -1;
  sqlite3_int64 size = -1;
};

Outputs Record(const Lib* L) {
  Outputs o;
  sqlite3* db = OpenMemory(L);
  EXPECT_EQ(Exec(L, db, kSchema), "");
  EXPECT_EQ(Exec(L, db, kSeed), "");
  sqlite3_session* s = nullptr;
  sqlite3_session* only = nullptr;  // a second session: t2 only, indirect
  EXPECT_EQ(L->session_create(db, "main", &s), SQLITE_OK);
  EXPECT_EQ(L->session_create(db, "main", &only), SQLITE_OK);
  L->session_table_filter(s, &SkipFilter, nullptr);
  EXPECT_EQ(L->session_attach(only, "t2"), SQLITE_OK);
  EXPECT_EQ(L->session_indirect(only, 1), 1);
  EXPECT_EQ(L->session_indirect(only, -1), 1);
  int cfg = -1;
  EXPECT_EQ(L->session_object_config(s, SQLITE_SESSION_OBJCONFIG_SIZE, &cfg), SQLITE_OK);
  EXPECT_EQ(cfg, 0);
  o.empty_before = L->session_isempty(s);
  EXPECT_EQ(Exec(L, db, kChanges), "");
  // Disabled: these changes are not recorded.
  EXPECT_EQ(L->session_enable(s, 0), 0);
  EXPECT_EQ(Exec(L, db, "UPDATE t1 SET b = 'unseen' WHERE a = 1"), "");
  EXPECT_EQ(L->session_enable(s, -1), 0);
  EXPECT_EQ(L->session_enable(s, 1), 1);
  o.empty_after = L->session_isempty(s);
  o.size = L->session_changeset_size(s);
  EXPECT_GT(L->session_memory_used(s), 0);
  int n = 0;
  void* p = nullptr;
  EXPECT_EQ(L->session_changeset(s, &n, &p), SQLITE_OK);
  o.changeset = Take(L, n, p);
  EXPECT_EQ(L->session_patchset(s, &n, &p), SQLITE_OK);
  o.patchset = Take(L, n, p);
  EXPECT_EQ(L->session_changeset_strm(s, &WriteStream, &o.strm_changeset), SQLITE_OK);
  EXPECT_EQ(L->session_patchset_strm(s, &WriteStream, &o.strm_patchset), SQLITE_OK);
  EXPECT_EQ(L->session_changeset(only, &n, &p), SQLITE_OK);
  o.explicit_changeset = Take(L, n, p);
  L->session_delete(only);
  L->session_delete(s);
  L->close(db);
  return o;
}

TEST(Session, ChangesetsAndPatchsetsAreByteIdentical) {
  BASALT_REQUIRE_LIBS();
  Outputs b = Record(B), s = Record(S);
  EXPECT_GT(s.changeset.size(), 1000u);
  EXPECT_EQ(Hex(b.changeset.data(), static_cast<int>(b.changeset.size())),
            Hex(s.changeset.data(), static_cast<int>(s.changeset.size())));
  EXPECT_EQ(Hex(b.patchset.data(), static_cast<int>(b.patchset.size())),
            Hex(s.patchset.data(), static_cast<int>(s.patchset.size())));
  EXPECT_EQ(b.strm_changeset, s.strm_changeset);
  EXPECT_EQ(b.strm_patchset, s.strm_patchset);
  EXPECT_EQ(s.strm_changeset, s.changeset);
  EXPECT_EQ(Hex(b.explicit_changeset.data(), static_cast<int>(b.explicit_changeset.size())),
            Hex(s.explicit_changeset.data(), static_cast<int>(s.explicit_changeset.size())));
  EXPECT_EQ(b.empty_before, s.empty_before);
  EXPECT_EQ(b.empty_after, s.empty_after);
  EXPECT_EQ(b.size, s.size);
  for (int want : {0, 4096, -1, 1024}) {
    int vb = want, vs = want;
    EXPECT_EQ(B->session_config(SQLITE_SESSION_CONFIG_STRMSIZE, &vb),
              S->session_config(SQLITE_SESSION_CONFIG_STRMSIZE, &vs));
    EXPECT_EQ(vb, vs) << want;
  }
  int v = 1;
  EXPECT_EQ(B->session_config(99, &v), S->session_config(99, &v));
}

// Everything an iterator reports about each change.
std::string Walk(const Lib* L, sqlite3_changeset_iter* it) {
  std::string out;
  int rc;
  while ((rc = L->cs_next(it)) == SQLITE_ROW) {
    const char* tab = nullptr;
    int ncol = 0, op = 0, indirect = 0;
    L->cs_op(it, &tab, &ncol, &op, &indirect);
    unsigned char* pk = nullptr;
    int npk = 0;
    L->cs_pk(it, &pk, &npk);
    out += std::string(tab) + " op" + std::to_string(op) + " ind" + std::to_string(indirect) +
           " pk" + Hex(pk, npk) + ":";
    for (int i = 0; i < ncol; ++i) {
      sqlite3_value* v = nullptr;
      int r1 = L->cs_old(it, i, &v);
      out += " o" + (r1 ? "rc" + std::to_string(r1) : ValueText(L, v));
      int r2 = L->cs_new(it, i, &v);
      out += " n" + (r2 ? "rc" + std::to_string(r2) : ValueText(L, v));
    }
    sqlite3_value* v = nullptr;
    out += " range" + std::to_string(L->cs_old(it, ncol, &v));
    out += " conflict" + std::to_string(L->cs_conflict(it, 0, &v));
    int nfk = 0;
    out += " fk" + std::to_string(L->cs_fk_conflicts(it, &nfk)) + "\n";
  }
  out += "end " + std::to_string(rc) + " " + std::to_string(L->cs_finalize(it)) + "\n";
  return out;
}

std::string Iterate(const Lib* L, std::string data, int mode) {
  sqlite3_changeset_iter* it = nullptr;
  StreamIn in{&data};
  int rc = SQLITE_OK;
  switch (mode) {
    case 0:
      rc = L->cs_start(&it, static_cast<int>(data.size()), data.data());
      break;
    case 1:
      rc = L->cs_start_v2(&it, static_cast<int>(data.size()), data.data(),
                          SQLITE_CHANGESETSTART_INVERT);
      break;
    case 2:
      rc = L->cs_start_strm(&it, &ReadStream, &in);
      break;
    default:
      rc = L->cs_start_v2_strm(&it, &ReadStream, &in, SQLITE_CHANGESETSTART_INVERT);
      break;
  }
  if (rc != SQLITE_OK) return "start " + std::to_string(rc);
  return Walk(L, it);
}

TEST(Session, IteratorsReportTheSame) {
  BASALT_REQUIRE_LIBS();
  Outputs o = Record(S);
  for (int mode = 0; mode < 4; ++mode) {
    EXPECT_EQ(Iterate(B, o.changeset, mode), Iterate(S, o.changeset, mode)) << "mode " << mode;
  }
  for (int mode = 0; mode < 4; ++mode) {
    EXPECT_EQ(Iterate(B, o.patchset, mode), Iterate(S, o.patchset, mode)) << "patchset " << mode;
  }
  std::string bad = o.changeset.substr(0, o.changeset.size() / 2 + 3);
  EXPECT_EQ(Iterate(B, bad, 0), Iterate(S, bad, 0));
}

std::string Invert(const Lib* L, const std::string& in, bool strm) {
  if (strm) {
    std::string out;
    StreamIn src{&in};
    int rc = L->cs_invert_strm(&ReadStream, &src, &WriteStream, &out);
    return std::to_string(rc) + ":" + Hex(out.data(), static_cast<int>(out.size()));
  }
  int n = 0;
  void* p = nullptr;
  int rc = L->cs_invert(static_cast<int>(in.size()), in.data(), &n, &p);
  std::string out = Take(L, n, p);
  return std::to_string(rc) + ":" + Hex(out.data(), n);
}

TEST(Session, InvertIsByteIdentical) {
  BASALT_REQUIRE_LIBS();
  Outputs o = Record(S);
  EXPECT_EQ(Invert(B, o.changeset, false), Invert(S, o.changeset, false));
  EXPECT_EQ(Invert(B, o.changeset, true), Invert(S, o.changeset, true));
  EXPECT_EQ(Invert(B, o.patchset, false), Invert(S, o.patchset, false));
}

// Two changesets recorded one after the other on the same database.
std::vector<std::string> TwoSteps(const Lib* L, bool patchset) {
  sqlite3* db = OpenMemory(L);
  Exec(L, db, kSchema);
  Exec(L, db, kSeed);
  std::vector<std::string> out;
  const char* steps[] = {kChanges,
                         "UPDATE t1 SET b = 'again' WHERE a % 5 = 0; DELETE FROM t1 WHERE a > 400;"
                         "INSERT INTO t1 VALUES(11, 'eleven', 11); UPDATE t1 SET c = 7 WHERE a = 7;"
                         "DELETE FROM t2 WHERE y = 4; INSERT INTO t2 VALUES('r', 3, 'new');"
                         "UPDATE t3 SET v = 1 WHERE k = 'three'; DELETE FROM t3 WHERE k = 'two';"};
  for (const char* sql : steps) {
    sqlite3_session* s = nullptr;
    L->session_create(db, "main", &s);
    L->session_attach(s, nullptr);
    Exec(L, db, sql);
    int n = 0;
    void* p = nullptr;
    if (patchset) {
      L->session_patchset(s, &n, &p);
    } else {
      L->session_changeset(s, &n, &p);
    }
    out.push_back(Take(L, n, p));
    L->session_delete(s);
  }
  L->close(db);
  return out;
}

std::string Combine(const Lib* L, const std::vector<std::string>& in, int how) {
  std::string a = in[0], b = in[1], out;
  int rc = SQLITE_OK, n = 0;
  void* p = nullptr;
  if (how == 0) {
    rc = L->cs_concat(static_cast<int>(a.size()), a.data(), static_cast<int>(b.size()), b.data(),
                      &n, &p);
    out = Take(L, n, p);
  } else if (how == 1) {
    StreamIn sa{&a}, sb{&b};
    rc = L->cs_concat_strm(&ReadStream, &sa, &ReadStream, &sb, &WriteStream, &out);
  } else {
    sqlite3_changegroup* g = nullptr;
    L->cg_new(&g);
    rc = L->cg_add(g, static_cast<int>(a.size()), a.data());
    StreamIn sb{&b};
    if (rc == SQLITE_OK) rc = L->cg_add_strm(g, &ReadStream, &sb);
    if (how == 2) {
      if (rc == SQLITE_OK) rc = L->cg_output(g, &n, &p);
      out = Take(L, n, p);
    } else if (rc == SQLITE_OK) {
      rc = L->cg_output_strm(g, &WriteStream, &out);
    }
    L->cg_delete(g);
  }
  return std::to_string(rc) + ":" + Hex(out.data(), static_cast<int>(out.size()));
}

TEST(Session, ConcatAndChangegroupAreByteIdentical) {
  BASALT_REQUIRE_LIBS();
  for (bool patch : {false, true}) {
    std::vector<std::string> in = TwoSteps(S, patch);
    for (int how = 0; how < 4; ++how) {
      EXPECT_EQ(Combine(B, in, how), Combine(S, in, how)) << "patchset " << patch << " how " << how;
    }
  }
  // A changeset and a patchset do not mix; nor do two shapes of one table.
  std::vector<std::string> mixed = {TwoSteps(S, false)[0], TwoSteps(S, true)[1]};
  EXPECT_EQ(Combine(B, mixed, 0), Combine(S, mixed, 0));
  std::string other = TwoSteps(S, false)[0];
  const std::string from = std::string("T\x03\x01\x00\x00t1", 7);
  const std::string to = std::string("T\x03\x00\x01\x00t1", 7);
  for (size_t at = other.find(from); at != std::string::npos; at = other.find(from, at + 1)) {
    other.replace(at, from.size(), to);
  }
  std::vector<std::string> shapes = {TwoSteps(S, false)[1], other};
  for (int how = 0; how < 4; ++how) EXPECT_EQ(Combine(B, shapes, how), Combine(S, shapes, how));
}

}  // namespace
}  // namespace basalt::sessiontest

namespace basalt::sessiontest {
namespace {

// A session on an attached database, long values (multi-byte varints), the
// size estimate with SQLITE_SESSION_OBJCONFIG_SIZE, and a table whose
// schema changed under the session.
std::string AttachedAndSized(const Lib* L) {
  sqlite3* db = OpenMemory(L);
  Exec(L, db,
       "ATTACH ':memory:' AS aux; CREATE TABLE aux.big(id INTEGER PRIMARY KEY, v);"
       "CREATE TABLE main.big(id INTEGER PRIMARY KEY, v);"
       "INSERT INTO aux.big VALUES(1, 'x'), (2, zeroblob(300));");
  sqlite3_session* s = nullptr;
  std::string out = std::to_string(L->session_create(db, "aux", &s));
  int on = 1;
  out += " cfg" + std::to_string(L->session_object_config(s, SQLITE_SESSION_OBJCONFIG_SIZE, &on));
  out += " on" + std::to_string(on);
  L->session_attach(s, "big");
  Exec(L, db,
       "INSERT INTO main.big VALUES(9, 'main is not recorded');"
       "INSERT INTO aux.big VALUES(3, printf('%.*c', 200, 'y'));"
       "UPDATE aux.big SET v = printf('%.*c', 20000, 'z') WHERE id = 1;"
       "DELETE FROM aux.big WHERE id = 2;");
  out += " size" + std::to_string(L->session_changeset_size(s));
  on = 0;
  out += " late" + std::to_string(L->session_object_config(s, SQLITE_SESSION_OBJCONFIG_SIZE, &on));
  int n = 0;
  void* p = nullptr;
  out += " rc" + std::to_string(L->session_changeset(s, &n, &p));
  std::string cs = Take(L, n, p);
  out += " " + Hex(cs.data(), static_cast<int>(cs.size()));
  L->session_delete(s);
  L->close(db);
  return out;
}

TEST(Session, AttachedDatabaseLongValuesAndSize) {
  BASALT_REQUIRE_LIBS();
  EXPECT_EQ(AttachedAndSized(B), AttachedAndSized(S));
}

// The size estimate is the largest each change has been, not the size of
// the changeset now (changes that were undone still count).
std::string SizeAfter(const Lib* L, const char* sql) {
  sqlite3* db = OpenMemory(L);
  Exec(L, db,
       "CREATE TABLE t(a INTEGER PRIMARY KEY, b, c); CREATE TABLE np(x, y);"
       "INSERT INTO t VALUES(1, 'x', 1), (2, 'y', 2), (3, 'z', 3)");
  sqlite3_session* s = nullptr;
  L->session_create(db, "main", &s);
  int on = 1;
  L->session_object_config(s, SQLITE_SESSION_OBJCONFIG_SIZE, &on);
  L->session_attach(s, nullptr);
  Exec(L, db, sql);
  std::string out = std::to_string(L->session_changeset_size(s));
  L->session_delete(s);
  L->close(db);
  return out;
}

TEST(Session, SizeEstimateMatchesSqlite) {
  BASALT_REQUIRE_LIBS();
  for (const char* sql :
       {"UPDATE t SET b = 'q' WHERE a = 1",
        "UPDATE t SET b = 'q' WHERE a = 1; UPDATE t SET b = 'x' WHERE a = 1",
        "DELETE FROM t WHERE a = 2; INSERT INTO t VALUES(2, 'y', 2)",
        "INSERT INTO t VALUES(9, 1, 1); DELETE FROM t WHERE a = 9",
        "UPDATE t SET c = c + 1; UPDATE t SET b = NULL", "UPDATE t SET a = a + 10 WHERE a = 1",
        "DELETE FROM t WHERE a > 0", "INSERT INTO np VALUES(1, 2)"}) {
    EXPECT_EQ(SizeAfter(B, sql), SizeAfter(S, sql)) << sql;
  }
}

}  // namespace
}  // namespace basalt::sessiontest

namespace basalt::sessiontest {
namespace {

// A large table (the per-change lookups must stay fast), then a schema
// change under the session.
std::string LargeThenAltered(const Lib* L) {
  sqlite3* db = OpenMemory(L);
  Exec(L, db,
       "CREATE TABLE t(a INTEGER PRIMARY KEY, b, c);"
       "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<20000) "
       "INSERT INTO t SELECT i, i * 3, 'v' || i FROM n;");
  sqlite3_session* s = nullptr;
  L->session_create(db, "main", &s);
  L->session_attach(s, "t");
  Exec(L, db,
       "UPDATE t SET b = b + 1 WHERE a % 2 = 0; DELETE FROM t WHERE a % 5 = 0;"
       "INSERT INTO t SELECT a + 20000, b, c FROM t WHERE a < 3000;");
  int n = 0;
  void* p = nullptr;
  std::string out = "rc" + std::to_string(L->session_changeset(s, &n, &p));
  std::string cs = Take(L, n, p);
  out += " " + std::to_string(cs.size()) + " " + Hex(cs.data(), static_cast<int>(cs.size()));
  Exec(L, db, "ALTER TABLE t ADD COLUMN d; UPDATE t SET d = 1 WHERE a = 1;");
  out += " altered rc" + std::to_string(L->session_changeset(s, &n, &p));
  cs = Take(L, n, p);
  out += " " + Hex(cs.data(), static_cast<int>(cs.size()));
  L->session_delete(s);
  L->close(db);
  return out;
}

TEST(Session, LargeChangesetAndSchemaChange) {
  BASALT_REQUIRE_LIBS();
  std::string b = LargeThenAltered(B), s = LargeThenAltered(S);
  EXPECT_GT(s.size(), 100000u);
  EXPECT_EQ(b, s);
}

}  // namespace
}  // namespace basalt::sessiontest

// The UTF-16 interfaces, function extras (auxdata, overload_function,
// aggregate_count, UTF-16 results), get_table, the VFS list, loadable and
// automatic extensions, the WAL calls and the small remaining ones: each
// scenario runs on Basalt and on the system libsqlite3 and the transcripts
// must match. Callbacks reach the engine under test through `api`.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "engines.h"
#include "query.h"
#include "transcript.h"
#define SQLITE_CORE 1  // the routines type only, not its call macros
#include <sqlite3ext.h>

namespace basalt::apitest {
namespace {

const Api* api = nullptr;  // the engine the running scenario uses

std::string Narrow(const void* z) {
  if (z == nullptr) return "NULL";
  std::string out;
  for (const char16_t* p = static_cast<const char16_t*>(z); *p; ++p) {
    out.push_back(*p < 128 ? static_cast<char>(*p) : '?');
  }
  return out;
}

// echo16(mode, x): x back through result_text16 (0), result_text16le (1),
// result_text16be from a byte-swapped copy (2), result_text64 with UTF-16
// (3); mode 4 raises result_error16; mode 5 returns length of value_text16
// forms and value_bytes16.
void Echo16(sqlite3_context* ctx, int, sqlite3_value** argv) {
  int mode = static_cast<int>(api->value_int64(argv[0]));
  const char16_t* u = static_cast<const char16_t*>(api->value_text16(argv[1]));
  std::u16string s = u != nullptr ? std::u16string(u) : std::u16string();
  std::u16string swapped = s;
  for (char16_t& c : swapped) c = static_cast<char16_t>((c >> 8) | (c << 8));
  int bytes = static_cast<int>(s.size() * 2);
  switch (mode) {
    case 0:
      api->result_text16(ctx, s.c_str(), -1, SQLITE_TRANSIENT);
      break;
    case 1:
      api->result_text16le(ctx, s.c_str(), bytes, SQLITE_TRANSIENT);
      break;
    case 2:
      api->result_text16be(ctx, swapped.c_str(), bytes, SQLITE_TRANSIENT);
      break;
    case 3:
      api->result_text64(ctx, reinterpret_cast<const char*>(s.c_str()),
                         static_cast<sqlite3_uint64>(bytes), SQLITE_TRANSIENT, SQLITE_UTF16LE);
      break;
    case 4:
      api->result_error16(ctx, u"bad sixteen", -1);
      break;
    default: {
      std::string r = Narrow(api->value_text16le(argv[1])) + "/" +
                      std::to_string(api->value_bytes16(argv[1])) + "/" +
                      std::to_string(api->value_encoding(argv[1]));
      api->result_text(ctx, r.c_str(), -1, SQLITE_TRANSIENT);
    }
  }
}

int aux_builds = 0;
void FreeAux(void* p) { delete static_cast<std::string*>(p); }
// cached(x, y): x with y appended; remembers "compiling" x as auxdata.
void Cached(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* pattern = static_cast<std::string*>(api->get_auxdata(ctx, 0));
  if (pattern == nullptr) {
    ++aux_builds;
    const unsigned char* x = api->value_text(argv[0]);
    pattern = new std::string(x != nullptr ? reinterpret_cast<const char*>(x) : "");
    api->set_auxdata(ctx, 0, pattern, FreeAux);
    pattern = static_cast<std::string*>(api->get_auxdata(ctx, 0));
  }
  std::string r = (pattern != nullptr ? *pattern : "?") + ":" +
                  reinterpret_cast<const char*>(api->value_text(argv[1]));
  api->result_text(ctx, r.c_str(), -1, SQLITE_TRANSIENT);
}

void CountStep(sqlite3_context* ctx, int, sqlite3_value**) {
  auto* n = static_cast<sqlite3_int64*>(api->aggregate_context(ctx, sizeof(sqlite3_int64)));
  *n = api->aggregate_count(ctx);
}
void CountFinal(sqlite3_context* ctx) {
  auto* n = static_cast<sqlite3_int64*>(api->aggregate_context(ctx, 0));
  api->result_int64(ctx, n != nullptr ? *n : 0);
}

TEST(Utf16, OpenPrepareColumnsValues) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    api = &a;
    sqlite3* db = nullptr;
    t->Int("open16", a.open16(u":memory:", &db));
    Exec(a, db, "CREATE TABLE t(x TEXT, y INT); INSERT INTO t VALUES('h\xc3\xa9llo', 7)");
    t->Str("encoding", Rows(a, db, "PRAGMA encoding").c_str());
    const char16_t sql[] = u"SELECT x, y AS why FROM t WHERE x <> ?; SELECT 2";
    sqlite3_stmt* s = nullptr;
    const void* tail = nullptr;
    t->Int("prepare16_v2", a.prepare16_v2(db, sql, -1, &s, &tail));
    t->Str("tail", Narrow(tail).c_str());
    t->Int("bind16", a.bind_text16(s, 1, u"zz", -1, SQLITE_STATIC));
    t->Int("step", a.step(s));
    t->Str("text16", Narrow(a.column_text16(s, 0)).c_str());
    t->Int("bytes16", a.column_bytes16(s, 0));
    t->Int("bytes16 of int", a.column_bytes16(s, 1));
    t->Str("name16", Narrow(a.column_name16(s, 1)).c_str());
    t->Str("decltype16", Narrow(a.column_decltype16(s, 0)).c_str());
    t->Str("table16", Narrow(a.column_table_name16(s, 0)).c_str());
    t->Str("origin16", Narrow(a.column_origin_name16(s, 1)).c_str());
    t->Str("database16", Narrow(a.column_database_name16(s, 0)).c_str());
    a.finalize(s);
    t->Int("prepare16 bad", a.prepare16(db, u"SELEC 1", -1, &s, nullptr));
    t->Str("errmsg16", Narrow(a.errmsg16(db)).c_str());
    t->Int("prepare16_v3 bytes", a.prepare16_v3(db, u"SELECT 3; junk", 18, 0, &s, &tail));
    t->Str("tail", Narrow(tail).c_str());
    a.finalize(s);
    t->Int("create_function16",
           a.create_function16(db, u"echo16", 2, SQLITE_UTF8, nullptr, Echo16, nullptr, nullptr));
    for (int mode = 0; mode <= 5; ++mode) {
      std::string q = "SELECT echo16(" + std::to_string(mode) + ", x) FROM t";
      t->Str(q, Rows(a, db, q.c_str()).c_str());
    }
    a.close(db);
  });
}

TEST(Functions, AuxdataOverloadAggregateCount) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    api = &a;
    sqlite3* db = OpenMemory(a);
    Exec(a, db, "CREATE TABLE t(v); INSERT INTO t VALUES('a'),('b'),('c')");
    a.create_function(db, "cached", 2, SQLITE_UTF8, nullptr, Cached, nullptr, nullptr);
    aux_builds = 0;
    t->Str("constant", Rows(a, db, "SELECT cached('P', v) FROM t").c_str());
    t->Int("built once", aux_builds);
    aux_builds = 0;
    t->Str("varying", Rows(a, db, "SELECT cached(v, v) FROM t").c_str());
    t->Int("built per row", aux_builds);
    t->Int("overload", a.overload_function(db, "mymatch", 2));
    t->Str("call", Rows(a, db, "SELECT mymatch(1, 2)").c_str());
    t->Int("overload existing", a.overload_function(db, "cached", 2));
    t->Str("still works", Rows(a, db, "SELECT cached('Q', 'r')").c_str());
    a.create_function(db, "cnt", 1, SQLITE_UTF8, nullptr, nullptr, CountStep, CountFinal);
    t->Str("aggregate_count", Rows(a, db, "SELECT cnt(v) FROM t").c_str());
    char** res = nullptr;
    int nrow = -1, ncol = -1;
    char* err = nullptr;
    t->Int("get_table",
           a.get_table(db, "SELECT v, NULL FROM t; SELECT 'x', 'y'", &res, &nrow, &ncol, &err));
    t->Int("rows", nrow);
    t->Int("cols", ncol);
    for (int i = 0; i < (nrow + 1) * ncol; ++i) t->Str("cell", res[i]);
    a.free_table(res);
    t->Int("get_table mixed", a.get_table(db, "SELECT 1; SELECT 1, 2", &res, &nrow, &ncol, &err));
    t->Str("err", err);
    a.free(err);
    err = nullptr;
    t->Int("get_table error", a.get_table(db, "SELECT nosuch", &res, &nrow, &ncol, &err));
    t->Str("err", err);
    a.free(err);
    a.close(db);
  });
}

int AutoEntry(sqlite3* db, char**, const sqlite3_api_routines* routines) {
  return routines->exec(db, "CREATE TEMP TABLE auto_loaded(x)", nullptr, nullptr, nullptr);
}
int FailingEntry(sqlite3*, char** err, const sqlite3_api_routines* routines) {
  *err = routines->mprintf("%s", "nope");
  return SQLITE_ERROR;
}

TEST(Extensions, LoadAndAuto) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = OpenMemory(a);
    char* err = nullptr;
    t->Int("load", a.load_extension(db, BASALT_HALF_EXT, nullptr, &err));
    t->Str("half", Rows(a, db, "SELECT half(7)").c_str());
    t->Int("wrong entry", a.load_extension(db, BASALT_HALF_EXT, "nosuch_init", &err));
    t->Bool("message", err != nullptr);
    a.free(err);
    t->Int("disable", a.enable_load_extension(db, 0));
    t->Int("disabled load", a.load_extension(db, BASALT_HALF_EXT, nullptr, &err));
    t->Str("message", err);
    a.free(err);
    a.close(db);
    auto entry = reinterpret_cast<void (*)(void)>(AutoEntry);
    t->Int("auto", a.auto_extension(entry));
    t->Int("auto again", a.auto_extension(entry));
    db = OpenMemory(a);
    t->Str("auto ran", Rows(a, db, "SELECT count(*) FROM temp.auto_loaded").c_str());
    a.close(db);
    t->Int("cancel", a.cancel_auto_extension(entry));
    t->Int("cancel again", a.cancel_auto_extension(entry));
    a.auto_extension(reinterpret_cast<void (*)(void)>(FailingEntry));
    db = nullptr;
    t->Int("failing auto", a.open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, nullptr));
    t->Str("message", a.errmsg(db));
    a.close(db);
    a.reset_auto_extension();
    db = OpenMemory(a);
    t->Str("after reset", Rows(a, db, "SELECT 1").c_str());
    a.close(db);
  });
}

int WalHook(void* p, sqlite3*, const char* name, int frames) {
  static_cast<std::string*>(p)->append(std::string(name) + ":" + std::to_string(frames > 0) + " ");
  return SQLITE_OK;
}
void Notify(void** args, int n) { *static_cast<int*>(args[0]) += n; }

TEST(Wal, CheckpointHookAndMisc) {
  std::string dir = TempDir("wal");
  SameAsSqlite([&](const Api& a, Transcript* t) {
    sqlite3* db = nullptr;
    a.open_v2((dir + "/w-" + a.name + ".db").c_str(), &db,
              SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    Exec(a, db, "PRAGMA journal_mode = WAL; CREATE TABLE t(x)");
    std::string log;
    t->Bool("wal_hook first", a.wal_hook(db, WalHook, &log) == nullptr);
    Exec(a, db, "INSERT INTO t VALUES(1); INSERT INTO t VALUES(2)");
    Exec(a, db, "SELECT * FROM t");
    t->Str("hook calls", log.c_str());
    int nlog = -2, nckpt = -2;
    t->Int("checkpoint_v2",
           a.wal_checkpoint_v2(db, "main", SQLITE_CHECKPOINT_PASSIVE, &nlog, &nckpt));
    t->Bool("frames", nlog > 0 && nckpt == nlog);
    t->Int("checkpoint truncate",
           a.wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_TRUNCATE, &nlog, &nckpt));
    t->Int("log after truncate", nlog);
    t->Int("checkpoint unknown db", a.wal_checkpoint_v2(db, "nosuch", 0, &nlog, &nckpt));
    t->Int("checkpoint", a.wal_checkpoint(db, nullptr));
    t->Int("autocheckpoint", a.wal_autocheckpoint(db, 50));
    t->Str("pragma", Rows(a, db, "PRAGMA wal_autocheckpoint").c_str());
    int notified = 0;
    t->Int("unlock_notify", a.unlock_notify(db, Notify, &notified));
    t->Int("notified", notified);
    t->Int("byteorder", a.test_control(SQLITE_TESTCTRL_BYTEORDER));
    t->Int("always", a.test_control(SQLITE_TESTCTRL_ALWAYS, 5));
    (void)a.system_errno(db);
    a.close(db);
  });
}

int ShimOpen(sqlite3_vfs* v, sqlite3_filename n, sqlite3_file* f, int flags, int* out) {
  auto* base = static_cast<sqlite3_vfs*>(v->pAppData);
  return base->xOpen(base, n, f, flags, out);
}

TEST(Vfs, FindRegisterUnregister) {
  std::string dir = TempDir("vfs");
  SameAsSqlite([&](const Api& a, Transcript* t) {
    sqlite3_vfs* def = a.vfs_find(nullptr);
    t->Str("default", def->zName);
    t->Bool("unix", a.vfs_find("unix") == def);
    t->Bool("nosuch", a.vfs_find("nosuch") == nullptr);
    sqlite3_vfs shim = *def;
    shim.zName = "shim";
    shim.pAppData = def;
    shim.xOpen = ShimOpen;
    t->Int("register", a.vfs_register(&shim, 0));
    t->Str("default still", a.vfs_find(nullptr)->zName);
    t->Bool("found", a.vfs_find("shim") == &shim);
    t->Int("register default", a.vfs_register(&shim, 1));
    t->Str("new default", a.vfs_find(nullptr)->zName);
    // A file through the VFS methods: write, size, read back, delete.
    std::string path = dir + "/f-" + a.name;
    auto* f = static_cast<sqlite3_file*>(calloc(1, static_cast<size_t>(def->szOsFile)));
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MAIN_DB;
    t->Int("open", shim.xOpen(&shim, path.c_str(), f, flags, &flags));
    t->Int("write", f->pMethods->xWrite(f, "hello", 5, 0));
    sqlite3_int64 size = 0;
    f->pMethods->xFileSize(f, &size);
    t->Int("size", size);
    char buf[8] = {0};
    t->Int("short read", f->pMethods->xRead(f, buf, 8, 0));
    t->Str("bytes", buf);
    t->Int("close", f->pMethods->xClose(f));
    free(f);
    int exists = -1;
    def->xAccess(def, path.c_str(), SQLITE_ACCESS_EXISTS, &exists);
    t->Int("exists", exists);
    t->Int("delete", def->xDelete(def, path.c_str(), 0));
    t->Int("unregister", a.vfs_unregister(&shim));
    t->Str("default back", a.vfs_find(nullptr)->zName);
  });
}

int freed = 0;
void FreeInt(void* p) {
  ++freed;
  delete static_cast<int*>(p);
}
// getptr(p): the int p points at, when p is an "int" pointer.
void GetPtr(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* p = static_cast<int*>(api->value_pointer(argv[0], "int"));
  if (p == nullptr) {
    api->result_null(ctx);
  } else {
    api->result_int64(ctx, *p);
  }
}
void MkPtr(sqlite3_context* ctx, int, sqlite3_value**) {
  api->result_pointer(ctx, new int(77), "int", FreeInt);
}

TEST(Pointers, BindResultValue) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    api = &a;
    freed = 0;
    sqlite3* db = OpenMemory(a);
    a.create_function(db, "getptr", 1, SQLITE_UTF8, nullptr, GetPtr, nullptr, nullptr);
    a.create_function(db, "mkptr", 0, SQLITE_UTF8, nullptr, MkPtr, nullptr, nullptr);
    sqlite3_stmt* s = nullptr;
    a.prepare_v2(db, "SELECT getptr(?1), typeof(?1), ?1 IS NULL", -1, &s, nullptr);
    t->Int("bind", a.bind_pointer(s, 1, new int(5), "int", FreeInt));
    a.step(s);
    t->Int("getptr", a.column_int64(s, 0));
    t->Str("typeof", a.column_text(s, 1));
    t->Str("is null", a.column_text(s, 2));
    a.reset(s);
    t->Int("rebind", a.bind_pointer(s, 1, new int(6), "int", FreeInt));
    t->Int("freed after rebind", freed);
    a.step(s);
    t->Int("getptr", a.column_int64(s, 0));
    a.reset(s);
    t->Int("other type", a.bind_pointer(s, 1, new int(7), "float", FreeInt));
    a.step(s);
    t->Int("wrong type type", a.column_type(s, 0));
    a.finalize(s);
    t->Int("freed after finalize", freed);
    t->Str("result pointer", Rows(a, db, "SELECT getptr(mkptr()), typeof(mkptr())").c_str());
    t->Int("freed", freed);
    a.close(db);
  });
}

TEST(Filenames, UriParametersAndNames) {
  std::string dir = TempDir("fname");
  SameAsSqlite([&](const Api& a, Transcript* t) {
    const char* params[] = {"cache", "private", "flag", "yes", "n", "42"};
    sqlite3_filename f = a.create_filename("/x/db", "/x/db-journal", "/x/db-wal", 3, params);
    t->Str("database", a.filename_database(f));
    t->Str("journal", a.filename_journal(f));
    t->Str("wal", a.filename_wal(f));
    t->Str("database from wal", a.filename_database(a.filename_wal(f)));
    t->Str("cache", a.uri_parameter(f, "cache"));
    t->Str("missing", a.uri_parameter(f, "nosuch"));
    t->Int("flag", a.uri_boolean(f, "flag", 0));
    t->Int("bool default", a.uri_boolean(f, "nosuch", 1));
    t->Int("n", a.uri_int64(f, "n", -1));
    t->Int("int default", a.uri_int64(f, "cache", -1));
    for (int i = 0; i < 4; ++i) t->Str("key", a.uri_key(f, i));
    a.free_filename(f);
    std::string uri = "file:" + dir + "/u-" + a.name + ".db?mode=rwc&cache=shared&k=%41b";
    sqlite3* db = nullptr;
    a.open_v2(uri.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI,
              nullptr);
    sqlite3_filename name = a.db_filename(db, "main");
    t->Bool("path", std::string(name) == dir + "/u-" + a.name + ".db");
    t->Str("k", a.uri_parameter(name, "k"));
    t->Str("mode", a.uri_parameter(name, "mode"));
    t->Bool("journal", std::string(a.filename_journal(name)) == std::string(name) + "-journal");
    t->Bool("wal", std::string(a.filename_wal(name)) == std::string(name) + "-wal");
    a.close(db);
    t->Int("os_init", a.os_init());
    t->Int("os_end", a.os_end());
  });
}

}  // namespace
}  // namespace basalt::apitest

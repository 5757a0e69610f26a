/* The FTS5 C interfaces against both libraries: a program written to
 * SQLite's fts5.h gets the fts5_api with SELECT fts5(?1), registers a
 * tokenizer (wrapping unicode61 through xFindTokenizer, adding colocated
 * synonyms) and an auxiliary function that reports every Fts5ExtensionApi
 * call's answers; fts5_api.sh requires the same output from Basalt and from
 * the system libsqlite3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ext/fts5/fts5_abi.h"

static fts5_api* GetApi(sqlite3* db) {
  fts5_api* api = NULL;
  sqlite3_stmt* st = NULL;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, NULL) != SQLITE_OK) return NULL;
  sqlite3_bind_pointer(st, 1, (void*)&api, "fts5_api_ptr", NULL);
  sqlite3_step(st);
  sqlite3_finalize(st);
  return api;
}

/* --- a tokenizer: unicode61, plus "colour" after each "color" --- */
typedef struct {
  fts5_tokenizer parent;
  Fts5Tokenizer* inner;
} SynTok;
typedef struct {
  void* ctx;
  int (*cb)(void*, int, const char*, int, int, int);
} SynCtx;

static int SynCreate(void* user, const char** argv, int argc, Fts5Tokenizer** out) {
  fts5_api* api = (fts5_api*)user;
  SynTok* t = calloc(1, sizeof(SynTok));
  void* pu = NULL;
  int rc = api->xFindTokenizer(api, "unicode61", &pu, &t->parent);
  if (rc == SQLITE_OK) rc = t->parent.xCreate(pu, argv, argc, &t->inner);
  if (rc != SQLITE_OK) {
    free(t);
    return rc;
  }
  *out = (Fts5Tokenizer*)t;
  return SQLITE_OK;
}
static void SynDelete(Fts5Tokenizer* p) {
  SynTok* t = (SynTok*)p;
  t->parent.xDelete(t->inner);
  free(t);
}
static int SynCb(void* c, int flags, const char* tok, int n, int s, int e) {
  SynCtx* x = (SynCtx*)c;
  int rc = x->cb(x->ctx, flags, tok, n, s, e);
  if (rc == SQLITE_OK && n == 5 && memcmp(tok, "color", 5) == 0) {
    rc = x->cb(x->ctx, FTS5_TOKEN_COLOCATED, "colour", 6, s, e);
  }
  return rc;
}
static int SynTokenize(Fts5Tokenizer* p, void* ctx, int flags, const char* text, int n,
                       int (*cb)(void*, int, const char*, int, int, int)) {
  SynTok* t = (SynTok*)p;
  SynCtx x = {ctx, cb};
  return t->parent.xTokenize(t->inner, &x, flags, text, n, SynCb);
}

/* --- an auxiliary function reporting the API's answers --- */
static char out[8192];
static void Add(const char* fmt, long long a, long long b, long long c) {
  size_t n = strlen(out);
  snprintf(out + n, sizeof(out) - n, fmt, a, b, c);
}
static int CountRows(const Fts5ExtensionApi* api, Fts5Context* ctx, void* user) {
  int* n = (int*)user;
  *n += 1 + 1000 * (int)(api->xRowid(ctx) % 7);
  return SQLITE_OK;
}
static int TokCount(void* c, int flags, const char* t, int n, int s, int e) {
  (void)flags;
  (void)t;
  Add("<%lld:%lld-%lld>", n, s, e);
  ++*(int*)c;
  return SQLITE_OK;
}
static void Dump(const Fts5ExtensionApi* api, Fts5Context* ctx, sqlite3_context* sctx, int argc,
                 sqlite3_value** argv) {
  int i, ncol = api->xColumnCount(ctx), nph = api->xPhraseCount(ctx), ninst = 0;
  sqlite3_int64 nrow = 0, tot = 0;
  int* calls;
  out[0] = 0;
  Add("user=%lld rowid=%lld ncol=%lld", (long long)(api->xUserData(ctx) == (void*)&out),
      api->xRowid(ctx), ncol);
  api->xRowCount(ctx, &nrow);
  Add(" rows=%lld%s%s", nrow, (long long)"", (long long)"");
  for (i = -1; i <= ncol; i++) {
    int rc = api->xColumnTotalSize(ctx, i, &tot);
    Add(" tot[%lld]=%lld/%lld", i, tot, rc);
  }
  for (i = 0; i < ncol; i++) {
    const char* z = NULL;
    int n = 0, sz = 0;
    api->xColumnText(ctx, i, &z, &n);
    api->xColumnSize(ctx, i, &sz);
    Add(" col%lld:len=%lld,size=%lld", i, n, sz);
  }
  Add(" phrases=%lld", nph, 0, 0);
  for (i = 0; i < nph; i++) Add(" psize[%lld]=%lld", i, api->xPhraseSize(ctx, i), 0);
  api->xInstCount(ctx, &ninst);
  Add(" inst=%lld:", ninst, 0, 0);
  for (i = 0; i <= ninst; i++) {
    int ip = -9, ic = -9, io = -9;
    int rc = api->xInst(ctx, i, &ip, &ic, &io);
    if (rc == SQLITE_OK)
      Add(" (%lld,%lld,%lld)", ip, ic, io);
    else
      Add(" rc=%lld", rc, 0, 0);
  }
  for (i = 0; i < nph; i++) {
    Fts5PhraseIter it;
    int c, o, nq = 0;
    Add(" p%lld:", i, 0, 0);
    for (api->xPhraseFirst(ctx, i, &it, &c, &o); c >= 0; api->xPhraseNext(ctx, &it, &c, &o)) {
      Add("[%lld.%lld]", c, o, 0);
    }
    for (api->xPhraseFirstColumn(ctx, i, &it, &c); c >= 0; api->xPhraseNextColumn(ctx, &it, &c)) {
      Add("{%lld}", c, 0, 0);
    }
    api->xQueryPhrase(ctx, i, &nq, CountRows);
    Add(" q=%lld", nq, 0, 0);
  }
  calls = (int*)api->xGetAuxdata(ctx, 0);
  if (calls == NULL) {
    calls = calloc(1, sizeof(int));
    api->xSetAuxdata(ctx, calls, free);
  }
  ++*calls;
  Add(" calls=%lld", *calls, 0, 0);
  if (argc > 0) {
    const char* z = (const char*)sqlite3_value_text(argv[0]);
    int nt = 0;
    api->xTokenize(ctx, z, -1 == 0 ? 0 : (int)strlen(z), &nt, TokCount);
    Add(" ntok=%lld", nt, 0, 0);
  }
  sqlite3_result_text(sctx, out, -1, SQLITE_TRANSIENT);
}

static void Run(sqlite3* db, const char* sql) {
  sqlite3_stmt* st = NULL;
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  printf("%s\n", sql);
  if (rc == SQLITE_OK) {
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      int i;
      for (i = 0; i < sqlite3_column_count(st); i++) {
        const char* z = (const char*)sqlite3_column_text(st, i);
        printf("%s%s", i ? " | " : "  ", z ? z : "NULL");
      }
      printf("\n");
    }
  }
  if (rc != SQLITE_DONE && rc != SQLITE_OK) printf("  error: %s\n", sqlite3_errmsg(db));
  sqlite3_finalize(st);
}

int main(void) {
  sqlite3* db = NULL;
  fts5_api* api;
  fts5_tokenizer tok = {SynCreate, SynDelete, SynTokenize};
  void* pu = NULL;
  fts5_tokenizer found;
  const char* queries[] = {"color",
                           "colour",
                           "red OR blue",
                           "\"red color\"",
                           "NEAR(red blue, 3)",
                           "b:blue",
                           "gr*",
                           "red AND blue",
                           "red NOT grey",
                           "^red",
                           "red OR ^green",
                           "{a b}:green + tea"};
  size_t q;
  sqlite3_open(":memory:", &db);
  api = GetApi(db);
  if (api == NULL) {
    printf("no fts5_api\n");
    return 1;
  }
  printf("iVersion=%d\n", api->iVersion);
  printf("find nosuch: %d\n", api->xFindTokenizer(api, "nosuch", &pu, &found));
  printf("find ascii: %d\n", api->xFindTokenizer(api, "ascii", &pu, &found));
  printf("create tok: %d\n", api->xCreateTokenizer(api, "syn", (void*)api, &tok, NULL));
  printf("create fn: %d\n", api->xCreateFunction(api, "dump", (void*)&out, Dump, NULL));
  Run(db, "CREATE VIRTUAL TABLE t USING fts5(a, b, c UNINDEXED, tokenize=syn)");
  Run(db,
      "INSERT INTO t VALUES('red color wheel', 'blue green tea', 'x'), "
      "('green tea', 'red red blue', 'y'), ('color blue', 'grey', 'z'), "
      "('nothing here', 'at all', 'w')");
  for (q = 0; q < sizeof(queries) / sizeof(queries[0]); q++) {
    char sql[400];
    snprintf(sql, sizeof sql, "SELECT rowid, dump(t, 'Hello world, again!') FROM t('%s')",
             queries[q]);
    Run(db, sql);
    snprintf(sql, sizeof sql, "SELECT rowid, dump(t) FROM t('%s') ORDER BY rank", queries[q]);
    Run(db, sql);
  }
  Run(db, "CREATE VIRTUAL TABLE n USING fts5(a, b, detail=column, columnsize=0)");
  Run(db, "INSERT INTO n SELECT a, b FROM t");
  Run(db, "SELECT rowid, dump(n) FROM n('red OR green') ORDER BY rowid");
  Run(db, "SELECT rowid, dump(n) FROM n('b:red')");
  Run(db, "CREATE VIRTUAL TABLE cl USING fts5(a, b, content='')");
  Run(db, "INSERT INTO cl(rowid, a, b) SELECT rowid, a, b FROM t");
  Run(db, "SELECT rowid, dump(cl) FROM cl('red OR green') ORDER BY rowid");
  Run(db, "SELECT dump(1)");
  sqlite3_close(db);
  return 0;
}

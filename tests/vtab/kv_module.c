/* "kv": a virtual table module written in plain C against sqlite3.h, used
** to check that Basalt's library and the system libsqlite3 drive a module
** the same way. The same file is compiled against each library.
**
** Table:  CREATE TABLE x(id INTEGER, k TEXT, v REAL, prefix HIDDEN)
**   - rows are kept in memory, sorted by id; the rowid is the id;
**   - `prefix` is a filter, not data: `kv('ab')` (or prefix = 'ab') keeps
**     the rows whose k starts with 'ab';
**   - xBestIndex uses id = ?, id ranges (> >= < <=), k = ? (IN lists arrive
**     as repeated k = ?), prefix = ?, and ORDER BY id [DESC];
**   - xUpdate inserts, updates and deletes (a duplicate id is a constraint
**     error unless the statement says OR REPLACE);
**   - xBegin/xSync/xCommit/xRollback and xSavepoint/xRelease/xRollbackTo
**     keep snapshots, so ROLLBACK, ROLLBACK TO and failed statements undo
**     the table's changes.
** The counters in kv_stats tell which parts of the protocol were used. */
#include <stdlib.h>
#include <string.h>

#include "sqlite3.h"

#include "kv_module.h"

struct KvStats kv_stats;

typedef struct KvRow {
  sqlite3_int64 id;
  char* k; /* may be NULL */
  double v;
  int has_v;
} KvRow;

typedef struct KvData {
  KvRow* rows;
  int n;
} KvData;

typedef struct KvTab {
  sqlite3_vtab base;
  KvData data;
  KvData txn; /* as at xBegin */
  int in_txn;
  KvData* saves; /* saves[i]: as at xSavepoint(i) */
  int nsave;
  sqlite3* db; /* for sqlite3_vtab_on_conflict */
} KvTab;

typedef struct KvCursor {
  sqlite3_vtab_cursor base;
  KvRow* rows; /* copies of the matching rows, in output order */
  int n;
  int pos;
} KvCursor;

static char* dup_text(const char* s) {
  char* d;
  if (s == 0) return 0;
  d = (char*)malloc(strlen(s) + 1);
  strcpy(d, s);
  return d;
}

static void data_free(KvData* d) {
  int i;
  for (i = 0; i < d->n; i++) free(d->rows[i].k);
  free(d->rows);
  d->rows = 0;
  d->n = 0;
}

static void data_copy(KvData* to, const KvData* from) {
  int i;
  data_free(to);
  to->n = from->n;
  to->rows = (KvRow*)malloc(sizeof(KvRow) * (size_t)(from->n + 1));
  for (i = 0; i < from->n; i++) {
    to->rows[i] = from->rows[i];
    to->rows[i].k = dup_text(from->rows[i].k);
  }
}

/* Index of the row with this id, or -(insertion point)-1. */
static int data_find(const KvData* d, sqlite3_int64 id) {
  int lo = 0, hi = d->n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (d->rows[mid].id == id) return mid;
    if (d->rows[mid].id < id)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -lo - 1;
}

static void data_delete(KvData* d, int at) {
  free(d->rows[at].k);
  memmove(&d->rows[at], &d->rows[at + 1], sizeof(KvRow) * (size_t)(d->n - at - 1));
  d->n--;
}

static void data_insert(KvData* d, int at, KvRow row) {
  d->rows = (KvRow*)realloc(d->rows, sizeof(KvRow) * (size_t)(d->n + 1));
  memmove(&d->rows[at + 1], &d->rows[at], sizeof(KvRow) * (size_t)(d->n - at));
  d->rows[at] = row;
  d->n++;
}

static int kv_construct(sqlite3* db, void* aux, int argc, const char* const* argv,
                        sqlite3_vtab** out, char** err) {
  KvTab* t;
  int rc;
  (void)aux;
  (void)argv;
  if (argc > 3) {
    *err = sqlite3_mprintf("kv takes no arguments");
    return SQLITE_ERROR;
  }
  rc = sqlite3_declare_vtab(db, "CREATE TABLE x(id INTEGER, k TEXT, v REAL, prefix HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  t = (KvTab*)sqlite3_malloc((int)sizeof(KvTab));
  if (t == 0) return SQLITE_NOMEM;
  memset(t, 0, sizeof(*t));
  t->db = db;
  *out = &t->base;
  kv_stats.connects++;
  return SQLITE_OK;
}

static int kv_disconnect(sqlite3_vtab* vt) {
  KvTab* t = (KvTab*)vt;
  int i;
  data_free(&t->data);
  data_free(&t->txn);
  for (i = 0; i < t->nsave; i++) data_free(&t->saves[i]);
  free(t->saves);
  sqlite3_free(t);
  return SQLITE_OK;
}

static int kv_destroy(sqlite3_vtab* vt) {
  kv_stats.destroys++;
  return kv_disconnect(vt);
}

/* idxNum bits and the idxStr codes of the arguments, in argv order. */
enum { kIdEq = 1, kIdLo = 2, kIdHi = 4, kKEq = 8, kPrefix = 16, kDesc = 32, kOrdered = 64 };

static int kv_best_index(sqlite3_vtab* vt, sqlite3_index_info* info) {
  int i, argc = 0, num = 0;
  char codes[16];
  double cost = 100000.0;
  sqlite3_int64 rows = 1000;
  (void)vt;
  kv_stats.best_index++;
  for (i = 0; i < info->nConstraint; i++) {
    const struct sqlite3_index_constraint* c = &info->aConstraint[i];
    char code = 0;
    if (!c->usable) continue;
    if (c->iColumn == 0 || c->iColumn == -1) {
      switch (c->op) {
        case SQLITE_INDEX_CONSTRAINT_EQ:
          if (!(num & kIdEq)) {
            num |= kIdEq;
            code = '=';
            kv_stats.eq++;
          }
          break;
        case SQLITE_INDEX_CONSTRAINT_GT:
        case SQLITE_INDEX_CONSTRAINT_GE:
          if (!(num & kIdLo)) {
            num |= kIdLo;
            code = c->op == SQLITE_INDEX_CONSTRAINT_GT ? '>' : ']';
            kv_stats.range++;
          }
          break;
        case SQLITE_INDEX_CONSTRAINT_LT:
        case SQLITE_INDEX_CONSTRAINT_LE:
          if (!(num & kIdHi)) {
            num |= kIdHi;
            code = c->op == SQLITE_INDEX_CONSTRAINT_LT ? '<' : '[';
            kv_stats.range++;
          }
          break;
        default:
          break;
      }
    } else if (c->iColumn == 1 && c->op == SQLITE_INDEX_CONSTRAINT_EQ && !(num & kKEq)) {
      num |= kKEq;
      code = 'k';
      kv_stats.eq++;
    } else if (c->iColumn == 3 && c->op == SQLITE_INDEX_CONSTRAINT_EQ && !(num & kPrefix)) {
      num |= kPrefix;
      code = 'p';
    }
    if (code != 0) {
      codes[argc] = code;
      info->aConstraintUsage[i].argvIndex = ++argc;
      info->aConstraintUsage[i].omit = 1;
    }
  }
  codes[argc] = 0;
  if (num & kIdEq) {
    cost = 1.0;
    rows = 1;
    info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
  } else if (num & (kIdLo | kIdHi)) {
    cost = (num & kIdLo) && (num & kIdHi) ? 50.0 : 500.0;
    rows = (num & kIdLo) && (num & kIdHi) ? 20 : 200;
  } else if (num & kKEq) {
    cost = 2000.0;
    rows = 10;
  }
  if (info->nOrderBy == 1 && (info->aOrderBy[0].iColumn == 0 || info->aOrderBy[0].iColumn == -1)) {
    info->orderByConsumed = 1;
    num |= kOrdered;
    if (info->aOrderBy[0].desc) num |= kDesc;
    kv_stats.order_by++;
  }
  info->idxNum = num;
  info->idxStr = sqlite3_mprintf("%s", codes);
  info->needToFreeIdxStr = 1;
  info->estimatedCost = cost;
  info->estimatedRows = rows;
  return SQLITE_OK;
}

static int kv_open(sqlite3_vtab* vt, sqlite3_vtab_cursor** out) {
  KvCursor* c = (KvCursor*)sqlite3_malloc((int)sizeof(KvCursor));
  (void)vt;
  if (c == 0) return SQLITE_NOMEM;
  memset(c, 0, sizeof(*c));
  *out = &c->base;
  return SQLITE_OK;
}

static void cursor_clear(KvCursor* c) {
  int i;
  for (i = 0; i < c->n; i++) free(c->rows[i].k);
  free(c->rows);
  c->rows = 0;
  c->n = 0;
  c->pos = 0;
}

static int kv_close(sqlite3_vtab_cursor* cur) {
  cursor_clear((KvCursor*)cur);
  sqlite3_free(cur);
  return SQLITE_OK;
}

static int kv_filter(sqlite3_vtab_cursor* cur, int num, const char* codes, int argc,
                     sqlite3_value** argv) {
  KvCursor* c = (KvCursor*)cur;
  KvTab* t = (KvTab*)cur->pVtab;
  int i, a;
  int use_eq = 0, use_lo = 0, use_hi = 0, lo_strict = 0, hi_strict = 0;
  sqlite3_int64 eq = 0, lo = 0, hi = 0;
  const char* k = 0;
  const char* prefix = 0;
  int k_null = 0, prefix_null = 0, none = 0;
  cursor_clear(c);
  kv_stats.filters++;
  for (a = 0; a < argc && codes != 0 && codes[a] != 0; a++) {
    sqlite3_value* v = argv[a];
    int numeric = sqlite3_value_numeric_type(v);
    switch (codes[a]) {
      case '=':
        if (numeric != SQLITE_INTEGER) {
          /* A real that is a whole number still matches; anything else does not. */
          double d = sqlite3_value_double(v);
          if (numeric != SQLITE_FLOAT || d != (double)(sqlite3_int64)d) none = 1;
        }
        use_eq = 1;
        eq = sqlite3_value_int64(v);
        break;
      case '>':
      case ']':
        if (sqlite3_value_type(v) == SQLITE_NULL) none = 1;
        use_lo = 1;
        lo = sqlite3_value_int64(v);
        lo_strict = codes[a] == '>';
        if (numeric == SQLITE_FLOAT && sqlite3_value_double(v) > (double)lo) lo_strict = 1;
        break;
      case '<':
      case '[':
        if (sqlite3_value_type(v) == SQLITE_NULL) none = 1;
        use_hi = 1;
        hi = sqlite3_value_int64(v);
        hi_strict = codes[a] == '<';
        if (numeric == SQLITE_FLOAT && sqlite3_value_double(v) < (double)hi) hi_strict = 1;
        break;
      case 'k':
        k = (const char*)sqlite3_value_text(v);
        k_null = sqlite3_value_type(v) == SQLITE_NULL;
        break;
      case 'p':
        prefix = (const char*)sqlite3_value_text(v);
        prefix_null = sqlite3_value_type(v) == SQLITE_NULL;
        break;
      default:
        break;
    }
  }
  if (none || k_null || prefix_null) return SQLITE_OK;
  c->rows = (KvRow*)malloc(sizeof(KvRow) * (size_t)(t->data.n + 1));
  for (i = 0; i < t->data.n; i++) {
    int at = (num & kDesc) ? t->data.n - 1 - i : i;
    const KvRow* r = &t->data.rows[at];
    if (use_eq && r->id != eq) continue;
    if (use_lo && (lo_strict ? r->id <= lo : r->id < lo)) continue;
    if (use_hi && (hi_strict ? r->id >= hi : r->id > hi)) continue;
    if (k != 0 && (r->k == 0 || strcmp(r->k, k) != 0)) continue;
    if (prefix != 0 && (r->k == 0 || strncmp(r->k, prefix, strlen(prefix)) != 0)) continue;
    c->rows[c->n] = *r;
    c->rows[c->n].k = dup_text(r->k);
    c->n++;
  }
  return SQLITE_OK;
}

static int kv_next(sqlite3_vtab_cursor* cur) {
  ((KvCursor*)cur)->pos++;
  return SQLITE_OK;
}

static int kv_eof(sqlite3_vtab_cursor* cur) {
  KvCursor* c = (KvCursor*)cur;
  return c->pos >= c->n;
}

static int kv_column(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col) {
  KvCursor* c = (KvCursor*)cur;
  const KvRow* r = &c->rows[c->pos];
  switch (col) {
    case 0:
      sqlite3_result_int64(ctx, r->id);
      break;
    case 1:
      if (r->k)
        sqlite3_result_text(ctx, r->k, -1, SQLITE_TRANSIENT);
      else
        sqlite3_result_null(ctx);
      break;
    case 2:
      if (r->has_v)
        sqlite3_result_double(ctx, r->v);
      else
        sqlite3_result_null(ctx);
      break;
    default:
      sqlite3_result_null(ctx);
      break;
  }
  return SQLITE_OK;
}

static int kv_rowid(sqlite3_vtab_cursor* cur, sqlite3_int64* out) {
  KvCursor* c = (KvCursor*)cur;
  *out = c->rows[c->pos].id;
  return SQLITE_OK;
}

static void fill_row(KvRow* r, sqlite3_int64 id, sqlite3_value** cols) {
  r->id = id;
  r->k = sqlite3_value_type(cols[1]) == SQLITE_NULL
             ? 0
             : dup_text((const char*)sqlite3_value_text(cols[1]));
  r->has_v = sqlite3_value_type(cols[2]) != SQLITE_NULL;
  r->v = r->has_v ? sqlite3_value_double(cols[2]) : 0.0;
}

static int kv_update(sqlite3_vtab* vt, int argc, sqlite3_value** argv, sqlite3_int64* rowid) {
  KvTab* t = (KvTab*)vt;
  sqlite3_int64 id;
  int at, old = -1;
  KvRow row;
  kv_stats.updates++;
  if (argc == 1) {
    at = data_find(&t->data, sqlite3_value_int64(argv[0]));
    if (at >= 0) data_delete(&t->data, at);
    return SQLITE_OK;
  }
  if (sqlite3_value_type(argv[0]) != SQLITE_NULL) {
    old = data_find(&t->data, sqlite3_value_int64(argv[0]));
  }
  /* argv[2..]: id, k, v, prefix. The id column wins over the rowid. */
  if (sqlite3_value_type(argv[2]) != SQLITE_NULL) {
    id = sqlite3_value_int64(argv[2]);
  } else if (sqlite3_value_type(argv[1]) != SQLITE_NULL) {
    id = sqlite3_value_int64(argv[1]);
  } else if (old >= 0) {
    id = t->data.rows[old].id;
  } else {
    id = t->data.n > 0 ? t->data.rows[t->data.n - 1].id + 1 : 1;
  }
  if (sqlite3_value_type(argv[3]) != SQLITE_NULL &&
      strlen((const char*)sqlite3_value_text(argv[3])) > 20) {
    sqlite3_free(vt->zErrMsg);
    vt->zErrMsg = sqlite3_mprintf("k too long: %s", sqlite3_value_text(argv[3]));
    return SQLITE_CONSTRAINT;
  }
  at = data_find(&t->data, id);
  if (at >= 0 && at != old) {
    int mode = sqlite3_vtab_on_conflict(t->db);
    if (mode == SQLITE_IGNORE) return SQLITE_OK;
    if (mode != SQLITE_REPLACE) {
      sqlite3_free(vt->zErrMsg);
      vt->zErrMsg = sqlite3_mprintf("duplicate id %lld", (long long)id);
      return SQLITE_CONSTRAINT;
    }
    data_delete(&t->data, at);
    kv_stats.replaces++;
  }
  if (old >= 0) {
    old = data_find(&t->data, sqlite3_value_int64(argv[0]));
    if (old >= 0) data_delete(&t->data, old);
  }
  fill_row(&row, id, argv + 2);
  at = data_find(&t->data, id);
  data_insert(&t->data, -at - 1, row);
  *rowid = id;
  return SQLITE_OK;
}

static int kv_begin(sqlite3_vtab* vt) {
  KvTab* t = (KvTab*)vt;
  kv_stats.begins++;
  data_copy(&t->txn, &t->data);
  t->in_txn = 1;
  return SQLITE_OK;
}

static int kv_sync(sqlite3_vtab* vt) {
  (void)vt;
  kv_stats.syncs++;
  return SQLITE_OK;
}

static void drop_saves(KvTab* t, int keep) {
  while (t->nsave > keep) data_free(&t->saves[--t->nsave]);
}

static int kv_commit(sqlite3_vtab* vt) {
  KvTab* t = (KvTab*)vt;
  kv_stats.commits++;
  data_free(&t->txn);
  drop_saves(t, 0);
  t->in_txn = 0;
  return SQLITE_OK;
}

static int kv_rollback(sqlite3_vtab* vt) {
  KvTab* t = (KvTab*)vt;
  kv_stats.rollbacks++;
  if (t->in_txn) data_copy(&t->data, &t->txn);
  data_free(&t->txn);
  drop_saves(t, 0);
  t->in_txn = 0;
  return SQLITE_OK;
}

static int kv_savepoint(sqlite3_vtab* vt, int level) {
  KvTab* t = (KvTab*)vt;
  kv_stats.savepoints++;
  drop_saves(t, level);
  t->saves = (KvData*)realloc(t->saves, sizeof(KvData) * (size_t)(level + 1));
  while (t->nsave <= level) {
    memset(&t->saves[t->nsave], 0, sizeof(KvData));
    data_copy(&t->saves[t->nsave], &t->data);
    t->nsave++;
  }
  return SQLITE_OK;
}

static int kv_release(sqlite3_vtab* vt, int level) {
  drop_saves((KvTab*)vt, level);
  return SQLITE_OK;
}

static int kv_rollback_to(sqlite3_vtab* vt, int level) {
  KvTab* t = (KvTab*)vt;
  kv_stats.rollback_tos++;
  if (level < t->nsave) {
    data_copy(&t->data, &t->saves[level]);
    drop_saves(t, level + 1);
  }
  return SQLITE_OK;
}

static int kv_rename(sqlite3_vtab* vt, const char* name) {
  (void)vt;
  (void)name;
  return SQLITE_OK;
}

/* Functions the table overloads (xFindFunction) when their deciding
** argument is one of its columns: kvtag(x, ...) -- declared with
** sqlite3_overload_function -- upper(x), and GLOB with its left operand. */
static void kv_overload(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  const char* what = (const char*)sqlite3_user_data(ctx);
  const unsigned char* x = sqlite3_value_text(argv[strcmp(what, "glob") == 0 ? 1 : 0]);
  char* r = sqlite3_mprintf("%s/%d:%s", what, argc, x ? (const char*)x : "NULL");
  sqlite3_result_text(ctx, r, -1, sqlite3_free);
}

static int kv_find_function(sqlite3_vtab* vt, int nargs, const char* name,
                            void (**fn)(sqlite3_context*, int, sqlite3_value**), void** arg) {
  static const char* const names[] = {"kvtag", "upper", "glob"};
  int i;
  (void)vt;
  for (i = 0; i < 3; i++) {
    if (strcmp(name, names[i]) != 0) continue;
    if (i == 1 && nargs != 1) return 0;
    *fn = kv_overload;
    *arg = (void*)names[i];
    return 1;
  }
  return 0;
}

static const sqlite3_module kv_module = {2,
                                         kv_construct,
                                         kv_construct,
                                         kv_best_index,
                                         kv_disconnect,
                                         kv_destroy,
                                         kv_open,
                                         kv_close,
                                         kv_filter,
                                         kv_next,
                                         kv_eof,
                                         kv_column,
                                         kv_rowid,
                                         kv_update,
                                         kv_begin,
                                         kv_sync,
                                         kv_commit,
                                         kv_rollback,
                                         kv_find_function,
                                         kv_rename,
                                         kv_savepoint,
                                         kv_release,
                                         kv_rollback_to,
                                         0};

int kv_register(sqlite3* db) {
  int rc = sqlite3_create_module(db, "kv", &kv_module, 0);
  if (rc == SQLITE_OK) rc = sqlite3_overload_function(db, "kvtag", -1);
  return rc;
}

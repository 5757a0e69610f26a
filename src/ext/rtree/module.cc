// The rtree / rtree_i32 module: create and connect, writes (xUpdate),
// the transaction hooks that flush or drop the node cache, rename and
// drop; and the per-connection registration.
#include <cctype>
#include <cmath>
#include <cstring>
#include <string>

#include "ext/registrar.h"
#include "ext/rtree/rtree.h"

namespace basalt::rtree {
namespace {

Rtree* AsRtree(sqlite3_vtab* vt) { return reinterpret_cast<Rtree*>(vt); }

void SetError(char** err, const std::string& msg) { *err = sqlite3_mprintf("%s", msg.c_str()); }

// Length of the first SQL token of z: a quoted name or a bare word.
size_t TokenLength(const char* z) {
  char open = z[0];
  char close = open == '[' ? ']' : open;
  if (open == '"' || open == '\'' || open == '`' || open == '[') {
    size_t i = 1;
    while (z[i] != 0) {
      if (z[i] == close) {
        if (close != ']' && z[i + 1] == close) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      ++i;
    }
    return i;
  }
  size_t i = 0;
  while (z[i] != 0 && (std::isalnum(static_cast<unsigned char>(z[i])) || z[i] == '_' ||
                       z[i] == '$' || static_cast<unsigned char>(z[i]) >= 0x80)) {
    ++i;
  }
  return i == 0 && z[0] != 0 ? 1 : i;
}

int IntFromSql(sqlite3* db, const std::string& sql, int* out) {
  Stmt s;
  int rc = Prepare(db, sql, &s);
  if (rc != SQLITE_OK) return rc;
  if (sqlite3_step(s.get()) == SQLITE_ROW) *out = sqlite3_column_int(s.get(), 0);
  return sqlite3_finalize(s.release());
}

// Row estimate for xBestIndex: sqlite_stat1 of %_rowid when analyzed.
void QueryStat1(Rtree* rt) {
  Stmt s;
  std::string sql = "SELECT stat FROM " + QuoteId(rt->db_name) +
                    ".sqlite_stat1 WHERE tbl = " + QuoteStr(rt->name + "_rowid");
  if (Prepare(rt->db, sql, &s) != SQLITE_OK) {
    rt->row_est = kDefaultRowEst;
    return;
  }
  int64_t rows = kMinRowEst;
  if (sqlite3_step(s.get()) == SQLITE_ROW) rows = sqlite3_column_int64(s.get(), 0);
  rt->row_est = rows < kMinRowEst ? kMinRowEst : rows;
}

int NodeSize(Rtree* rt, bool create, char** err) {
  int rc;
  if (create) {
    int page = 0;
    rc = IntFromSql(rt->db, "PRAGMA " + QuoteId(rt->db_name) + ".page_size", &page);
    if (rc == SQLITE_OK) {
      rt->node_size = page - 64;
      if (4 + rt->cell_bytes * kMaxCells < rt->node_size) {
        rt->node_size = 4 + rt->cell_bytes * kMaxCells;
      }
    } else {
      SetError(err, sqlite3_errmsg(rt->db));
    }
    return rc;
  }
  rc = IntFromSql(rt->db,
                  "SELECT length(data) FROM " + QuoteId(rt->db_name) + "." +
                      QuoteId(rt->name + "_node") + " WHERE nodeno = 1",
                  &rt->node_size);
  if (rc != SQLITE_OK) {
    SetError(err, sqlite3_errmsg(rt->db));
  } else if (rt->node_size < 512 - 64) {
    rc = SQLITE_CORRUPT_VTAB;
    SetError(err, "undersize RTree blobs in \"" + rt->name + "_node\"");
  }
  return rc;
}

// Parses the column list, declares the table and opens the shadow tables.
int Init(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out, char** err,
         bool create) {
  static const char* const kErrors[] = {
      nullptr, "Wrong number of columns for an rtree table", "Too few columns for an rtree table",
      "Too many columns for an rtree table", "Auxiliary rtree columns must be last"};
  *out = nullptr;
  if (argc < 6 || argc > kMaxAux + 3) {
    SetError(err, kErrors[2 + (argc >= 6)]);
    return SQLITE_ERROR;
  }
  sqlite3_vtab_config(db, SQLITE_VTAB_CONSTRAINT_SUPPORT, 1);
  auto rt = std::make_unique<Rtree>();
  rt->db = db;
  rt->is_int = aux != nullptr;
  rt->db_name = argv[1];
  rt->name = argv[2];
  std::string decl = "CREATE TABLE x(" + std::string(argv[3], TokenLength(argv[3])) + " INT";
  int i = 4;
  for (; i < argc; ++i) {
    const char* arg = argv[i];
    if (arg[0] == '+') {
      rt->naux++;
      decl += "," + std::string(arg + 1, TokenLength(arg + 1));
    } else if (rt->naux > 0) {
      break;
    } else {
      rt->ndim2++;
      decl += "," + std::string(arg, TokenLength(arg)) + (rt->is_int ? " INT" : " REAL");
    }
  }
  decl += ");";
  if (i < argc) {
    SetError(err, kErrors[4]);
    return SQLITE_ERROR;
  }
  int rc = sqlite3_declare_vtab(db, decl.c_str());
  if (rc != SQLITE_OK) {
    SetError(err, sqlite3_errmsg(db));
    return rc;
  }
  rt->ndim = rt->ndim2 / 2;
  int which = rt->ndim < 1 ? 2 : rt->ndim2 > kMaxDims * 2 ? 3 : rt->ndim2 % 2 != 0 ? 1 : 0;
  if (which != 0) {
    SetError(err, kErrors[which]);
    return SQLITE_ERROR;
  }
  rt->cell_bytes = 8 + rt->ndim2 * 4;
  rc = NodeSize(rt.get(), create, err);
  if (rc != SQLITE_OK) return rc;
  QueryStat1(rt.get());
  rc = PrepareShadowStatements(rt.get(), create);
  if (rc != SQLITE_OK) {
    SetError(err, sqlite3_errmsg(db));
    return rc;
  }
  *out = &rt.release()->base;
  return SQLITE_OK;
}

int Create(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out,
           char** err) {
  return Init(db, aux, argc, argv, out, err, true);
}

int Connect(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out,
            char** err) {
  return Init(db, aux, argc, argv, out, err, false);
}

int Disconnect(sqlite3_vtab* vt) {
  delete AsRtree(vt);
  return SQLITE_OK;
}

int Destroy(sqlite3_vtab* vt) {
  Rtree* rt = AsRtree(vt);
  std::string db = QuoteId(rt->db_name) + ".";
  std::string sql = "DROP TABLE " + db + QuoteId(rt->name + "_node") + ";DROP TABLE " + db +
                    QuoteId(rt->name + "_rowid") + ";DROP TABLE " + db +
                    QuoteId(rt->name + "_parent") + ";";
  ResetCache(rt);
  int rc = sqlite3_exec(rt->db, sql.c_str(), nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) delete rt;
  return rc;
}

// The UNIQUE (col 0) or "lower <= upper" (col, col+1) error of a write.
int ConstraintError(Rtree* rt, int col) {
  Stmt s;
  int rc = Prepare(rt->db, "SELECT * FROM " + QuoteId(rt->db_name) + "." + QuoteId(rt->name), &s);
  if (rc != SQLITE_OK) return rc;
  sqlite3_free(rt->base.zErrMsg);
  if (col == 0) {
    rt->base.zErrMsg = sqlite3_mprintf("UNIQUE constraint failed: %s.%s", rt->name.c_str(),
                                       sqlite3_column_name(s.get(), 0));
  } else {
    rt->base.zErrMsg =
        sqlite3_mprintf("rtree constraint failed: %s.(%s<=%s)", rt->name.c_str(),
                        sqlite3_column_name(s.get(), col), sqlite3_column_name(s.get(), col + 1));
  }
  return SQLITE_CONSTRAINT;
}

// A REAL bound stored as float, rounded down (lower) or up (upper) so the
// float box always contains the double one.
float RoundDown(sqlite3_value* v) {
  double d = sqlite3_value_double(v);
  float f = float(d);
  if (f > d) f = float(d * (d < 0 ? 1.0 + 1.0 / 8388608.0 : 1.0 - 1.0 / 8388608.0));
  return f;
}
float RoundUp(sqlite3_value* v) {
  double d = sqlite3_value_double(v);
  float f = float(d);
  if (f < d) f = float(d * (d < 0 ? 1.0 - 1.0 / 8388608.0 : 1.0 + 1.0 / 8388608.0));
  return f;
}

int Begin(sqlite3_vtab* vt) {
  Rtree* rt = AsRtree(vt);
  // A cache left by earlier reads must still be current before it is
  // written through.
  int rc = ValidateCache(rt);
  rt->in_write = true;
  return rc;
}

int Commit(sqlite3_vtab* vt) {
  Rtree* rt = AsRtree(vt);
  rt->in_write = false;
  int rc = FlushCache(rt);
  ResetCache(rt);
  return rc;
}

int Rollback(sqlite3_vtab* vt) {
  Rtree* rt = AsRtree(vt);
  rt->in_write = false;
  ResetCache(rt);
  return SQLITE_OK;
}

int Sync(sqlite3_vtab* vt) { return FlushCache(AsRtree(vt)); }

int SavepointFlush(sqlite3_vtab* vt, int) {
  Rtree* rt = AsRtree(vt);
  return rt->busy > 0 ? SQLITE_OK : FlushCache(rt);
}

int RollbackTo(sqlite3_vtab* vt, int) {
  Rtree* rt = AsRtree(vt);
  if (rt->busy == 0) ResetCache(rt);
  return SQLITE_OK;
}

// Marks the table busy for the lifetime of one write.
class BusyScope {
 public:
  explicit BusyScope(Rtree* rt) : rt_(rt) { rt_->busy++; }
  ~BusyScope() { rt_->busy--; }
  BusyScope(const BusyScope&) = delete;
  BusyScope& operator=(const BusyScope&) = delete;

 private:
  Rtree* rt_;
};

int Rename(sqlite3_vtab* vt, const char* new_name) {
  Rtree* rt = AsRtree(vt);
  std::string db = QuoteId(rt->db_name) + ".";
  std::string sql;
  for (const char* suffix : {"_node", "_parent", "_rowid"}) {
    sql += "ALTER TABLE " + db + QuoteId(rt->name + suffix) + " RENAME TO " +
           QuoteId(std::string(new_name) + suffix) + ";";
  }
  int rc = FlushCache(rt);
  ResetCache(rt);
  if (rc == SQLITE_OK) rc = sqlite3_exec(rt->db, sql.c_str(), nullptr, nullptr, nullptr);
  return rc;
}

int ShadowName(const char* suffix) {
  for (const char* s : {"node", "parent", "rowid"}) {
    if (sqlite3_stricmp(suffix, s) == 0) return 1;
  }
  return 0;
}

}  // namespace

namespace {
int UpdateRow(Rtree* rt, int argc, sqlite3_value** argv, sqlite3_int64* out_rowid);
}  // namespace

int RtreeUpdate(sqlite3_vtab* vt, int argc, sqlite3_value** argv, sqlite3_int64* out_rowid) {
  Rtree* rt = AsRtree(vt);
  if (rt->scanning > 0) return SQLITE_LOCKED_VTAB;
  BusyScope busy(rt);
  const int64_t last = sqlite3_last_insert_rowid(rt->db);
  rt->tracking = true;
  int rc = UpdateRow(rt, argc, argv, out_rowid);
  int rc2 = WriteTouched(rt);
  sqlite3_set_last_insert_rowid(rt->db, last);
  return rc != SQLITE_OK ? rc : rc2;
}

namespace {

// The work of xUpdate: a delete, an insert, or both (an update).
int UpdateRow(Rtree* rt, int argc, sqlite3_value** argv, sqlite3_int64* out_rowid) {
  int rc = SQLITE_OK;
  Cell cell;
  bool have_rowid = false;
  if (argc > 1) {
    int nn = argc - 4;
    if (nn > rt->ndim2) nn = rt->ndim2;
    for (int k = 0; k < nn; k += 2) {
      bool bad;
      if (rt->is_int) {
        cell.c[k].i = sqlite3_value_int(argv[k + 3]);
        cell.c[k + 1].i = sqlite3_value_int(argv[k + 4]);
        bad = cell.c[k].i > cell.c[k + 1].i;
      } else {
        cell.c[k].f = RoundDown(argv[k + 3]);
        cell.c[k + 1].f = RoundUp(argv[k + 4]);
        bad = cell.c[k].f > cell.c[k + 1].f;
      }
      if (bad) {
        return ConstraintError(rt, k + 1);
      }
    }
    if (sqlite3_value_type(argv[2]) != SQLITE_NULL) {
      cell.id = sqlite3_value_int64(argv[2]);
      if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_int64(argv[0]) != cell.id) {
        sqlite3_stmt* s = rt->read_rowid.get();
        sqlite3_bind_int64(s, 1, cell.id);
        int step = sqlite3_step(s);
        rc = sqlite3_reset(s);
        if (step == SQLITE_ROW) {
          if (sqlite3_vtab_on_conflict(rt->db) == SQLITE_REPLACE) {
            rc = DeleteRowid(rt, cell.id);
          } else {
            return ConstraintError(rt, 0);
          }
        }
      }
      have_rowid = true;
    }
  }
  if (rc == SQLITE_OK && sqlite3_value_type(argv[0]) != SQLITE_NULL) {
    rc = DeleteRowid(rt, sqlite3_value_int64(argv[0]));
  }
  if (rc == SQLITE_OK && argc > 1) {
    if (!have_rowid) {
      sqlite3_stmt* s = rt->write_rowid.get();
      sqlite3_bind_null(s, 1);
      sqlite3_bind_null(s, 2);
      sqlite3_step(s);
      rc = sqlite3_reset(s);
      cell.id = sqlite3_last_insert_rowid(rt->db);
    }
    *out_rowid = cell.id;
    std::shared_ptr<Node> leaf;
    if (rc == SQLITE_OK) rc = ChooseLeaf(rt, cell, 0, &leaf);
    if (rc == SQLITE_OK) {
      rt->reinsert_height = -1;
      rc = InsertCell(rt, leaf, cell, 0);
    }
    if (rc == SQLITE_OK && rt->naux > 0) {
      sqlite3_stmt* s = rt->write_aux.get();
      sqlite3_bind_int64(s, 1, cell.id);
      for (int j = 0; j < rt->naux; ++j) sqlite3_bind_value(s, j + 2, argv[rt->ndim2 + 3 + j]);
      sqlite3_step(s);
      rc = sqlite3_reset(s);
    }
  }
  return rc;
}

}  // namespace

const sqlite3_module kRtreeModule = {
    3,          Create,      Connect,        RtreeBestIndex, Disconnect, Destroy,
    RtreeOpen,  RtreeClose,  RtreeFilter,    RtreeNext,      RtreeEof,   RtreeColumn,
    RtreeRowid, RtreeUpdate, Begin,          Sync,           Commit,     Rollback,
    nullptr,    Rename,      SavepointFlush, SavepointFlush, RollbackTo, ShadowName,
};

namespace {

// Per-connection entry point: the two modules and the SQL functions.
int RtreeInit(sqlite3* db) {
  static int int_tag = 1;
  int rc = sqlite3_create_module_v2(db, "rtree", &kRtreeModule, nullptr, nullptr);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_module_v2(db, "rtree_i32", &kRtreeModule, &int_tag, nullptr);
  }
  if (rc == SQLITE_OK) rc = RegisterFunctions(db);
  return rc;
}

}  // namespace

const basalt::ext::Registrar kRegisterRtree{&RtreeInit};

}  // namespace basalt::rtree

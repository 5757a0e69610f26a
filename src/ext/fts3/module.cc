// The fts3 and fts4 modules: the sqlite3_module methods, and the entry
// point that registers them, the tokenizers and the SQL functions on each
// connection.
#include <cstring>

#include "ext/fts3/cursor.h"
#include "ext/fts3/fts_update.h"
#include "ext/fts3/module.h"
#include "ext/registrar.h"

namespace basalt::fts {
namespace {

FtsTable* Tab(sqlite3_vtab* v) { return reinterpret_cast<FtsTable*>(v); }
FtsCursor* Cur(sqlite3_vtab_cursor* c) { return reinterpret_cast<FtsCursor*>(c); }

int XCreate(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out,
            char** err) {
  FtsTable* t = nullptr;
  int rc = ParseAndCreate(db, aux, argc, argv, true, &t, err);
  *out = t ? &t->base : nullptr;
  return rc;
}
int XConnect(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out,
             char** err) {
  FtsTable* t = nullptr;
  int rc = ParseAndCreate(db, aux, argc, argv, false, &t, err);
  *out = t ? &t->base : nullptr;
  return rc;
}
int XDisconnect(sqlite3_vtab* v) {
  delete Tab(v);
  return SQLITE_OK;
}
int XDestroy(sqlite3_vtab* v) {
  FtsTable* t = Tab(v);
  t->ClearStatements();
  std::string sql;
  for (const char* s : {"_segments", "_segdir", "_docsize", "_stat", "_content"}) {
    sql += "DROP TABLE IF EXISTS " + t->Shadow(s) + ";";
  }
  int rc = Exec(t, sql);
  if (rc != SQLITE_OK) return rc;
  delete t;
  return SQLITE_OK;
}

int XBestIndex(sqlite3_vtab* v, sqlite3_index_info* info) {
  FtsTable* t = Tab(v);
  int ncol = t->ncol();
  int cons = -1, lang = -1, ge = -1, le = -1;
  info->idxNum = kPlanFullScan;
  info->estimatedCost = 5000000;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (!c.usable) continue;
    bool docid = c.iColumn < 0 || c.iColumn == ncol + 1;
    if (c.op == SQLITE_INDEX_CONSTRAINT_EQ && docid && info->idxNum != kPlanFullText + 0 &&
        info->idxNum < kPlanFullText) {
      info->idxNum = kPlanDocid;
      info->estimatedCost = 1e-6;
      cons = i;
    }
    if (c.op == SQLITE_INDEX_CONSTRAINT_MATCH && c.iColumn >= 0 && c.iColumn <= ncol) {
      info->idxNum = kPlanFullText + c.iColumn;
      info->estimatedCost = 2.0;
      cons = i;
    }
    if (c.op == SQLITE_INDEX_CONSTRAINT_EQ && c.iColumn == ncol + 2) lang = i;
    if (docid) {
      if (c.op == SQLITE_INDEX_CONSTRAINT_GE || c.op == SQLITE_INDEX_CONSTRAINT_GT) ge = i;
      if (c.op == SQLITE_INDEX_CONSTRAINT_LE || c.op == SQLITE_INDEX_CONSTRAINT_LT) le = i;
    }
  }
  if (info->idxNum == kPlanDocid) info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
  int arg = 1;
  if (cons >= 0) {
    info->aConstraintUsage[cons].argvIndex = arg++;
    info->aConstraintUsage[cons].omit = 1;
  }
  if (lang >= 0) {
    info->idxNum |= kHasLangid;
    info->aConstraintUsage[lang].argvIndex = arg++;
    info->aConstraintUsage[lang].omit = 1;
  }
  // Docid bounds narrow the scan but, as in SQLite, do not lower its cost.
  if (ge >= 0) {
    info->idxNum |= kHasDocidGe;
    info->aConstraintUsage[ge].argvIndex = arg++;
  }
  if (le >= 0) {
    info->idxNum |= kHasDocidLe;
    info->aConstraintUsage[le].argvIndex = arg++;
  }
  if (info->nOrderBy == 1) {
    const auto& o = info->aOrderBy[0];
    if (o.iColumn < 0 || o.iColumn == ncol + 1) {
      info->idxStr = const_cast<char*>(o.desc ? "DESC" : "ASC");
      info->orderByConsumed = 1;
    }
  }
  return SQLITE_OK;
}

int XOpen(sqlite3_vtab* v, sqlite3_vtab_cursor** out) {
  auto* c = new FtsCursor();
  c->table = Tab(v);
  *out = &c->base;
  return SQLITE_OK;
}
int XClose(sqlite3_vtab_cursor* c) {
  delete Cur(c);
  return SQLITE_OK;
}

// Steps the scan statement to the next row.
int StepScan(FtsCursor* c) {
  int rc = sqlite3_step(c->scan);
  if (rc == SQLITE_ROW) {
    c->docid = sqlite3_column_int64(c->scan, 0);
    c->eof = false;
    return SQLITE_OK;
  }
  c->eof = true;
  return rc == SQLITE_DONE ? SQLITE_OK : sqlite3_reset(c->scan);
}

// Moves a MATCH cursor to its next row. As in SQLite, rows come until one
// passes the docid bound on the side the cursor walks towards; the other
// bound is left to the caller's test.
int NextMatch(FtsCursor* c) {
  c->row_ready = false;
  if (!c->expr) {
    c->eof = true;
    return SQLITE_OK;
  }
  c->engine.Next();
  c->docid = c->engine.row();
  c->eof = c->engine.eof() || (!c->desc && c->docid > c->docid_hi) ||
           (c->desc && c->docid < c->docid_lo);
  return SQLITE_OK;
}

int FilterMatch(FtsCursor* c, const char* query, int col, int64_t lo, int64_t hi, bool desc) {
  FtsTable* t = c->table;
  std::string err;
  c->query = query ? query : "";
  c->match_col = col < t->ncol() ? col : -1;
  int rc = ParseExpr(t, c->query, c->match_col, &c->expr, &err);
  if (rc != SQLITE_OK) {
    t->SetError(err);
    return rc;
  }
  if (c->expr) {
    if ((rc = EvalExpr(t, c->expr.get(), c->langid, &c->result)) != SQLITE_OK) return rc;
    c->engine.Start(t, c->expr.get(), &c->result, desc);
  }
  c->desc = desc;
  c->docid_lo = lo;
  c->docid_hi = hi;
  c->mi_valid = false;
  return NextMatch(c);
}

int XFilter(sqlite3_vtab_cursor* vc, int idx, const char* idx_str, int argc, sqlite3_value** argv) {
  FtsCursor* c = Cur(vc);
  FtsTable* t = c->table;
  c->expr.reset();
  c->result = QueryResult();
  c->row_ready = false;
  c->eof = true;
  int plan = idx & 0xffff;
  int a = 0;
  sqlite3_value* cons = plan != kPlanFullScan && a < argc ? argv[a++] : nullptr;
  c->langid = (idx & kHasLangid) && a < argc ? sqlite3_value_int(argv[a++]) : 0;
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  if ((idx & kHasDocidGe) && a < argc) lo = sqlite3_value_int64(argv[a++]);
  if ((idx & kHasDocidLe) && a < argc) hi = sqlite3_value_int64(argv[a++]);
  // Without ORDER BY docid, rows come in the index's order (order=).
  bool desc = idx_str != nullptr ? std::strcmp(idx_str, "DESC") == 0 : t->desc;
  c->plan = plan;
  // A contentless table has no content to scan or look a docid up in: as
  // in SQLite, only MATCH queries work.
  if (t->contentless && plan < kPlanFullText) return SQLITE_ERROR;
  if (plan >= kPlanFullText) {
    if (sqlite3_value_type(cons) == SQLITE_NULL) return SQLITE_OK;
    return FilterMatch(c, reinterpret_cast<const char*>(sqlite3_value_text(cons)),
                       plan - kPlanFullText, lo, hi, desc);
  }
  std::string sel = ContentSelect(t);
  std::string idcol = t->external_content ? "rowid" : "docid";
  std::string sql = "SELECT " + idcol + ", " + sel.substr(7, sel.rfind(" WHERE ") - 7);
  if (t->contentless) sql = "SELECT docid FROM " + t->Shadow("_docsize");
  if (plan == kPlanDocid) {
    sql += " WHERE " + idcol + "=?";
  } else {
    sql += " WHERE " + idcol + " BETWEEN ? AND ? ORDER BY " + idcol + (desc ? " DESC" : " ASC");
  }
  int rc = c->scan.Prepare(t->db, sql);
  if (rc != SQLITE_OK) return rc;
  if (plan == kPlanDocid) {
    if (sqlite3_value_numeric_type(cons) != SQLITE_INTEGER &&
        sqlite3_value_type(cons) != SQLITE_INTEGER) {
      if (sqlite3_value_type(cons) != SQLITE_FLOAT ||
          sqlite3_value_double(cons) != static_cast<double>(sqlite3_value_int64(cons))) {
        return SQLITE_OK;
      }
    }
    sqlite3_bind_int64(c->scan, 1, sqlite3_value_int64(cons));
  } else {
    sqlite3_bind_int64(c->scan, 1, lo);
    sqlite3_bind_int64(c->scan, 2, hi);
  }
  return StepScan(c);
}

int XNext(sqlite3_vtab_cursor* vc) {
  FtsCursor* c = Cur(vc);
  c->row_ready = false;
  if (c->plan >= kPlanFullText) return NextMatch(c);
  return StepScan(c);
}
int XEof(sqlite3_vtab_cursor* vc) { return Cur(vc)->eof ? 1 : 0; }
int XRowid(sqlite3_vtab_cursor* vc, sqlite3_int64* out) {
  *out = Cur(vc)->docid;
  return SQLITE_OK;
}

int XColumn(sqlite3_vtab_cursor* vc, sqlite3_context* ctx, int col) {
  FtsCursor* c = Cur(vc);
  FtsTable* t = c->table;
  if (col == t->ncol()) {
    sqlite3_result_pointer(ctx, c, "fts3cursor", nullptr);
    return SQLITE_OK;
  }
  if (col == t->ncol() + 1) {
    sqlite3_result_int64(ctx, c->docid);
    return SQLITE_OK;
  }
  if (col == t->ncol() + 2 && t->langid_col.empty()) {
    sqlite3_result_int(ctx, c->langid);
    return SQLITE_OK;
  }
  if (t->contentless) return SQLITE_ERROR;  // SQLite: "SQL logic error"
  sqlite3_stmt* s = c->scan.get();
  if (c->plan >= kPlanFullText) {
    int rc = LoadRow(c);
    if (rc != SQLITE_OK) return rc;
    if (!c->row_found) return SQLITE_OK;
    s = c->row.get();
    sqlite3_result_value(ctx, sqlite3_column_value(s, col > t->ncol() ? t->ncol() : col));
    return SQLITE_OK;
  }
  sqlite3_result_value(ctx, sqlite3_column_value(s, 1 + (col > t->ncol() ? t->ncol() : col)));
  return SQLITE_OK;
}

int XUpdate(sqlite3_vtab* v, int argc, sqlite3_value** argv, sqlite3_int64* rowid) {
  FtsTable* t = Tab(v);
  ++t->busy;
  int rc = UpdateRow(t, argc, argv, rowid);
  --t->busy;
  return rc;
}
int XSync(sqlite3_vtab* v) {
  FtsTable* t = Tab(v);
  ++t->busy;
  int rc = FlushPending(t);
  --t->busy;
  return rc;
}
int XBegin(sqlite3_vtab*) { return SQLITE_OK; }
int XCommit(sqlite3_vtab*) { return SQLITE_OK; }
int XRollback(sqlite3_vtab* v) {
  DiscardPending(Tab(v));
  return SQLITE_OK;
}
int XSavepoint(sqlite3_vtab* v, int) {
  FtsTable* t = Tab(v);
  if (t->busy > 0) return SQLITE_OK;
  ++t->busy;
  int rc = FlushPending(t);
  --t->busy;
  return rc;
}
int XRelease(sqlite3_vtab*, int) { return SQLITE_OK; }
int XRollbackTo(sqlite3_vtab* v, int) {
  if (Tab(v)->busy > 0) return SQLITE_OK;
  DiscardPending(Tab(v));
  return SQLITE_OK;
}

int XRename(sqlite3_vtab* v, const char* name) {
  FtsTable* t = Tab(v);
  int rc = FlushPending(t);
  if (rc != SQLITE_OK) return rc;
  std::string sql;
  t->ClearStatements();  // the shadow tables change names
  for (const char* s : {"_content", "_docsize", "_stat", "_segments", "_segdir"}) {
    if (std::strcmp(s, "_content") == 0 && t->external_content) continue;
    if ((std::strcmp(s, "_docsize") == 0 && !t->has_docsize) ||
        (std::strcmp(s, "_stat") == 0 && !t->has_stat)) {
      continue;
    }
    sql += "ALTER TABLE " + t->Shadow(s) + " RENAME TO " + QuoteIdent(std::string(name) + s) + ";";
  }
  rc = Exec(t, sql);
  if (rc == SQLITE_OK) t->name = name;
  return rc;
}

int XShadowName(const char* name) {
  for (const char* s : {"content", "docsize", "segdir", "segments", "stat"}) {
    if (sqlite3_stricmp(name, s) == 0) return 1;
  }
  return 0;
}

int XFindFunction(sqlite3_vtab*, int, const char* name,
                  void (**fn)(sqlite3_context*, int, sqlite3_value**), void** arg) {
  *arg = nullptr;
  for (const auto& f : AuxFunctions()) {
    if (sqlite3_stricmp(name, f.name) == 0) {
      *fn = f.fn;
      return 1;
    }
  }
  return 0;
}

const sqlite3_module kModule = {
    3,       XCreate,   XConnect,      XBestIndex, XDisconnect, XDestroy, XOpen,       XClose,
    XFilter, XNext,     XEof,          XColumn,    XRowid,      XUpdate,  XBegin,      XSync,
    XCommit, XRollback, XFindFunction, XRename,    XSavepoint,  XRelease, XRollbackTo, XShadowName};

void DeleteRegistry(void* p) { delete static_cast<TokenizerRegistry*>(p); }

int Fts3Init(sqlite3* db) {
  auto* reg = new TokenizerRegistry();
  int rc = sqlite3_create_module_v2(db, "fts3", &kModule, reg, &DeleteRegistry);
  if (rc == SQLITE_OK) rc = sqlite3_create_module_v2(db, "fts4", &kModule, reg, nullptr);
  if (rc == SQLITE_OK) rc = RegisterExtras(db, reg);
  return rc;
}

}  // namespace

const basalt::ext::Registrar kRegisterFts3{&Fts3Init};

}  // namespace basalt::fts

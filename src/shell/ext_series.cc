// generate_series(START, STOP, STEP): the eponymous-only table-valued function
// sqlite3's shell registers, behaving as its 3.40.1 build does.
//
// Columns: value, then the hidden arguments start, stop, step (2, 3, 4 in the
// declared table; 1, 2, 3 as constraint columns counted from start).
// Plan encoding (idxNum bits), chosen by SeriesBestIndex and read by SeriesFilter:
//   1  start given (equality)      2  stop given      4  step given
//   8  produce values descending   16 ascending order was promised to ORDER BY
// Missing stop means 4294967295; missing step (or step 0) means 1. A negative
// step is made positive and turns the order to descending unless bit 16 is
// set. Any NULL argument yields no rows.
// Invariant of a cursor: step > 0; a descending cursor starts at the largest
// member start + k*step not above stop.
#include <cstdint>

#include "shell/shell_ext.h"

namespace shell {
namespace {

enum SeriesColumn { kValue = 0, kStart = 1, kStop = 2, kStep = 3 };

struct SeriesCursor {
  sqlite3_vtab_cursor base;
  bool desc = false;
  sqlite3_int64 rowid = 1;
  sqlite3_int64 value = 0;
  sqlite3_int64 start = 0;
  sqlite3_int64 stop = 0;
  sqlite3_int64 step = 1;
};

int SeriesConnect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  const int rc =
      sqlite3_declare_vtab(db, "CREATE TABLE x(value,start hidden,stop hidden,step hidden)");
  if (rc != SQLITE_OK) return rc;
  auto* vt = static_cast<sqlite3_vtab*>(sqlite3_malloc(sizeof(sqlite3_vtab)));
  if (vt == nullptr) return SQLITE_NOMEM;
  *vt = sqlite3_vtab{};
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  *out = vt;
  return SQLITE_OK;
}

int SeriesDisconnect(sqlite3_vtab* vt) {
  sqlite3_free(vt);
  return SQLITE_OK;
}

int SeriesOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = &(new SeriesCursor())->base;
  return SQLITE_OK;
}

int SeriesClose(sqlite3_vtab_cursor* c) {
  delete reinterpret_cast<SeriesCursor*>(c);
  return SQLITE_OK;
}

// Stepping wraps around on overflow, as the reference's signed arithmetic does
// on this machine; done in unsigned to stay defined.
sqlite3_int64 AddWrap(sqlite3_int64 a, sqlite3_int64 b, bool minus) {
  const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  return static_cast<sqlite3_int64>(minus ? ua - ub : ua + ub);
}

int SeriesNext(sqlite3_vtab_cursor* vc) {
  auto* c = reinterpret_cast<SeriesCursor*>(vc);
  c->value = AddWrap(c->value, c->step, c->desc);
  ++c->rowid;
  return SQLITE_OK;
}

int SeriesColumnValue(sqlite3_vtab_cursor* vc, sqlite3_context* ctx, int i) {
  auto* c = reinterpret_cast<SeriesCursor*>(vc);
  sqlite3_int64 v = c->value;
  if (i == kStart) v = c->start;
  if (i == kStop) v = c->stop;
  if (i == kStep) v = c->step;
  sqlite3_result_int64(ctx, v);
  return SQLITE_OK;
}

int SeriesRowid(sqlite3_vtab_cursor* vc, sqlite3_int64* out) {
  *out = reinterpret_cast<SeriesCursor*>(vc)->rowid;
  return SQLITE_OK;
}

int SeriesEof(sqlite3_vtab_cursor* vc) {
  auto* c = reinterpret_cast<SeriesCursor*>(vc);
  return c->desc ? c->value < c->start : c->value > c->stop;
}

int SeriesFilter(sqlite3_vtab_cursor* vc, int plan, const char*, int argc, sqlite3_value** argv) {
  auto* c = reinterpret_cast<SeriesCursor*>(vc);
  int next = 0;
  c->start = (plan & 1) ? sqlite3_value_int64(argv[next++]) : 0;
  c->stop = (plan & 2) ? sqlite3_value_int64(argv[next++]) : 0xffffffff;
  c->step = 1;
  if (plan & 4) {
    c->step = sqlite3_value_int64(argv[next++]);
    if (c->step == 0) {
      c->step = 1;
    } else if (c->step < 0) {
      c->step = AddWrap(0, c->step, true);
      if ((plan & 16) == 0) plan |= 8;
    }
  }
  for (int i = 0; i < argc; ++i) {
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) {  // no rows: start above stop
      c->start = 1;
      c->stop = 0;
      break;
    }
  }
  c->desc = (plan & 8) != 0;
  c->value = c->start;
  if (c->desc) {
    c->value = c->stop;
    if (c->step > 0) {
      const sqlite3_int64 span = AddWrap(c->stop, c->start, true);
      c->value = AddWrap(c->value, span % c->step, true);
    }
  }
  c->rowid = 1;
  return SQLITE_OK;
}

int SeriesBestIndex(sqlite3_vtab* vt, sqlite3_index_info* info) {
  int plan = 0, unusable = 0, args = 0;
  bool start_seen = false;
  int which[3] = {-1, -1, -1};  // constraint index giving start, stop, step
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& k = info->aConstraint[i];
    if (k.iColumn < kStart) continue;
    const int col = k.iColumn - kStart;
    if (col == 0) start_seen = true;
    if (!k.usable) {
      unusable |= 1 << col;
    } else if (k.op == SQLITE_INDEX_CONSTRAINT_EQ) {
      plan |= 1 << col;
      which[col] = i;
    }
  }
  for (int w : which) {
    if (w < 0) continue;
    info->aConstraintUsage[w].argvIndex = ++args;
    info->aConstraintUsage[w].omit = 1;
  }
  if (!start_seen) {
    sqlite3_free(vt->zErrMsg);
    vt->zErrMsg = sqlite3_mprintf("first argument to \"generate_series()\" missing or unusable");
    return SQLITE_ERROR;
  }
  if ((unusable & ~plan) != 0) return SQLITE_CONSTRAINT;
  if ((plan & 3) == 3) {
    info->estimatedCost = (plan & 4) ? 1.0 : 2.0;
    info->estimatedRows = 1000;
    if (info->nOrderBy >= 1 && info->aOrderBy[0].iColumn == kValue) {
      plan |= info->aOrderBy[0].desc ? 8 : 16;
      info->orderByConsumed = 1;
    }
  } else {
    info->estimatedRows = 2147483647;
  }
  info->idxNum = plan;
  return SQLITE_OK;
}

sqlite3_module MakeSeriesModule() {
  sqlite3_module m{};
  m.xConnect = SeriesConnect;
  m.xBestIndex = SeriesBestIndex;
  m.xDisconnect = SeriesDisconnect;
  m.xOpen = SeriesOpen;
  m.xClose = SeriesClose;
  m.xFilter = SeriesFilter;
  m.xNext = SeriesNext;
  m.xEof = SeriesEof;
  m.xColumn = SeriesColumnValue;
  m.xRowid = SeriesRowid;
  return m;
}

const sqlite3_module kSeriesModule = MakeSeriesModule();

}  // namespace

void RegisterSeries(sqlite3* db) {
  sqlite3_create_module(db, "generate_series", &kSeriesModule, nullptr);
}

}  // namespace shell

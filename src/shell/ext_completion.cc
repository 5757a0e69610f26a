// completion(PREFIX, WHOLELINE): the candidates sqlite3 3.40.1's shell
// offers for tab completion, as an eponymous table-valued function.
//
// Columns: candidate, then hidden prefix, wholeline and phase. Candidates
// are produced in phases, each keeping only the words that start with
// PREFIX (case-insensitively):
//   1 keywords     sqlite3_keyword_name() order, upper case
//   7 databases    PRAGMA database_list
//   8 tables       every name in each schema's sqlite_schema
//   9 columns      every column of each schema's tables
// (Phases 2-6 and 10 are numbered but empty, as in the reference.) With
// more than one schema, phases 8 and 9 are UNIONs (sorted, distinct); with
// one they come in scan order. A missing or empty PREFIX is taken from the
// identifier characters ending WHOLELINE.
#include <cctype>
#include <string>

#include "shell/shell_ext.h"

namespace shell {
namespace {

enum CompletionColumn { kCandidate, kPrefix, kWholeline, kPhase };
enum Phase { kKeywords = 1, kDatabases = 7, kTables = 8, kColumns = 9, kEof = 11 };

struct CompletionCursor {
  sqlite3_vtab_cursor base;
  sqlite3* db = nullptr;
  std::string prefix;
  std::string line;
  bool has_prefix = false;
  bool has_line = false;
  int phase = kKeywords;
  int keyword = 0;               // next keyword index (phase 1)
  sqlite3_stmt* stmt = nullptr;  // the phase's query (phases 7-9)
  std::string row;               // the current candidate
  sqlite3_int64 rowid = 0;
};

struct CompletionTable {
  sqlite3_vtab base;
  sqlite3* db = nullptr;
};

int CompConnect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  const int rc = sqlite3_declare_vtab(db,
                                      "CREATE TABLE x(  candidate TEXT,  prefix TEXT HIDDEN,  "
                                      "wholeline TEXT HIDDEN,  phase INT HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  auto* t = new CompletionTable();
  t->db = db;
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  *out = &t->base;
  return SQLITE_OK;
}

int CompDisconnect(sqlite3_vtab* vt) {
  delete reinterpret_cast<CompletionTable*>(vt);
  return SQLITE_OK;
}

int CompOpen(sqlite3_vtab* vt, sqlite3_vtab_cursor** out) {
  auto* c = new CompletionCursor();
  c->db = reinterpret_cast<CompletionTable*>(vt)->db;
  *out = &c->base;
  return SQLITE_OK;
}

void ResetCursor(CompletionCursor* c) {
  sqlite3_finalize(c->stmt);
  c->stmt = nullptr;
  c->prefix.clear();
  c->line.clear();
  c->phase = kKeywords;
  c->keyword = 0;
  c->rowid = 0;
}

int CompClose(sqlite3_vtab_cursor* vc) {
  auto* c = reinterpret_cast<CompletionCursor*>(vc);
  ResetCursor(c);
  delete c;
  return SQLITE_OK;
}

// The query of a schema phase: one SELECT per attached database, joined by
// UNION.
std::string PhaseSql(sqlite3* db, int phase) {
  if (phase == kDatabases) return "PRAGMA database_list";
  std::string sql;
  sqlite3_stmt* list = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA database_list", -1, &list, nullptr);
  while (list != nullptr && sqlite3_step(list) == SQLITE_ROW) {
    const char* name = reinterpret_cast<const char*>(sqlite3_column_text(list, 1));
    char* part = phase == kTables
                     ? sqlite3_mprintf("SELECT name FROM \"%w\".sqlite_schema", name)
                     : sqlite3_mprintf(
                           " SELECT pti.name FROM \"%w\".sqlite_schema AS sm "
                           "JOIN pragma_table_info(sm.name,%Q) AS pti WHERE sm.type='table'",
                           name, name);
    if (!sql.empty()) sql += " UNION ";
    sql += part;
    sqlite3_free(part);
  }
  sqlite3_finalize(list);
  return sql;
}

// Advances to the next candidate of any phase; false at the end.
bool NextCandidate(CompletionCursor* c) {
  while (c->phase != kEof) {
    if (c->phase == kKeywords) {
      if (c->keyword >= sqlite3_keyword_count()) {
        c->phase = kDatabases;
        continue;
      }
      const char* z = nullptr;
      int n = 0;
      sqlite3_keyword_name(c->keyword++, &z, &n);
      c->row.assign(z, static_cast<size_t>(n));
      return true;
    }
    if (c->stmt == nullptr) {
      sqlite3_prepare_v2(c->db, PhaseSql(c->db, c->phase).c_str(), -1, &c->stmt, nullptr);
    }
    if (c->stmt != nullptr && sqlite3_step(c->stmt) == SQLITE_ROW) {
      const int col = c->phase == kDatabases ? 1 : 0;
      const unsigned char* z = sqlite3_column_text(c->stmt, col);
      c->row.assign(z ? reinterpret_cast<const char*>(z) : "",
                    static_cast<size_t>(sqlite3_column_bytes(c->stmt, col)));
      return true;
    }
    sqlite3_finalize(c->stmt);
    c->stmt = nullptr;
    c->phase = c->phase == kColumns ? kEof : c->phase + 1;
  }
  return false;
}

int CompNext(sqlite3_vtab_cursor* vc) {
  auto* c = reinterpret_cast<CompletionCursor*>(vc);
  ++c->rowid;
  while (NextCandidate(c)) {
    if (c->prefix.empty()) return SQLITE_OK;
    if (c->prefix.size() <= c->row.size() &&
        sqlite3_strnicmp(c->prefix.c_str(), c->row.c_str(), static_cast<int>(c->prefix.size())) ==
            0) {
      return SQLITE_OK;
    }
  }
  return SQLITE_OK;
}

int CompFilter(sqlite3_vtab_cursor* vc, int idx_num, const char*, int argc, sqlite3_value** argv) {
  auto* c = reinterpret_cast<CompletionCursor*>(vc);
  ResetCursor(c);
  int at = 0;
  if ((idx_num & 1) && at < argc) {
    const unsigned char* z = sqlite3_value_text(argv[at++]);
    if (z != nullptr) c->prefix = reinterpret_cast<const char*>(z);
  }
  if ((idx_num & 2) && at < argc) {
    const unsigned char* z = sqlite3_value_text(argv[at++]);
    if (z != nullptr) c->line = reinterpret_cast<const char*>(z);
  }
  if (c->prefix.empty() && !c->line.empty()) {
    size_t i = c->line.size();
    while (i > 0 &&
           (std::isalnum(static_cast<unsigned char>(c->line[i - 1])) || c->line[i - 1] == '_')) {
      --i;
    }
    c->prefix = c->line.substr(i);
  }
  c->rowid = 0;
  return CompNext(vc);
}

int CompEof(sqlite3_vtab_cursor* vc) {
  return reinterpret_cast<CompletionCursor*>(vc)->phase == kEof;
}

int CompColumn(sqlite3_vtab_cursor* vc, sqlite3_context* ctx, int i) {
  auto* c = reinterpret_cast<CompletionCursor*>(vc);
  switch (i) {
    case kCandidate:
      sqlite3_result_text(ctx, c->row.data(), static_cast<int>(c->row.size()), SQLITE_TRANSIENT);
      break;
    case kPrefix:
      sqlite3_result_text(ctx, c->prefix.c_str(), -1, SQLITE_TRANSIENT);
      break;
    case kWholeline:
      sqlite3_result_text(ctx, c->line.c_str(), -1, SQLITE_TRANSIENT);
      break;
    default:
      sqlite3_result_int(ctx, c->phase);
      break;
  }
  return SQLITE_OK;
}

int CompRowid(sqlite3_vtab_cursor* vc, sqlite3_int64* out) {
  *out = reinterpret_cast<CompletionCursor*>(vc)->rowid;
  return SQLITE_OK;
}

// idxNum bit 1: prefix = ?; bit 2: wholeline = ? (arguments in that order).
int CompBestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  int prefix = -1, line = -1;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& k = info->aConstraint[i];
    if (!k.usable || k.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (k.iColumn == kPrefix) prefix = i;
    if (k.iColumn == kWholeline) line = i;
  }
  int argv = 0;
  info->idxNum = 0;
  if (prefix >= 0) {
    info->aConstraintUsage[prefix].argvIndex = ++argv;
    info->aConstraintUsage[prefix].omit = 1;
    info->idxNum |= 1;
  }
  if (line >= 0) {
    info->aConstraintUsage[line].argvIndex = ++argv;
    info->aConstraintUsage[line].omit = 1;
    info->idxNum |= 2;
  }
  info->estimatedCost = 5000 - 1000 * argv;
  info->estimatedRows = 500 - 100 * argv;
  return SQLITE_OK;
}

sqlite3_module MakeCompletionModule() {
  sqlite3_module m{};
  m.xConnect = CompConnect;
  m.xBestIndex = CompBestIndex;
  m.xDisconnect = CompDisconnect;
  m.xOpen = CompOpen;
  m.xClose = CompClose;
  m.xFilter = CompFilter;
  m.xNext = CompNext;
  m.xEof = CompEof;
  m.xColumn = CompColumn;
  m.xRowid = CompRowid;
  return m;
}

}  // namespace

void RegisterCompletion(sqlite3* db) {
  static const sqlite3_module kModule = MakeCompletionModule();
  sqlite3_create_module(db, "completion", &kModule, nullptr);
}

}  // namespace shell

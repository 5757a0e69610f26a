// .expert's two scratch databases (steps 1 and 2 of expert.h): the schema
// copy dbm, and dbv, where each table is an "expert" virtual table whose
// xBestIndex records the scans a statement would make.
#include <cstring>
#include <string>

#include "shell/expert.h"

namespace shell {
namespace {

struct ExpertVtab {
  sqlite3_vtab base;
  Expert* expert = nullptr;
  int table = 0;  // index into expert->tables
};

// The quoted SQL text of a module argument, unquoted.
std::string Dequote(const char* z) {
  std::string s = z;
  if (s.size() < 2 || s[0] != '\'' || s.back() != '\'') return s;
  std::string out;
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    out += s[i];
    if (s[i] == '\'' && s[i + 1] == '\'') ++i;
  }
  return out;
}

int VtabConnect(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out,
                char** err) {
  auto* e = static_cast<Expert*>(aux);
  if (argc != 4) {
    *err = sqlite3_mprintf("internal error!");
    return SQLITE_ERROR;
  }
  int table = -1;
  for (size_t i = 0; i < e->tables.size(); ++i) {
    if (e->tables[i].name == argv[2]) table = static_cast<int>(i);
  }
  if (table < 0) return SQLITE_ERROR;
  const int rc = sqlite3_declare_vtab(db, Dequote(argv[3]).c_str());
  if (rc != SQLITE_OK) {
    *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
    return rc;
  }
  auto* v = new ExpertVtab();
  v->expert = e;
  v->table = table;
  *out = &v->base;
  return SQLITE_OK;
}

int VtabDisconnect(sqlite3_vtab* vt) {
  delete reinterpret_cast<ExpertVtab*>(vt);
  return SQLITE_OK;
}

// Records the scan: usable constraints on non-key columns whose operator
// shares a bit with ==, <, <=, >, >= (a bit test, as the reference does),
// then the ORDER BY terms; each gets an argument, and the cost falls with
// their number.
int VtabBestIndex(sqlite3_vtab* vt, sqlite3_index_info* info) {
  auto* v = reinterpret_cast<ExpertVtab*>(vt);
  const ExpertTable& tab = v->expert->tables[static_cast<size_t>(v->table)];
  constexpr int kOpMask = SQLITE_INDEX_CONSTRAINT_EQ | SQLITE_INDEX_CONSTRAINT_GT |
                          SQLITE_INDEX_CONSTRAINT_LT | SQLITE_INDEX_CONSTRAINT_GE |
                          SQLITE_INDEX_CONSTRAINT_LE;
  ExpertScan scan;
  scan.table = v->table;
  int n = 0;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& k = info->aConstraint[i];
    if (!k.usable || k.iColumn < 0 || tab.cols[static_cast<size_t>(k.iColumn)].pk ||
        (k.op & kOpMask) == 0) {
      continue;
    }
    ExpertTerm term;
    term.col = k.iColumn;
    term.coll = sqlite3_vtab_collation(info, i);
    (k.op == SQLITE_INDEX_CONSTRAINT_EQ ? scan.eq : scan.range).push_back(term);
    info->aConstraintUsage[i].argvIndex = ++n;
  }
  for (int i = 0; i < info->nOrderBy; ++i) {
    const int col = info->aOrderBy[i].iColumn;
    if (col < 0) continue;
    ExpertTerm term;
    term.col = col;
    term.coll = tab.cols[static_cast<size_t>(col)].coll;
    term.desc = info->aOrderBy[i].desc != 0;
    scan.order.push_back(term);
    ++n;
  }
  info->estimatedCost = 1000000.0 / (n + 1);
  v->expert->scans.push_back(std::move(scan));
  return SQLITE_OK;
}

int VtabOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = static_cast<sqlite3_vtab_cursor*>(sqlite3_malloc(sizeof(sqlite3_vtab_cursor)));
  return *out == nullptr ? SQLITE_NOMEM : SQLITE_OK;
}

int VtabClose(sqlite3_vtab_cursor* c) {
  sqlite3_free(c);
  return SQLITE_OK;
}

int VtabFilter(sqlite3_vtab_cursor*, int, const char*, int, sqlite3_value**) { return SQLITE_OK; }
int VtabNext(sqlite3_vtab_cursor*) { return SQLITE_OK; }
int VtabEof(sqlite3_vtab_cursor*) { return 1; }
int VtabColumn(sqlite3_vtab_cursor*, sqlite3_context*, int) { return SQLITE_OK; }
int VtabRowid(sqlite3_vtab_cursor*, sqlite3_int64* out) {
  *out = 0;
  return SQLITE_OK;
}
int VtabUpdate(sqlite3_vtab*, int, sqlite3_value**, sqlite3_int64*) { return SQLITE_OK; }

sqlite3_module MakeModule() {
  sqlite3_module m{};
  m.xCreate = VtabConnect;
  m.xConnect = VtabConnect;
  m.xBestIndex = VtabBestIndex;
  m.xDisconnect = VtabDisconnect;
  m.xDestroy = VtabDisconnect;
  m.xOpen = VtabOpen;
  m.xClose = VtabClose;
  m.xFilter = VtabFilter;
  m.xNext = VtabNext;
  m.xEof = VtabEof;
  m.xColumn = VtabColumn;
  m.xRowid = VtabRowid;
  m.xUpdate = VtabUpdate;
  return m;
}

std::string Errmsg(sqlite3* db) { return sqlite3_errmsg(db); }

// The columns of a table of the user's database, with their collations
// and whether they belong to the primary key.
bool LoadTable(sqlite3* db, const std::string& name, ExpertTable* out, std::string* err) {
  out->name = name;
  char* sql = sqlite3_mprintf("PRAGMA table_xinfo=%Q", name.c_str());
  sqlite3_stmt* st = nullptr;
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, nullptr);
  sqlite3_free(sql);
  while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
    ExpertColumn col;
    const unsigned char* z = sqlite3_column_text(st, 1);
    col.name = z ? reinterpret_cast<const char*>(z) : "";
    col.pk = sqlite3_column_int(st, 5) > 0;
    const char* coll = nullptr;
    sqlite3_table_column_metadata(db, "main", name.c_str(), col.name.c_str(), nullptr, &coll,
                                  nullptr, nullptr, nullptr);
    col.coll = coll ? coll : "BINARY";
    out->cols.push_back(std::move(col));
  }
  if (sqlite3_finalize(st) != SQLITE_OK || rc != SQLITE_OK) {
    *err = Errmsg(db);
    return false;
  }
  return true;
}

int Exec(sqlite3* db, const std::string& sql, std::string* err) {
  char* msg = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg);
  if (rc != SQLITE_OK) *err = msg ? msg : Errmsg(db);
  sqlite3_free(msg);
  return rc;
}

}  // namespace

int ExpertSetup(Expert* e, std::string* err) {
  static const sqlite3_module kModule = MakeModule();
  if (sqlite3_open(":memory:", &e->dbm) != SQLITE_OK ||
      sqlite3_open(":memory:", &e->dbv) != SQLITE_OK) {
    *err = "out of memory";
    return SQLITE_NOMEM;
  }
  sqlite3_create_module(e->dbv, "expert", &kModule, e);
  int rc = SQLITE_OK;
  // Step 1: the schema, tables and indexes alike, into dbm.
  std::vector<std::string> schema;
  sqlite3_stmt* st = nullptr;
  rc = sqlite3_prepare_v2(e->db,
                          "SELECT sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'"
                          " AND sql NOT LIKE 'CREATE VIRTUAL %'",
                          -1, &st, nullptr);
  while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
    const unsigned char* z = sqlite3_column_text(st, 0);
    if (z != nullptr) schema.emplace_back(reinterpret_cast<const char*>(z));
  }
  if (sqlite3_finalize(st) != SQLITE_OK || rc != SQLITE_OK) {
    *err = Errmsg(e->db);
    return SQLITE_ERROR;
  }
  for (const std::string& sql : schema) {
    if ((rc = Exec(e->dbm, sql, err)) != SQLITE_OK) return rc;
  }
  // Step 2's mirror: tables as expert tables, views and their triggers as
  // they are.
  struct Object {
    std::string type, name, sql;
  };
  std::vector<Object> objects;
  rc = sqlite3_prepare_v2(
      e->dbm,
      "SELECT type, name, sql, 1 FROM sqlite_schema WHERE type IN ('table','view') AND "
      "name NOT LIKE 'sqlite_%' UNION ALL SELECT type, name, sql, 2 FROM sqlite_schema "
      "WHERE type = 'trigger' AND tbl_name IN (SELECT name FROM sqlite_schema WHERE "
      "type = 'view') ORDER BY 4, 1",
      -1, &st, nullptr);
  while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
    auto text = [&](int i) {
      const unsigned char* z = sqlite3_column_text(st, i);
      return z ? std::string(reinterpret_cast<const char*>(z)) : std::string();
    };
    objects.push_back({text(0), text(1), text(2)});
  }
  sqlite3_finalize(st);
  for (const Object& o : objects) {
    if (o.type == "table") {
      ExpertTable tab;
      if (!LoadTable(e->db, o.name, &tab, err)) return SQLITE_ERROR;
      e->tables.push_back(std::move(tab));
      char* sql = sqlite3_mprintf("CREATE VIRTUAL TABLE %Q USING expert(%Q)", o.name.c_str(),
                                  o.sql.c_str());
      rc = Exec(e->dbv, sql, err);
      sqlite3_free(sql);
    } else {
      rc = Exec(e->dbv, o.sql, err);
    }
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

void ExpertClose(Expert* e) {
  sqlite3_close(e->dbv);
  sqlite3_close(e->dbm);
  e->dbv = e->dbm = nullptr;
}

}  // namespace shell

// .expert --sample N (N > 0): sqlite_stat1 rows for every index of dbm,
// made from the user's data, so that the planner weighs the candidates by
// it. As the reference computes them: the rows are read in table order,
// and for each leading prefix of the index's columns the count of rows
// whose prefix differs from the row before gives "rows (rows+d/2)/d ...".
// (The reference reads a random N percent of the rows below 100; this
// reads them all.) Empty tables get no row.
#include <string>
#include <vector>

#include "shell/expert.h"
#include "shell/shell.h"

namespace shell {
namespace {

struct KeyColumn {
  std::string name;
  std::string coll;
};

std::string Bytes(sqlite3_value* v) {
  const char* p = static_cast<const char*>(sqlite3_value_blob(v));
  return p == nullptr ? std::string() : std::string(p, static_cast<size_t>(sqlite3_value_bytes(v)));
}

// Whether two values are the same for counting distinct prefixes: NULLs
// match each other; text compares by the column's collation.
bool SameValue(sqlite3_value* a, sqlite3_value* b, const std::string& coll) {
  const int ta = sqlite3_value_type(a), tb = sqlite3_value_type(b);
  if (ta == SQLITE_NULL || tb == SQLITE_NULL) return ta == tb;
  const bool na = ta == SQLITE_INTEGER || ta == SQLITE_FLOAT;
  const bool nb = tb == SQLITE_INTEGER || tb == SQLITE_FLOAT;
  if (na || nb) return na && nb && sqlite3_value_double(a) == sqlite3_value_double(b);
  if (ta != tb) return false;
  std::string x = Bytes(a), y = Bytes(b);
  if (ta == SQLITE_TEXT && sqlite3_stricmp(coll.c_str(), "RTRIM") == 0) {
    while (!x.empty() && x.back() == ' ') x.pop_back();
    while (!y.empty() && y.back() == ' ') y.pop_back();
  }
  if (ta == SQLITE_TEXT && sqlite3_stricmp(coll.c_str(), "NOCASE") == 0) {
    return x.size() == y.size() &&
           sqlite3_strnicmp(x.c_str(), y.c_str(), static_cast<int>(x.size())) == 0;
  }
  return x == y;
}

// The stat1 text of one index, or "" for an empty table.
std::string IndexStat(sqlite3* db, const std::string& table, const std::vector<KeyColumn>& cols) {
  std::string sql = "SELECT ";
  for (size_t i = 0; i < cols.size(); ++i) {
    char* c = sqlite3_mprintf("%s\"%w\"", i ? ", " : "", cols[i].name.c_str());
    sql += c;
    sqlite3_free(c);
  }
  char* from = sqlite3_mprintf(" FROM \"%w\"", table.c_str());
  sql += from;
  sqlite3_free(from);
  std::vector<long long> distinct(cols.size(), 0);
  long long rows = 0;
  std::vector<sqlite3_value*> prev(cols.size(), nullptr);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
  while (st != nullptr && sqlite3_step(st) == SQLITE_ROW) {
    size_t i = 0;
    if (rows > 0) {
      while (i < cols.size() &&
             SameValue(prev[i], sqlite3_column_value(st, static_cast<int>(i)), cols[i].coll)) {
        ++i;
      }
    }
    for (size_t k = i; k < cols.size(); ++k) ++distinct[k];
    for (size_t k = 0; k < cols.size(); ++k) {
      sqlite3_value_free(prev[k]);
      prev[k] = sqlite3_value_dup(sqlite3_column_value(st, static_cast<int>(k)));
    }
    ++rows;
  }
  sqlite3_finalize(st);
  for (sqlite3_value* v : prev) sqlite3_value_free(v);
  if (rows == 0) return "";
  std::string stat = std::to_string(rows);
  for (long long d : distinct) stat += " " + std::to_string((rows + d / 2) / d);
  return stat;
}

}  // namespace

int ExpertStat1(Expert* e, std::string* err) {
  if (e->sample <= 0) return SQLITE_OK;
  char* msg = nullptr;
  if (sqlite3_exec(e->dbm, "ANALYZE; DELETE FROM sqlite_stat1", nullptr, nullptr, &msg) !=
      SQLITE_OK) {
    *err = msg ? msg : sqlite3_errmsg(e->dbm);
    sqlite3_free(msg);
    return SQLITE_ERROR;
  }
  std::vector<std::pair<std::string, std::string>> indexes;  // table, index
  ForEachRow(e->dbm,
             "SELECT s.name, l.name FROM sqlite_schema AS s, pragma_index_list(s.name) AS l "
             "WHERE s.type = 'table'",
             [&](sqlite3_stmt* st) { indexes.emplace_back(ColText(st, 0), ColText(st, 1)); });
  for (const auto& [table, index] : indexes) {
    std::vector<KeyColumn> cols;
    char* sql = sqlite3_mprintf("PRAGMA index_xinfo=%Q", index.c_str());
    ForEachRow(e->dbm, sql, [&](sqlite3_stmt* st) {
      if (sqlite3_column_int(st, 5) != 0) cols.push_back({ColText(st, 2), ColText(st, 4)});
    });
    sqlite3_free(sql);
    const std::string stat = IndexStat(e->db, table, cols);
    if (stat.empty()) continue;
    char* ins = sqlite3_mprintf("INSERT INTO sqlite_stat1 VALUES(%Q, %Q, %Q)", table.c_str(),
                                index.c_str(), stat.c_str());
    sqlite3_exec(e->dbm, ins, nullptr, nullptr, nullptr);
    sqlite3_free(ins);
    for (ExpertCandidate& c : e->candidates) {
      if (c.name == index) c.stat = stat;
    }
  }
  sqlite3_exec(e->dbm, "ANALYZE sqlite_schema", nullptr, nullptr, nullptr);
  return SQLITE_OK;
}

}  // namespace shell

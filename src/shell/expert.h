// .expert: index suggestions for the next SQL the shell is given, as
// sqlite3 3.40.1's shell makes them (expert.cc, expert_vtab.cc).
//
// How a suggestion is found:
//   1. the schema is copied into an in-memory database `dbm`, and each
//      table is mirrored in a second one, `dbv`, by an "expert" virtual
//      table declared with the table's own CREATE TABLE;
//   2. each statement is prepared against dbv: every xBestIndex call there
//      records a scan (its usable ==, range and ORDER BY terms);
//   3. each scan proposes indexes (the == columns, plus one range column or
//      the ORDER BY terms) named TABLE_idx_HASH, created in dbm unless an
//      existing index already serves them;
//   4. EXPLAIN QUERY PLAN of each statement on dbm tells which proposed
//      indexes the planner takes; those and the plan are the report.
#ifndef BASALT_SHELL_EXPERT_H_
#define BASALT_SHELL_EXPERT_H_

#include <string>
#include <vector>

#include "sqlite3.h"

namespace shell {

struct Shell;

struct ExpertColumn {
  std::string name;
  std::string coll;  // declared collation ("BINARY" by default)
  bool pk = false;   // part of the PRIMARY KEY: never suggested
};

struct ExpertTable {
  std::string name;
  std::vector<ExpertColumn> cols;
};

// One term of a scan: a column with the collation it is compared in.
struct ExpertTerm {
  int col = 0;
  std::string coll;
  bool desc = false;  // ORDER BY ... DESC
};

// One xBestIndex call. eq and range are kept in the order of the call's
// constraints; order in ORDER BY order.
struct ExpertScan {
  int table = 0;  // index into Expert::tables
  std::vector<ExpertTerm> eq, range, order;
};

// A proposed index: its name, CREATE INDEX statement and (with --sample)
// its sqlite_stat1 text.
struct ExpertCandidate {
  std::string name, sql, stat;
};

struct Expert {
  sqlite3* db = nullptr;   // the user's database
  sqlite3* dbm = nullptr;  // schema copy where candidates are created
  sqlite3* dbv = nullptr;  // virtual-table mirror recording scans
  std::vector<ExpertTable> tables;
  std::vector<ExpertScan> scans;            // in the order of the calls
  std::vector<std::string> statements;      // SQL text of each statement
  std::vector<ExpertCandidate> candidates;  // newest first
  bool verbose = false;
  int sample = 0;
};

// expert_vtab.cc: builds dbm and dbv for e.db; returns SQLITE_OK or an
// error with *err set.
int ExpertSetup(Expert* e, std::string* err);
void ExpertClose(Expert* e);

// expert_stat.cc: with --sample, sqlite_stat1 rows in dbm for its indexes.
int ExpertStat1(Expert* e, std::string* err);

// expert.cc
int DotExpert(Shell& sh, const std::vector<std::string>& args);
// Given the SQL while .expert is pending: prints the report (or the error)
// and leaves expert mode. Returns the result code.
int ExpertRunSql(Shell& sh, const char* sql, std::string* err);
void ExpertCancel(Shell& sh);

}  // namespace shell

#endif  // BASALT_SHELL_EXPERT_H_

// The FTS cursor: a full scan of the content, a docid lookup, or the rows a
// MATCH expression selects (with what snippet/offsets/matchinfo need).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ext/fts3/engine.h"
#include "ext/fts3/expr.h"

namespace basalt::fts {

// xBestIndex plans: idxNum low bits, then flags for the extra arguments.
inline constexpr int kPlanFullScan = 0;
inline constexpr int kPlanDocid = 1;
inline constexpr int kPlanFullText = 2;  // + the column the MATCH names
inline constexpr int kHasLangid = 0x10000;
inline constexpr int kHasDocidGe = 0x20000;
inline constexpr int kHasDocidLe = 0x40000;

struct FtsCursor {
  sqlite3_vtab_cursor base{};
  FtsTable* table = nullptr;
  int plan = kPlanFullScan;
  bool eof = true;
  int64_t docid = 0;
  int langid = 0;
  // Full scan and docid lookup read rows through `scan`; a MATCH walks
  // the Engine and reads each row through `row` when a column is asked.
  Stmt scan;
  Stmt row;
  bool row_ready = false;  // `row` holds the current document
  bool row_found = false;
  std::unique_ptr<Expr> expr;
  QueryResult result;
  Engine engine;  // walks the MATCH rows (see engine.h)
  int64_t docid_lo = INT64_MIN, docid_hi = INT64_MAX;
  bool desc = false;
  // The format of the matchinfo buffer (SQLite fills its per-query values
  // when the format differs from the previous call's); none yet when empty.
  std::string mi_format;
  bool mi_valid = false;
  std::vector<uint32_t> mi_buf;  // the previous result, in that format
  std::string docsize_sql;       // matchinfo 'l' (built once)
  // The MATCH query text (for snippet), and its column (-1: all).
  std::string query;
  int match_col = -1;
};

// Reads the current row into cur->row when it is not there yet.
int LoadRow(FtsCursor* cur);
// The text of column `col` of the current row (empty if NULL).
std::string ColumnText(FtsCursor* cur, int col);

}  // namespace basalt::fts

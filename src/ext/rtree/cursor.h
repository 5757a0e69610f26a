// The R*Tree cursor and its search queue (cursor.cc), and the MATCH
// constraints of geometry callbacks (geometry.cc).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ext/rtree/rtree.h"

namespace basalt::rtree {

// Constraint operators, as coded in idxStr (one letter per operator).
inline constexpr char kOpTrue = 0x3f;   // always met (x < 'text')
inline constexpr char kOpFalse = 0x40;  // never met (x = NULL)
inline constexpr char kOpEq = 0x41;
inline constexpr char kOpLe = 0x42;
inline constexpr char kOpLt = 0x43;
inline constexpr char kOpGe = 0x44;
inline constexpr char kOpGt = 0x45;
inline constexpr char kOpMatch = 0x46;  // sqlite3_rtree_geometry_callback
inline constexpr char kOpQuery = 0x47;  // sqlite3_rtree_query_callback

struct MatchArg;  // geometry.cc

struct Constraint {
  char op = 0;
  int coord = 0;
  double value = 0;
  // MATCH only: the callback's arguments and state.
  std::shared_ptr<MatchArg> match;
};

// A queue entry: a node to expand (level >= 1, cell = next cell to look
// at) or a leaf entry (level 0: cell `cell` of node `id`).
struct SearchPoint {
  double score = 0;
  int64_t id = 0;
  uint8_t level = 0;
  uint8_t within = 0;
  uint8_t cell = 0;
};

struct Cursor {
  sqlite3_vtab_cursor base{};  // first: SQLite hands back the base
  bool eof = false;
  bool scanning = false;  // counted in Rtree::scanning
  bool has_head = false;  // `head` is the best point, ahead of `heap`
  bool aux_valid = false;
  SearchPoint head;
  std::vector<SearchPoint> heap;
  std::vector<Constraint> constraints;
  std::shared_ptr<Node> node;  // node of the best point, pinned
  Stmt read_aux;
  unsigned queued[kMaxDepth + 2] = {};  // queued points per level
};

// Sets up a MATCH constraint from the value its geometry function made.
int LoadMatchArg(sqlite3* db, sqlite3_value* v, Constraint* k, int ncoord, unsigned* queued,
                 int max_level);
// Runs a MATCH constraint's callback on one cell.
int CallbackTest(Constraint* k, bool is_int, const uint8_t* cell, const SearchPoint& parent,
                 double* score, int* within);

}  // namespace basalt::rtree

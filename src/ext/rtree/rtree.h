// The R*Tree virtual table (SQLite's "rtree" and "rtree_i32" modules),
// written against the public C API only.
//
// File format (identical to SQLite's, so either engine reads the other's
// trees). Three shadow tables per r-tree table %:
//   %_node(nodeno INTEGER PRIMARY KEY,data)       one row per tree node
//   %_rowid(rowid INTEGER PRIMARY KEY,nodeno,a0..) leaf holding each row,
//                                                  then the aux columns
//   %_parent(nodeno INTEGER PRIMARY KEY,parentnode) parent of each non-root
// Node blob (all integers big-endian), node_size bytes:
//   offset 0  2 bytes  depth of the tree (root, node 1, only; 0 elsewhere)
//   offset 2  2 bytes  number of cells
//   offset 4  cells, cell_bytes = 8 + 4*ndim2 each:
//             8 bytes  rowid (leaf) or child node number (interior)
//             4 bytes  per coordinate: IEEE float (rtree) or int32
//                      (rtree_i32), lower then upper bound per dimension
// node_size = page_size - 64, capped at 4 + 51 cells; a connected tree
// takes it from the length of its root blob.
//
// Invariants:
//   1. The root is node 1 and always exists; depth 0 means it is a leaf.
//   2. Every cell of an interior node bounds every cell of its child.
//   3. A non-root node holds at least min_cells() cells after a delete.
//   4. Nodes in `cache` mirror %_node except for dirty ones, which are
//      written when the xUpdate that changed them returns (and, as a
//      safety net, at xSync/xCommit/xSavepoint/xRelease) (between statements
//      of no write transaction the cache is checked against the database,
//      ValidateCache, and dropped if it may be stale); a cached node's
//      `parent` is its parent's number, or 0 when not known yet (then
//      %_parent is read).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "sqlite3.h"

namespace basalt::rtree {

inline constexpr int kMaxDims = 5;
inline constexpr int kMaxCells = 51;
inline constexpr int kMaxDepth = 40;
inline constexpr int kMaxAux = 100;
inline constexpr int64_t kDefaultRowEst = 1048576;
inline constexpr int64_t kMinRowEst = 100;

// One stored coordinate: the float or int32 bits as in the node blob.
union Coord {
  float f;
  int32_t i;
  uint32_t u;
};

// A deserialized cell.
struct Cell {
  int64_t id = 0;
  Coord c[kMaxDims * 2] = {};
};

// Big-endian 32-bit loads and stores (one byte swap on little-endian hosts).
inline uint32_t Get32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  return v;
}
inline void Put32(uint8_t* p, uint32_t v) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  std::memcpy(p, &v, 4);
}
inline int Get16(const uint8_t* p) { return (p[0] << 8) | p[1]; }
inline void Put16(uint8_t* p, int v) {
  p[0] = uint8_t(v >> 8);
  p[1] = uint8_t(v);
}
inline int64_t Get64(const uint8_t* p) {
  return int64_t((uint64_t{Get32(p)} << 32) | Get32(p + 4));
}
inline void Put64(uint8_t* p, int64_t v) {
  Put32(p, uint32_t(uint64_t(v) >> 32));
  Put32(p + 4, uint32_t(v));
}

struct Node {
  int64_t id = 0;      // 0 until first written (a new node)
  int64_t parent = 0;  // parent node number; 0: root or not known
  int height = 0;      // only for removed nodes awaiting reinsertion
  bool dirty = false;
  std::vector<uint8_t> data;

  int count() const { return Get16(&data[2]); }
};

// A finalizing holder for a prepared statement.
struct StmtDeleter {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Stmt = std::unique_ptr<sqlite3_stmt, StmtDeleter>;

// The virtual table. `base` comes first: SQLite hands back sqlite3_vtab*.
struct Rtree {
  sqlite3_vtab base{};
  sqlite3* db = nullptr;
  std::string db_name;
  std::string name;
  bool is_int = false;
  int ndim = 0;
  int ndim2 = 0;
  int naux = 0;
  int cell_bytes = 0;
  int node_size = 0;
  int depth = -1;
  int reinsert_height = 0;
  int64_t row_est = kDefaultRowEst;
  int cursors = 0;   // open cursors
  int scanning = 0;  // cursors part-way through a scan (writes refused)
  bool in_write = false;
  // > 0 while xUpdate or a flush runs: the statements they run on the
  // shadow tables open statement savepoints, and the savepoint hooks must
  // neither flush nor drop the cache under them.
  int busy = 0;

  // Node cache by number. A cursor holds the nodes it reads, so entries
  // are shared: a cache reset never frees a node a cursor still uses.
  std::unordered_map<int64_t, std::shared_ptr<Node>> cache;
  // Outside a write transaction the cache outlives the statement that
  // filled it while the database is unchanged: same total_changes() of
  // the connection and same data_version (ValidateCache).
  int64_t snap_changes = -1;
  int64_t snap_version = -1;
  Stmt data_version;
  // While xUpdate runs: every node it acquired or created. Its dirty ones
  // are written when it returns, as SQLite 3.40 writes a node when the
  // last reference to it goes (WriteTouched).
  bool tracking = false;
  std::vector<std::shared_ptr<Node>> touched;
  // Nodes removed by a delete, their cells to be reinserted (a stack).
  std::vector<std::shared_ptr<Node>> removed;

  Stmt write_node, delete_node, read_node;
  Stmt read_rowid, write_rowid, delete_rowid;
  Stmt read_parent, write_parent, delete_parent;
  Stmt write_aux;
  std::string read_aux_sql;

  int max_cells() const { return (node_size - 4) / cell_bytes; }
  int min_cells() const { return max_cells() / 3; }
  double Dc(Coord c) const { return is_int ? double(c.i) : double(c.f); }
};

// ---- node store (node_store.cc) ----
std::string QuoteId(const std::string& s);   // "s" with " doubled
std::string QuoteStr(const std::string& s);  // 's' with ' doubled
int Prepare(sqlite3* db, const std::string& sql, Stmt* out);
int PrepareShadowStatements(Rtree* rt, bool create);
int Acquire(Rtree* rt, int64_t id, int64_t parent, std::shared_ptr<Node>* out);
std::shared_ptr<Node> NewNode(Rtree* rt, int64_t parent);
int WriteNode(Rtree* rt, const std::shared_ptr<Node>& n);
int FlushCache(Rtree* rt);
// Writes the dirty nodes of rt->touched and ends the tracking.
int WriteTouched(Rtree* rt);
void ResetCache(Rtree* rt);
// Outside a write transaction: drops the cache if the database may have
// changed since it was filled.
int ValidateCache(Rtree* rt);
int ParentOf(Rtree* rt, Node* n, std::shared_ptr<Node>* out);
int WriteRowidMap(Rtree* rt, int64_t rowid, int64_t node);
int WriteParentMap(Rtree* rt, int64_t node, int64_t parent);
int FindLeaf(Rtree* rt, int64_t rowid, std::shared_ptr<Node>* leaf, int64_t* node_id);

// Cell access on a node.
void ReadCell(const Rtree* rt, const Node* n, int i, Cell* out);
void WriteCell(const Rtree* rt, Node* n, const Cell& c, int i);
inline int64_t CellId(const Rtree* rt, const Node* n, int i) {
  return Get64(n->data.data() + 4 + rt->cell_bytes * i);
}
void DeleteCellBytes(const Rtree* rt, Node* n, int i);
bool AppendCell(const Rtree* rt, Node* n, const Cell& c);  // false: full
int CellIndex(const Rtree* rt, const Node* n, int64_t id, int* out);

// ---- tree edits (insert.cc, delete.cc) ----
int ChooseLeaf(Rtree* rt, const Cell& c, int height, std::shared_ptr<Node>* out);
int InsertCell(Rtree* rt, const std::shared_ptr<Node>& n, const Cell& c, int height);
int FixBoundingBox(Rtree* rt, Node* n);
int DeleteRowid(Rtree* rt, int64_t rowid);
void CellUnion(const Rtree* rt, Cell* a, const Cell& b);

// ---- module (module.cc, cursor.cc) ----
extern const sqlite3_module kRtreeModule;
int RtreeBestIndex(sqlite3_vtab* vt, sqlite3_index_info* info);
int RtreeOpen(sqlite3_vtab* vt, sqlite3_vtab_cursor** out);
int RtreeClose(sqlite3_vtab_cursor* cur);
int RtreeFilter(sqlite3_vtab_cursor* cur, int idx_num, const char* idx_str, int argc,
                sqlite3_value** argv);
int RtreeNext(sqlite3_vtab_cursor* cur);
int RtreeEof(sqlite3_vtab_cursor* cur);
int RtreeColumn(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int i);
int RtreeRowid(sqlite3_vtab_cursor* cur, sqlite3_int64* out);
int RtreeUpdate(sqlite3_vtab* vt, int argc, sqlite3_value** argv, sqlite3_int64* rowid);

// ---- SQL functions (functions.cc, geometry.cc) ----
int RegisterFunctions(sqlite3* db);

}  // namespace basalt::rtree

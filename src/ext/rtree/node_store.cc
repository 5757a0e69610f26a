// The node cache over the shadow tables, and cell access inside a node
// blob (layout in rtree.h).
#include <cstring>

#include "common/assert.h"
#include "ext/rtree/rtree.h"

namespace basalt::rtree {

std::string QuoteId(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

std::string QuoteStr(const std::string& s) {
  std::string out = "'";
  for (char ch : s) {
    if (ch == '\'') out += '\'';
    out += ch;
  }
  return out + "'";
}

int Prepare(sqlite3* db, const std::string& sql, Stmt* out) {
  sqlite3_stmt* s = nullptr;
  int rc = sqlite3_prepare_v3(db, sql.c_str(), int(sql.size()),
                              SQLITE_PREPARE_PERSISTENT | SQLITE_PREPARE_NO_VTAB, &s, nullptr);
  out->reset(s);
  return rc;
}

// Creates the shadow tables (create) and prepares the statements that
// read and write them.
int PrepareShadowStatements(Rtree* rt, bool create) {
  const std::string db = QuoteId(rt->db_name);
  const std::string q = db + ".";
  auto shadow = [&](const char* suffix) { return QuoteId(rt->name + suffix); };
  if (create) {
    std::string sql = "CREATE TABLE " + db + "." + QuoteId(rt->name + "_rowid") +
                      "(rowid INTEGER PRIMARY KEY,nodeno";
    for (int i = 0; i < rt->naux; ++i) sql += ",a" + std::to_string(i);
    sql += ");CREATE TABLE " + db + "." + QuoteId(rt->name + "_node") +
           "(nodeno INTEGER PRIMARY KEY,data);";
    sql += "CREATE TABLE " + db + "." + QuoteId(rt->name + "_parent") +
           "(nodeno INTEGER PRIMARY KEY,parentnode);";
    sql += "INSERT INTO " + db + "." + QuoteId(rt->name + "_node") + "VALUES(1,zeroblob(" +
           std::to_string(rt->node_size) + "))";
    int rc = sqlite3_exec(rt->db, sql.c_str(), nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) return rc;
  }
  struct {
    Stmt* stmt;
    std::string sql;
  } list[] = {
      {&rt->write_node, "INSERT OR REPLACE INTO " + q + shadow("_node") + " VALUES(?1, ?2)"},
      {&rt->delete_node, "DELETE FROM " + q + shadow("_node") + " WHERE nodeno = ?1"},
      {&rt->read_node, "SELECT data FROM " + q + shadow("_node") + " WHERE nodeno = ?1"},
      {&rt->read_rowid, "SELECT nodeno FROM " + q + shadow("_rowid") + " WHERE rowid = ?1"},
      {&rt->write_rowid, "INSERT OR REPLACE INTO " + q + shadow("_rowid") + " VALUES(?1, ?2)"},
      {&rt->delete_rowid, "DELETE FROM " + q + shadow("_rowid") + " WHERE rowid = ?1"},
      {&rt->read_parent, "SELECT parentnode FROM " + q + shadow("_parent") + " WHERE nodeno = ?1"},
      {&rt->write_parent, "INSERT OR REPLACE INTO " + q + shadow("_parent") + " VALUES(?1, ?2)"},
      {&rt->delete_parent, "DELETE FROM " + q + shadow("_parent") + " WHERE nodeno = ?1"},
  };
  const std::string rowid_tab = db + "." + QuoteId(rt->name + "_rowid");
  if (rt->naux > 0) {
    // An upsert keeps the aux columns of a row whose leaf changes.
    list[4].sql = "INSERT INTO" + rowid_tab +
                  "(rowid,nodeno)VALUES(?1,?2)ON CONFLICT(rowid)DO UPDATE SET "
                  "nodeno=excluded.nodeno";
  }
  for (auto& e : list) {
    int rc = Prepare(rt->db, e.sql, e.stmt);
    if (rc != SQLITE_OK) return rc;
  }
  if (rt->naux > 0) {
    rt->read_aux_sql = "SELECT * FROM " + rowid_tab + " WHERE rowid=?1";
    std::string sql = "UPDATE " + rowid_tab + "SET ";
    for (int i = 0; i < rt->naux; ++i) {
      if (i > 0) sql += ",";
      sql += "a" + std::to_string(i) + "=?" + std::to_string(i + 2);
    }
    sql += " WHERE rowid=?1";
    return Prepare(rt->db, sql, &rt->write_aux);
  }
  return SQLITE_OK;
}

// Runs a one-shot write statement; returns the reset code.
static int StepReset(sqlite3_stmt* s) {
  sqlite3_step(s);
  return sqlite3_reset(s);
}

int Acquire(Rtree* rt, int64_t id, int64_t parent, std::shared_ptr<Node>* out) {
  auto it = rt->cache.find(id);
  if (it != rt->cache.end()) {
    Node* n = it->second.get();
    if (parent != 0) n->parent = parent;
    if (id == 1) rt->depth = Get16(n->data.data());
    if (rt->tracking) rt->touched.push_back(it->second);
    *out = it->second;
    return SQLITE_OK;
  }
  out->reset();
  sqlite3_stmt* s = rt->read_node.get();
  sqlite3_bind_int64(s, 1, id);
  int rc = SQLITE_OK;
  std::shared_ptr<Node> n;
  if (sqlite3_step(s) == SQLITE_ROW) {
    const void* blob = sqlite3_column_blob(s, 0);
    int bytes = sqlite3_column_bytes(s, 0);
    if (bytes == rt->node_size && blob != nullptr) {
      n = std::make_shared<Node>();
      n->id = id;
      n->parent = parent;
      n->data.assign(static_cast<const uint8_t*>(blob), static_cast<const uint8_t*>(blob) + bytes);
    }
  }
  int rc2 = sqlite3_reset(s);
  if (rc2 != SQLITE_OK) return rc2;
  if (n == nullptr) return SQLITE_CORRUPT_VTAB;
  if (id == 1) {
    rt->depth = Get16(n->data.data());
    if (rt->depth > kMaxDepth) rc = SQLITE_CORRUPT_VTAB;
  }
  if (rc == SQLITE_OK && n->count() > rt->max_cells()) rc = SQLITE_CORRUPT_VTAB;
  if (rc != SQLITE_OK) return rc;
  rt->cache.emplace(id, n);
  if (rt->tracking) rt->touched.push_back(n);
  *out = std::move(n);
  return SQLITE_OK;
}

std::shared_ptr<Node> NewNode(Rtree* rt, int64_t parent) {
  BASALT_DCHECK(parent != 0);  // a new node is never the root
  auto n = std::make_shared<Node>();
  n->parent = parent;
  n->dirty = true;
  n->data.assign(size_t(rt->node_size), 0);
  if (rt->tracking) rt->touched.push_back(n);
  return n;
}

// Writes a dirty node; a new node gets its number from the insert.
int WriteNode(Rtree* rt, const std::shared_ptr<Node>& n) {
  if (!n->dirty) return SQLITE_OK;
  sqlite3_stmt* s = rt->write_node.get();
  if (n->id != 0) {
    sqlite3_bind_int64(s, 1, n->id);
  } else {
    sqlite3_bind_null(s, 1);
  }
  sqlite3_bind_blob(s, 2, n->data.data(), rt->node_size, SQLITE_STATIC);
  sqlite3_step(s);
  n->dirty = false;
  int rc = sqlite3_reset(s);
  if (n->id == 0 && rc == SQLITE_OK) {
    n->id = sqlite3_last_insert_rowid(rt->db);
    rt->cache.emplace(n->id, n);
  }
  return rc;
}

int FlushCache(Rtree* rt) {
  int64_t last = sqlite3_last_insert_rowid(rt->db);
  int rc = SQLITE_OK;
  rt->busy++;
  for (auto& [id, n] : rt->cache) {
    if (n->dirty) {
      rc = WriteNode(rt, n);
      if (rc != SQLITE_OK) break;
    }
  }
  rt->busy--;
  sqlite3_set_last_insert_rowid(rt->db, last);
  return rc;
}

int WriteTouched(Rtree* rt) {
  int rc = SQLITE_OK;
  for (const std::shared_ptr<Node>& n : rt->touched) {
    // A node removed from the tree was deleted from %_node and is clean.
    if (rc == SQLITE_OK && n->dirty) rc = WriteNode(rt, n);
  }
  rt->touched.clear();
  rt->tracking = false;
  return rc;
}

void ResetCache(Rtree* rt) {
  rt->cache.clear();
  rt->depth = -1;
}

int ValidateCache(Rtree* rt) {
  if (rt->in_write) return SQLITE_OK;
  if (rt->data_version == nullptr) {
    int rc = Prepare(rt->db, "PRAGMA " + QuoteId(rt->db_name) + ".data_version", &rt->data_version);
    if (rc != SQLITE_OK) return rc;
  }
  sqlite3_stmt* s = rt->data_version.get();
  int64_t version = -1;
  if (sqlite3_step(s) == SQLITE_ROW) version = sqlite3_column_int64(s, 0);
  int rc = sqlite3_reset(s);
  if (rc != SQLITE_OK) return rc;
  const int64_t changes = sqlite3_total_changes64(rt->db);
  if (version != rt->snap_version || changes != rt->snap_changes) ResetCache(rt);
  rt->snap_version = version;
  rt->snap_changes = changes;
  return SQLITE_OK;
}

int ParentOf(Rtree* rt, Node* n, std::shared_ptr<Node>* out) {
  out->reset();
  if (n->id == 1) return SQLITE_OK;
  if (n->parent == 0) {
    sqlite3_stmt* s = rt->read_parent.get();
    sqlite3_bind_int64(s, 1, n->id);
    if (sqlite3_step(s) == SQLITE_ROW) n->parent = sqlite3_column_int64(s, 0);
    int rc = sqlite3_reset(s);
    if (rc != SQLITE_OK) return rc;
    if (n->parent == 0 || n->parent == n->id) return SQLITE_CORRUPT_VTAB;
  }
  return Acquire(rt, n->parent, 0, out);
}

int WriteRowidMap(Rtree* rt, int64_t rowid, int64_t node) {
  sqlite3_stmt* s = rt->write_rowid.get();
  sqlite3_bind_int64(s, 1, rowid);
  sqlite3_bind_int64(s, 2, node);
  return StepReset(s);
}

int WriteParentMap(Rtree* rt, int64_t node, int64_t parent) {
  sqlite3_stmt* s = rt->write_parent.get();
  sqlite3_bind_int64(s, 1, node);
  sqlite3_bind_int64(s, 2, parent);
  return StepReset(s);
}

int FindLeaf(Rtree* rt, int64_t rowid, std::shared_ptr<Node>* leaf, int64_t* node_id) {
  leaf->reset();
  sqlite3_stmt* s = rt->read_rowid.get();
  sqlite3_bind_int64(s, 1, rowid);
  if (sqlite3_step(s) == SQLITE_ROW) {
    int64_t id = sqlite3_column_int64(s, 0);
    sqlite3_reset(s);
    if (node_id != nullptr) *node_id = id;
    return Acquire(rt, id, 0, leaf);
  }
  return sqlite3_reset(s);
}

void ReadCell(const Rtree* rt, const Node* n, int i, Cell* out) {
  const uint8_t* p = n->data.data() + 4 + rt->cell_bytes * i;
  out->id = Get64(p);
  for (int k = 0; k < rt->ndim2; ++k) out->c[k].u = Get32(p + 8 + 4 * k);
}

void WriteCell(const Rtree* rt, Node* n, const Cell& c, int i) {
  uint8_t* p = n->data.data() + 4 + rt->cell_bytes * i;
  Put64(p, c.id);
  for (int k = 0; k < rt->ndim2; ++k) Put32(p + 8 + 4 * k, c.c[k].u);
  n->dirty = true;
}

void DeleteCellBytes(const Rtree* rt, Node* n, int i) {
  BASALT_DCHECK(i >= 0 && i < n->count());
  uint8_t* dst = n->data.data() + 4 + rt->cell_bytes * i;
  int count = n->count();
  std::memmove(dst, dst + rt->cell_bytes, size_t((count - i - 1) * rt->cell_bytes));
  Put16(&n->data[2], count - 1);
  n->dirty = true;
}

bool AppendCell(const Rtree* rt, Node* n, const Cell& c) {
  int count = n->count();
  BASALT_DCHECK(count <= rt->max_cells());
  if (count >= rt->max_cells()) return false;
  WriteCell(rt, n, c, count);
  Put16(&n->data[2], count + 1);
  return true;
}

int CellIndex(const Rtree* rt, const Node* n, int64_t id, int* out) {
  int count = n->count();
  for (int i = 0; i < count; ++i) {
    if (CellId(rt, n, i) == id) {
      *out = i;
      return SQLITE_OK;
    }
  }
  return SQLITE_CORRUPT_VTAB;
}

}  // namespace basalt::rtree

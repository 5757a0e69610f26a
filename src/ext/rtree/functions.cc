// The debugging SQL functions of the R*Tree module:
//   rtreenode(ndim, blob)   the cells of a node blob as "{id c0 c1 ...} ..."
//   rtreedepth(blob)        the depth field of a root node blob
//   rtreecheck([db,] tab)   an integrity check of the tree and its shadow
//                           tables: "ok" or one line per problem found
#include <cstdarg>
#include <string>
#include <vector>

#include "ext/rtree/rtree.h"

namespace basalt::rtree {
namespace {

void NodeFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const int ndim = sqlite3_value_int(argv[0]);
  if (ndim < 1 || ndim > kMaxDims) return;
  const auto* data = static_cast<const uint8_t*>(sqlite3_value_blob(argv[1]));
  if (data == nullptr) return;
  const int bytes = sqlite3_value_bytes(argv[1]);
  const int cell_bytes = 8 + 8 * ndim;
  if (bytes < 4) return;
  const int count = Get16(data + 2);
  if (bytes < count * cell_bytes) return;
  std::string out;
  for (int i = 0; i < count; ++i) {
    const uint8_t* cell = data + 4 + i * cell_bytes;
    if (i > 0) out += ' ';
    char* s = sqlite3_mprintf("{%lld", static_cast<long long>(Get64(cell)));
    out += s;
    sqlite3_free(s);
    for (int k = 0; k < ndim * 2; ++k) {
      Coord c;
      c.u = Get32(cell + 8 + 4 * k);
      s = sqlite3_mprintf(" %g", double(c.f));
      out += s;
      sqlite3_free(s);
    }
    out += '}';
  }
  // An empty node gives SQLite's "no text, no error" result: the text of
  // result code 0.
  if (out.empty()) out = sqlite3_errstr(SQLITE_OK);
  sqlite3_result_text(ctx, out.data(), int(out.size()), SQLITE_TRANSIENT);
}

void DepthFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) != SQLITE_BLOB || sqlite3_value_bytes(argv[0]) < 2) {
    sqlite3_result_error(ctx, "Invalid argument to rtreedepth()", -1);
    return;
  }
  const auto* p = static_cast<const uint8_t*>(sqlite3_value_blob(argv[0]));
  sqlite3_result_int(ctx, Get16(p));
}

constexpr int kMaxReport = 100;

// State of one rtreecheck() run.
struct Check {
  sqlite3* db = nullptr;
  std::string db_name, tab;
  bool is_int = false;
  int ndim = 0;
  int64_t leaves = 0;
  int64_t interior = 0;
  int rc = SQLITE_OK;
  int nerr = 0;
  std::string report;
  Stmt get_node;
  Stmt mapping[2];  // 0: %_parent, 1: %_rowid

  Stmt Prep(const std::string& sql) {
    Stmt s;
    if (rc == SQLITE_OK) rc = Prepare(db, sql, &s);
    return s;
  }

  void Msg(const char* fmt, ...) {
    if (rc != SQLITE_OK || nerr >= kMaxReport) return;
    va_list ap;
    va_start(ap, fmt);
    char* z = sqlite3_vmprintf(fmt, ap);
    va_end(ap);
    if (z == nullptr) {
      rc = SQLITE_NOMEM;
      return;
    }
    if (!report.empty()) report += '\n';
    report += z;
    sqlite3_free(z);
    ++nerr;
  }

  void Reset(sqlite3_stmt* s) {
    int r = sqlite3_reset(s);
    if (rc == SQLITE_OK) rc = r;
  }

  std::string Shadow(const char* suffix) const {
    return QuoteId(db_name) + "." + QuoteId(tab + suffix);
  }
};

bool GetNode(Check* ck, int64_t id, std::vector<uint8_t>* out) {
  if (ck->rc == SQLITE_OK && ck->get_node == nullptr) {
    ck->get_node = ck->Prep("SELECT data FROM " + ck->Shadow("_node") + " WHERE nodeno=?");
  }
  if (ck->rc != SQLITE_OK) return false;
  sqlite3_stmt* s = ck->get_node.get();
  sqlite3_bind_int64(s, 1, id);
  bool found = false;
  if (sqlite3_step(s) == SQLITE_ROW) {
    const auto* p = static_cast<const uint8_t*>(sqlite3_column_blob(s, 0));
    int n = sqlite3_column_bytes(s, 0);
    out->assign(p, p + n);
    found = true;
  }
  ck->Reset(s);
  if (ck->rc == SQLITE_OK && !found) {
    ck->Msg("Node %lld missing from database", static_cast<long long>(id));
  }
  return found && ck->rc == SQLITE_OK;
}

void CheckMapping(Check* ck, bool leaf, int64_t key, int64_t val) {
  Stmt& s = ck->mapping[leaf ? 1 : 0];
  if (s == nullptr) {
    s = ck->Prep(leaf ? "SELECT nodeno FROM " + ck->Shadow("_rowid") + " WHERE rowid=?1"
                      : "SELECT parentnode FROM " + ck->Shadow("_parent") + " WHERE nodeno=?1");
  }
  if (ck->rc != SQLITE_OK) return;
  const char* table = leaf ? "%_rowid" : "%_parent";
  sqlite3_bind_int64(s.get(), 1, key);
  int rc = sqlite3_step(s.get());
  if (rc == SQLITE_DONE) {
    ck->Msg("Mapping (%lld -> %lld) missing from %s table", static_cast<long long>(key),
            static_cast<long long>(val), table);
  } else if (rc == SQLITE_ROW) {
    int64_t got = sqlite3_column_int64(s.get(), 0);
    if (got != val) {
      ck->Msg("Found (%lld -> %lld) in %s table, expected (%lld -> %lld)",
              static_cast<long long>(key), static_cast<long long>(got), table,
              static_cast<long long>(key), static_cast<long long>(val));
    }
  }
  ck->Reset(s.get());
}

bool Greater(bool is_int, uint32_t a, uint32_t b) {
  Coord x, y;
  x.u = a;
  y.u = b;
  return is_int ? x.i > y.i : x.f > y.f;
}

void CheckCoords(Check* ck, int64_t node, int cell, const uint8_t* c, const uint8_t* parent) {
  for (int d = 0; d < ck->ndim; ++d) {
    uint32_t lo = Get32(c + 8 * d), hi = Get32(c + 8 * d + 4);
    if (Greater(ck->is_int, lo, hi)) {
      ck->Msg("Dimension %d of cell %d on node %lld is corrupt", d, cell,
              static_cast<long long>(node));
    }
    if (parent != nullptr) {
      uint32_t plo = Get32(parent + 8 * d), phi = Get32(parent + 8 * d + 4);
      if (Greater(ck->is_int, plo, lo) || Greater(ck->is_int, hi, phi)) {
        ck->Msg("Dimension %d of cell %d on node %lld is corrupt relative to parent", d, cell,
                static_cast<long long>(node));
      }
    }
  }
}

void CheckNode(Check* ck, int depth, const uint8_t* parent, int64_t id) {
  std::vector<uint8_t> node;
  if (!GetNode(ck, id, &node)) return;
  const int n = int(node.size());
  if (n < 4) {
    ck->Msg("Node %lld is too small (%d bytes)", static_cast<long long>(id), n);
    return;
  }
  if (parent == nullptr) {
    depth = Get16(node.data());
    if (depth > kMaxDepth) {
      ck->Msg("Rtree depth out of range (%d)", depth);
      return;
    }
  }
  const int count = Get16(node.data() + 2);
  const int cell_bytes = 8 + ck->ndim * 2 * 4;
  if (4 + count * cell_bytes > n) {
    ck->Msg("Node %lld is too small for cell count of %d (%d bytes)", static_cast<long long>(id),
            count, n);
    return;
  }
  for (int i = 0; i < count; ++i) {
    const uint8_t* cell = node.data() + 4 + i * cell_bytes;
    int64_t val = Get64(cell);
    CheckCoords(ck, id, i, cell + 8, parent);
    if (depth > 0) {
      CheckMapping(ck, false, val, id);
      CheckNode(ck, depth - 1, cell + 8, val);
      ck->interior++;
    } else {
      CheckMapping(ck, true, val, id);
      ck->leaves++;
    }
  }
}

void CheckCount(Check* ck, const char* suffix, int64_t expect) {
  if (ck->rc != SQLITE_OK) return;
  Stmt s = ck->Prep("SELECT count(*) FROM " + ck->Shadow(suffix));
  if (s == nullptr) return;
  if (sqlite3_step(s.get()) == SQLITE_ROW) {
    int64_t actual = sqlite3_column_int64(s.get(), 0);
    if (actual != expect) {
      ck->Msg("Wrong number of entries in %%%s table - expected %lld, actual %lld", suffix,
              static_cast<long long>(expect), static_cast<long long>(actual));
    }
  }
  ck->rc = sqlite3_finalize(s.release());
}

int CheckTable(sqlite3* db, const char* db_name, const char* tab, std::string* report) {
  Check ck;
  ck.db = db;
  ck.db_name = db_name;
  ck.tab = tab;
  // SQLite wraps the check in BEGIN ... END for one snapshot; here the
  // statement calling rtreecheck() already holds its read transaction for
  // the whole call, and this library refuses END while it runs.
  int naux = 0;
  if (ck.rc == SQLITE_OK) {
    Stmt s = ck.Prep("SELECT * FROM " + ck.Shadow("_rowid"));
    if (s != nullptr) {
      naux = sqlite3_column_count(s.get()) - 2;
    } else if (ck.rc != SQLITE_NOMEM) {
      ck.rc = SQLITE_OK;
    }
  }
  Stmt s = ck.Prep("SELECT * FROM " + QuoteId(ck.db_name) + "." + QuoteId(ck.tab));
  if (s != nullptr) {
    ck.ndim = (sqlite3_column_count(s.get()) - 1 - naux) / 2;
    if (ck.ndim < 1) {
      ck.Msg("Schema corrupt or not an rtree");
    } else if (sqlite3_step(s.get()) == SQLITE_ROW) {
      ck.is_int = sqlite3_column_type(s.get(), 1) == SQLITE_INTEGER;
    }
    int rc = sqlite3_finalize(s.release());
    if (rc != SQLITE_CORRUPT) ck.rc = rc;
  }
  if (ck.ndim >= 1) {
    if (ck.rc == SQLITE_OK) CheckNode(&ck, 0, nullptr, 1);
    CheckCount(&ck, "_rowid", ck.leaves);
    CheckCount(&ck, "_parent", ck.interior);
  }
  ck.get_node.reset();
  ck.mapping[0].reset();
  ck.mapping[1].reset();
  *report = ck.report;
  return ck.rc;
}

void CheckFunc(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc != 1 && argc != 2) {
    sqlite3_result_error(ctx, "wrong number of arguments to function rtreecheck()", -1);
    return;
  }
  const char* db_name = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  const char* tab;
  if (argc == 1) {
    tab = db_name;
    db_name = "main";
  } else {
    tab = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  }
  std::string report;
  int rc = CheckTable(sqlite3_context_db_handle(ctx), db_name != nullptr ? db_name : "",
                      tab != nullptr ? tab : "", &report);
  if (rc == SQLITE_OK) {
    if (report.empty()) report = "ok";
    sqlite3_result_text(ctx, report.data(), int(report.size()), SQLITE_TRANSIENT);
  } else {
    sqlite3_result_error(ctx, sqlite3_errstr(rc), -1);
    sqlite3_result_error_code(ctx, rc);
  }
}

}  // namespace

int RegisterFunctions(sqlite3* db) {
  int rc = sqlite3_create_function(db, "rtreecheck", -1, SQLITE_UTF8, nullptr, CheckFunc, nullptr,
                                   nullptr);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, "rtreenode", 2, SQLITE_UTF8, nullptr, NodeFunc, nullptr,
                                 nullptr);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, "rtreedepth", 1, SQLITE_UTF8, nullptr, DepthFunc, nullptr,
                                 nullptr);
  }
  return rc;
}

}  // namespace basalt::rtree

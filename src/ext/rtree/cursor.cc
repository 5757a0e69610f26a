// Queries: xBestIndex picks a rowid lookup or a tree walk with one
// constraint per (operator, coordinate); the walk is a best-first search
// over a priority queue of search points (a node to expand, or a leaf
// entry to return), ordered by score and then by level, so with no
// scoring callback it runs depth first. The queue is a binary heap plus
// one cached head point, worked exactly as SQLite's rtree works it, so
// rows come out in the same order.
#include <cstring>
#include <vector>

#include "common/assert.h"
#include "ext/rtree/cursor.h"

namespace basalt::rtree {
namespace {

// Bytes of nodes read-only statements may leave cached for the next ones.
constexpr size_t kKeptBytes = size_t{4} << 20;

Cursor* AsCursor(sqlite3_vtab_cursor* c) { return reinterpret_cast<Cursor*>(c); }
Rtree* RtreeOf(Cursor* c) { return reinterpret_cast<Rtree*>(c->base.pVtab); }

int ComparePoints(const SearchPoint& a, const SearchPoint& b) {
  if (a.score < b.score) return -1;
  if (a.score > b.score) return 1;
  if (a.level < b.level) return -1;
  if (a.level > b.level) return 1;
  return 0;
}

SearchPoint* First(Cursor* c) {
  if (c->has_head) return &c->head;
  return c->heap.empty() ? nullptr : &c->heap[0];
}

SearchPoint* HeapPush(Cursor* c, double score, uint8_t level) {
  c->heap.push_back(SearchPoint{});
  size_t i = c->heap.size() - 1;
  c->heap[i].score = score;
  c->heap[i].level = level;
  while (i > 0) {
    size_t j = (i - 1) / 2;
    if (ComparePoints(c->heap[i], c->heap[j]) >= 0) break;
    std::swap(c->heap[i], c->heap[j]);
    i = j;
  }
  return &c->heap[i];
}

SearchPoint* NewPoint(Cursor* c, double score, uint8_t level) {
  SearchPoint* first = First(c);
  c->queued[level]++;
  if (first == nullptr || first->score > score || (first->score == score && first->level > level)) {
    if (c->has_head) {
      // The old head enters the heap sifted by the new point's key, then
      // takes the slot: SQLite's queue does the same, and the order of
      // rows depends on it.
      SearchPoint* p = HeapPush(c, score, level);
      *p = c->head;
    }
    c->head = SearchPoint{};
    c->head.score = score;
    c->head.level = level;
    c->has_head = true;
    return &c->head;
  }
  return HeapPush(c, score, level);
}

void PopPoint(Cursor* c) {
  BASALT_DCHECK(c->has_head || !c->heap.empty());
  if (c->has_head) {
    c->queued[c->head.level]--;
    c->has_head = false;
    return;
  }
  if (c->heap.empty()) return;
  c->queued[c->heap[0].level]--;
  c->heap[0] = c->heap.back();
  c->heap.pop_back();
  const size_t n = c->heap.size();
  size_t i = 0;
  for (;;) {
    size_t j = i * 2 + 1;
    if (j >= n) break;
    size_t k = j + 1;
    size_t pick = (k < n && ComparePoints(c->heap[k], c->heap[j]) < 0) ? k : j;
    if (ComparePoints(c->heap[pick], c->heap[i]) >= 0) break;
    std::swap(c->heap[i], c->heap[pick]);
    i = pick;
  }
}

// The node of the head point, kept pinned while the head does not move.
int HeadNode(Cursor* c, Node** out) {
  SearchPoint* p = First(c);
  if (c->node == nullptr || c->node->id != p->id) {
    int rc = Acquire(RtreeOf(c), p->id, 0, &c->node);
    if (rc != SQLITE_OK) return rc;
  }
  *out = c->node.get();
  return SQLITE_OK;
}

double Decode(bool is_int, const uint8_t* p) {
  Coord c;
  c.u = Get32(p);
  return is_int ? double(c.i) : double(c.f);
}

// Narrows *within for an interior cell: can any child meet the constraint?
void InteriorTest(const Constraint& k, bool is_int, const uint8_t* cell, int* within) {
  const uint8_t* p = cell + 8 + 4 * (k.coord & ~1);
  switch (k.op) {
    case kOpTrue:
      return;
    case kOpFalse:
      break;
    case kOpEq:
      if (k.value >= Decode(is_int, p) && k.value <= Decode(is_int, p + 4)) return;
      break;
    case kOpLe:
    case kOpLt:
      if (k.value >= Decode(is_int, p)) return;
      break;
    default:
      if (k.value <= Decode(is_int, p + 4)) return;
      break;
  }
  *within = NOT_WITHIN;
}

void LeafTest(const Constraint& k, bool is_int, const uint8_t* cell, int* within) {
  double x = Decode(is_int, cell + 8 + k.coord * 4);
  bool ok;
  switch (k.op) {
    case kOpTrue:
      return;
    case kOpFalse:
      ok = false;
      break;
    case kOpLe:
      ok = x <= k.value;
      break;
    case kOpLt:
      ok = x < k.value;
      break;
    case kOpGe:
      ok = x >= k.value;
      break;
    case kOpGt:
      ok = x > k.value;
      break;
    default:
      ok = x == k.value;
      break;
  }
  if (!ok) *within = NOT_WITHIN;
}

// Advances the search until the head is a leaf entry (a row) or the
// queue is empty.
int StepToLeaf(Cursor* c) {
  Rtree* rt = RtreeOf(c);
  const bool is_int = rt->is_int;
  SearchPoint* p;
  while ((p = First(c)) != nullptr && p->level > 0) {
    Node* node = nullptr;
    int rc = HeadNode(c, &node);
    if (rc != SQLITE_OK) return rc;
    const int count = node->count();
    const uint8_t* cell = node->data.data() + 4 + rt->cell_bytes * p->cell;
    while (p->cell < count) {
      double score = -1;
      int within = FULLY_WITHIN;
      for (Constraint& k : c->constraints) {
        if (k.op >= kOpMatch) {
          rc = CallbackTest(&k, is_int, cell, *p, &score, &within);
          if (rc != SQLITE_OK) return rc;
        } else if (p->level == 1) {
          LeafTest(k, is_int, cell, &within);
        } else {
          InteriorTest(k, is_int, cell, &within);
        }
        if (within == NOT_WITHIN) break;
      }
      if (within == NOT_WITHIN) {
        p->cell++;
        cell += rt->cell_bytes;
        continue;
      }
      p->cell++;
      SearchPoint x;
      x.level = uint8_t(p->level - 1);
      if (x.level > 0) {
        x.id = Get64(cell);
        for (const SearchPoint& q : c->heap) {
          if (q.id == x.id) return SQLITE_CORRUPT_VTAB;
        }
        x.cell = 0;
      } else {
        x.id = p->id;
        x.cell = uint8_t(p->cell - 1);
      }
      if (p->cell >= count) PopPoint(c);
      if (score < 0) score = 0;
      p = NewPoint(c, score, x.level);
      p->within = uint8_t(within);
      p->id = x.id;
      p->cell = x.cell;
      break;
    }
    if (p->cell >= count) PopPoint(c);
  }
  c->eof = p == nullptr;
  if (c->eof && c->scanning) {
    c->scanning = false;
    rt->scanning--;
  }
  return SQLITE_OK;
}

void ResetCursor(Cursor* c) {
  c->constraints.clear();
  c->heap.clear();
  c->has_head = false;
  c->node.reset();
  c->aux_valid = false;
  std::memset(c->queued, 0, sizeof(c->queued));
  if (c->scanning) {
    c->scanning = false;
    RtreeOf(c)->scanning--;
  }
  c->eof = false;
}

}  // namespace

int RtreeBestIndex(sqlite3_vtab* vt, sqlite3_index_info* info) {
  Rtree* rt = reinterpret_cast<Rtree*>(vt);
  bool match = false;
  for (int i = 0; i < info->nConstraint; ++i) {
    if (info->aConstraint[i].op == SQLITE_INDEX_CONSTRAINT_MATCH) match = true;
  }
  char idx[kMaxDims * 8 + 1] = {};
  int n = 0;
  for (int i = 0; i < info->nConstraint && n < int(sizeof(idx)) - 1; ++i) {
    const auto& k = info->aConstraint[i];
    if (!match && k.usable && k.iColumn <= 0 && k.op == SQLITE_INDEX_CONSTRAINT_EQ) {
      // A rowid lookup: two b-tree searches and a scan of one leaf.
      for (int j = 0; j < i; ++j) {
        info->aConstraintUsage[j].argvIndex = 0;
        info->aConstraintUsage[j].omit = 0;
      }
      info->idxNum = 1;
      info->aConstraintUsage[i].argvIndex = 1;
      info->aConstraintUsage[i].omit = 1;
      info->estimatedCost = 30.0;
      info->estimatedRows = 1;
      info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
      return SQLITE_OK;
    }
    if (k.usable &&
        ((k.iColumn > 0 && k.iColumn <= rt->ndim2) || k.op == SQLITE_INDEX_CONSTRAINT_MATCH)) {
      char op = 0;
      switch (k.op) {
        case SQLITE_INDEX_CONSTRAINT_EQ:
          op = kOpEq;
          break;
        case SQLITE_INDEX_CONSTRAINT_GT:
          op = kOpGt;
          break;
        case SQLITE_INDEX_CONSTRAINT_LE:
          op = kOpLe;
          break;
        case SQLITE_INDEX_CONSTRAINT_LT:
          op = kOpLt;
          break;
        case SQLITE_INDEX_CONSTRAINT_GE:
          op = kOpGe;
          break;
        case SQLITE_INDEX_CONSTRAINT_MATCH:
          op = kOpMatch;
          break;
        default:
          break;
      }
      if (op != 0) {
        idx[n++] = op;
        idx[n++] = char(k.iColumn - 1 + '0');
        info->aConstraintUsage[i].argvIndex = n / 2;
        info->aConstraintUsage[i].omit = 1;
      }
    }
  }
  info->idxNum = 2;
  info->needToFreeIdxStr = 1;
  if (n > 0) {
    info->idxStr = sqlite3_mprintf("%s", idx);
    if (info->idxStr == nullptr) return SQLITE_NOMEM;
  }
  int64_t rows = rt->row_est >> (n / 2);
  info->estimatedCost = 6.0 * double(rows);
  info->estimatedRows = rows;
  return SQLITE_OK;
}

int RtreeOpen(sqlite3_vtab* vt, sqlite3_vtab_cursor** out) {
  auto* c = new Cursor();
  c->base.pVtab = vt;
  reinterpret_cast<Rtree*>(vt)->cursors++;
  *out = &c->base;
  return SQLITE_OK;
}

int RtreeClose(sqlite3_vtab_cursor* cur) {
  Cursor* c = AsCursor(cur);
  Rtree* rt = RtreeOf(c);
  ResetCursor(c);
  delete c;
  rt->cursors--;
  // Between autocommit statements the cache stays for the next one
  // (ValidateCache), unless large. Inside a transaction it goes: a
  // ROLLBACK of direct writes to the shadow tables would leave no trace
  // in total_changes() or data_version.
  if (!rt->in_write && rt->cursors == 0 &&
      (!sqlite3_get_autocommit(rt->db) || rt->cache.size() * size_t(rt->node_size) > kKeptBytes)) {
    ResetCache(rt);
  }
  return SQLITE_OK;
}

int RtreeFilter(sqlite3_vtab_cursor* cur, int idx_num, const char* idx_str, int argc,
                sqlite3_value** argv) {
  Cursor* c = AsCursor(cur);
  Rtree* rt = RtreeOf(c);
  ResetCursor(c);
  int rc0 = ValidateCache(rt);
  if (rc0 != SQLITE_OK) return rc0;
  c->scanning = true;
  rt->scanning++;
  if (idx_num == 1) {
    int64_t rowid = sqlite3_value_int64(argv[0]);
    int type = sqlite3_value_numeric_type(argv[0]);
    std::shared_ptr<Node> leaf;
    int64_t node_id = 0;
    int rc = SQLITE_OK;
    if (type == SQLITE_INTEGER ||
        (type == SQLITE_FLOAT && sqlite3_value_double(argv[0]) == double(rowid))) {
      rc = FindLeaf(rt, rowid, &leaf, &node_id);
    }
    if (rc == SQLITE_OK && leaf != nullptr) {
      SearchPoint* p = NewPoint(c, 0, 0);
      p->id = node_id;
      p->within = PARTLY_WITHIN;
      int idx = 0;
      rc = CellIndex(rt, leaf.get(), rowid, &idx);
      p->cell = uint8_t(idx);
      c->node = std::move(leaf);
    } else {
      c->eof = true;
      c->scanning = false;
      rt->scanning--;
    }
    return rc;
  }
  std::shared_ptr<Node> root;
  int rc = Acquire(rt, 1, 0, &root);
  if (rc != SQLITE_OK) return rc;
  c->constraints.resize(size_t(argc));
  for (int i = 0; i < argc; ++i) {
    Constraint& k = c->constraints[size_t(i)];
    k.op = idx_str[i * 2];
    k.coord = idx_str[i * 2 + 1] - '0';
    if (k.op >= kOpMatch) {
      rc = LoadMatchArg(rt->db, argv[i], &k, rt->ndim2, c->queued, rt->depth + 1);
      if (rc != SQLITE_OK) return rc;
      continue;
    }
    int type = sqlite3_value_numeric_type(argv[i]);
    if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
      k.value = sqlite3_value_double(argv[i]);
    } else {
      k.value = 0;
      k.op = (type != SQLITE_NULL && (k.op == kOpLt || k.op == kOpLe)) ? kOpTrue : kOpFalse;
    }
  }
  SearchPoint* p = NewPoint(c, 0, uint8_t(rt->depth + 1));
  p->id = 1;
  p->cell = 0;
  p->within = PARTLY_WITHIN;
  c->node = std::move(root);
  return StepToLeaf(c);
}

int RtreeNext(sqlite3_vtab_cursor* cur) {
  Cursor* c = AsCursor(cur);
  if (c->aux_valid) {
    c->aux_valid = false;
    sqlite3_reset(c->read_aux.get());
  }
  PopPoint(c);
  return StepToLeaf(c);
}

int RtreeEof(sqlite3_vtab_cursor* cur) { return AsCursor(cur)->eof ? 1 : 0; }

int RtreeRowid(sqlite3_vtab_cursor* cur, sqlite3_int64* out) {
  Cursor* c = AsCursor(cur);
  Node* node = nullptr;
  int rc = HeadNode(c, &node);
  if (rc == SQLITE_OK) *out = CellId(RtreeOf(c), node, First(c)->cell);
  return rc;
}

int RtreeColumn(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int i) {
  Cursor* c = AsCursor(cur);
  Rtree* rt = RtreeOf(c);
  Node* node = nullptr;
  int rc = HeadNode(c, &node);
  if (rc != SQLITE_OK) return rc;
  const int cell = First(c)->cell;
  if (i == 0) {
    sqlite3_result_int64(ctx, CellId(rt, node, cell));
  } else if (i <= rt->ndim2) {
    Coord v;
    v.u = Get32(node->data.data() + 4 + rt->cell_bytes * cell + 8 + 4 * (i - 1));
    if (rt->is_int) {
      sqlite3_result_int(ctx, v.i);
    } else {
      sqlite3_result_double(ctx, double(v.f));
    }
  } else {
    if (!c->aux_valid) {
      if (c->read_aux == nullptr) {
        rc = Prepare(rt->db, rt->read_aux_sql, &c->read_aux);
        if (rc != SQLITE_OK) return rc;
      }
      sqlite3_bind_int64(c->read_aux.get(), 1, CellId(rt, node, cell));
      rc = sqlite3_step(c->read_aux.get());
      if (rc != SQLITE_ROW) {
        sqlite3_reset(c->read_aux.get());
        return rc == SQLITE_DONE ? SQLITE_OK : rc;
      }
      c->aux_valid = true;
    }
    sqlite3_result_value(ctx, sqlite3_column_value(c->read_aux.get(), i - rt->ndim2 + 1));
  }
  return SQLITE_OK;
}

}  // namespace basalt::rtree

// Insertion into the tree: the R*-tree ChooseSubtree (least enlargement,
// ties to the smaller area), forced reinsertion of the cells farthest from
// the node's centre once per height and insert, and the R*-tree split
// (axis of least margin sum, then distribution of least overlap, ties to
// least area). Every choice and every sort below breaks ties the way
// SQLite's rtree does, so both engines build the same tree from the same
// statements.
#include <algorithm>
#include <vector>

#include "common/assert.h"
#include "ext/rtree/rtree.h"

namespace basalt::rtree {
namespace {

// Volume of a cell. Float differences are taken in float, as SQLite does.
double Area(const Rtree* rt, const Cell& c) {
  double area = 1.0;
  for (int d = rt->ndim - 1; d >= 0; --d) {
    if (rt->is_int) {
      area *= double(int64_t{c.c[2 * d + 1].i} - int64_t{c.c[2 * d].i});
    } else {
      float diff = c.c[2 * d + 1].f - c.c[2 * d].f;
      area *= diff;
    }
  }
  return area;
}

double Margin(const Rtree* rt, const Cell& c) {
  double margin = 0;
  for (int k = rt->ndim2 - 2; k >= 0; k -= 2) margin += rt->Dc(c.c[k + 1]) - rt->Dc(c.c[k]);
  return margin;
}

bool Contains(const Rtree* rt, const Cell& outer, const Cell& inner) {
  for (int k = 0; k < rt->ndim2; k += 2) {
    bool out = rt->is_int ? (inner.c[k].i < outer.c[k].i || inner.c[k + 1].i > outer.c[k + 1].i)
                          : (inner.c[k].f < outer.c[k].f || inner.c[k + 1].f > outer.c[k + 1].f);
    if (out) return false;
  }
  return true;
}

double Overlap(const Rtree* rt, const Cell& a, const Cell& b) {
  double o = 1.0;
  for (int k = 0; k < rt->ndim2; k += 2) {
    double lo = std::max(rt->Dc(a.c[k]), rt->Dc(b.c[k]));
    double hi = std::min(rt->Dc(a.c[k + 1]), rt->Dc(b.c[k + 1]));
    if (hi < lo) return 0.0;
    o *= hi - lo;
  }
  return o;
}

// Top-down merge sort of idx[0..n) (halves of n/2 and n-n/2); the merge
// takes from the left run while take_left(left, right) holds. The split
// and the tie rule fix the order of equal keys.
template <typename TakeLeft>
void MergeSort(int* idx, int n, int* spare, const TakeLeft& take_left) {
  if (n < 2) return;
  int nl = n / 2;
  int nr = n - nl;
  MergeSort(idx, nl, spare, take_left);
  MergeSort(idx + nl, nr, spare, take_left);
  std::copy(idx, idx + nl, spare);
  const int* left = spare;
  const int* right = idx + nl;
  int l = 0;
  int r = 0;
  while (l < nl || r < nr) {
    if (l < nl && (r == nr || take_left(left[l], right[r]))) {
      idx[l + r] = left[l];
      ++l;
    } else {
      idx[l + r] = right[r];
      ++r;
    }
  }
}

int UpdateMapping(Rtree* rt, int64_t id, const Node* node, int height) {
  if (height > 0) {
    auto it = rt->cache.find(id);
    if (it != rt->cache.end()) it->second->parent = node->id;
    return WriteParentMap(rt, id, node->id);
  }
  return WriteRowidMap(rt, id, node->id);
}

int AdjustTree(Rtree* rt, Node* node, const Cell& c) {
  Node* p = node;
  std::shared_ptr<Node> parent;
  for (int guard = 0;; ++guard) {
    int rc = ParentOf(rt, p, &parent);
    if (rc != SQLITE_OK) return rc;
    if (parent == nullptr) return SQLITE_OK;
    if (guard > 100) return SQLITE_CORRUPT_VTAB;
    int idx = 0;
    rc = CellIndex(rt, parent.get(), p->id, &idx);
    if (rc != SQLITE_OK) return rc;
    Cell pc;
    ReadCell(rt, parent.get(), idx, &pc);
    if (!Contains(rt, pc, c)) {
      CellUnion(rt, &pc, c);
      WriteCell(rt, parent.get(), pc, idx);
    }
    p = parent.get();
  }
}

// Distributes cells[] between left and right (both empty) and returns
// their bounding boxes.
void SplitCells(const Rtree* rt, const std::vector<Cell>& cells, Node* left, Node* right,
                Cell* left_box, Cell* right_box) {
  const int n = int(cells.size());
  const int m = rt->min_cells();
  // A full node plus the new cell: both halves get at least m cells.
  BASALT_DCHECK(n == rt->max_cells() + 1 && 2 * m <= n);
  std::vector<int> sorted(static_cast<size_t>(rt->ndim * n));
  std::vector<int> spare(static_cast<size_t>(n));
  std::vector<double> lo(static_cast<size_t>(n)), hi(static_cast<size_t>(n));
  for (int d = 0; d < rt->ndim; ++d) {
    int* idx = &sorted[size_t(d * n)];
    for (int i = 0; i < n; ++i) {
      idx[i] = i;
      lo[size_t(i)] = rt->Dc(cells[size_t(i)].c[2 * d]);
      hi[size_t(i)] = rt->Dc(cells[size_t(i)].c[2 * d + 1]);
    }
    MergeSort(idx, n, spare.data(), [&](int a, int b) {
      const double a1 = lo[size_t(a)], b1 = lo[size_t(b)];
      return a1 < b1 || (a1 == b1 && hi[size_t(a)] < hi[size_t(b)]);
    });
  }
  int best_dim = 0;
  int best_split = 0;
  double best_margin = 0;
  for (int d = 0; d < rt->ndim; ++d) {
    const int* idx = &sorted[size_t(d * n)];
    double margin = 0;
    double best_overlap = 0;
    double best_area = 0;
    int best_left = 0;
    for (int nl = m; nl <= n - m; ++nl) {
      Cell l = cells[idx[0]];
      Cell r = cells[idx[n - 1]];
      for (int k = 1; k < n - 1; ++k) CellUnion(rt, k < nl ? &l : &r, cells[idx[k]]);
      margin += Margin(rt, l) + Margin(rt, r);
      double overlap = Overlap(rt, l, r);
      double area = Area(rt, l) + Area(rt, r);
      if (nl == m || overlap < best_overlap || (overlap == best_overlap && area < best_area)) {
        best_left = nl;
        best_overlap = overlap;
        best_area = area;
      }
    }
    if (d == 0 || margin < best_margin) {
      best_dim = d;
      best_margin = margin;
      best_split = best_left;
    }
  }
  const int* idx = &sorted[size_t(best_dim * n)];
  *left_box = cells[idx[0]];
  *right_box = cells[idx[best_split]];
  for (int i = 0; i < n; ++i) {
    const Cell& c = cells[idx[i]];
    AppendCell(rt, i < best_split ? left : right, c);
    CellUnion(rt, i < best_split ? left_box : right_box, c);
  }
}

int SplitNode(Rtree* rt, const std::shared_ptr<Node>& node, const Cell& cell, int height) {
  const int count = node->count();
  std::vector<Cell> cells(static_cast<size_t>(count + 1));
  for (int i = 0; i < count; ++i) ReadCell(rt, node.get(), i, &cells[size_t(i)]);
  cells[size_t(count)] = cell;
  std::fill(node->data.begin() + 2, node->data.end(), 0);
  node->dirty = true;

  const bool is_root = node->id == 1;
  std::shared_ptr<Node> left, right;
  if (is_root) {
    right = NewNode(rt, 1);
    left = NewNode(rt, 1);
    rt->depth++;
    Put16(node->data.data(), rt->depth);
  } else {
    // The parent must be known: the new right node shares it.
    std::shared_ptr<Node> parent;
    int rc = ParentOf(rt, node.get(), &parent);
    if (rc == SQLITE_OK && parent == nullptr) rc = SQLITE_CORRUPT_VTAB;
    if (rc != SQLITE_OK) return rc;
    left = node;
    right = NewNode(rt, node->parent);
  }
  std::fill(left->data.begin(), left->data.end(), 0);
  Cell left_box, right_box;
  SplitCells(rt, cells, left.get(), right.get(), &left_box, &right_box);

  // Both halves need numbers: the right one always, the left one when new.
  int rc = WriteNode(rt, right);
  if (rc == SQLITE_OK && left->id == 0) rc = WriteNode(rt, left);
  if (rc != SQLITE_OK) return rc;
  right_box.id = right->id;
  left_box.id = left->id;

  if (is_root) {
    rc = InsertCell(rt, node, left_box, height + 1);
  } else {
    std::shared_ptr<Node> parent;
    rc = ParentOf(rt, left.get(), &parent);
    if (rc == SQLITE_OK && parent == nullptr) rc = SQLITE_CORRUPT_VTAB;
    int idx = 0;
    if (rc == SQLITE_OK) rc = CellIndex(rt, parent.get(), left->id, &idx);
    if (rc == SQLITE_OK) {
      WriteCell(rt, parent.get(), left_box, idx);
      rc = AdjustTree(rt, parent.get(), left_box);
    }
  }
  if (rc != SQLITE_OK) return rc;
  std::shared_ptr<Node> right_parent;
  rc = ParentOf(rt, right.get(), &right_parent);
  if (rc == SQLITE_OK && right_parent == nullptr) rc = SQLITE_CORRUPT_VTAB;
  if (rc == SQLITE_OK) rc = InsertCell(rt, right_parent, right_box, height + 1);
  if (rc != SQLITE_OK) return rc;

  bool new_cell_right = false;
  for (int i = 0; i < right->count(); ++i) {
    int64_t id = CellId(rt, right.get(), i);
    rc = UpdateMapping(rt, id, right.get(), height);
    if (id == cell.id) new_cell_right = true;
    if (rc != SQLITE_OK) return rc;
  }
  if (is_root) {
    for (int i = 0; i < left->count(); ++i) {
      rc = UpdateMapping(rt, CellId(rt, left.get(), i), left.get(), height);
      if (rc != SQLITE_OK) return rc;
    }
  } else if (!new_cell_right) {
    rc = UpdateMapping(rt, cell.id, left.get(), height);
  }
  return rc;
}

// Keeps the cells nearest the node's centre and reinserts the others.
int Reinsert(Rtree* rt, const std::shared_ptr<Node>& node, const Cell& cell, int height) {
  const int n = node->count() + 1;
  std::vector<Cell> cells(static_cast<size_t>(n));
  std::vector<int> order(static_cast<size_t>(n)), spare(static_cast<size_t>(n));
  std::vector<double> dist(size_t(n), 0.0);
  double center[kMaxDims] = {};
  for (int i = 0; i < n; ++i) {
    if (i == n - 1) {
      cells[size_t(i)] = cell;
    } else {
      ReadCell(rt, node.get(), i, &cells[size_t(i)]);
    }
    order[size_t(i)] = i;
    for (int d = 0; d < rt->ndim; ++d) {
      center[d] += rt->Dc(cells[size_t(i)].c[2 * d]);
      center[d] += rt->Dc(cells[size_t(i)].c[2 * d + 1]);
    }
  }
  for (int d = 0; d < rt->ndim; ++d) center[d] = center[d] / (n * 2.0);
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < rt->ndim; ++d) {
      // The extent, not the centre, of the cell: SQLite's measure.
      double x = rt->Dc(cells[size_t(i)].c[2 * d + 1]) - rt->Dc(cells[size_t(i)].c[2 * d]);
      dist[size_t(i)] += (x - center[d]) * (x - center[d]);
    }
  }
  MergeSort(order.data(), n, spare.data(),
            [&](int a, int b) { return dist[size_t(a)] < dist[size_t(b)]; });
  std::fill(node->data.begin() + 2, node->data.end(), 0);
  node->dirty = true;

  int rc = SQLITE_OK;
  int i = 0;
  const int keep = n - (rt->min_cells() + 1);
  for (; rc == SQLITE_OK && i < keep; ++i) {
    const Cell& c = cells[size_t(order[size_t(i)])];
    AppendCell(rt, node.get(), c);
    if (c.id == cell.id) {
      rc = height == 0 ? WriteRowidMap(rt, c.id, node->id) : WriteParentMap(rt, c.id, node->id);
    }
  }
  if (rc == SQLITE_OK) rc = FixBoundingBox(rt, node.get());
  for (; rc == SQLITE_OK && i < n; ++i) {
    const Cell& c = cells[size_t(order[size_t(i)])];
    std::shared_ptr<Node> target;
    rc = ChooseLeaf(rt, c, height, &target);
    if (rc == SQLITE_OK) rc = InsertCell(rt, target, c, height);
  }
  return rc;
}

}  // namespace

void CellUnion(const Rtree* rt, Cell* a, const Cell& b) {
  const int n = rt->ndim2;
  if (rt->is_int) {
    for (int k = 0; k < n; k += 2) {
      a->c[k].i = std::min(a->c[k].i, b.c[k].i);
      a->c[k + 1].i = std::max(a->c[k + 1].i, b.c[k + 1].i);
    }
  } else {
    for (int k = 0; k < n; k += 2) {
      a->c[k].f = std::min(a->c[k].f, b.c[k].f);
      a->c[k + 1].f = std::max(a->c[k + 1].f, b.c[k + 1].f);
    }
  }
}

// The child of `node` whose area grows least if it took in `c`, ties to
// the smaller area: the same arithmetic as Area() and CellUnion()
// on the stored bytes (ChooseLeaf runs it for every cell on its path).
template <bool kInt, int kDims>
static int64_t BestChild(const Rtree* rt, const Node& node, const Cell& c) {
  int64_t best = 0;
  double min_growth = 0;
  double min_area = 0;
  const int count = node.count();
  const uint8_t* cell = node.data.data() + 4;
  for (int i = 0; i < count; ++i, cell += rt->cell_bytes) {
    double area = 1.0;
    double grown = 1.0;
    for (int d = kDims - 1; d >= 0; --d) {  // unrolled: kDims is a constant
      Coord lo, hi;
      lo.u = Get32(cell + 8 + 8 * d);
      hi.u = Get32(cell + 12 + 8 * d);
      if constexpr (kInt) {
        int32_t ulo = std::min(lo.i, c.c[2 * d].i);
        int32_t uhi = std::max(hi.i, c.c[2 * d + 1].i);
        area *= double(int64_t{hi.i} - int64_t{lo.i});
        grown *= double(int64_t{uhi} - int64_t{ulo});
      } else {
        float ulo = std::min(lo.f, c.c[2 * d].f);
        float uhi = std::max(hi.f, c.c[2 * d + 1].f);
        float diff = hi.f - lo.f;
        float udiff = uhi - ulo;
        area *= diff;
        grown *= udiff;
      }
    }
    const double growth = grown - area;
    if (i == 0 || growth < min_growth || (growth == min_growth && area < min_area)) {
      min_growth = growth;
      min_area = area;
      best = Get64(cell);
    }
  }
  return best;
}

template <bool kInt>
static int64_t BestChildOf(const Rtree* rt, const Node& node, const Cell& c) {
  switch (rt->ndim) {
    case 1:
      return BestChild<kInt, 1>(rt, node, c);
    case 2:
      return BestChild<kInt, 2>(rt, node, c);
    case 3:
      return BestChild<kInt, 3>(rt, node, c);
    case 4:
      return BestChild<kInt, 4>(rt, node, c);
    default:
      return BestChild<kInt, 5>(rt, node, c);
  }
}

int ChooseLeaf(Rtree* rt, const Cell& c, int height, std::shared_ptr<Node>* out) {
  std::shared_ptr<Node> node;
  int rc = Acquire(rt, 1, 0, &node);
  for (int level = 0; rc == SQLITE_OK && level < rt->depth - height; ++level) {
    const int64_t best =
        rt->is_int ? BestChildOf<true>(rt, *node, c) : BestChildOf<false>(rt, *node, c);
    std::shared_ptr<Node> child;
    rc = Acquire(rt, best, node->id, &child);
    node = std::move(child);
  }
  *out = rc == SQLITE_OK ? std::move(node) : nullptr;
  return rc;
}

int InsertCell(Rtree* rt, const std::shared_ptr<Node>& node, const Cell& c, int height) {
  if (height > 0) {
    auto it = rt->cache.find(c.id);
    if (it != rt->cache.end()) it->second->parent = node->id;
  }
  if (!AppendCell(rt, node.get(), c)) {
    if (height <= rt->reinsert_height || node->id == 1) return SplitNode(rt, node, c, height);
    rt->reinsert_height = height;
    return Reinsert(rt, node, c, height);
  }
  int rc = AdjustTree(rt, node.get(), c);
  if (rc != SQLITE_OK) return rc;
  return height == 0 ? WriteRowidMap(rt, c.id, node->id) : WriteParentMap(rt, c.id, node->id);
}

int FixBoundingBox(Rtree* rt, Node* node) {
  std::shared_ptr<Node> parent;
  int rc = ParentOf(rt, node, &parent);
  if (rc != SQLITE_OK || parent == nullptr) return rc;
  Cell box;
  ReadCell(rt, node, 0, &box);
  for (int i = 1; i < node->count(); ++i) {
    Cell c;
    ReadCell(rt, node, i, &c);
    CellUnion(rt, &box, c);
  }
  box.id = node->id;
  int idx = 0;
  rc = CellIndex(rt, parent.get(), node->id, &idx);
  if (rc != SQLITE_OK) return rc;
  WriteCell(rt, parent.get(), box, idx);
  return FixBoundingBox(rt, parent.get());
}

}  // namespace basalt::rtree

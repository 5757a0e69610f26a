// Deletion: the cell leaves its leaf; a non-root node left with fewer
// than min_cells() cells is removed (recursively up the tree) and its
// cells are reinserted at their height afterwards; a root left with one
// child absorbs it, and the tree loses a level.
#include "ext/rtree/rtree.h"

namespace basalt::rtree {
namespace {

int DeleteCell(Rtree* rt, const std::shared_ptr<Node>& node, int idx, int height);

// Unlinks `node` from its parent and the shadow tables; keeps it, with its
// height, on rt->removed for reinsertion.
int RemoveNode(Rtree* rt, const std::shared_ptr<Node>& node, int height) {
  std::shared_ptr<Node> parent;
  int rc = ParentOf(rt, node.get(), &parent);
  if (rc == SQLITE_OK && parent == nullptr) rc = SQLITE_CORRUPT_VTAB;
  int idx = 0;
  if (rc == SQLITE_OK) rc = CellIndex(rt, parent.get(), node->id, &idx);
  if (rc == SQLITE_OK) {
    node->parent = 0;
    rc = DeleteCell(rt, parent, idx, height + 1);
  }
  if (rc != SQLITE_OK) return rc;
  sqlite3_stmt* s = rt->delete_node.get();
  sqlite3_bind_int64(s, 1, node->id);
  sqlite3_step(s);
  rc = sqlite3_reset(s);
  if (rc != SQLITE_OK) return rc;
  s = rt->delete_parent.get();
  sqlite3_bind_int64(s, 1, node->id);
  sqlite3_step(s);
  rc = sqlite3_reset(s);
  if (rc != SQLITE_OK) return rc;
  rt->cache.erase(node->id);
  node->dirty = false;  // its row is gone: never written again
  node->height = height;
  rt->removed.push_back(node);
  return SQLITE_OK;
}

int DeleteCell(Rtree* rt, const std::shared_ptr<Node>& node, int idx, int height) {
  std::shared_ptr<Node> parent;
  int rc = ParentOf(rt, node.get(), &parent);
  if (rc != SQLITE_OK) return rc;
  DeleteCellBytes(rt, node.get(), idx);
  if (parent == nullptr) return SQLITE_OK;
  if (node->count() < rt->min_cells()) return RemoveNode(rt, node, height);
  return FixBoundingBox(rt, node.get());
}

int ReinsertContent(Rtree* rt, const Node& node) {
  int rc = SQLITE_OK;
  for (int i = 0; rc == SQLITE_OK && i < node.count(); ++i) {
    Cell c;
    ReadCell(rt, &node, i, &c);
    std::shared_ptr<Node> target;
    rc = ChooseLeaf(rt, c, node.height, &target);
    if (rc == SQLITE_OK) rc = InsertCell(rt, target, c, node.height);
  }
  return rc;
}

}  // namespace

int DeleteRowid(Rtree* rt, int64_t rowid) {
  std::shared_ptr<Node> root;
  int rc = Acquire(rt, 1, 0, &root);
  std::shared_ptr<Node> leaf;
  if (rc == SQLITE_OK) rc = FindLeaf(rt, rowid, &leaf, nullptr);
  if (rc == SQLITE_OK && leaf != nullptr) {
    int idx = 0;
    rc = CellIndex(rt, leaf.get(), rowid, &idx);
    if (rc == SQLITE_OK) rc = DeleteCell(rt, leaf, idx, 0);
  }
  if (rc == SQLITE_OK) {
    sqlite3_stmt* s = rt->delete_rowid.get();
    sqlite3_bind_int64(s, 1, rowid);
    sqlite3_step(s);
    rc = sqlite3_reset(s);
  }
  // A root with a single child takes over the child's cells.
  if (rc == SQLITE_OK && rt->depth > 0 && root->count() == 1) {
    std::shared_ptr<Node> child;
    rc = Acquire(rt, CellId(rt, root.get(), 0), 1, &child);
    if (rc == SQLITE_OK) rc = RemoveNode(rt, child, rt->depth - 1);
    if (rc == SQLITE_OK) {
      rt->depth--;
      Put16(root->data.data(), rt->depth);
      root->dirty = true;
    }
  }
  // Reinsert the cells of removed nodes, the last removed first.
  while (!rt->removed.empty()) {
    std::shared_ptr<Node> n = std::move(rt->removed.back());
    rt->removed.pop_back();
    if (rc == SQLITE_OK) rc = ReinsertContent(rt, *n);
  }
  return rc;
}

}  // namespace basalt::rtree

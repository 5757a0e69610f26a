// Balancing.
//
// After an insert that did not fit, or a delete that left a page less than a
// third full, the pages on the cursor's path are fixed bottom-up. A level
// whose content differs from its page is described by a LogicalPage (its
// cells in order, wherever they live: on the page, in the cell being
// inserted, in scratch copies).
//
//   1. A non-root page that overflows or is underfull is redistributed with
//      up to two siblings (Nonroot): all their cells (plus the dividers
//      between them, for pages whose dividers are real cells) are packed
//      left to right into as few pages as needed, then evened out right to
//      left unless the change appended at the end of the tree. The parent's
//      dividers for the group are replaced (in place when they fit, see
//      balance_edit.cc), which may make the parent overflow or underflow:
//      the loop continues one level up.
//   2. Appending past the last row of a table leaf that is its parent's
//      right-most child (Quick): the new row alone goes to a new right
//      sibling, so the left page stays full.
//   3. A root that overflows (Deeper) moves its content to a new child and
//      becomes an interior page with that single child, which is then
//      split by Nonroot. The root page number never changes.
//   4. An interior root left with no cells (Shallower) absorbs its only
//      child when that fits (page 1 may be too small, then it waits).
//
// Invariants after Run(): every non-root page holds at least one cell, all
// leaves are at the same depth, dividers bound their subtrees (table: left
// keys <= divider < right keys; index: the divider is the entry between its
// subtrees), and no page is pinned by the balancer. Freed pages go to the
// freelist.
#include "btree/balance.h"

#include <algorithm>

namespace basalt {

using namespace btfmt;
using namespace btree_detail;

Balancer::Balancer(BtCursor& cur) : c_(cur), bt_(*cur.bt_), lp_(cur.bt_->logical) {}

Balancer::~Balancer() {
  for (int i = 0; i < BtCursor::kMaxDepth; ++i) {
    lp_[i].active = false;
    c_.path_[i].node.ref.Reset();
  }
  c_.depth_ = -1;
  c_.info_valid_ = false;
  bt_.scratch.Reset();
}

void Balancer::SetPending(int level, int idx, const uint8_t* cell, uint32_t size) {
  pending_level_ = level;
  pending_idx_ = idx;
  pending_ = CellRef{cell, size};
}

uint8_t* Balancer::CopyPage(const uint8_t* data) {
  uint8_t* p = bt_.scratch.Allocate(bt_.page_size + kPageSlack);
  std::memcpy(p, data, bt_.page_size);
  std::memset(p + bt_.page_size, 0, kPageSlack);
  return p;
}

void Balancer::Rebase(LogicalPage& lp, const uint8_t* from, const uint8_t* to) const {
  for (CellRef& c : lp.cells) {
    if (c.p >= from && c.p < from + bt_.page_size) c.p = to + (c.p - from);
  }
}

Status Balancer::Materialize(int level) {
  LogicalPage& lp = lp_[level];
  if (lp.active) return Status();
  const Node& n = c_.path_[level].node;
  lp.cells.clear();
  lp.cells.reserve(n.ncell + 1u);
  for (int i = 0; i < n.ncell; ++i) {
    uint32_t off = CellOffset(bt_, n, i);
    uint32_t size = off == 0 ? 0 : CellSize(bt_, n, n.data + off);
    if (size == 0) return CORRUPT();
    lp.cells.push_back(CellRef{n.data + off, size});
  }
  if (pending_level_ == level) {
    if (pending_idx_ > n.ncell) return CORRUPT();
    lp.cells.insert(lp.cells.begin() + pending_idx_, pending_);
  }
  lp.type = n.type;
  lp.right = n.leaf ? 0 : RightChild(n);
  lp.active = true;
  return Status();
}

uint32_t Balancer::Used(const LogicalPage& lp) const {
  uint32_t used = 0;
  for (const CellRef& c : lp.cells) used += c.size + 2;
  return used;
}

bool Balancer::Fits(const LogicalPage& lp, const Node& n) const {
  return Used(lp) <= PageCapacity(bt_, n, lp.type);
}

bool Balancer::Underfull(const LogicalPage& lp) const {
  uint32_t used = Used(lp) + HeaderSize(lp.type);
  uint32_t nfree = used >= bt_.usable ? 0 : bt_.usable - used;
  return nfree * 3 > bt_.usable * 2;
}

Status Balancer::WriteLevel(int level) {
  LogicalPage& lp = lp_[level];
  Node& n = c_.path_[level].node;
  Rebase(lp, n.data, CopyPage(n.data));
  TRY(bt_.pager->Write(n.ref));
  RebuildNode(bt_, n, lp.type, lp.cells.data(), lp.cells.size(), lp.right);
  lp.active = false;
  if (bt_.autovac != 0) return PtrmapNodeRefs(bt_, n);
  return Status();
}

Status Balancer::Run(int min_level) {
  // A pending cell above the deepest level must be part of its page's
  // logical view before the levels below edit that page.
  if (pending_level_ >= 0 && pending_level_ != c_.depth_) TRY(Materialize(pending_level_));
  for (int level = c_.depth_; level >= 0; --level) {
    Node& n = c_.path_[level].node;
    LogicalPage& lp = lp_[level];
    // The page plus a cell that did not fit: it overflows. Below the root,
    // Quick or Nonroot takes the cell straight from pending_.
    const bool pending_here = pending_level_ == level && !lp.active;
    if (level == 0) {
      if (pending_here) TRY(Materialize(0));
      if (lp.active) {
        while (!Fits(lp, n)) TRY(Deeper());
        TRY(WriteLevel(0));
      }
      if (!n.leaf && n.ncell == 0) TRY(Shallower());
      break;
    }
    bool need;
    if (pending_here) {
      need = true;
    } else if (lp.active) {
      need = !Fits(lp, n) || Underfull(lp);
    } else {
      int nfree;
      TRY(NodeFree(bt_, n, &nfree));
      need = uint32_t(nfree) * 3 > bt_.usable * 2;
    }
    if (!need) {
      if (lp.active) TRY(WriteLevel(level));
      if (level <= min_level) break;
      continue;
    }
    // Appending a row past the end of the right-most leaf.
    const Node& parent = c_.path_[level - 1].node;
    bool parent_plain = !lp_[level - 1].active;
    if (pending_here && n.type == kTableLeaf && pending_idx_ == n.ncell && n.ncell > 0 &&
        parent_plain && c_.path_[level - 1].idx == parent.ncell) {
      TRY(Quick(level));
    } else {
      TRY(Nonroot(level));
    }
  }
  return Status();
}

Status Balancer::Quick(int level) {
  Node& n = c_.path_[level].node;
  Node fresh;
  TRY(AllocatePage(bt_, &fresh.ref));
  fresh.data = fresh.ref.data();
  ZeroNode(bt_, &fresh, kTableLeaf);
  RebuildNode(bt_, fresh, kTableLeaf, &pending_, 1, 0);
  if (bt_.autovac != 0) {
    TRY(PtrmapPut(bt_, fresh.pgno, kPtrmapBtree, c_.path_[level - 1].node.pgno));
    TRY(PtrmapNodeRefs(bt_, fresh));
  }
  // Divider: the old leaf's largest rowid, pointing at the old leaf.
  uint8_t* last = nullptr;
  TRY(CellAt(bt_, n, n.ncell - 1, &last));
  uint8_t* div = bt_.scratch.Allocate(16);
  Put32(div, n.pgno);
  uint32_t dsize = 4 + PutVarint(div + 4, uint64_t(CellRowid(n, last)));
  lp_[level].active = false;
  const CellRef d{div, dsize};
  return EditParent(level - 1, c_.path_[level - 1].node.ncell, 0, fresh.pgno, &d, 1);
}

Status Balancer::Deeper() {
  if (c_.depth_ + 2 > BtCursor::kMaxDepth) return CORRUPT();
  Node& root = c_.path_[0].node;
  LogicalPage& lp = lp_[0];
  Rebase(lp, root.data, CopyPage(root.data));
  Node child;
  TRY(AllocatePage(bt_, &child.ref));
  child.data = child.ref.data();
  ZeroNode(bt_, &child, lp.type);
  // The child takes the root's content; the root points at the child.
  c_.path_[1].node = std::move(child);
  c_.path_[0].idx = 0;
  if (c_.depth_ < 1) c_.depth_ = 1;
  LogicalPage& clp = lp_[1];
  std::swap(clp.cells, lp.cells);
  clp.type = lp.type;
  clp.right = lp.right;
  clp.active = true;
  lp.cells.clear();
  lp.type = InteriorTypeOf(root.intkey);
  lp.right = c_.path_[1].node.pgno;
  lp.active = true;
  if (pending_level_ == 0) pending_level_ = 1;
  return Nonroot(1);
}

Status Balancer::Shallower() {
  Node& root = c_.path_[0].node;
  Node child;
  {
    Pgno pgno = RightChild(root);
    if (pgno < 2 || pgno > bt_.pager->page_count()) return CORRUPT();
    PageRef ref;
    TRY(bt_.pager->Get(pgno, &ref));
    TRY(InitNode(bt_, std::move(ref), &child));
  }
  if (child.intkey != root.intkey) return CORRUPT();
  auto& cells = bt_.gathered;
  cells.clear();
  uint32_t used = 0;
  for (int i = 0; i < child.ncell; ++i) {
    uint32_t off = CellOffset(bt_, child, i);
    uint32_t size = off == 0 ? 0 : CellSize(bt_, child, child.data + off);
    if (size == 0) return CORRUPT();
    cells.push_back(CellRef{child.data + off, size});
    used += size + 2;
  }
  if (used > PageCapacity(bt_, root, child.type)) return Status();  // page 1 too small
  TRY(bt_.pager->Write(root.ref));
  RebuildNode(bt_, root, child.type, cells.data(), cells.size(),
              child.leaf ? 0 : RightChild(child));
  if (bt_.autovac != 0) TRY(PtrmapNodeRefs(bt_, root));
  Pgno freed = child.pgno;
  child.ref.Reset();
  return FreePage(bt_, freed);
}

namespace {

// Bytes of an index leaf cell's content (without the padding to 4).
uint32_t IndexLeafCellLen(const BtShared& bt, const uint8_t* p) {
  uint64_t psize;
  uint32_t h = uint32_t(GetVarint(p, &psize));
  uint32_t local = LocalSize(psize, bt.max_local_index, bt.min_local, bt.usable);
  return h + local + (local < psize ? 4 : 0);
}

}  // namespace

Status Balancer::Nonroot(int level) {
  const Node& target = c_.path_[level].node;
  ParentView parent(*this, level - 1);
  const int ci = c_.path_[level - 1].idx;
  const int nchild = parent.count() + 1;
  if (ci < 0 || ci >= nchild) return CORRUPT();
  Group g;
  g.level = level;
  g.count = std::min(3, nchild);
  g.first = std::max(0, ci - 1);
  if (g.first + g.count > nchild) g.first = nchild - g.count;
  g.type = lp_[level].active ? lp_[level].type : target.type;
  g.leafdata = g.type == kTableLeaf;
  g.interior = !IsLeafType(g.type);
  TRY(GatherGroup(parent, ci, &g));
  // Nothing may stay pinned below the parent: pages are freed below.
  for (int i = level; i < BtCursor::kMaxDepth; ++i) c_.path_[i].node.ref.Reset();

  if (bt_.gathered.empty()) {
    // The only child of an empty root lost its last cell: the root becomes
    // an empty leaf.
    if (level - 1 != 0 || parent.count() != 0 || g.count != 1) return CORRUPT();
    TRY(Materialize(level - 1));
    LogicalPage& plp = lp_[level - 1];
    plp.type = LeafTypeOf(g.type == kTableLeaf || g.type == kTableInterior);
    plp.right = 0;
    return FreePage(bt_, g.old_pgno[0]);
  }
  TRY(PackGroup(&g));
  TRY(WriteGroup(&g));
  return ReplaceDividers(g);
}

Status Balancer::GatherGroup(const ParentView& parent, int ci, Group* g) {
  Node& target = c_.path_[g->level].node;
  auto& all = bt_.gathered;
  all.clear();
  for (int s = 0; s < g->count; ++s) {
    const int c = g->first + s;
    Pgno pg;
    if (c < parent.count()) {
      CellRef d;
      TRY(parent.Cell(c, &d));
      pg = Get32(d.p);
    } else {
      pg = parent.right();
    }
    g->old_pgno[s] = pg;
    for (int t = 0; t < s; ++t) {
      if (g->old_pgno[t] == pg) return CORRUPT();
    }
    Pgno right = 0;
    if (c == ci && lp_[g->level].active) {
      if (target.pgno != pg) return CORRUPT();
      LogicalPage& tlp = lp_[g->level];
      Rebase(tlp, target.data, CopyPage(target.data));
      all.insert(all.end(), tlp.cells.begin(), tlp.cells.end());
      right = tlp.right;
      tlp.active = false;
    } else if (c == ci) {
      if (target.pgno != pg) return CORRUPT();
      int pend = pending_level_ == g->level ? pending_idx_ : -1;
      if (!GatherCells(target, CopyPage(target.data), pend, &all)) return CORRUPT();
      if (g->interior) right = RightChild(target);
    } else {
      if (pg < 2 || pg > bt_.pager->page_count()) return CORRUPT();
      Node sib;
      PageRef ref;
      TRY(bt_.pager->Get(pg, &ref));
      TRY(InitNode(bt_, std::move(ref), &sib));
      if (sib.type != g->type || sib.ncell == 0) return CORRUPT();
      if (!GatherCells(sib, CopyPage(sib.data), -1, &all)) return CORRUPT();
      if (g->interior) right = RightChild(sib);
    }
    if (s == g->count - 1) {
      g->final_right = right;
    } else if (!g->leafdata) {
      CellRef d;
      TRY(parent.Cell(c, &d));
      if (d.size < 5) return CORRUPT();
      if (g->interior) {
        // The divider comes down with the left sibling's right-most child.
        uint8_t* p = bt_.scratch.Allocate(d.size);
        std::memcpy(p, d.p, d.size);
        Put32(p, right);
        all.push_back(CellRef{p, d.size});
      } else {
        // An index entry moves from the parent into a leaf.
        uint32_t len = d.size - 4;
        uint8_t* p = bt_.scratch.Allocate(len + 4);
        std::memcpy(p, d.p + 4, len);
        std::memset(p + len, 0, 4);
        all.push_back(CellRef{p, std::max<uint32_t>(len, kMinCellSize)});
      }
    }
  }
  return Status();
}

Status Balancer::PackGroup(Group* g) {
  const auto& all = bt_.gathered;
  const int n = int(all.size());
  // Left to right, each page as full as it goes.
  const uint32_t cap = bt_.usable - HeaderSize(g->type);
  std::vector<uint32_t>& sum = bt_.prefix;  // sum[i]: bytes of cells [0, i) with pointers
  sum.resize(n + 1);
  sum[0] = 0;
  for (int i = 0; i < n; ++i) sum[i + 1] = sum[i] + all[i].size + 2;
  int* start = g->start;
  int* end = g->end;
  int k = 0;
  for (int i = 0; i < n;) {
    if (k == kMaxNew) return CORRUPT();
    start[k] = i;
    // The furthest end whose cells still fit: sum[end] <= sum[start] + cap.
    i = int(std::upper_bound(sum.begin() + i + 1, sum.begin() + n + 1, sum[i] + cap) -
            sum.begin()) -
        1;
    if (i == start[k]) return CORRUPT();  // a cell larger than a page
    end[k] = i;
    if (!g->leafdata && i < n) {
      if (i == n - 1) {
        // The divider would be the last cell: keep one cell for the right.
        if (end[k] - start[k] < 2) return CORRUPT();
        --end[k];
        --i;
      }
      ++i;  // all[end[k]] goes up to the parent
    }
    ++k;
  }
  g->nnew = k;
  if (bulk_) return Status();
  // Even out neighbours, right to left, keeping left pages >= right ones.
  for (int r = g->nnew - 1; r > 0; --r) {
    int l = r - 1;
    while (end[l] - start[l] > 1) {
      uint32_t lused = sum[end[l]] - sum[start[l]];
      uint32_t rused = sum[end[r]] - sum[start[r]];
      uint32_t add, rem;
      if (g->leafdata) {
        add = rem = all[end[l] - 1].size + 2;
      } else {
        add = all[end[l]].size + 2;
        rem = all[end[l] - 1].size + 2;
      }
      if (rused + add > cap || rused + add > lused - rem) break;
      --end[l];
      --start[r];
    }
  }
  return Status();
}

Status Balancer::WriteGroup(Group* g) {
  // Page numbers: the old ones plus new ones, in ascending order.
  g->npg = g->count;
  for (int s = 0; s < g->count; ++s) g->pgnos[s] = g->old_pgno[s];
  for (int s = g->count; s < g->nnew; ++s) {
    PageRef ref;
    TRY(AllocatePage(bt_, &ref));
    g->pgnos[g->npg++] = ref.pgno();
  }
  Pgno* pgnos = g->pgnos;
  for (int i = 1; i < g->npg; ++i) {  // insertion sort: a handful of entries
    for (int j = i; j > 0 && pgnos[j - 1] > pgnos[j]; --j) std::swap(pgnos[j - 1], pgnos[j]);
  }
  const auto& all = bt_.gathered;
  const Pgno parent_pgno = c_.path_[g->level - 1].node.pgno;
  for (int p = 0; p < g->nnew; ++p) {
    Node page;
    TRY(bt_.pager->Get(pgnos[p], &page.ref));
    TRY(bt_.pager->Write(page.ref));
    page.data = page.ref.data();
    page.pgno = pgnos[p];
    page.hdr = 0;
    Pgno right = 0;
    if (g->interior) right = p + 1 < g->nnew ? Get32(all[g->end[p]].p) : g->final_right;
    RebuildNode(bt_, page, g->type, all.data() + g->start[p], size_t(g->end[p] - g->start[p]),
                right);
    if (bt_.autovac != 0) {
      TRY(PtrmapPut(bt_, page.pgno, kPtrmapBtree, parent_pgno));
      TRY(PtrmapNodeRefs(bt_, page));
    }
  }
  return Status();
}

Status Balancer::ReplaceDividers(const Group& g) {
  const auto& all = bt_.gathered;
  std::vector<CellRef>& divs = bt_.divs;
  divs.clear();
  for (int p = 0; p + 1 < g.nnew; ++p) {
    const CellRef& last = all[g.end[p] - (g.leafdata ? 1 : 0)];
    uint8_t* d;
    uint32_t size;
    if (g.leafdata) {
      uint64_t ignored, rowid;
      const uint8_t* q = last.p + GetVarint(last.p, &ignored);
      GetVarint(q, &rowid);
      d = bt_.scratch.Allocate(16);
      size = 4 + PutVarint(d + 4, rowid);
    } else if (g.interior) {
      d = bt_.scratch.Allocate(last.size);
      std::memcpy(d, last.p, last.size);
      size = last.size;
    } else {
      uint32_t len = IndexLeafCellLen(bt_, last.p);
      d = bt_.scratch.Allocate(len + 4);
      std::memcpy(d + 4, last.p, len);
      size = len + 4;
    }
    Put32(d, g.pgnos[p]);
    divs.push_back(CellRef{d, size});
  }
  TRY(EditParent(g.level - 1, g.first, g.count - 1, g.pgnos[g.nnew - 1], divs.data(), divs.size()));
  // Free the pages no longer needed.
  for (int p = g.nnew; p < g.npg; ++p) TRY(FreePage(bt_, g.pgnos[p]));
  return Status();
}

}  // namespace basalt

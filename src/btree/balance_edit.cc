// Balancing, the page-level steps: gathering the cells of sibling pages
// (GatherCells, with a fast size decode for the common small cells) and
// editing a parent's dividers (EditParent), in place on the page when the
// new dividers fit, else through the parent's LogicalPage, which the next
// level up then balances. ParentView reads the parent either way.
#include <algorithm>

#include "btree/balance.h"

namespace basalt {

using namespace btfmt;
using namespace btree_detail;

namespace {

// Bytes the cell at `cell` occupies on a page of type kType (whose payload
// limit is max_local), or 0 when it is not the common small-cell case: a
// one-byte payload size not above max_local (and, on table leaves, any
// rowid). The caller then falls back to CellSize.
// `limit` is min(max_local, 0x7f).
template <uint8_t kType>
inline uint32_t SmallCellSize(const uint8_t* cell, uint32_t limit) {
  if constexpr (kType == kTableInterior) {
    return uint32_t(SkipVarint(cell + 4) - cell);
  } else {
    constexpr uint32_t kHead = kType == kIndexInterior ? 4 : 0;
    const uint32_t psize = cell[kHead];
    if (psize > limit) return 0;
    uint32_t size = kHead + 1 + psize;
    if constexpr (kType == kTableLeaf) size += uint32_t(SkipVarint(cell + 1) - (cell + 1));
    return size < kMinCellSize ? kMinCellSize : size;
  }
}

// GatherCells for pages of type kType (see Balancer::GatherCells).
template <uint8_t kType>
bool GatherTyped(const BtShared& bt, const Node& n, const uint8_t* copy, int pend,
                 const CellRef& pending, CellRef* w) {
  const int ncell = n.ncell;
  const uint32_t usable = bt.usable;
  const uint32_t cell_min = uint32_t(n.ptrs) + 2u * ncell;
  const uint32_t cell_max = usable - kMinCellSize;
  if (ncell > 0 && cell_min > cell_max) return false;
  const uint32_t span = cell_max - cell_min;
  const uint32_t limit = std::min<uint32_t>(n.max_local, 0x7f);
  const uint8_t* data = n.data;
  const uint8_t* ptrs = data + n.ptrs;
  // Cells [0, pend), the pending cell, then cells [pend, ncell).
  int i = 0;
  for (int stop = pend >= 0 ? pend : ncell;; stop = ncell) {
    for (; i < stop; ++i) {
      uint32_t off = LoadBe16(ptrs + 2 * i);
      if (off - cell_min > span) return false;
      uint32_t size = SmallCellSize<kType>(data + off, limit);
      if (size == 0 || off + size > usable) {
        size = CellSize(bt, n, data + off);
        if (size == 0) return false;
      }
      *w++ = CellRef{copy + off, size};
    }
    if (stop == ncell) break;
    *w++ = pending;
  }
  if (pend == ncell) *w = pending;
  return true;
}

}  // namespace

bool Balancer::GatherCells(const Node& n, const uint8_t* copy, int pend,
                           std::vector<CellRef>* out) const {
  if (pend > n.ncell) return false;
  const size_t base = out->size();
  out->resize(base + size_t(n.ncell) + (pend >= 0 ? 1 : 0));
  CellRef* w = out->data() + base;
  switch (n.type) {
    case kTableLeaf:
      return GatherTyped<kTableLeaf>(bt_, n, copy, pend, pending_, w);
    case kTableInterior:
      return GatherTyped<kTableInterior>(bt_, n, copy, pend, pending_, w);
    case kIndexLeaf:
      return GatherTyped<kIndexLeaf>(bt_, n, copy, pend, pending_, w);
    case kIndexInterior:
      return GatherTyped<kIndexInterior>(bt_, n, copy, pend, pending_, w);
  }
  return false;
}

Balancer::ParentView::ParentView(Balancer& b, int level)
    : b_(b), node_(b.c_.path_[level].node), lp_(b.lp_[level]) {}

int Balancer::ParentView::count() const { return lp_.active ? int(lp_.cells.size()) : node_.ncell; }

Pgno Balancer::ParentView::right() const { return lp_.active ? lp_.right : RightChild(node_); }

Status Balancer::ParentView::Cell(int i, CellRef* out) const {
  if (lp_.active) {
    *out = lp_.cells[i];
    return Status();
  }
  uint32_t off = CellOffset(b_.bt_, node_, i);
  uint32_t size = off == 0 ? 0 : CellSize(b_.bt_, node_, node_.data + off);
  if (size == 0) return CORRUPT();
  *out = CellRef{node_.data + off, size};
  return Status();
}

Status Balancer::EditParent(int level, int first, int ndrop, Pgno right_of_group,
                            const CellRef* divs, size_t ndivs) {
  LogicalPage& plp = lp_[level];
  Node& pnode = c_.path_[level].node;
  if (!plp.active) {
    // In place: the usual case, touching only the cells that change.
    TRY(bt_.pager->Write(pnode.ref));
    if (first + ndrop > pnode.ncell) return CORRUPT();
    for (int i = 0; i < ndrop; ++i) {
      uint32_t off = CellOffset(bt_, pnode, first);
      uint32_t size = off == 0 ? 0 : CellSize(bt_, pnode, pnode.data + off);
      if (size == 0) return CORRUPT();
      TRY(DropCell(bt_, pnode, first, size));
    }
    if (first < pnode.ncell) {
      uint8_t* cell = nullptr;
      TRY(CellAt(bt_, pnode, first, &cell));
      Put32(cell, right_of_group);
    } else {
      Put32(pnode.data + pnode.hdr + kPgRightChild, right_of_group);
    }
    if (bt_.autovac != 0) TRY(PtrmapPut(bt_, right_of_group, kPtrmapBtree, pnode.pgno));
    for (size_t j = 0; j < ndivs; ++j) {
      bool fitted;
      TRY(InsertCell(bt_, pnode, first + int(j), divs[j].p, divs[j].size, &fitted));
      if (!fitted) {
        // The parent overflows: the rest goes to its logical page, which
        // the next level up balances.
        TRY(Materialize(level));
        plp.cells.insert(plp.cells.begin() + first + int(j), divs + j, divs + ndivs);
        break;
      }
    }
    return Status();
  }
  if (first + ndrop > int(plp.cells.size())) return CORRUPT();
  const int after = first + ndrop;  // the parent cell right of the group, if any
  if (after < int(plp.cells.size())) {
    const CellRef& a = plp.cells[after];
    uint8_t* d = bt_.scratch.Allocate(a.size);
    std::memcpy(d, a.p, a.size);
    Put32(d, right_of_group);
    plp.cells[after] = CellRef{d, a.size};
  } else {
    plp.right = right_of_group;
  }
  plp.cells.erase(plp.cells.begin() + first, plp.cells.begin() + after);
  plp.cells.insert(plp.cells.begin() + first, divs, divs + ndivs);
  return Status();
}

}  // namespace basalt

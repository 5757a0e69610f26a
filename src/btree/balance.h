// Rebalancing a tree along a cursor's path after an insert or delete.
#pragma once

#include "btree/btree_internal.h"

namespace basalt {

class Balancer {
 public:
  explicit Balancer(BtCursor& cur);
  ~Balancer();

  // The page at path level `level` should also hold `cell` (size bytes) as
  // its cell `idx`: an insert or replacement that did not fit.
  void SetPending(int level, int idx, const uint8_t* cell, uint32_t size);
  // The change appended at the end of the tree: keep left pages full.
  void SetBulk(bool bulk) { bulk_ = bulk; }
  // Balances from the cursor's deepest level up, as far as needed and at
  // least up to level `min_level`. Releases the cursor's path.
  Status Run(int min_level);

 private:
  using CellRef = btree_detail::CellRef;
  using LogicalPage = btree_detail::LogicalPage;
  using Node = btree_detail::Node;
  // Greedy packing gives at most 2 * (content / page) + 1 pages; 3 full
  // siblings plus one large new cell stay below this.
  static constexpr int kMaxNew = 12;

  // The cells of a parent page: its LogicalPage when it has one, else the
  // page itself.
  class ParentView {
   public:
    ParentView(Balancer& b, int level);
    int count() const;
    Pgno right() const;
    Status Cell(int i, CellRef* out) const;

   private:
    Balancer& b_;
    const Node& node_;
    const LogicalPage& lp_;
  };

  Status Materialize(int level);
  // Appends the cells of page n to *out, addressed in `copy` (a copy of its
  // bytes), with pending_ as cell `pend` when pend >= 0; false if corrupt.
  bool GatherCells(const Node& n, const uint8_t* copy, int pend, std::vector<CellRef>* out) const;
  // Replaces parent cells [first, first + ndrop) by `divs` and points the
  // child right of them (cell first + ndrop, or the right-most child) at
  // right_of_group. Edits the page in place unless it has a LogicalPage or
  // overflows.
  Status EditParent(int level, int first, int ndrop, Pgno right_of_group, const CellRef* divs,
                    size_t ndivs);
  uint32_t Used(const LogicalPage& lp) const;
  bool Fits(const LogicalPage& lp, const Node& n) const;
  bool Underfull(const LogicalPage& lp) const;
  Status WriteLevel(int level);
  // One balance of up to three siblings (Nonroot), carried between its
  // steps. Cells are in bt_.gathered, in key order, dividers included.
  struct Group {
    int level = 0;  // path level of the siblings
    int first = 0;  // parent cell index of the left-most sibling
    int count = 0;  // siblings taken (1 to 3)
    uint8_t type = 0;
    bool leafdata = false;  // table leaves: dividers are rowid copies
    bool interior = false;
    Pgno old_pgno[3] = {};
    Pgno final_right = 0;                        // right-most child of the last sibling (interior)
    int start[kMaxNew] = {}, end[kMaxNew] = {};  // cells [start, end) of each new page
    int nnew = 0;
    Pgno pgnos[kMaxNew + 3] = {};  // old and new page numbers, ascending
    int npg = 0;
  };
  Status Nonroot(int level);
  // The steps of Nonroot: gather the siblings' cells and the dividers
  // between them; pack the cells into pages; write the pages; replace the
  // dividers in the parent and free what is left over.
  Status GatherGroup(const ParentView& parent, int ci, Group* g);
  Status PackGroup(Group* g);
  Status WriteGroup(Group* g);
  Status ReplaceDividers(const Group& g);
  Status Quick(int level);
  Status Deeper();
  Status Shallower();
  uint8_t* CopyPage(const uint8_t* data);
  // Rebases cells of lp that point into [from, from + page size) onto `to`.
  void Rebase(LogicalPage& lp, const uint8_t* from, const uint8_t* to) const;

  BtCursor& c_;
  BtShared& bt_;
  LogicalPage* lp_;
  bool bulk_ = false;
  int pending_level_ = -1;
  int pending_idx_ = 0;
  CellRef pending_{nullptr, 0};
};

}  // namespace basalt

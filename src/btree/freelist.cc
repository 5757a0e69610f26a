// The freelist (fileformat2 1.5): a chain of trunk pages, each listing leaf
// pages. Freed pages become leaves of the first trunk while it has room, or
// else the new first trunk. Allocation takes a leaf of the first trunk, or
// the trunk itself once it is empty, and only then grows the file.
#include "btree/btree_internal.h"

namespace basalt {
namespace btree_detail {

using namespace btfmt;

namespace {

Status GetPage1(BtShared& bt, PageRef* p1) {
  TRY(bt.pager->Get(1, p1));
  return Status();
}

bool ValidPage(BtShared& bt, Pgno pgno) { return pgno >= 2 && pgno <= bt.pager->page_count(); }

// Drops the free-space count cached for a page that stops being (or is not
// yet) a b-tree page.
void Forget(const PageRef& page) { page.frame()->user_pgno = 0; }

}  // namespace

Status ReadFreelistCount(BtShared& bt, uint32_t* n) {
  if (bt.pager->page_count() == 0) {
    *n = 0;
    return Status();
  }
  PageRef p1;
  TRY(GetPage1(bt, &p1));
  *n = Get32(p1.data() + kHdrFreelistCount);
  return Status();
}

Status AllocatePage(BtShared& bt, PageRef* out) {
  Pager& pager = *bt.pager;
  PageRef p1;
  TRY(GetPage1(bt, &p1));
  uint8_t* h = p1.data();
  uint32_t count = Get32(h + kHdrFreelistCount);
  if (count > 0) {
    Pgno trunk_no = Get32(h + kHdrFreelistTrunk);
    if (!ValidPage(bt, trunk_no)) return CORRUPT();
    PageRef trunk;
    TRY(pager.Get(trunk_no, &trunk));
    uint32_t leaves = Get32(trunk.data() + kTrunkCount);
    if (leaves > MaxTrunkLeavesRead(bt.usable) || leaves >= count) return CORRUPT();
    TRY(pager.Write(p1));
    if (leaves == 0) {
      // The trunk itself is handed out; its successor becomes first.
      Pgno next = Get32(trunk.data() + kTrunkNext);
      if (next != 0 && !ValidPage(bt, next)) return CORRUPT();
      TRY(pager.Write(trunk));
      Put32(h + kHdrFreelistTrunk, next);
      Put32(h + kHdrFreelistCount, count - 1);
      Forget(trunk);
      *out = std::move(trunk);
      return Status();
    }
    Pgno leaf_no = Get32(trunk.data() + kTrunkLeaves + 4 * (leaves - 1));
    if (!ValidPage(bt, leaf_no) || leaf_no == trunk_no) return CORRUPT();
    TRY(pager.Write(trunk));
    Put32(trunk.data() + kTrunkCount, leaves - 1);
    Put32(h + kHdrFreelistCount, count - 1);
    PageRef leaf;
    TRY(pager.Get(leaf_no, &leaf));
    if (leaf.frame()->pins != 1) return CORRUPT();  // still in use somewhere
    TRY(pager.Write(leaf));
    Forget(leaf);
    *out = std::move(leaf);
    return Status();
  }
  PageRef page;
  TRY(pager.Append(&page));
  if (page.pgno() == LockBytePage(bt.page_size)) {
    // Never used: skip it (integrity checks know to expect it).
    page.Reset();
    TRY(pager.Append(&page));
  }
  Forget(page);
  *out = std::move(page);
  return Status();
}

Status FreePage(BtShared& bt, Pgno pgno) {
  Pager& pager = *bt.pager;
  if (!ValidPage(bt, pgno)) return CORRUPT();
  PageRef p1;
  TRY(GetPage1(bt, &p1));
  uint8_t* h = p1.data();
  uint32_t count = Get32(h + kHdrFreelistCount);
  Pgno trunk_no = Get32(h + kHdrFreelistTrunk);
  TRY(pager.Write(p1));
  Put32(h + kHdrFreelistCount, count + 1);
  if (trunk_no != 0) {
    if (!ValidPage(bt, trunk_no) || trunk_no == pgno) return CORRUPT();
    PageRef trunk;
    TRY(pager.Get(trunk_no, &trunk));
    uint32_t leaves = Get32(trunk.data() + kTrunkCount);
    if (leaves > MaxTrunkLeavesRead(bt.usable)) return CORRUPT();
    if (leaves < MaxTrunkLeavesWritten(bt.usable)) {
      TRY(pager.Write(trunk));
      Put32(trunk.data() + kTrunkLeaves + 4 * leaves, pgno);
      Put32(trunk.data() + kTrunkCount, leaves + 1);
      return Status();
    }
  }
  PageRef page;
  TRY(pager.Get(pgno, &page));
  TRY(pager.Write(page));
  Forget(page);
  Put32(page.data() + kTrunkNext, trunk_no);
  Put32(page.data() + kTrunkCount, 0);
  Put32(h + kHdrFreelistTrunk, pgno);
  return Status();
}

}  // namespace btree_detail
}  // namespace basalt

// The freelist (fileformat2 1.5): a chain of trunk pages, each listing leaf
// pages. Freed pages become leaves of the first trunk while it has room, or
// else the new first trunk. Allocation takes a leaf of the first trunk, or
// the trunk itself once it is empty, and only then grows the file.
#include <algorithm>

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
  return AppendPage(bt, out);
}

Status AppendPage(BtShared& bt, PageRef* out) {
  PageRef page;
  while (true) {
    TRY(bt.pager->Append(&page));
    const Pgno pgno = page.pgno();
    // The lock-byte page is never used (integrity checks expect that); a
    // pointer-map page stays as appended, zeroed, an empty map.
    if (pgno == bt.lock_page) continue;
    if (bt.autovac != 0 && IsPtrmapPage(bt, pgno)) continue;
    break;
  }
  Forget(page);
  *out = std::move(page);
  return Status();
}

Status FreePage(BtShared& bt, Pgno pgno) {
  Pager& pager = *bt.pager;
  if (!ValidPage(bt, pgno)) return CORRUPT();
  if (bt.autovac != 0) TRY(PtrmapPut(bt, pgno, kPtrmapFree, 0));
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

Status ReadFreelist(BtShared& bt, std::vector<Pgno>* pages) {
  pages->clear();
  if (bt.pager->page_count() == 0) return Status();
  PageRef p1;
  TRY(GetPage1(bt, &p1));
  const uint32_t count = Get32(p1.data() + kHdrFreelistCount);
  Pgno trunk_no = Get32(p1.data() + kHdrFreelistTrunk);
  p1.Reset();
  if (count >= bt.pager->page_count()) return CORRUPT();
  pages->reserve(count);
  while (trunk_no != 0) {
    if (!ValidPage(bt, trunk_no) || pages->size() >= count) return CORRUPT();
    pages->push_back(trunk_no);
    PageRef trunk;
    TRY(bt.pager->Get(trunk_no, &trunk));
    const uint8_t* d = trunk.data();
    uint32_t leaves = Get32(d + kTrunkCount);
    if (leaves > MaxTrunkLeavesRead(bt.usable) || pages->size() + leaves > count) return CORRUPT();
    for (uint32_t i = 0; i < leaves; ++i) {
      Pgno leaf = Get32(d + kTrunkLeaves + 4 * i);
      if (!ValidPage(bt, leaf)) return CORRUPT();
      pages->push_back(leaf);
    }
    trunk_no = Get32(d + kTrunkNext);
  }
  if (pages->size() != count) return CORRUPT();
  std::sort(pages->begin(), pages->end());
  if (std::adjacent_find(pages->begin(), pages->end()) != pages->end()) return CORRUPT();
  return Status();
}

Status WriteFreelist(BtShared& bt, const std::vector<Pgno>& pages) {
  Pager& pager = *bt.pager;
  std::vector<Pgno> v(pages);
  std::sort(v.begin(), v.end());
  const size_t cap = MaxTrunkLeavesWritten(bt.usable);
  // Trunk i is v[i * (cap + 1)], followed by up to cap of its leaves; the
  // chain runs from the lowest trunk up. Written back to front so each
  // trunk knows its successor.
  Pgno next = 0;
  const size_t groups = (v.size() + cap) / (cap + 1);
  for (size_t g = groups; g-- > 0;) {
    const size_t first = g * (cap + 1);
    const size_t end = std::min(v.size(), first + cap + 1);
    if (!ValidPage(bt, v[first])) return CORRUPT();
    PageRef trunk;
    TRY(pager.Get(v[first], &trunk));
    TRY(pager.Write(trunk));
    Forget(trunk);
    uint8_t* d = trunk.data();
    Put32(d + kTrunkNext, next);
    Put32(d + kTrunkCount, uint32_t(end - first - 1));
    for (size_t i = first + 1; i < end; ++i) Put32(d + kTrunkLeaves + 4 * (i - first - 1), v[i]);
    next = v[first];
  }
  PageRef p1;
  TRY(GetPage1(bt, &p1));
  TRY(pager.Write(p1));
  Put32(p1.data() + kHdrFreelistTrunk, next);
  Put32(p1.data() + kHdrFreelistCount, uint32_t(v.size()));
  return Status();
}

Status RemoveFromFreelist(BtShared& bt, Pgno pgno, bool* found) {
  Pager& pager = *bt.pager;
  *found = false;
  PageRef p1;
  TRY(GetPage1(bt, &p1));
  uint8_t* h = p1.data();
  const uint32_t count = Get32(h + kHdrFreelistCount);
  // `link` is where the current trunk's number is stored: the header, or
  // the previous trunk's next field.
  PageRef prev;
  uint32_t seen = 0;
  for (Pgno trunk_no = Get32(h + kHdrFreelistTrunk); trunk_no != 0;) {
    if (!ValidPage(bt, trunk_no) || seen >= count) return CORRUPT();
    PageRef trunk;
    TRY(pager.Get(trunk_no, &trunk));
    uint8_t* d = trunk.data();
    const uint32_t leaves = Get32(d + kTrunkCount);
    if (leaves > MaxTrunkLeavesRead(bt.usable)) return CORRUPT();
    uint8_t* link = prev ? prev.data() + kTrunkNext : h + kHdrFreelistTrunk;
    PageRef& link_page = prev ? prev : p1;
    if (trunk_no == pgno) {
      Pgno replacement = Get32(d + kTrunkNext);
      if (leaves > 0) {
        // The last leaf takes over as trunk, with the other leaves.
        replacement = Get32(d + kTrunkLeaves + 4 * (leaves - 1));
        if (!ValidPage(bt, replacement) || replacement == pgno) return CORRUPT();
        PageRef r;
        TRY(pager.Get(replacement, &r));
        TRY(pager.Write(r));
        Forget(r);
        std::memcpy(r.data(), d, kTrunkLeaves + 4 * size_t(leaves - 1));
        Put32(r.data() + kTrunkCount, leaves - 1);
      }
      TRY(pager.Write(link_page));
      Put32(link, replacement);
    } else {
      uint32_t i = 0;
      while (i < leaves && Get32(d + kTrunkLeaves + 4 * i) != pgno) ++i;
      if (i == leaves) {
        seen += 1 + leaves;
        trunk_no = Get32(d + kTrunkNext);
        prev = std::move(trunk);
        continue;
      }
      TRY(pager.Write(trunk));
      Put32(d + kTrunkLeaves + 4 * i, Get32(d + kTrunkLeaves + 4 * (leaves - 1)));
      Put32(d + kTrunkCount, leaves - 1);
    }
    TRY(pager.Write(p1));
    Put32(h + kHdrFreelistCount, count - 1);
    *found = true;
    return Status();
  }
  return Status();
}

}  // namespace btree_detail
}  // namespace basalt

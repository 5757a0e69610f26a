// Pointer-map pages (auto-vacuum databases; layout in format.h): reading
// and writing entries, keeping the entries of what a b-tree page references
// pointed at that page, and moving a page's content elsewhere in the file
// (RelocatePage), which auto-vacuum, CreateTree and DropTree build on.
//
// Who keeps which entry current (only when BtShared::autovac != 0):
//   1. root pages        CreateTree (type 1); DropTree when it moves a root.
//   2. free pages        FreePage (type 2), for trunks and leaves alike.
//   3. overflow pages    BuildCell writes type 4 for every page but the
//                        first; whoever places the cell on a page writes
//                        the first one's type 3 (InsertCell, RebuildNode
//                        callers, in-place replacements in modify.cc).
//   4. b-tree pages      whoever sets a child pointer: InsertCell for the
//                        cell's child, the balancer for new pages, their
//                        rebuilt cells and edited right-most children.
// RelocatePage keeps all of these for the page it moves.
#include <algorithm>

#include "btree/btree_internal.h"

namespace basalt {
namespace btree_detail {

using namespace btfmt;

namespace {

// Where the entry for `pgno` lives; false when pgno has no entry.
bool EntryLocation(const BtShared& bt, Pgno pgno, Pgno* map, uint32_t* offset) {
  if (pgno < 3) return false;
  Pgno m = PtrmapPageOf(bt, pgno);
  if (m >= pgno || m > bt.pager->page_count()) return false;
  uint32_t off = kPtrmapEntrySize * (pgno - m - 1);
  if (off + kPtrmapEntrySize > bt.usable) return false;
  *map = m;
  *offset = off;
  return true;
}

// Points the reference to `from` held by page `parent` (as a child pointer,
// an overflow pointer of one of its cells, or an overflow page's next-page
// link) at `to`.
Status RedirectPointer(BtShared& bt, Pgno parent, Pgno from, Pgno to, uint8_t type) {
  if (parent < 1 || parent > bt.pager->page_count()) return CORRUPT();
  PageRef ref;
  TRY(bt.pager->Get(parent, &ref));
  if (type == kPtrmapOverflow2) {
    if (Get32(ref.data()) != from) return CORRUPT();
    TRY(bt.pager->Write(ref));
    Put32(ref.data(), to);
    return Status();
  }
  Node n;
  TRY(InitNode(bt, std::move(ref), &n));
  for (int i = 0; i < n.ncell; ++i) {
    uint8_t* cell = nullptr;
    TRY(CellAt(bt, n, i, &cell));
    if (type == kPtrmapBtree) {
      if (!n.leaf && Get32(cell) == from) {
        TRY(bt.pager->Write(n.ref));
        Put32(cell, to);
        return Status();
      }
      continue;
    }
    if (n.type == kTableInterior) break;  // no payloads here
    CellInfo info;
    TRY(ParseCell(bt, n, cell, &info));
    if (info.local < info.payload_size) {
      uint8_t* link = const_cast<uint8_t*>(info.payload) + info.local;
      if (Get32(link) == from) {
        TRY(bt.pager->Write(n.ref));
        Put32(link, to);
        return Status();
      }
    }
  }
  if (type == kPtrmapBtree && !n.leaf && RightChild(n) == from) {
    TRY(bt.pager->Write(n.ref));
    Put32(n.data + n.hdr + kPgRightChild, to);
    return Status();
  }
  return CORRUPT();
}

}  // namespace

Pgno PtrmapPageOf(const BtShared& bt, Pgno pgno) {
  if (pgno < 2) return 0;
  Pgno m = (pgno - 2) / bt.ptrmap_span * bt.ptrmap_span + 2;
  if (m == bt.lock_page) ++m;
  return m;
}

Status PtrmapGet(BtShared& bt, Pgno pgno, uint8_t* type, Pgno* parent) {
  Pgno m;
  uint32_t off;
  if (!EntryLocation(bt, pgno, &m, &off)) return CORRUPT();
  PageRef ref;
  TRY(bt.pager->Get(m, &ref));
  const uint8_t* e = ref.data() + off;
  *type = e[0];
  *parent = Get32(e + 1);
  if (*type < kPtrmapRoot || *type > kPtrmapBtree) return CORRUPT();
  return Status();
}

Status PtrmapPut(BtShared& bt, Pgno pgno, uint8_t type, Pgno parent) {
  Pgno m;
  uint32_t off;
  if (!EntryLocation(bt, pgno, &m, &off)) return CORRUPT();
  PageRef ref;
  TRY(bt.pager->Get(m, &ref));
  uint8_t* e = ref.data() + off;
  if (e[0] == type && Get32(e + 1) == parent) return Status();
  TRY(bt.pager->Write(ref));
  e[0] = type;
  Put32(e + 1, parent);
  return Status();
}

Status PtrmapCellRefs(BtShared& bt, const Node& n, const uint8_t* cell) {
  if (!n.leaf) TRY(PtrmapPut(bt, Get32(cell), kPtrmapBtree, n.pgno));
  if (n.type == kTableInterior) return Status();
  CellInfo info;
  TRY(ParseCell(bt, n, cell, &info));
  if (info.local < info.payload_size) {
    TRY(PtrmapPut(bt, Get32(info.payload + info.local), kPtrmapOverflow1, n.pgno));
  }
  return Status();
}

Status PtrmapNodeRefs(BtShared& bt, const Node& n) {
  for (int i = 0; i < n.ncell; ++i) {
    uint8_t* cell = nullptr;
    TRY(CellAt(bt, n, i, &cell));
    TRY(PtrmapCellRefs(bt, n, cell));
  }
  if (!n.leaf) TRY(PtrmapPut(bt, RightChild(n), kPtrmapBtree, n.pgno));
  return Status();
}

Status RelocatePage(BtShared& bt, Pgno from, Pgno to, uint8_t type, Pgno parent) {
  Pager& pager = *bt.pager;
  if (from < 3 || to < 3 || from == to || from > pager.page_count() || to > pager.page_count() ||
      type == kPtrmapFree || type < kPtrmapRoot || type > kPtrmapBtree) {
    return CORRUPT();
  }
  ++bt.change_seq;
  PageRef dst;
  {
    PageRef src;
    TRY(pager.Get(from, &src));
    TRY(pager.Get(to, &dst));
    TRY(pager.Write(dst));
    std::memcpy(dst.data(), src.data(), bt.page_size);
    dst.frame()->user_pgno = 0;  // no free-space count carried over
    src.frame()->user_pgno = 0;
  }
  if (type == kPtrmapRoot || type == kPtrmapBtree) {
    Node n;
    TRY(InitNode(bt, std::move(dst), &n));
    TRY(PtrmapNodeRefs(bt, n));
  } else {
    Pgno next = Get32(dst.data());
    dst.Reset();
    if (next != 0) TRY(PtrmapPut(bt, next, kPtrmapOverflow2, to));
  }
  if (type != kPtrmapRoot) TRY(RedirectPointer(bt, parent, from, to, type));
  return PtrmapPut(bt, to, type, parent);
}

Pgno ContentPagesUpTo(const BtShared& bt, Pgno n) {
  if (n == 0) return 0;
  uint64_t maps = 0;
  if (bt.autovac != 0 && n >= 2) {
    maps = (uint64_t(n) - 2) / bt.ptrmap_span + 1;
    // The map of the group starting at the lock-byte page is the page after
    // it, which may lie past n.
    Pgno last_base = Pgno((uint64_t(n) - 2) / bt.ptrmap_span * bt.ptrmap_span + 2);
    if (last_base == bt.lock_page && last_base == n) --maps;
  }
  uint64_t lock = bt.lock_page <= n ? 1 : 0;
  return Pgno(uint64_t(n) - maps - lock);
}

Pgno SizeForContentPages(const BtShared& bt, Pgno content) {
  // ContentPagesUpTo grows by 0 or 1 per page: find where it reaches content.
  uint64_t lo = 1, hi = uint64_t(content) * 2 + 4;
  while (lo < hi) {
    uint64_t mid = (lo + hi) / 2;
    if (ContentPagesUpTo(bt, Pgno(std::min<uint64_t>(mid, 0xffffffffu))) >= content) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return Pgno(lo);
}

}  // namespace btree_detail
}  // namespace basalt

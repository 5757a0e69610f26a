// Auto-vacuum (pragma auto_vacuum, incremental_vacuum; fileformat2 1.7):
// keeping root pages at the front of the file and shrinking the file.
//
// Invariants of an auto-vacuum database (autovac != 0):
//   A1. Every page but page 1, the lock-byte page and the pointer-map pages
//       has a pointer-map entry naming its role and referrer (ptrmap.cc says
//       who keeps which entry current).
//   A2. Root pages are exactly the pages 2 .. largest-root (header offset
//       52) that are neither pointer maps nor the lock-byte page.
//       CreateTree takes the next such page, first moving whatever lives
//       there; DropTree moves the tree with the largest root into the slot
//       it frees and lowers the largest root.
//   A3. Root pages never move otherwise, so shrinking the file (Shrink)
//       only relocates non-root pages: into free pages, lowest first.
//   A4. FULL mode: at commit the freelist is empty (AutoVacuumCommit), unless
//       an autovacuum_pages callback asked for fewer pages to go.
//       INCREMENTAL mode: the freelist persists; IncrementalVacuum(n)
//       removes up to n pages from the end of the file.
#include <algorithm>

#include "btree/btree_internal.h"

namespace basalt {

using namespace btfmt;
using namespace btree_detail;

namespace btree_detail {

namespace {

constexpr int kLargestRootOffset = kHdrMetaBase + 4 * int(Meta::kLargestRootPage);
constexpr int kIncrementalOffset = kHdrMetaBase + 4 * int(Meta::kIncrementalVacuum);

Status ReadLargestRoot(BtShared& bt, Pgno* root) {
  PageRef p1;
  TRY(bt.pager->Get(1, &p1));
  *root = Get32(p1.data() + kLargestRootOffset);
  return Status();
}

Status WriteLargestRoot(BtShared& bt, Pgno root) {
  PageRef p1;
  TRY(bt.pager->Get(1, &p1));
  TRY(bt.pager->Write(p1));
  Put32(p1.data() + kLargestRootOffset, root);
  return Status();
}

bool Skipped(const BtShared& bt, Pgno pgno) {
  return pgno == bt.lock_page || IsPtrmapPage(bt, pgno);
}

// Shrinks the file by up to `limit` content pages (0: as far as the
// freelist allows): live pages past the new end move into free pages below
// it, the freelist keeps the free pages left below it, the file is cut.
Status Shrink(BtShared& bt, uint32_t limit) {
  Pager& pager = *bt.pager;
  std::vector<Pgno> free;
  TRY(ReadFreelist(bt, &free));  // ascending
  if (free.empty()) return Status();
  const Pgno size = pager.page_count();
  if (Skipped(bt, size)) return CORRUPT();
  uint32_t k = uint32_t(free.size());
  if (limit != 0 && limit < k) k = limit;
  const Pgno content = ContentPagesUpTo(bt, size);
  if (content <= k) return CORRUPT();
  const Pgno end = SizeForContentPages(bt, content - k);
  TRY(bt.SaveCursors(0, nullptr));
  // Free pages at or below `end` take the live pages from above it.
  const auto split = std::upper_bound(free.begin(), free.end(), end);
  auto target = free.begin();
  for (Pgno pgno = end + 1; pgno <= size; ++pgno) {
    if (Skipped(bt, pgno) || std::binary_search(split, free.end(), pgno)) continue;
    if (target == split) return CORRUPT();
    uint8_t type;
    Pgno parent;
    TRY(PtrmapGet(bt, pgno, &type, &parent));
    if (type == kPtrmapRoot || type == kPtrmapFree) return CORRUPT();
    TRY(RelocatePage(bt, pgno, *target++, type, parent));
  }
  TRY(WriteFreelist(bt, std::vector<Pgno>(target, split)));
  return pager.Truncate(end);
}

}  // namespace

Status AutoVacuumCommit(BtShared& bt) {
  uint32_t nfree;
  TRY(ReadFreelistCount(bt, &nfree));
  uint32_t limit = 0;  // all
  if (bt.autovacuum_pages) {
    // Asked at every such commit, even with no free page (as SQLite does).
    uint32_t n = bt.autovacuum_pages(bt.pager->page_count(), nfree, bt.page_size);
    if (n == 0) return Status();
    if (n < nfree) limit = n;
  }
  if (nfree == 0) return Status();
  return Shrink(bt, limit);
}

Result<Pgno> CreateRootAutoVacuum(BtShared& bt, bool intkey) {
  Pager& pager = *bt.pager;
  Pgno largest = 0;
  TRY(ReadLargestRoot(bt, &largest));
  Pgno root = largest + 1;
  while (Skipped(bt, root)) ++root;
  TRY(bt.SaveCursors(0, nullptr));  // the page there may move
  PageRef page;
  if (root > pager.page_count()) {
    TRY(AppendPage(bt, &page));
    if (page.pgno() != root) return CORRUPT();
  } else {
    uint8_t type;
    Pgno parent;
    TRY(PtrmapGet(bt, root, &type, &parent));
    if (type == kPtrmapRoot) return CORRUPT();
    if (type == kPtrmapFree) {
      bool found;
      TRY(RemoveFromFreelist(bt, root, &found));
      if (!found) return CORRUPT();
    } else {
      // The page living at `root` moves to a page of its own.
      PageRef moved;
      TRY(AllocatePage(bt, &moved));
      Pgno to = moved.pgno();
      moved.Reset();
      TRY(RelocatePage(bt, root, to, type, parent));
    }
    TRY(pager.Get(root, &page));
    TRY(pager.Write(page));
  }
  Node n;
  n.ref = std::move(page);
  n.data = n.ref.data();
  ZeroNode(bt, &n, LeafTypeOf(intkey));
  TRY(PtrmapPut(bt, root, kPtrmapRoot, 0));
  TRY(WriteLargestRoot(bt, root));
  return root;
}

Status DropRootAutoVacuum(BtShared& bt, Pgno root, Pgno* moved_from) {
  *moved_from = 0;
  Pgno largest = 0;
  TRY(ReadLargestRoot(bt, &largest));
  if (root > largest) return CORRUPT();
  TRY(bt.SaveCursors(0, nullptr));
  TRY(FreeTreePages(bt, root, /*keep_root=*/true, nullptr));
  if (root == largest) {
    TRY(FreePage(bt, root));
  } else {
    // The tree with the largest root takes the freed slot.
    uint8_t type;
    Pgno parent;
    TRY(PtrmapGet(bt, largest, &type, &parent));
    if (type != kPtrmapRoot) return CORRUPT();
    TRY(RelocatePage(bt, largest, root, kPtrmapRoot, 0));
    TRY(FreePage(bt, largest));
    *moved_from = largest;
  }
  Pgno next = largest - 1;
  while (next > 1 && Skipped(bt, next)) --next;
  return WriteLargestRoot(bt, next);
}

}  // namespace btree_detail

int Btree::auto_vacuum() const { return s_->autovac; }

void Btree::SetAutoVacuumPages(std::function<uint32_t(uint32_t, uint32_t, uint32_t)> fn) {
  s_->autovacuum_pages = std::move(fn);
}

void Btree::SetNewDatabaseEncoding(uint8_t enc) { s_->new_db_encoding = enc; }

Status Btree::SetAutoVacuum(int mode) {
  if (mode < 0 || mode > 2) return Status(kMisuse, "auto_vacuum mode must be 0, 1 or 2");
  if (s_->ephemeral) return Status(kMisuse, "no auto-vacuum for ephemeral databases");
  bool empty = false;
  TRY(WithRead(*s_, [&] {
    empty = s_->pager->page_count() == 0;
    return Status();
  }));
  if (empty) {
    s_->autovac = uint8_t(mode);  // page 1, when created, records it
    return Status();
  }
  if (mode == s_->autovac) return Status();
  if ((mode == 0) != (s_->autovac == 0)) {
    return Status(kReadOnly, "auto_vacuum can be switched on or off only in an empty database");
  }
  // FULL <-> INCREMENTAL: the flag at offset 64, in the caller's write
  // transaction or one of our own (not on top of a read transaction, which
  // our commit would end).
  if (s_->pager->txn() == PagerTxn::kRead) {
    return Status(kMisuse, "changing auto_vacuum needs a write transaction");
  }
  const bool own = !in_write_transaction();
  if (own) TRY(BeginTransaction(true));
  Status st = SetMeta(Meta::kIncrementalVacuum, mode == 2 ? 1 : 0);
  if (st.ok()) s_->autovac = uint8_t(mode);
  if (own) {
    if (st.ok()) st = Commit();
    if (!st.ok()) (void)Rollback();
  }
  return st;
}

Status Btree::IncrementalVacuum(uint32_t n) {
  if (!in_write_transaction()) {
    return Status(kMisuse, "IncrementalVacuum outside a write transaction");
  }
  if (s_->autovac == 0) return Status();
  return Shrink(*s_, n);
}

}  // namespace basalt

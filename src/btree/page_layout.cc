// Read-only inspection of single pages, for the DBSTAT virtual table: what a
// b-tree page holds (cells, children, payload split, unused bytes) and the
// links of overflow chains. Nothing here changes a page or a cursor.
//
// Unused bytes of a b-tree page (format.h, "B-tree page header"):
//
//   unused = content_start - (header offset + header size + 2 * ncell)
//            + fragmented bytes + sum of the freeblock sizes
//
// where content_start is the header field as stored (a stored 0 counts as 0,
// as DBSTAT reports it), and the header offset is 100 on page 1.
#include "btree/btree_internal.h"

namespace basalt {

using btree_detail::CellInfo;
using btree_detail::Node;

namespace {

// Sum of the freeblock sizes of page n; SQLITE_CORRUPT for a chain that
// leaves the page or does not go forward.
Status FreeblockBytes(const BtShared& bt, const Node& n, int64_t* total) {
  *total = 0;
  uint32_t off = Get16(n.data + n.hdr + btfmt::kPgFirstFreeblock);
  uint32_t prev = 0;
  while (off != 0) {
    if (off <= prev || off + 4 > bt.usable) return CORRUPT();
    *total += Get16(n.data + off + 2);
    prev = off;
    off = Get16(n.data + off);
  }
  return Status();
}

// Pages of the overflow chain of a payload of `payload` bytes, `local` of
// them on the b-tree page.
uint32_t OverflowPages(const BtShared& bt, uint32_t payload, uint32_t local) {
  if (payload <= local) return 0;
  const uint32_t per_page = bt.usable - btfmt::kOverflowHeader;
  return (payload - local + per_page - 1) / per_page;
}

}  // namespace

Status Btree::ReadPageLayout(Pgno pgno, PageLayout* out) {
  *out = PageLayout();
  return btree_detail::WithRead(*s_, [&]() -> Status {
    if (pgno == 0 || pgno > s_->pager->page_count()) return CORRUPT();
    PageRef ref;
    TRY(s_->pager->Get(pgno, &ref));
    Node n;
    TRY(btree_detail::InitNode(*s_, std::move(ref), &n));
    out->type = n.type;
    if (!n.leaf) out->right_child = btree_detail::RightChild(n);
    int64_t free_bytes = 0;
    TRY(FreeblockBytes(*s_, n, &free_bytes));
    out->unused = int64_t(Get16(n.data + n.hdr + btfmt::kPgContentStart)) - n.ptrs -
                  2 * int64_t(n.ncell) + n.data[n.hdr + btfmt::kPgFragBytes] + free_bytes;
    out->cells.resize(n.ncell);
    for (int i = 0; i < n.ncell; ++i) {
      uint8_t* cell = nullptr;
      TRY(btree_detail::CellAt(*s_, n, i, &cell));
      CellInfo info;
      TRY(btree_detail::ParseCell(*s_, n, cell, &info));
      PageLayout::Cell& c = out->cells[size_t(i)];
      if (!n.leaf) c.child = Get32(cell);
      c.payload = info.payload_size;
      c.local = info.local;
      c.n_overflow = OverflowPages(*s_, info.payload_size, info.local);
      if (c.n_overflow > 0) c.overflow = Get32(info.payload + info.local);
    }
    return Status();
  });
}

Status Btree::ReadOverflowNext(Pgno pgno, Pgno* next) {
  *next = 0;
  return btree_detail::WithRead(*s_, [&]() -> Status {
    if (pgno == 0 || pgno > s_->pager->page_count()) return CORRUPT();
    PageRef ref;
    TRY(s_->pager->Get(pgno, &ref));
    *next = Get32(ref.data());
    return Status();
  });
}

}  // namespace basalt

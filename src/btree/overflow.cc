// Cell payloads: building a cell (and its overflow chain) from a payload,
// reading payload bytes across overflow pages, freeing a chain.
//
// Overflow page layout (fileformat2 1.6):
//   offset size      field
//   0      4         next overflow page (0 on the last page)
//   4      U - 4     payload bytes
#include <algorithm>

#include "btree/btree_internal.h"

namespace basalt {
namespace btree_detail {

using namespace btfmt;

Status BuildCell(BtShared& bt, bool intkey, int64_t rowid, const uint8_t* data, uint32_t n,
                 uint8_t* out, uint32_t* size) {
  uint8_t* p = out;
  p += PutVarint(p, n);
  if (intkey) p += PutVarint(p, uint64_t(rowid));
  uint32_t max_local = intkey ? bt.max_local_table : bt.max_local_index;
  uint32_t local = LocalSize(n, max_local, bt.min_local, bt.usable);
  if (local > 0) std::memcpy(p, data, local);
  p += local;
  if (local < n) {
    uint8_t* link = p;
    p += 4;
    uint32_t remaining = n - local;
    const uint8_t* src = data + local;
    const uint32_t per_page = bt.usable - kOverflowHeader;
    PageRef prev;
    while (remaining > 0) {
      PageRef page;
      TRY(AllocatePage(bt, &page));
      Put32(link, page.pgno());
      if (bt.autovac != 0) {
        // The first page's parent is the page the cell lands on; whoever
        // places the cell sets it (see ptrmap.cc).
        if (prev) {
          TRY(PtrmapPut(bt, page.pgno(), kPtrmapOverflow2, prev.pgno()));
        } else {
          TRY(PtrmapPut(bt, page.pgno(), kPtrmapOverflow1, 0));
        }
      }
      uint32_t chunk = std::min(remaining, per_page);
      uint8_t* d = page.data();
      Put32(d, 0);
      std::memcpy(d + kOverflowHeader, src, chunk);
      src += chunk;
      remaining -= chunk;
      link = d;
      prev = std::move(page);
    }
  }
  // Callers size a leaf cell as max(len, 4); the pad bytes are zero.
  std::memset(p, 0, kMinCellSize);
  *size = uint32_t(p - out);
  return Status();
}

Status ReadCellPayload(BtShared& bt, const CellInfo& info, uint32_t offset, uint32_t n,
                       uint8_t* buf, OverflowCache* cache) {
  if (uint64_t(offset) + n > info.payload_size) return CORRUPT();
  if (offset < info.local) {
    uint32_t k = std::min(n, info.local - offset);
    std::memcpy(buf, info.payload + offset, k);
    buf += k;
    offset += k;
    n -= k;
  }
  if (n == 0) return Status();
  const uint32_t per_page = bt.usable - kOverflowHeader;
  const uint32_t total = OverflowPageCount(bt, info);
  const Pgno first = Get32(info.payload + info.local);
  if (cache != nullptr && (cache->seq != bt.change_seq || cache->first != first)) {
    cache->seq = bt.change_seq;
    cache->first = first;
    cache->pages.assign(1, first);
  }
  // Start from the page holding `offset`, or the furthest one known.
  uint32_t i = 0;
  Pgno pgno = first;
  if (cache != nullptr) {
    i = std::min<uint32_t>((offset - info.local) / per_page, uint32_t(cache->pages.size()) - 1);
    pgno = cache->pages[i];
  }
  uint32_t pos = info.local + i * per_page;  // payload offset of page i's first byte
  while (n > 0) {
    if (i >= total || pgno < 2 || pgno > bt.pager->page_count()) return CORRUPT();
    PageRef page;
    TRY(bt.pager->Get(pgno, &page));
    const uint8_t* d = page.data();
    if (offset < pos + per_page) {
      uint32_t at = offset - pos;
      uint32_t k = std::min(n, per_page - at);
      std::memcpy(buf, d + kOverflowHeader + at, k);
      buf += k;
      offset += k;
      n -= k;
    }
    pgno = Get32(d);
    ++i;
    pos += per_page;
    if (cache != nullptr && i == cache->pages.size() && i < total) cache->pages.push_back(pgno);
  }
  return Status();
}

Status FreeOverflow(BtShared& bt, const CellInfo& info) {
  if (info.local >= info.payload_size) return Status();
  uint32_t pages = OverflowPageCount(bt, info);
  Pgno pgno = Get32(info.payload + info.local);
  while (pages-- > 0) {
    if (pgno < 2 || pgno > bt.pager->page_count()) return CORRUPT();
    Pgno next;
    {
      PageRef page;
      TRY(bt.pager->Get(pgno, &page));
      next = Get32(page.data());
    }
    TRY(FreePage(bt, pgno));
    pgno = next;
  }
  return Status();
}

}  // namespace btree_detail
}  // namespace basalt

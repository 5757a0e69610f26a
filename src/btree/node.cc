// B-tree page layout: header parsing, the cell codec, and the management of
// free space inside a page (freeblocks, fragments, defragmentation).
//
// Invariants kept on every page this code writes (SQLite's integrity_check
// verifies each of them):
//   1. Cells, freeblocks and fragment bytes exactly cover the bytes from the
//      content start to the usable end; the fragment count is header byte 7.
//   2. Freeblocks are at least 4 bytes, in increasing offset order, and two
//      neighbours are at least 4 bytes apart (closer ones are merged,
//      absorbing the fragment bytes between them).
//   3. No freeblock starts at the content start (the content start moves
//      instead).
//   4. The fragment count never exceeds 60.
//   5. A page whose last cell is removed is reset to an empty page.
#include "btree/btree_internal.h"

#include <algorithm>
#include <bit>
#include <cstdlib>

namespace basalt {
namespace btree_detail {

using namespace btfmt;

uint8_t* Scratch::Allocate(size_t n) {
  n = (n + 15) & ~size_t{15};
  while (block_ < blocks_.size()) {
    if (used_ + n <= sizes_[block_]) {
      uint8_t* p = blocks_[block_].get() + used_;
      used_ += n;
      return p;
    }
    ++block_;
    used_ = 0;
  }
  size_t size = std::max<size_t>(n, 64 * 1024);
  blocks_.push_back(std::make_unique<uint8_t[]>(size));
  sizes_.push_back(size);
  block_ = blocks_.size() - 1;
  used_ = n;
  return blocks_.back().get();
}

Status InitNode(const BtShared& bt, PageRef ref, Node* n) {
  n->ref.Reset();  // a page that fails the checks below is not kept pinned
  uint8_t* data = ref.data();
  uint8_t hdr = ref.pgno() == 1 ? kDbHeaderSize : 0;
  uint8_t type = data[hdr + kPgType];
  switch (type) {
    case kTableLeaf:
      n->max_local = bt.max_local_table;
      break;
    case kIndexLeaf:
    case kIndexInterior:
      n->max_local = bt.max_local_index;
      break;
    case kTableInterior:
      n->max_local = 0;
      break;
    default:
      return CORRUPT();
  }
  n->type = type;
  n->leaf = IsLeafType(type);
  n->intkey = type == kTableLeaf || type == kTableInterior;
  n->hdr = hdr;
  n->ptrs = uint16_t(hdr + HeaderSize(type));
  n->ncell = Get16(data + hdr + kPgCellCount);
  n->data = data;
  n->pgno = ref.pgno();
  uint32_t content = ContentStart(*n);
  if (uint32_t(n->ptrs) + 2u * n->ncell > content || content > bt.usable) return CORRUPT();
  n->nfree = LoadFreeHint(ref.frame());
  n->ref = std::move(ref);
  return Status();
}

void ZeroNode(const BtShared& bt, Node* n, uint8_t type) {
  uint8_t* d = n->data;
  uint8_t hdr = n->ref.pgno() == 1 ? kDbHeaderSize : 0;
  std::memset(d + hdr, 0, HeaderSize(type));
  d[hdr + kPgType] = type;
  Put16(d + hdr + kPgContentStart, uint16_t(bt.usable));  // 65536 stores as 0
  n->type = type;
  n->leaf = IsLeafType(type);
  n->intkey = type == kTableLeaf || type == kTableInterior;
  n->hdr = hdr;
  n->ptrs = uint16_t(hdr + HeaderSize(type));
  n->ncell = 0;
  n->pgno = n->ref.pgno();
  n->max_local = type == kTableInterior ? 0 : bt.MaxLocal(type);
  RememberFree(*n, int(bt.usable) - n->ptrs);
}

Status FreeSpace(const BtShared& bt, const Node& n, int* nfree) {
  const uint8_t* d = n.data;
  uint32_t top = ContentStart(n);
  uint32_t array_end = uint32_t(n.ptrs) + 2u * n.ncell;
  uint32_t total = (top - array_end) + d[n.hdr + kPgFragBytes];
  uint32_t pc = Get16(d + n.hdr + kPgFirstFreeblock);
  if (pc != 0) {
    if (pc < top) return CORRUPT();
    while (true) {
      if (pc + 4 > bt.usable) return CORRUPT();
      uint32_t next = Get16(d + pc);
      uint32_t size = Get16(d + pc + 2);
      if (size < 4 || pc + size > bt.usable) return CORRUPT();
      total += size;
      if (next == 0) break;
      if (next <= pc + size + 3) return CORRUPT();
      pc = next;
    }
  }
  if (total > bt.usable) return CORRUPT();
  *nfree = int(total);
  return Status();
}

Status NodeFree(const BtShared& bt, Node& n, int* nfree) {
  if (n.nfree >= 0) {
#ifdef BASALT_BTREE_VERIFY
    int check = -1;
    if (!FreeSpace(bt, n, &check).ok() || check != n.nfree) std::abort();
#endif
    *nfree = n.nfree;
    return Status();
  }
  TRY(FreeSpace(bt, n, nfree));
  RememberFree(n, *nfree);
  return Status();
}

namespace {

// Put16 as one store.
inline void StoreBe16(uint8_t* p, uint16_t v) {
  if constexpr (std::endian::native == std::endian::little) v = uint16_t((v >> 8) | (v << 8));
  std::memcpy(p, &v, 2);
}

// Finds a freeblock of at least `size` bytes and takes `size` bytes from it;
// returns the offset, or 0 when none fits.
Status FindSlot(const BtShared& bt, Node& n, uint32_t size, uint32_t* off) {
  uint8_t* d = n.data;
  uint32_t link = n.hdr + kPgFirstFreeblock;
  uint32_t pc = Get16(d + link);
  *off = 0;
  if (pc != 0 && pc < ContentStart(n)) return CORRUPT();
  while (pc != 0) {
    if (pc + 4 > bt.usable) return CORRUPT();
    uint32_t next = Get16(d + pc);
    uint32_t bsize = Get16(d + pc + 2);
    if (bsize < 4 || pc + bsize > bt.usable) return CORRUPT();
    if (bsize >= size) {
      uint32_t rest = bsize - size;
      if (rest < 4) {
        // The whole block goes; the rest becomes fragment bytes.
        if (d[n.hdr + kPgFragBytes] + rest <= uint32_t(kMaxFragBytes)) {
          Put16(d + link, uint16_t(next));
          d[n.hdr + kPgFragBytes] = uint8_t(d[n.hdr + kPgFragBytes] + rest);
          *off = pc;
          return Status();
        }
      } else {
        // Keep the head of the block free; the cell takes its tail.
        Put16(d + pc + 2, uint16_t(rest));
        *off = pc + rest;
        return Status();
      }
    }
    if (next != 0 && next <= pc + bsize + 3) return CORRUPT();
    link = pc;
    pc = next;
  }
  return Status();
}

// Returns bytes [start, start + size) of the content area to free space,
// merging with neighbouring freeblocks.
Status FreeSlot(const BtShared& bt, Node& n, uint32_t start, uint32_t size) {
  uint8_t* d = n.data;
  const uint32_t hdr = n.hdr;
  uint32_t link = hdr + kPgFirstFreeblock;  // where the pointer to `next` lives
  uint32_t next = Get16(d + link);
  uint32_t end = start + size;
  if (end > bt.usable) return CORRUPT();
  uint32_t prev_block = 0;
  // Freeblocks lie in the content area in increasing order (which also ends
  // the walk on a damaged page whose chain loops).
  uint32_t min_next = ContentStart(n);
  while (next != 0 && next < start) {
    if (next < min_next || next + 4 > bt.usable) return CORRUPT();
    prev_block = next;
    link = next;
    min_next = next + 4;
    next = Get16(d + next);
  }
  if (next != 0 && next + 4 > bt.usable) return CORRUPT();
  uint32_t frag = 0;
  // Merge with the following freeblock when at most 3 bytes separate them.
  if (next != 0 && end + 3 >= next) {
    if (end > next) return CORRUPT();
    frag = next - end;
    end = next + Get16(d + next + 2);
    if (end > bt.usable) return CORRUPT();
    next = Get16(d + next);
  }
  // Merge with the preceding freeblock likewise.
  if (prev_block != 0) {
    uint32_t prev_end = prev_block + Get16(d + prev_block + 2);
    if (prev_end + 3 >= start) {
      if (prev_end > start) return CORRUPT();
      frag += start - prev_end;
      start = prev_block;
    }
  }
  if (frag > d[hdr + kPgFragBytes]) return CORRUPT();
  d[hdr + kPgFragBytes] = uint8_t(d[hdr + kPgFragBytes] - frag);
  uint32_t top = ContentStart(n);
  if (start <= top) {
    // The freed bytes begin the content area: grow the gap instead.
    if (start < top || link != hdr + kPgFirstFreeblock) return CORRUPT();
    Put16(d + link, uint16_t(next));
    Put16(d + hdr + kPgContentStart, uint16_t(end));
  } else {
    if (start == prev_block) {
      Put16(d + start, uint16_t(next));
    } else {
      Put16(d + link, uint16_t(start));
      Put16(d + start, uint16_t(next));
    }
    Put16(d + start + 2, uint16_t(end - start));
  }
  return Status();
}

}  // namespace

Status InsertCell(BtShared& bt, Node& n, int idx, const uint8_t* cell, uint32_t size,
                  bool* fitted) {
  uint8_t* d = n.data;
  uint32_t top = ContentStart(n);
  uint32_t array_end = uint32_t(n.ptrs) + 2u * n.ncell;
  uint32_t off = 0;
  // A corrupt header (content start past the usable size, e.g. 0 read as
  // 65536 on a small page) must not place the cell outside the page.
  if (top > bt.usable || array_end > top) return CORRUPT();
  if (top >= array_end + size + 2) {
    off = top - size;
    Put16(d + n.hdr + kPgContentStart, uint16_t(off));
  } else {
    int nfree;
    TRY(NodeFree(bt, n, &nfree));
    if (uint32_t(nfree) < size + 2) {
      *fitted = false;
      return Status();
    }
    Status st;
    if (top >= array_end + 2) st = FindSlot(bt, n, size, &off);
    if (st.ok() && off == 0) st = Defragment(bt, n);
    if (!st.ok()) {
      ForgetFree(n);
      return st;
    }
    if (off == 0) {
      top = ContentStart(n);
      if (top < array_end + size + 2) {
        ForgetFree(n);
        return CORRUPT();
      }
      off = top - size;
      Put16(d + n.hdr + kPgContentStart, uint16_t(off));
    }
  }
  if (off < array_end || off + size > bt.usable) return CORRUPT();
  std::memcpy(d + off, cell, size);
  uint8_t* ptr = d + n.ptrs + 2 * idx;
  std::memmove(ptr + 2, ptr, 2 * size_t(n.ncell - idx));
  Put16(ptr, uint16_t(off));
  ++n.ncell;
  Put16(d + n.hdr + kPgCellCount, n.ncell);
  AdjustFree(n, -int(size + 2));
  *fitted = true;
  if (bt.autovac != 0) return PtrmapCellRefs(bt, n, d + off);
  return Status();
}

Status DropCell(BtShared& bt, Node& n, int idx, uint32_t size) {
  uint8_t* d = n.data;
  uint8_t* ptr = d + n.ptrs + 2 * idx;
  uint32_t off = Get16(ptr);
  if (off < uint32_t(n.ptrs) + 2u * n.ncell || off + size > bt.usable) return CORRUPT();
  if (n.ncell == 1) {
    // Last cell: the page becomes empty.
    std::memset(d + n.hdr + kPgFirstFreeblock, 0, 4);
    Put16(d + n.hdr + kPgContentStart, uint16_t(bt.usable));
    d[n.hdr + kPgFragBytes] = 0;
    n.ncell = 0;
    RememberFree(n, int(bt.usable) - n.ptrs);
    return Status();
  }
  Status st = FreeSlot(bt, n, off, size);
  if (!st.ok()) {
    ForgetFree(n);
    return st;
  }
  std::memmove(ptr, ptr + 2, 2 * size_t(n.ncell - idx - 1));
  --n.ncell;
  Put16(d + n.hdr + kPgCellCount, n.ncell);
  AdjustFree(n, int(size + 2));
  return Status();
}

Status Defragment(BtShared& bt, Node& n) {
  uint8_t* tmp = bt.PageTmp();
  uint8_t* d = n.data;
  uint32_t top = ContentStart(n);
  if (top > bt.usable) return CORRUPT();
  std::memcpy(tmp + top, d + top, bt.usable - top);
  uint32_t array_end = uint32_t(n.ptrs) + 2u * n.ncell;
  uint32_t pc = bt.usable;
  // Sizes come from the copy: cells already moved may overlap the original.
  Node view;
  view.data = tmp;
  view.type = n.type;
  view.leaf = n.leaf;
  view.intkey = n.intkey;
  view.max_local = n.max_local;
  for (int i = 0; i < n.ncell; ++i) {
    uint8_t* ptr = d + n.ptrs + 2 * i;
    uint32_t off = Get16(ptr);
    uint32_t size = 0;
    if (off >= top && off + kMinCellSize <= bt.usable) size = CellSize(bt, view, tmp + off);
    if (size == 0 || pc < array_end + size) {
      ForgetFree(n);
      return CORRUPT();
    }
    pc -= size;
    std::memcpy(d + pc, tmp + off, size);
    Put16(ptr, uint16_t(pc));
  }
  Put16(d + n.hdr + kPgFirstFreeblock, 0);
  Put16(d + n.hdr + kPgContentStart, uint16_t(pc));
  d[n.hdr + kPgFragBytes] = 0;
  RememberFree(n, int(pc - array_end));
  return Status();
}

void RebuildNode(const BtShared& bt, Node& n, uint8_t type, const CellRef* cells, size_t count,
                 Pgno right) {
  uint8_t* d = n.data;
  uint8_t hdr = n.hdr;
  d[hdr + kPgType] = type;
  Put16(d + hdr + kPgFirstFreeblock, 0);
  Put16(d + hdr + kPgCellCount, uint16_t(count));
  d[hdr + kPgFragBytes] = 0;
  if (!IsLeafType(type)) Put32(d + hdr + kPgRightChild, right);
  n.type = type;
  n.leaf = IsLeafType(type);
  n.intkey = type == kTableLeaf || type == kTableInterior;
  n.ptrs = uint16_t(hdr + HeaderSize(type));
  n.ncell = uint16_t(count);
  n.max_local = type == kTableInterior ? 0 : bt.MaxLocal(type);
  uint32_t pc = bt.usable;
  uint8_t* ptr = d + n.ptrs;
  for (size_t i = 0; i < count;) {
    // Cells packed by an earlier rebuild sit back to back in reverse order:
    // copy each such run with one memcpy.
    const uint32_t run_end = pc;
    const uint8_t* src = cells[i].p;
    pc -= cells[i].size;
    StoreBe16(ptr + 2 * i, uint16_t(pc));
    for (++i; i < count && cells[i].p + cells[i].size == src; ++i) {
      src = cells[i].p;
      pc -= cells[i].size;
      StoreBe16(ptr + 2 * i, uint16_t(pc));
    }
    std::memcpy(d + pc, src, run_end - pc);
  }
  Put16(d + hdr + kPgContentStart, uint16_t(pc));
  RememberFree(n, int(pc) - int(n.ptrs + 2 * count));
}

}  // namespace btree_detail
}  // namespace basalt

// Internals shared by the B-tree source files: the per-database state
// (BtShared), page parsing and the cell codec (node.cc), page allocation
// (freelist.cc) and payload/overflow handling (overflow.cc).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "btree/btree.h"
#include "btree/format.h"
#include "common/coding.h"
#include "common/status.h"
#include "pager/pager.h"

namespace basalt {

namespace btree_detail {

// A cell given by address and size (for balancing and page rebuilds).
struct CellRef {
  // Left uninitialised by default: balancing sizes arrays of these before
  // filling them.
  CellRef() {}  // NOLINT: no member initialisation on purpose
  CellRef(const uint8_t* cell, uint32_t n) : p(cell), size(n) {}
  const uint8_t* p;
  uint32_t size;
};

// A bump allocator for the duration of one tree modification. Blocks are
// kept across Reset() so steady-state balancing does not allocate.
class Scratch {
 public:
  uint8_t* Allocate(size_t n);
  void Reset() {
    block_ = 0;
    used_ = 0;
  }

 private:
  std::vector<std::unique_ptr<uint8_t[]>> blocks_;
  std::vector<size_t> sizes_;
  size_t block_ = 0;
  size_t used_ = 0;
};

// The cells a page will hold, when that differs from what the page holds
// now (an insert that did not fit, or the result of balancing its children).
struct LogicalPage {
  bool active = false;
  uint8_t type = 0;
  Pgno right = 0;  // right-most child (interior pages)
  std::vector<CellRef> cells;
};

}  // namespace btree_detail

struct BtShared {
  std::unique_ptr<Pager> pager;
  uint32_t page_size = 0;
  uint32_t usable = 0;  // page size less reserved bytes
  uint16_t max_local_table = 0;
  uint16_t max_local_index = 0;
  uint16_t min_local = 0;
  bool ephemeral = false;
  // CommitPhaseOne updated the header of this transaction's commit.
  bool commit_prepared = false;
  bool read_only = false;
  // Auto-vacuum mode (header offsets 52 and 64): 0 none, 1 full,
  // 2 incremental. Pointer-map upkeep is behind `autovac != 0` checks.
  uint8_t autovac = 0;
  // sqlite3_autovacuum_pages: how many of the free pages a FULL auto-vacuum
  // commit removes (given pages in the file, free pages, page size); null:
  // all of them.
  std::function<uint32_t(uint32_t, uint32_t, uint32_t)> autovacuum_pages;
  // Text encoding written into page 1 of a new database (offset 56).
  uint8_t new_db_encoding = 1;
  Pgno lock_page = 0;           // the lock-byte page (btfmt::LockBytePage)
  Pgno lock_page_override = 0;  // tests: the lock-byte page is here instead
  uint32_t ptrmap_span = 0;     // pages per pointer-map group: U / 5 + 1
  // Page 1 bytes 16..23 (page size .. payload fractions) as last validated;
  // a transaction that finds them changed re-reads the header.
  uint8_t hdr_seen[8] = {};
  bool hdr_known = false;
  BtCursor* cursors = nullptr;  // every open cursor
  // Bumped before any change to page contents (invalidates OverflowCaches).
  uint64_t change_seq = 1;

  // Scratch space, reused by every modification.
  std::vector<uint8_t> cell_buf;  // one cell being built
  std::vector<uint8_t> page_tmp;  // a page copy for defragmenting/rebuilding
  btree_detail::Scratch scratch;  // balance: sibling copies, divider cells
  btree_detail::LogicalPage logical[20];
  std::vector<btree_detail::CellRef> gathered;  // cells of a sibling group
  std::vector<btree_detail::CellRef> divs;      // new dividers for a parent
  std::vector<uint32_t> prefix;                 // running sizes of gathered

  void SetUsable(uint32_t page, uint32_t reserved);
  uint16_t MaxLocal(uint8_t type) const {
    return type == btfmt::kTableLeaf ? max_local_table : max_local_index;
  }
  uint8_t* CellBuf() {
    if (cell_buf.size() < page_size + 64) cell_buf.resize(page_size + 64);
    return cell_buf.data();
  }
  uint8_t* PageTmp() {
    if (page_tmp.size() < page_size + kPageSlack) page_tmp.resize(page_size + kPageSlack);
    return page_tmp.data();
  }
  // Saves the position of every positioned cursor on `root` except `except`
  // (root 0: every tree).
  Status SaveCursors(Pgno root, const BtCursor* except);
  // Puts every cursor on `root` (0: all) into the fault state with `code`.
  void TripCursors(Pgno root, int code);
  // Opens a read transaction if none is open (*opened tells), then checks
  // page 1's header against what this B-tree assumes (Refresh).
  Status BeginRead(bool* opened);
  // Re-reads the header fields another connection may have changed (page
  // size, reserved bytes, write version, auto-vacuum mode) when they differ
  // from the last ones seen. Inside a transaction.
  Status Refresh();
};

namespace btree_detail {

// Runs f inside a read transaction, opening (and validating, then closing)
// one if none is open.
template <typename F>
Status WithRead(BtShared& bt, F f) {
  bool opened;
  TRY(bt.BeginRead(&opened));
  Status st = f();
  if (!opened) return st;
  Status end = bt.pager->Commit();
  return st.ok() ? end : st;
}

// The auto-vacuum mode a database header declares (0, 1 FULL, 2 INCREMENTAL).
inline uint8_t AutoVacuumOf(const uint8_t* header) {
  if (Get32(header + btfmt::kHdrMetaBase + 4 * int(Meta::kLargestRootPage)) == 0) return 0;
  return Get32(header + btfmt::kHdrMetaBase + 4 * int(Meta::kIncrementalVacuum)) != 0 ? 2 : 1;
}

// ---- node.cc: page header and cells --------------------------------------

inline bool IsLeafType(uint8_t t) { return (t & btfmt::kLeafFlag) != 0; }
inline int HeaderSize(uint8_t type) {
  return IsLeafType(type) ? btfmt::kLeafHeaderSize : btfmt::kInteriorHeaderSize;
}
inline uint8_t LeafTypeOf(bool intkey) { return intkey ? btfmt::kTableLeaf : btfmt::kIndexLeaf; }
inline uint8_t InteriorTypeOf(bool intkey) {
  return intkey ? btfmt::kTableInterior : btfmt::kIndexInterior;
}
inline uint32_t ContentStart(const Node& n) {
  uint32_t v = Get16(n.data + n.hdr + btfmt::kPgContentStart);
  return v == 0 ? 65536u : v;
}

// Parses and checks the header of the b-tree page in `ref` into *n.
Status InitNode(const BtShared& bt, PageRef ref, Node* n);
// Formats the (writable) page of n as an empty page of `type`.
void ZeroNode(const BtShared& bt, Node* n, uint8_t type);

// Get16 as a single load, for the cell pointer reads in hot loops.
inline uint32_t LoadBe16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap16(v);
  return v;
}
// Offset of cell i, or 0 when its pointer lies outside the cell content
// area (a corrupt page).
inline uint32_t CellOffset(const BtShared& bt, const Node& n, int i) {
  uint32_t off = LoadBe16(n.data + n.ptrs + 2 * i);
  if (off < uint32_t(n.ptrs) + 2u * n.ncell || off + btfmt::kMinCellSize > bt.usable) return 0;
  return off;
}
// Address of cell i (checked to lie in the cell content area).
inline Status CellAt(const BtShared& bt, const Node& n, int i, uint8_t** cell) {
  uint32_t off = CellOffset(bt, n, i);
  if (off == 0) return CORRUPT();
  *cell = n.data + off;
  return Status();
}
// Child page i of an interior page (i == ncell: the right-most child).
inline Pgno ChildAt(const Node& n, const uint8_t* cell_or_null) {
  return cell_or_null ? Get32(cell_or_null) : Get32(n.data + n.hdr + btfmt::kPgRightChild);
}
inline Pgno RightChild(const Node& n) { return Get32(n.data + n.hdr + btfmt::kPgRightChild); }
// Skips the varint at p; returns the address after it.
inline const uint8_t* SkipVarint(const uint8_t* p) {
  if (p[0] < 0x80) return p + 1;
  for (int i = 1; i < 8; ++i) {
    if (p[i] < 0x80) return p + i + 1;
  }
  return p + 9;
}
// Decodes the varint at *p into *v and advances *p (one-byte fast path).
inline void ReadVarint(const uint8_t** p, uint64_t* v) {
  if (**p < 0x80) {
    *v = **p;
    ++*p;
  } else {
    *p += GetVarint(*p, v);
  }
}
// Rowid of a table cell (leaf or interior); reads at most 18 bytes.
inline int64_t CellRowid(const Node& n, const uint8_t* cell) {
  uint64_t v;
  cell = n.leaf ? SkipVarint(cell) : cell + 4;
  ReadVarint(&cell, &v);
  return int64_t(v);
}
// Decodes the cell at `cell` on page n; false when it does not fit the page.
inline bool DecodeCell(const BtShared& bt, const Node& n, const uint8_t* cell, CellInfo* info) {
  const uint8_t* p = cell;
  uint64_t v;
  uint32_t size;
  if (n.type == btfmt::kTableInterior) {
    p += 4;
    ReadVarint(&p, &v);
    info->key = int64_t(v);
    info->payload = nullptr;
    info->payload_size = 0;
    info->local = 0;
    size = uint32_t(p - cell);
  } else {
    if (!n.leaf) p += 4;
    ReadVarint(&p, &v);
    if (v > 0x7fffffff) return false;
    const uint32_t psize = uint32_t(v);
    if (n.intkey) {
      ReadVarint(&p, &v);
      info->key = int64_t(v);
    } else {
      info->key = psize;
    }
    info->payload = p;
    info->payload_size = psize;
    if (psize <= n.max_local) {
      info->local = psize;
      size = uint32_t(p - cell) + psize;
      if (size < btfmt::kMinCellSize) size = btfmt::kMinCellSize;
    } else {
      uint32_t local = btfmt::LocalSize(psize, n.max_local, bt.min_local, bt.usable);
      // A damaged size: an overflow chain longer than the file.
      if ((psize - local) / (bt.usable - 4) >= bt.pager->page_count()) return false;
      info->local = local;
      size = uint32_t(p - cell) + local + 4;
    }
  }
  info->size = uint16_t(size);
  return uint32_t(cell - n.data) + size <= bt.usable;
}
// Bytes the cell at `cell` occupies on page n; 0 when it does not fit.
inline uint32_t CellSize(const BtShared& bt, const Node& n, const uint8_t* cell) {
  const uint8_t* p = cell;
  uint32_t size;
  if (n.type == btfmt::kTableInterior) {
    size = uint32_t(SkipVarint(p + 4) - cell);
  } else {
    if (!n.leaf) p += 4;
    uint64_t v;
    ReadVarint(&p, &v);
    if (v > 0x7fffffff) return 0;
    if (n.intkey) p = SkipVarint(p);
    if (v <= n.max_local) {
      size = uint32_t(p - cell) + uint32_t(v);
      if (size < btfmt::kMinCellSize) size = btfmt::kMinCellSize;
    } else {
      size = uint32_t(p - cell) + btfmt::LocalSize(v, n.max_local, bt.min_local, bt.usable) + 4;
    }
  }
  return uint32_t(cell - n.data) + size <= bt.usable ? size : 0;
}
// Decodes the cell at `cell` on page n, checking it fits the page.
inline Status ParseCell(const BtShared& bt, const Node& n, const uint8_t* cell, CellInfo* info) {
  if (DecodeCell(bt, n, cell, info)) return Status();
  return CORRUPT();
}

// Free-space bookkeeping. Node::nfree caches the page's free byte count
// once known; while the page is writable the count is also kept in its
// frame (PageFrame::user_*), so a later pin of the page in the same
// transaction level starts with it (see LoadFreeHint). Every change to a
// writable page either keeps the count exact (RememberFree, AdjustFree) or
// drops it (ForgetFree).
inline void RememberFree(Node& n, int nfree) {
  n.nfree = nfree;
  PageFrame* f = n.ref.frame();
  if (f->write_stamp == f->pager->write_stamp()) {
    f->user_tag = f->write_stamp;
    f->user_pgno = f->pgno;
    f->user_value = nfree;
  }
}
inline void ForgetFree(Node& n) {
  n.nfree = -1;
  n.ref.frame()->user_pgno = 0;
}
inline void AdjustFree(Node& n, int delta) {
  if (n.nfree >= 0) {
    RememberFree(n, n.nfree + delta);
  } else {
    ForgetFree(n);
  }
}
// The count a frame holds for its page, or -1.
inline int32_t LoadFreeHint(const PageFrame* f) {
  return f->user_tag == f->write_stamp && f->user_pgno == f->pgno &&
                 f->write_stamp == f->pager->write_stamp()
             ? f->user_value
             : -1;
}
// Free bytes of n: the cached count, else FreeSpace (then cached).
Status NodeFree(const BtShared& bt, Node& n, int* nfree);
// Total free bytes on the page (gap + freeblocks + fragments), checked.
Status FreeSpace(const BtShared& bt, const Node& n, int* nfree);
// Inserts `cell` (size >= 4) as cell idx of the writable page if there is
// room; *fitted tells whether it did.
Status InsertCell(BtShared& bt, Node& n, int idx, const uint8_t* cell, uint32_t size, bool* fitted);
// Removes cell idx (occupying `size` bytes) from the writable page.
Status DropCell(BtShared& bt, Node& n, int idx, uint32_t size);
// Moves every cell to the end of the page, leaving one free gap.
Status Defragment(BtShared& bt, Node& n);
// Rewrites the writable page with exactly these cells (which must not point
// into the page itself), packed at its end.
void RebuildNode(const BtShared& bt, Node& n, uint8_t type, const CellRef* cells, size_t count,
                 Pgno right);
// Sum of cell sizes plus pointers that fit on a page of this type.
inline uint32_t PageCapacity(const BtShared& bt, const Node& n, uint8_t type) {
  return bt.usable - n.hdr - HeaderSize(type);
}

// ---- freelist.cc ----------------------------------------------------------

// A page for new content, from the freelist or the end of the file; it is
// pinned and writable (contents undefined).
Status AllocatePage(BtShared& bt, PageRef* out);
// Puts page `pgno` on the freelist.
Status FreePage(BtShared& bt, Pgno pgno);
Status ReadFreelistCount(BtShared& bt, uint32_t* n);

// All pages of the freelist (trunks and leaves), checked against the count
// in the header and the page count.
Status ReadFreelist(BtShared& bt, std::vector<Pgno>* pages);
// Makes the freelist hold exactly `pages` (sorted or not; their pointer-map
// entries are left alone), rewriting the trunk pages it needs.
Status WriteFreelist(BtShared& bt, const std::vector<Pgno>& pages);
// Takes page `pgno` off the freelist; *found says whether it was there.
Status RemoveFromFreelist(BtShared& bt, Pgno pgno, bool* found);
// Appends a page for new content at the end of the file, skipping the
// lock-byte page and (auto-vacuum) pointer-map pages.
Status AppendPage(BtShared& bt, PageRef* out);

// ---- ptrmap.cc: pointer-map pages (auto-vacuum) ---------------------------

// The pointer-map page holding the entry for `pgno` (0 when pgno < 2).
Pgno PtrmapPageOf(const BtShared& bt, Pgno pgno);
inline bool IsPtrmapPage(const BtShared& bt, Pgno pgno) {
  return pgno >= 2 && PtrmapPageOf(bt, pgno) == pgno;
}
// Reads the entry for `pgno`; SQLITE_CORRUPT when pgno has none or its type
// is not 1..5.
Status PtrmapGet(BtShared& bt, Pgno pgno, uint8_t* type, Pgno* parent);
// Sets the entry for `pgno` (writing the map page only when it changes).
Status PtrmapPut(BtShared& bt, Pgno pgno, uint8_t type, Pgno parent);
// Points the entries of what one cell of page n references (its child, its
// first overflow page) at n.
Status PtrmapCellRefs(BtShared& bt, const Node& n, const uint8_t* cell);
// The same for every cell of n and its right-most child.
Status PtrmapNodeRefs(BtShared& bt, const Node& n);
// Moves the content of page `from` (whose entry is type/parent, not a free
// page) to the free page `to`: children, overflow successors and the
// referring pointer follow, and `to` takes over the entry. `from` is left
// as it was, for the caller to free or truncate.
Status RelocatePage(BtShared& bt, Pgno from, Pgno to, uint8_t type, Pgno parent);
// Pages 1..n excluding pointer maps and the lock-byte page.
Pgno ContentPagesUpTo(const BtShared& bt, Pgno n);
// The smallest database size holding `content` such pages.
Pgno SizeForContentPages(const BtShared& bt, Pgno content);

// ---- overflow.cc ----------------------------------------------------------

// Builds a leaf cell (table leaf when intkey, else index leaf) for the
// payload into out (page_size + 64 bytes), writing any overflow pages.
// *size is the cell's content length; on a leaf it occupies
// max(*size, 4) bytes (out is zero-padded), as an index interior cell
// (after a 4-byte child pointer) exactly *size + 4.
Status BuildCell(BtShared& bt, bool intkey, int64_t rowid, const uint8_t* data, uint32_t n,
                 uint8_t* out, uint32_t* size);
// Copies payload bytes [offset, offset + n) of a parsed cell, using and
// extending `cache` (optional) to skip along the overflow chain.
Status ReadCellPayload(BtShared& bt, const CellInfo& info, uint32_t offset, uint32_t n,
                       uint8_t* buf, OverflowCache* cache = nullptr);
// Frees the overflow chain of a parsed cell (if any).
Status FreeOverflow(BtShared& bt, const CellInfo& info);
// Overflow pages a payload of this size and local part needs.
inline uint32_t OverflowPageCount(const BtShared& bt, const CellInfo& info) {
  uint32_t rest = info.payload_size - info.local;
  return (rest + bt.usable - 5) / (bt.usable - 4);
}

// ---- autovacuum.cc ----------------------------------------------------------

// Auto-vacuum FULL at commit: moves pages from the end of the file into
// free pages and truncates it, leaving the freelist empty.
Status AutoVacuumCommit(BtShared& bt);
// CreateTree in an auto-vacuum database: the root goes right after the
// largest root (whatever lives there moves away).
Result<Pgno> CreateRootAutoVacuum(BtShared& bt, bool intkey);
// DropTree in an auto-vacuum database: frees the tree; the tree with the
// largest root moves into its slot (*moved_from: its old root, or 0).
Status DropRootAutoVacuum(BtShared& bt, Pgno root, Pgno* moved_from);

// ---- tree.cc --------------------------------------------------------------

// Frees every page below root (and root too unless keep_root), counting
// entries into *entries.
Status FreeTreePages(BtShared& bt, Pgno root, bool keep_root, int64_t* entries);

}  // namespace btree_detail
}  // namespace basalt

// Seeking: descending from the root to a rowid (table trees) or to a key
// ordered by the caller's comparator (index trees).
//
// A seek keeps the pages pinned by the cursor's previous path and reuses
// each one the new path passes through again (MoveToRoot(true) and
// MoveToChild), so repeated seeks do not re-pin and re-parse the upper
// levels; TrimPath releases what the new path does not use. The probes of
// the binary search read cells in place: a table cell's rowid is decoded
// directly, and an index key stored whole on its page goes to the
// comparator without a copy (CompareCell handles keys that overflow).
#include "btree/btree_internal.h"

namespace basalt {

using namespace btfmt;
using namespace btree_detail;

// Interior level of a seek: go down to the child left of cell `lo` (the
// right child when lo == ncell); cell_min/span bound valid cell offsets.
inline Status BtCursor::DescendAt(int lo, uint32_t cell_min, uint32_t span) {
  Level& lv = path_[depth_];
  const Node& n = lv.node;
  lv.idx = lo;
  Pgno child;
  if (lo < n.ncell) {
    uint32_t off = Get16(n.data + n.ptrs + 2 * lo);
    if (off - cell_min > span) return CORRUPT();
    child = Get32(n.data + off);
  } else {
    child = RightChild(n);
  }
  return MoveToChild(child);
}

Status BtCursor::SeekRowidInternal(int64_t rowid, int* res) {
  Status st = DescendToRowid(rowid, res);
  TrimPath(!st.ok());
  return st;
}

Status BtCursor::DescendToRowid(int64_t rowid, int* res) {
  TRY(MoveToRoot(true));
  if (depth_ < 0) {
    *res = -1;
    return Status();
  }
  const uint32_t cell_max = bt_->usable - kMinCellSize;
  while (true) {
    Level& lv = path_[depth_];
    const Node& n = lv.node;
    const int ncell = n.ncell;
    const uint8_t* const data = n.data;
    const uint8_t* const ptrs = data + n.ptrs;
    // Every cell offset lies in [cell_min, cell_min + span].
    const uint32_t cell_min = uint32_t(n.ptrs) + 2u * ncell;
    if (ncell > 0 && cell_min > cell_max) return CORRUPT();
    const uint32_t span = cell_max - cell_min;
    const bool leaf = n.leaf;
    int lo = 0, hi = ncell;
    int64_t found = 0;  // rowid of cell lo once known
    bool have = false;
    while (lo < hi) {
      int mid = (lo + hi) >> 1;
      uint32_t off = LoadBe16(ptrs + 2 * mid);
      if (off - cell_min > span) return CORRUPT();
      const uint8_t* p = data + off;
      p = leaf ? SkipVarint(p) : p + 4;
      uint64_t v;
      ReadVarint(&p, &v);
      int64_t k = int64_t(v);
      if (k < rowid) {
        lo = mid + 1;
      } else {
        hi = mid;
        found = k;
        have = true;
      }
    }
    if (!leaf) {
      TRY(DescendAt(lo, cell_min, span));
      continue;
    }
    if (ncell == 0) {
      lv.idx = 0;
      state_ = State::kInvalid;
      *res = -1;
      return Status();
    }
    state_ = State::kValid;
    if (lo < ncell) {
      lv.idx = lo;
      if (!have) {
        uint32_t off = Get16(ptrs + 2 * lo);
        if (off - cell_min > span) return CORRUPT();
        found = CellRowid(n, data + off);
      }
      *res = found == rowid ? 0 : 1;
    } else {
      lv.idx = ncell - 1;
      *res = -1;
    }
    return Status();
  }
}

// When the cursor's leaf already spans `rowid`, searches only that leaf.
Status BtCursor::SeekInLeaf(int64_t rowid, int* res, bool* done) {
  *done = false;
  if (state_ != State::kValid || skip_next_ != 0 || depth_ < 0) return Status();
  Level& lv = path_[depth_];
  const Node& n = lv.node;
  if (!n.leaf || n.ncell == 0) return Status();
  uint8_t* cell = nullptr;
  // Rows visited in rowid order: the wanted one is usually the next cell.
  const int next = lv.idx + 1;
  if (lv.idx >= 0 && next < n.ncell) {
    TRY(CellAt(*bt_, n, next, &cell));
    if (CellRowid(n, cell) == rowid) {
      lv.idx = next;
      *res = 0;
      *done = true;
      return Status();
    }
  }
  TRY(CellAt(*bt_, n, 0, &cell));
  if (rowid < CellRowid(n, cell)) return Status();
  TRY(CellAt(*bt_, n, n.ncell - 1, &cell));
  if (rowid > CellRowid(n, cell)) return Status();
  int lo = 0, hi = n.ncell - 1;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    TRY(CellAt(*bt_, n, mid, &cell));
    if (CellRowid(n, cell) < rowid) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  TRY(CellAt(*bt_, n, lo, &cell));
  lv.idx = lo;
  *res = CellRowid(n, cell) == rowid ? 0 : 1;
  *done = true;
  return Status();
}

Status BtCursor::SeekRowid(int64_t rowid, int* res) {
  if (bt_ == nullptr || !intkey_) return Status(kMisuse);
  if (state_ == State::kFault) return Status(fault_);
  info_valid_ = false;
  bool done;
  Status st = SeekInLeaf(rowid, res, &done);
  if (st.ok() && !done) st = SeekRowidInternal(rowid, res);
  if (!st.ok()) {
    state_ = State::kInvalid;
    return st;
  }
  hint_valid_ = state_ == State::kValid;
  hint_rowid_ = rowid;
  hint_res_ = *res;
  return Status();
}

Status BtCursor::CompareCell(const Node& n, const uint8_t* cell, SearchComparator cmp, void* ctx,
                             int* c) {
  CellInfo info;
  TRY(ParseCell(*bt_, n, cell, &info));
  if (info.local == info.payload_size) {
    *c = cmp(ctx, info.payload, info.payload_size);
    return Status();
  }
  if (key_buf_.size() < info.payload_size) key_buf_.resize(info.payload_size);
  TRY(ReadCellPayload(*bt_, info, 0, info.payload_size, key_buf_.data()));
  *c = cmp(ctx, key_buf_.data(), info.payload_size);
  return Status();
}

Status BtCursor::SeekIndexInternal(SearchComparator cmp, void* ctx, int* res,
                                   const int64_t* int_first) {
  Status st = DescendToKey(cmp, ctx, res, int_first);
  TrimPath(!st.ok());
  return st;
}

namespace {

// The order of a stored key against a search key whose first field is the
// integer v (SeekIndex's int_first), when the stored key's first field is
// a 1..4-byte integer different from v: -1 or 1. 0 when that does not
// decide (the comparator must).
inline int FirstIntOrder(const uint8_t* key, uint32_t n, int64_t v) {
  const uint32_t hdr = key[0];
  const uint32_t st = key[1];
  if (n < 2 || hdr - 2u >= 126u || st - 1u >= 4u || hdr + st > n) return 0;
  const uint8_t* p = key + hdr;
  int64_t x;
  if (st == 1) {
    x = static_cast<int8_t>(p[0]);
  } else if (st == 2) {
    x = static_cast<int16_t>(static_cast<uint16_t>((p[0] << 8) | p[1]));
  } else if (st == 3) {
    x = static_cast<int32_t>((uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) |
                             (uint32_t(p[2]) << 8)) >>
        8;
  } else {
    x = static_cast<int32_t>((uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) |
                             (uint32_t(p[2]) << 8) | p[3]);
  }
  return x == v ? 0 : (x < v ? -1 : 1);
}

}  // namespace

Status BtCursor::DescendToKey(SearchComparator cmp, void* ctx, int* res, const int64_t* int_first) {
  TRY(MoveToRoot(true));
  if (depth_ < 0) {
    *res = -1;
    return Status();
  }
  const uint32_t usable = bt_->usable;
  const uint32_t cell_max = usable - kMinCellSize;
  while (true) {
    Level& lv = path_[depth_];
    const Node& n = lv.node;
    // Copies in locals: the comparator is opaque, so fields read through
    // `n` would be reloaded after every call.
    const int ncell = n.ncell;
    const uint8_t* const data = n.data;
    const uint8_t* const ptrs = data + n.ptrs;
    const uint32_t cell_min = uint32_t(n.ptrs) + 2u * ncell;
    if (ncell > 0 && cell_min > cell_max) return CORRUPT();
    const uint32_t span = cell_max - cell_min;
    const uint32_t max_local = n.max_local;
    const bool leaf = n.leaf;
    const uint32_t skip = leaf ? 0 : 4;  // the left-child pointer
    int lo = 0, hi = ncell;
    while (lo < hi) {
      int mid = (lo + hi) >> 1;
      uint32_t off = LoadBe16(ptrs + 2 * mid);
      if (off - cell_min > span) return CORRUPT();
      // A key stored whole on the page goes to the comparator in place.
      const uint8_t* p = data + off + skip;
      uint32_t psize = p[0];
      const uint8_t* key = p + 1;
      if (psize >= 0x80) {
        uint64_t v;
        key = p + GetVarint(p, &v);
        psize = v > max_local ? max_local + 1u : uint32_t(v);
      }
      int c;
      if (psize <= max_local && uint32_t(key - data) + psize <= usable) {
        c = int_first != nullptr ? FirstIntOrder(key, psize, *int_first) : 0;
        if (c == 0) c = cmp(ctx, key, psize);
      } else {
        TRY(CompareCell(n, data + off, cmp, ctx, &c));
      }
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid;
      } else {
        lv.idx = mid;
        state_ = State::kValid;
        *res = 0;
        return Status();
      }
    }
    if (!leaf) {
      TRY(DescendAt(lo, cell_min, span));
      continue;
    }
    if (ncell == 0) {
      lv.idx = 0;
      state_ = State::kInvalid;
      *res = -1;
      return Status();
    }
    state_ = State::kValid;
    if (lo < ncell) {
      lv.idx = lo;
      *res = 1;
    } else {
      lv.idx = ncell - 1;
      *res = -1;
    }
    return Status();
  }
}

Status BtCursor::SeekIndex(SearchComparator cmp, void* ctx, int* res, const int64_t* int_first) {
  if (bt_ == nullptr || intkey_) return Status(kMisuse);
  if (state_ == State::kFault) return Status(fault_);
  info_valid_ = false;
  hint_valid_ = false;
  Status st = SeekIndexInternal(cmp, ctx, res, int_first);
  if (!st.ok()) state_ = State::kInvalid;
  return st;
}

}  // namespace basalt

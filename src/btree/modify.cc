// Inserting and deleting entries through a write cursor.
//
// Before any change, every other cursor positioned on the same tree saves
// its key (BtShared::SaveCursors) and releases its pages; it re-seeks on next
// use. The writing cursor keeps its position when no balancing was needed
// (the common case: the cell fits, or the page stays at least a third full)
// and otherwise re-seeks lazily to the inserted or deleted key.
#include "btree/balance.h"

namespace basalt {

using namespace btfmt;
using namespace btree_detail;

Status BtCursor::CheckWritable() {
  if (bt_ == nullptr) return Status(kMisuse, "cursor is closed");
  if (state_ == State::kFault) return Status(fault_);
  if (!write_) return Status(kMisuse, "read-only cursor");
  if (bt_->pager->txn() != PagerTxn::kWrite) return Status(kMisuse, "no write transaction");
  if (root_ == 0) return Status(kAbort, "the tree was dropped");
  return Status();
}

Status BtCursor::SaveOtherCursors() { return bt_->SaveCursors(root_, this); }

bool BtCursor::AtLastEntry() const {
  if (state_ != State::kValid || depth_ < 0) return false;
  for (int i = 0; i < depth_; ++i) {
    if (path_[i].idx != path_[i].node.ncell) return false;
  }
  const Level& lv = path_[depth_];
  return lv.node.leaf && lv.idx == lv.node.ncell - 1;
}

// Puts the built cell into the current leaf at path_[depth_].idx, replacing
// the cell there when `replace`. Returns with the cursor on the new entry,
// or saved (state kRequireSeek) after balancing; the caller has stored the
// key in saved_rowid_/saved_key_ beforehand only for the latter case.
Status BtCursor::InsertCellAtLeaf(const uint8_t* cell, uint32_t size, bool replace) {
  Level& lv = path_[depth_];
  Node& n = lv.node;
  const int idx = lv.idx;
  TRY(bt_->pager->Write(n.ref));
  info_valid_ = false;
  skip_next_ = 0;
  if (replace) {
    uint8_t* old = nullptr;
    TRY(CellAt(*bt_, n, idx, &old));
    CellInfo oi;
    TRY(ParseCell(*bt_, n, old, &oi));
    TRY(FreeOverflow(*bt_, oi));
    if (oi.size == size) {
      std::memcpy(old, cell, size);
      state_ = State::kValid;
      if (bt_->autovac != 0) return PtrmapCellRefs(*bt_, n, old);
      return Status();
    }
    TRY(DropCell(*bt_, n, idx, oi.size));
  }
  bool fitted;
  TRY(InsertCell(*bt_, n, idx, cell, size, &fitted));
  if (fitted) {
    state_ = State::kValid;
    return Status();
  }
  bool bulk = !replace && idx == n.ncell;
  for (int i = 0; bulk && i < depth_; ++i) bulk = path_[i].idx == path_[i].node.ncell;
  {
    Balancer b(*this);
    b.SetPending(depth_, idx, cell, size);
    b.SetBulk(bulk);
    TRY(b.Run(depth_));
  }
  state_ = State::kRequireSeek;
  return Status();
}

Status BtCursor::DoInsertRow(int64_t key, const uint8_t* data, uint32_t n) {
  TRY(CheckWritable());
  if (!intkey_) return Status(kMisuse, "InsertRow on an index tree");
  TRY(SaveOtherCursors());
  int res = 0;
  bool positioned = false;
  if (state_ == State::kValid && skip_next_ == 0 && path_[depth_].node.leaf) {
    if (hint_valid_ && hint_rowid_ == key) {
      res = hint_res_;
      positioned = true;
    } else {
      int64_t cur = rowid();
      if (cur == key) {
        res = 0;
        positioned = true;
      } else if (cur < key && AtLastEntry()) {
        res = -1;
        positioned = true;
      }
    }
  }
  hint_valid_ = false;
  if (!positioned) {
    Status st = SeekRowidInternal(key, &res);
    if (!st.ok()) {
      state_ = State::kInvalid;
      return st;
    }
    if (depth_ < 0) return CORRUPT();
  }
  uint8_t* cell = bt_->CellBuf();
  uint32_t len;
  TRY(BuildCell(*bt_, true, key, data, n, cell, &len));
  uint32_t size = std::max<uint32_t>(len, kMinCellSize);
  bool replace = false;
  if (state_ == State::kValid) {
    if (res == 0) {
      replace = true;
    } else if (res < 0) {
      ++path_[depth_].idx;
    }
  } else {
    path_[depth_].idx = 0;  // empty tree
  }
  saved_rowid_ = key;
  return InsertCellAtLeaf(cell, size, replace);
}

Status BtCursor::ReplaceCell(int level, const uint8_t* cell, uint32_t size) {
  Node& n = path_[level].node;
  const int idx = path_[level].idx;
  TRY(bt_->pager->Write(n.ref));
  info_valid_ = false;
  skip_next_ = 0;
  uint8_t* old = nullptr;
  TRY(CellAt(*bt_, n, idx, &old));
  CellInfo oi;
  TRY(ParseCell(*bt_, n, old, &oi));
  TRY(FreeOverflow(*bt_, oi));
  if (oi.size == size) {
    std::memcpy(old, cell, size);
    state_ = State::kValid;
    if (bt_->autovac != 0) return PtrmapCellRefs(*bt_, n, old);
    return Status();
  }
  TRY(DropCell(*bt_, n, idx, oi.size));
  bool fitted;
  TRY(InsertCell(*bt_, n, idx, cell, size, &fitted));
  {
    Balancer b(*this);
    if (!fitted) b.SetPending(level, idx, cell, size);
    TRY(b.Run(level));
  }
  state_ = State::kRequireSeek;
  return Status();
}

Status BtCursor::DoInsertKey(const uint8_t* key, uint32_t n, SearchComparator cmp, void* ctx,
                             const int64_t* int_first) {
  TRY(CheckWritable());
  if (intkey_) return Status(kMisuse, "InsertKey on a table tree");
  TRY(SaveOtherCursors());
  hint_valid_ = false;
  int res;
  bool near;
  TRY(InsertPointNearby(cmp, ctx, &near));
  if (near) {
    res = 1;  // path_[depth_].idx is where the key goes, before that cell
  } else {
    Status st = SeekIndexInternal(cmp, ctx, &res, int_first);
    if (!st.ok()) {
      state_ = State::kInvalid;
      return st;
    }
    if (depth_ < 0) return CORRUPT();
  }
  // Built after a 4-byte slot so it can become an interior cell in place.
  uint8_t* buf = bt_->CellBuf();
  uint32_t len;
  TRY(BuildCell(*bt_, false, 0, key, n, buf + 4, &len));
  saved_key_.assign(key, key + n);
  Level& lv = path_[depth_];
  if (state_ == State::kValid && res == 0) {
    if (lv.node.leaf) return InsertCellAtLeaf(buf + 4, std::max<uint32_t>(len, kMinCellSize), true);
    uint8_t* old = nullptr;
    TRY(CellAt(*bt_, lv.node, lv.idx, &old));
    std::memcpy(buf, old, 4);  // keep the left child
    return ReplaceCell(depth_, buf, len + 4);
  }
  if (state_ == State::kValid) {
    if (res < 0) ++lv.idx;
  } else {
    lv.idx = 0;
  }
  return InsertCellAtLeaf(buf + 4, std::max<uint32_t>(len, kMinCellSize), false);
}

// When the cursor rests on a leaf next to where the key belongs (an earlier
// seek for the same key, such as a UNIQUE check, or the previous insert of
// an ascending run), finds that slot with one or two comparisons instead of
// a descent from the root. *near is true when path_[depth_].idx is then the
// slot to insert at (the key sorts strictly between its neighbours there).
// A slot at the leaf's edge counts only on the tree's outermost path: other
// edges border an interior separator the leaf cannot see.
Status BtCursor::InsertPointNearby(SearchComparator cmp, void* ctx, bool* near) {
  *near = false;
  if (state_ != State::kValid || skip_next_ != 0 || depth_ < 0) return Status();
  Level& lv = path_[depth_];
  const Node& n = lv.node;
  if (!n.leaf || n.ncell == 0 || lv.idx < 0 || lv.idx >= n.ncell) return Status();
  auto compare_at = [&](int i, int* c) -> Status {
    uint8_t* cell = nullptr;
    TRY(CellAt(*bt_, n, i, &cell));
    return CompareCell(n, cell, cmp, ctx, c);
  };
  auto outer_path = [&](bool right) {
    for (int i = 0; i < depth_; ++i) {
      if (path_[i].idx != (right ? path_[i].node.ncell : 0)) return false;
    }
    return true;
  };
  int i = lv.idx, c;
  TRY(compare_at(i, &c));
  if (c == 0) return Status();
  if (c < 0) {  // the cell sorts before the key: the slot is after it
    ++i;
    if (i == n.ncell) {
      if (!outer_path(true)) return Status();
    } else {
      TRY(compare_at(i, &c));
      if (c <= 0) return Status();
    }
  } else if (i == 0) {
    if (!outer_path(false)) return Status();
  } else {
    TRY(compare_at(i - 1, &c));
    if (c >= 0) return Status();
  }
  lv.idx = i;
  *near = true;
  return Status();
}

Status BtCursor::DoAppendKey(const uint8_t* key, uint32_t n) {
  TRY(CheckWritable());
  if (intkey_) return Status(kMisuse, "AppendKey on a table tree");
  TRY(SaveOtherCursors());
  hint_valid_ = false;
  if (state_ != State::kValid || skip_next_ != 0 || !AtLastEntry()) {
    Status st = Last();
    if (!st.ok()) {
      state_ = State::kInvalid;
      return st;
    }
    if (depth_ < 0) return CORRUPT();
  }
  uint8_t* buf = bt_->CellBuf();
  uint32_t len;
  TRY(BuildCell(*bt_, false, 0, key, n, buf + 4, &len));
  saved_key_.assign(key, key + n);
  Level& lv = path_[depth_];
  lv.idx = state_ == State::kValid ? lv.idx + 1 : 0;
  return InsertCellAtLeaf(buf + 4, std::max<uint32_t>(len, kMinCellSize), false);
}

Status BtCursor::DoDelete() {
  TRY(CheckWritable());
  if (state_ == State::kRequireSeek) TRY(EnsureRestored());
  if (state_ != State::kValid || skip_next_ != 0) {
    return Status(kMisuse, "cursor is not on an entry");
  }
  TRY(SaveOtherCursors());
  TRY(ParseCurrent());
  const CellInfo ci = info_;
  if (intkey_) {
    saved_rowid_ = ci.key;
  } else {
    TRY(CurrentKey(&saved_key_));
  }
  hint_valid_ = false;
  info_valid_ = false;
  const int d = depth_;
  Level& lv = path_[d];
  Node& n = lv.node;
  const int idx = lv.idx;
  TRY(bt_->pager->Write(n.ref));
  TRY(FreeOverflow(*bt_, ci));

  if (n.leaf) {
    TRY(DropCell(*bt_, n, idx, ci.size));
    bool need = false;
    if (d > 0) {
      int nfree;
      TRY(NodeFree(*bt_, n, &nfree));
      need = uint32_t(nfree) * 3 > bt_->usable * 2;
    }
    if (!need) {
      // Stay next to the hole: on the following entry (Next() stays) or,
      // at the end of the leaf, on the preceding one (Prev() stays).
      if (idx < n.ncell) {
        skip_next_ = 1;
      } else if (n.ncell > 0) {
        lv.idx = n.ncell - 1;
        skip_next_ = -1;
      } else {
        state_ = State::kInvalid;
      }
      return Status();
    }
    {
      Balancer b(*this);
      TRY(b.Run(d));
    }
    state_ = State::kRequireSeek;
    skip_next_ = 0;
    return Status();
  }

  // An entry on an index interior page: its predecessor (the last entry of
  // its left subtree, always on a leaf) takes its place.
  uint8_t* cell = nullptr;
  TRY(CellAt(*bt_, n, idx, &cell));
  const Pgno left = Get32(cell);
  TRY(MoveToChild(left));
  TRY(DescendRightmost());
  Node& leaf = path_[depth_].node;
  const int li = path_[depth_].idx;
  uint8_t* lc = nullptr;
  TRY(CellAt(*bt_, leaf, li, &lc));
  CellInfo linfo;
  TRY(ParseCell(*bt_, leaf, lc, &linfo));
  uint32_t len =
      uint32_t(linfo.payload - lc) + linfo.local + (linfo.local < linfo.payload_size ? 4 : 0);
  uint8_t* repl = bt_->CellBuf();
  Put32(repl, left);
  std::memcpy(repl + 4, lc, len);
  TRY(bt_->pager->Write(leaf.ref));
  TRY(DropCell(*bt_, leaf, li, linfo.size));
  TRY(DropCell(*bt_, n, idx, ci.size));
  bool fitted;
  TRY(InsertCell(*bt_, n, idx, repl, len + 4, &fitted));
  {
    Balancer b(*this);
    if (!fitted) b.SetPending(d, idx, repl, len + 4);
    TRY(b.Run(d));
  }
  state_ = State::kRequireSeek;
  skip_next_ = 0;
  return Status();
}

// A failed change leaves the cursor unpositioned (the tree may be corrupt).
Status BtCursor::AfterFailure(Status st) {
  if (!st.ok() && state_ != State::kFault) {
    ReleasePath();
    state_ = State::kInvalid;
    skip_next_ = 0;
  }
  return st;
}

Status BtCursor::InsertRow(int64_t rowid, const uint8_t* data, uint32_t n) {
  return AfterFailure(DoInsertRow(rowid, data, n));
}

Status BtCursor::InsertKey(const uint8_t* key, uint32_t n, SearchComparator cmp, void* ctx,
                           const int64_t* int_first) {
  return AfterFailure(DoInsertKey(key, n, cmp, ctx, int_first));
}

Status BtCursor::AppendKey(const uint8_t* key, uint32_t n) {
  return AfterFailure(DoAppendKey(key, n));
}

Status BtCursor::Delete() { return AfterFailure(DoDelete()); }

}  // namespace basalt

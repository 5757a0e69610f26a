// Cursor movement: descending from the root, stepping, seeking, and saving
// and restoring a position around changes made by others.
//
// The path: path_[0..depth_] holds the pinned pages from the root down.
// For a page above the deepest level, idx is the child followed (ncell
// meaning the right-most child). On the deepest page idx is the current
// cell: a leaf cell, or, for index trees, an interior cell (index trees keep
// entries in interior pages too; table trees only in leaves).
//
// Cursor states:
//   kInvalid     not on an entry (eof, or never positioned)
//   kValid       on the entry path_[depth_].idx
//   kRequireSeek the tree changed; saved_rowid_/saved_key_ hold the entry
//                to re-seek to on next use (EnsureRestored)
//   kFault       unusable; every call returns fault_
// skip_next_ (after a re-seek that did not find the saved key, or a delete):
// > 0 the cursor already sits on the entry after the saved one, so the next
// Next() does not move; < 0 likewise for Prev().
#include "btree/btree_internal.h"

namespace basalt {

using namespace btfmt;
using namespace btree_detail;

void BtCursor::ReleasePath() {
  for (int i = 0; i <= depth_; ++i) path_[i].node.ref.Reset();
  depth_ = -1;
  info_valid_ = false;
}

void BtCursor::Close() {
  if (bt_ == nullptr) return;
  ReleasePath();
  if (prev_)
    prev_->next_ = next_;
  else
    bt_->cursors = next_;
  if (next_) next_->prev_ = prev_;
  next_ = prev_ = nullptr;
  BtCursor* q = this;
  while (q->peer_ != this) q = q->peer_;
  q->peer_ = peer_;
  peer_ = this;
  bt_ = nullptr;
  state_ = State::kInvalid;
}

void BtCursor::Trip(int code) {
  ReleasePath();
  state_ = State::kFault;
  fault_ = code;
}

Status BtCursor::MoveToRoot(bool keep_path) {
  // The root stays pinned from the last descent when it can: pages pinned by
  // a cursor do not change under it (a change by anyone else saves the
  // cursor and releases its pages first).
  const bool keep_root = depth_ >= 0 && path_[0].node.pgno == root_ && state_ != State::kFault;
  if (keep_path && keep_root) {
    // Levels 1..depth_ stay pinned for MoveToChild to reuse; the caller
    // trims whatever the new path does not use (TrimPath).
    depth_ = 0;
  } else {
    for (int i = keep_root ? 1 : 0; i <= depth_; ++i) path_[i].node.ref.Reset();
    depth_ = keep_root ? 0 : -1;
  }
  info_valid_ = false;
  skip_next_ = 0;
  hint_valid_ = false;
  if (state_ == State::kFault) return Status(fault_);
  state_ = State::kInvalid;  // until a caller positions the cursor
  if (keep_root) {
    path_[0].idx = 0;
    return Status();
  }
  Pager& pager = *bt_->pager;
  if (root_ == 0 || (root_ == 1 && pager.page_count() == 0)) {
    // A dropped tree, or sqlite_schema of a database with no pages: empty.
    state_ = State::kInvalid;
    return Status();
  }
  if (root_ > pager.page_count()) return CORRUPT();
  PageRef ref;
  TRY(pager.Get(root_, &ref));
  TRY(InitNode(*bt_, std::move(ref), &path_[0].node));
  depth_ = 0;
  path_[0].idx = 0;
  if (path_[0].node.intkey != intkey_) return CORRUPT();
  return Status();
}

void BtCursor::TrimPath(bool failed) {
  // After a successful descent the pages left over from the previous path
  // sit right below the new one; a failure may leave gaps.
  for (int i = depth_ + 1; i < kMaxDepth; ++i) {
    if (path_[i].node.ref) {
      path_[i].node.ref.Reset();
    } else if (!failed) {
      break;
    }
  }
}

Status BtCursor::MoveToChild(Pgno child) {
  if (depth_ + 1 >= kMaxDepth) return CORRUPT();
  Level& lv = path_[depth_ + 1];
  if (lv.node.ref) {
    // Still pinned from the previous descent (see MoveToRoot).
    if (lv.node.pgno == child) {
      ++depth_;
      lv.idx = 0;
      return Status();
    }
    lv.node.ref.Reset();
  }
  if (child < 2 || child > bt_->pager->page_count()) return CORRUPT();
  PageRef ref;
  TRY(bt_->pager->Get(child, &ref));
  TRY(InitNode(*bt_, std::move(ref), &lv.node));
  if (lv.node.ncell == 0 || lv.node.intkey != intkey_) {
    lv.node.ref.Reset();
    return CORRUPT();
  }
  ++depth_;
  lv.idx = 0;
  return Status();
}

Status BtCursor::DescendLeftmost() {
  while (!path_[depth_].node.leaf) {
    Level& lv = path_[depth_];
    lv.idx = 0;
    uint8_t* cell = nullptr;  // none: a root with only a right-most child
    if (lv.node.ncell > 0) TRY(CellAt(*bt_, lv.node, 0, &cell));
    TRY(MoveToChild(ChildAt(lv.node, cell)));
  }
  path_[depth_].idx = 0;
  return Status();
}

Status BtCursor::DescendRightmost() {
  while (!path_[depth_].node.leaf) {
    Level& lv = path_[depth_];
    lv.idx = lv.node.ncell;
    TRY(MoveToChild(RightChild(lv.node)));
  }
  path_[depth_].idx = path_[depth_].node.ncell - 1;
  return Status();
}

Status BtCursor::First() {
  if (bt_ == nullptr) return Status(kMisuse);
  TRY(MoveToRoot());
  if (depth_ < 0 || (path_[0].node.leaf && path_[0].node.ncell == 0)) {
    state_ = State::kInvalid;
    return Status();
  }
  Status st = DescendLeftmost();
  state_ = st.ok() ? State::kValid : State::kInvalid;
  return st;
}

Status BtCursor::Last() {
  if (bt_ == nullptr) return Status(kMisuse);
  // Already there (an append-only ephemeral table, say): no descent.
  if (skip_next_ == 0 && AtLastEntry()) {
    hint_valid_ = false;
    return Status();
  }
  TRY(MoveToRoot());
  if (depth_ < 0 || (path_[0].node.leaf && path_[0].node.ncell == 0)) {
    state_ = State::kInvalid;
    return Status();
  }
  Status st = DescendRightmost();
  state_ = st.ok() ? State::kValid : State::kInvalid;
  return st;
}

Status BtCursor::NextFull() {
  if (state_ != State::kValid) {
    if (state_ == State::kFault) return Status(fault_);
    if (state_ == State::kInvalid) return Status();
    TRY(EnsureRestored());
    if (state_ != State::kValid) return Status();
  }
  info_valid_ = false;
  hint_valid_ = false;
  if (skip_next_ != 0) {
    bool stay = skip_next_ > 0;
    skip_next_ = 0;
    if (stay) return Status();
  }
  Level& lv = path_[depth_];
  if (lv.node.leaf && ++lv.idx < lv.node.ncell) return Status();
  Status st = NextSlow();
  if (!st.ok()) state_ = State::kInvalid;
  return st;
}

Status BtCursor::NextSlow() {
  Level* lv = &path_[depth_];
  if (!lv->node.leaf) {
    // On an index interior entry: the next entry is the first of the
    // subtree to its right.
    ++lv->idx;
    uint8_t* cell = nullptr;
    if (lv->idx < lv->node.ncell) TRY(CellAt(*bt_, lv->node, lv->idx, &cell));
    TRY(MoveToChild(ChildAt(lv->node, cell)));
    return DescendLeftmost();
  }
  while (true) {
    if (depth_ == 0) {
      state_ = State::kInvalid;
      return Status();
    }
    path_[depth_].node.ref.Reset();
    --depth_;
    lv = &path_[depth_];
    if (lv->idx < lv->node.ncell) {
      if (!intkey_) return Status();  // on the interior entry itself
      ++lv->idx;
      uint8_t* cell = nullptr;
      if (lv->idx < lv->node.ncell) TRY(CellAt(*bt_, lv->node, lv->idx, &cell));
      TRY(MoveToChild(ChildAt(lv->node, cell)));
      return DescendLeftmost();
    }
  }
}

Status BtCursor::Prev() {
  if (state_ != State::kValid) {
    if (state_ == State::kFault) return Status(fault_);
    if (state_ == State::kInvalid) return Status();
    TRY(EnsureRestored());
    if (state_ != State::kValid) return Status();
  }
  info_valid_ = false;
  hint_valid_ = false;
  if (skip_next_ != 0) {
    bool stay = skip_next_ < 0;
    skip_next_ = 0;
    if (stay) return Status();
  }
  Level& lv = path_[depth_];
  if (lv.node.leaf && lv.idx > 0) {
    --lv.idx;
    return Status();
  }
  Status st = PrevSlow();
  if (!st.ok()) state_ = State::kInvalid;
  return st;
}

Status BtCursor::PrevSlow() {
  Level* lv = &path_[depth_];
  if (!lv->node.leaf) {
    // On an index interior entry: the previous entry is the last of the
    // subtree to its left.
    uint8_t* cell = nullptr;
    TRY(CellAt(*bt_, lv->node, lv->idx, &cell));
    TRY(MoveToChild(Get32(cell)));
    return DescendRightmost();
  }
  while (true) {
    if (depth_ == 0) {
      state_ = State::kInvalid;
      return Status();
    }
    path_[depth_].node.ref.Reset();
    --depth_;
    lv = &path_[depth_];
    if (lv->idx > 0) {
      --lv->idx;
      if (!intkey_) return Status();  // on the interior entry left of the subtree
      uint8_t* cell = nullptr;
      TRY(CellAt(*bt_, lv->node, lv->idx, &cell));
      TRY(MoveToChild(Get32(cell)));
      return DescendRightmost();
    }
  }
}

bool BtCursor::DecodeCurrent() {
  if (info_valid_) return true;
  if (depth_ < 0) return false;
  const Level& lv = path_[depth_];
  uint32_t off = CellOffset(*bt_, lv.node, lv.idx);
  if (off == 0 || !DecodeCell(*bt_, lv.node, lv.node.data + off, &info_)) return false;
  info_valid_ = true;
  return true;
}

Status BtCursor::ParseCurrent() {
  if (info_valid_) return Status();
  if (depth_ < 0) return Status(kMisuse, "cursor is not on an entry");
  if (!DecodeCurrent()) return CORRUPT();
  return Status();
}

int64_t BtCursor::RowidSlow() {
  if (state_ != State::kValid || !DecodeCurrent()) return 0;
  return info_.key;
}

bool BtCursor::WholeLocalPayload(const uint8_t** data, uint32_t* size) {
  if (state_ != State::kValid || depth_ < 0) return false;
  if (info_valid_) {
    if (info_.payload_size == 0 || info_.local != info_.payload_size) return false;
    *data = info_.payload;
    *size = info_.payload_size;
    return true;
  }
  const Level& lv = path_[depth_];
  const Node& n = lv.node;
  if (!n.leaf) return false;
  const uint32_t off = CellOffset(*bt_, n, lv.idx);
  if (off == 0) return false;
  const uint8_t* cell = n.data + off;
  const uint8_t* p = cell;
  uint64_t v;
  ReadVarint(&p, &v);
  if (v == 0 || v > n.max_local) return false;
  const uint32_t psize = uint32_t(v);
  int64_t key = psize;
  if (n.intkey) {
    ReadVarint(&p, &v);  // the rowid
    key = int64_t(v);
  }
  // The same bound DecodeCell checks: the cell (at least kMinCellSize
  // bytes) ends within the usable area. The cell is then decoded as
  // DecodeCell would (rowid() needs no second decode).
  const uint32_t cell_size = std::max<uint32_t>(uint32_t(p - cell) + psize, kMinCellSize);
  if (off + cell_size > bt_->usable) return false;
  info_.key = key;
  info_.payload = p;
  info_.payload_size = psize;
  info_.local = psize;
  info_.size = uint16_t(cell_size);
  info_valid_ = true;
  *data = p;
  *size = psize;
  return true;
}

uint32_t BtCursor::PayloadSizeSlow() {
  if (state_ != State::kValid || !DecodeCurrent()) return 0;
  return info_.payload_size;
}

std::span<const uint8_t> BtCursor::LocalPayloadSlow() {
  if (state_ != State::kValid || !DecodeCurrent()) return {};
  return {info_.payload, info_.local};
}

Status BtCursor::ReadPayload(uint32_t offset, uint32_t n, uint8_t* buf) {
  if (state_ != State::kValid) {
    if (state_ == State::kFault) return Status(fault_);
    return Status(kMisuse, "cursor is not on an entry");
  }
  TRY(ParseCurrent());
  return ReadCellPayload(*bt_, info_, offset, n, buf, &ovfl_cache_);
}

Status BtCursor::CurrentKey(std::vector<uint8_t>* out) {
  TRY(ParseCurrent());
  out->resize(info_.payload_size);
  return ReadCellPayload(*bt_, info_, 0, info_.payload_size, out->data(), &ovfl_cache_);
}

Status BtCursor::SavePosition() {
  if (state_ != State::kValid) return Status();
  if (intkey_) {
    saved_rowid_ = rowid();
  } else {
    TRY(CurrentKey(&saved_key_));
  }
  ReleasePath();
  hint_valid_ = false;
  state_ = State::kRequireSeek;
  return Status();
}

namespace {
struct SavedKeySearch {
  KeyComparator cmp;
  void* ctx;
  const uint8_t* key;
  uint32_t n;
  static int Compare(void* p, const uint8_t* stored, uint32_t n) {
    auto* s = static_cast<SavedKeySearch*>(p);
    return s->cmp(s->ctx, stored, n, s->key, s->n);
  }
};
}  // namespace

Status BtCursor::EnsureRestored() {
  if (state_ != State::kRequireSeek) {
    return state_ == State::kFault ? Status(fault_) : Status();
  }
  int8_t skip = skip_next_;
  int res;
  Status st;
  if (intkey_) {
    st = SeekRowidInternal(saved_rowid_, &res);
  } else {
    SavedKeySearch s{key_cmp_, key_ctx_, saved_key_.data(), uint32_t(saved_key_.size())};
    st = SeekIndexInternal(&SavedKeySearch::Compare, &s, &res);
  }
  if (!st.ok()) {
    Trip(st.code());
    return st;
  }
  // An exact hit keeps a skip recorded before the save.
  skip_next_ = state_ == State::kValid ? int8_t(res != 0 ? (res > 0 ? 1 : -1) : skip) : 0;
  return Status();
}

Status BtCursor::Restore(bool* gone) {
  if (bt_ == nullptr) return Status(kMisuse);
  TRY(EnsureRestored());
  if (gone) *gone = state_ != State::kValid || skip_next_ != 0;
  return Status();
}

Status BtCursor::Count(int64_t* n) {
  *n = 0;
  if (bt_ == nullptr) return Status(kMisuse);
  if (state_ == State::kFault) return Status(fault_);
  Pager& pager = *bt_->pager;
  if (root_ == 0 || (root_ == 1 && pager.page_count() == 0)) return Status();
  // A depth-first walk with its own stack; the cursor does not move.
  struct Frame {
    Node node;
    int next_child;
  };
  Frame stack[kMaxDepth];
  int top = 0;
  PageRef ref;
  if (root_ > pager.page_count()) return CORRUPT();
  TRY(pager.Get(root_, &ref));
  TRY(InitNode(*bt_, std::move(ref), &stack[0].node));
  stack[0].next_child = 0;
  int64_t total = 0;
  // Each page once: a page reached twice means a corrupt (cyclic) tree.
  std::vector<bool> seen(size_t(pager.page_count()) + 1);
  seen[root_] = true;
  while (top >= 0) {
    Frame& f = stack[top];
    if (f.node.leaf) {
      total += f.node.ncell;
      f.node.ref.Reset();
      --top;
      continue;
    }
    if (f.next_child > f.node.ncell) {
      if (!intkey_) total += f.node.ncell;
      f.node.ref.Reset();
      --top;
      continue;
    }
    uint8_t* cell = nullptr;
    if (f.next_child < f.node.ncell) TRY(CellAt(*bt_, f.node, f.next_child, &cell));
    Pgno child = ChildAt(f.node, cell);
    ++f.next_child;
    if (top + 1 >= kMaxDepth || child < 2 || child > pager.page_count() || seen[child]) {
      return CORRUPT();
    }
    seen[child] = true;
    TRY(pager.Get(child, &ref));
    ++top;
    TRY(InitNode(*bt_, std::move(ref), &stack[top].node));
    stack[top].next_child = 0;
    if (stack[top].node.intkey != intkey_) return CORRUPT();
  }
  *n = total;
  return Status();
}

}  // namespace basalt

// The integrity check behind PRAGMA integrity_check: walks the freelist and
// every tree given, checking
//   - each page is referenced once (by a parent, an overflow chain or the
//     freelist) and every page of the file is referenced;
//   - page headers, cell offsets and cell extents;
//   - free space accounting: cells, freeblocks and fragments cover the
//     content area exactly, the fragment count matches the header;
//   - all leaves of a tree are at the same depth, no non-root page is empty;
//   - table keys are ordered and within the bounds set by parent dividers;
//     index keys are ordered when a comparator is supplied;
//   - overflow chains have the length their payload needs;
//   - the freelist's trunk/leaf structure and the count in the header;
//   - auto-vacuum databases: the pointer-map entry of every page reached
//     (root, child, overflow, free page), the largest-root field, and that
//     nothing references a pointer-map page.
// Messages follow SQLite's wording.
#include <algorithm>
#include <cstdarg>

#include "btree/btree_internal.h"

namespace basalt {

using namespace btfmt;
using namespace btree_detail;

namespace {

class Checker {
 public:
  Checker(BtShared& bt, int max_errors, std::vector<std::string>* msgs)
      : bt_(bt), max_errors_(max_errors), msgs_(msgs) {
    npages_ = bt.pager->page_count();
    referenced_.assign(size_t(npages_) + 1, 0);
    if (bt.lock_page <= npages_) referenced_[bt.lock_page] = 1;
    autovac_ = bt.autovac != 0;
  }

  // The pointer-map entry of `child` should be (type, parent).
  void CheckPtrmap(Pgno child, uint8_t type, Pgno parent) {
    if (!autovac_) return;
    uint8_t got_type = 0;
    Pgno got_parent = 0;
    if (!PtrmapGet(bt_, child, &got_type, &got_parent).ok()) {
      Msg("Failed to read ptrmap key=%u", child);
      return;
    }
    if (got_type != type || got_parent != parent) {
      Msg("Bad ptr map entry key=%u expected=(%d,%u) got=(%d,%u)", child, type, parent, got_type,
          got_parent);
    }
  }

  // The largest-root field against the trees given (auto-vacuum), or the
  // incremental flag without it.
  void CheckLargestRoot(std::span<const IntegrityRoot> roots) {
    PageRef p1;
    if (npages_ == 0 || !bt_.pager->Get(1, &p1).ok()) return;
    const uint8_t* h = p1.data() + kHdrMetaBase;
    if (autovac_) {
      Pgno mx = 1;
      for (const IntegrityRoot& r : roots) mx = std::max(mx, r.root);
      Pgno in_header = Get32(h + 4 * int(Meta::kLargestRootPage));
      if (mx != in_header) Msg("max rootpage (%u) disagrees with header (%u)", mx, in_header);
    } else if (Get32(h + 4 * int(Meta::kIncrementalVacuum)) != 0) {
      Msg("incremental_vacuum enabled with a max rootpage of zero");
    }
  }

  bool done() const { return errors_ >= max_errors_; }

  void Msg(const char* fmt, ...) __attribute__((format(printf, 2, 3))) {
    if (done()) return;
    ++errors_;
    va_list ap;
    va_start(ap, fmt);
    char buf[300];
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    msgs_->push_back(prefix_ + buf);
  }

  // Marks a page referenced; false (with a message) when it cannot be.
  bool Ref(Pgno pgno) {
    if (pgno == 0 || pgno > npages_) {
      Msg("invalid page number %u", pgno);
      return false;
    }
    if (referenced_[pgno]) {
      Msg("2nd reference to page %u", pgno);
      return false;
    }
    referenced_[pgno] = 1;
    return true;
  }

  // Walks an overflow chain (freelist=false) or the freelist, which should
  // account for `expected` pages.
  void CheckList(bool freelist, Pgno pgno, uint32_t expected) {
    uint32_t n = expected;
    int errors_at_start = errors_;
    while (pgno != 0 && !done()) {
      if (!Ref(pgno)) break;
      --n;
      PageRef page;
      if (!bt_.pager->Get(pgno, &page).ok()) {
        Msg("failed to get page %u", pgno);
        break;
      }
      const uint8_t* d = page.data();
      if (freelist) {
        uint32_t leaves = Get32(d + kTrunkCount);
        CheckPtrmap(pgno, kPtrmapFree, 0);
        if (leaves > MaxTrunkLeavesRead(bt_.usable)) {
          Msg("freelist leaf count too big on page %u", pgno);
          --n;
        } else {
          for (uint32_t i = 0; i < leaves; ++i) {
            Pgno leaf = Get32(d + kTrunkLeaves + 4 * i);
            CheckPtrmap(leaf, kPtrmapFree, 0);
            Ref(leaf);
          }
          n -= leaves;
        }
      } else if (n > 0) {
        CheckPtrmap(Get32(d), kPtrmapOverflow2, pgno);
      }
      if (!freelist && n == 0) {
        if (Get32(d) != 0) Msg("extra overflow page %u", Get32(d));
        break;
      }
      pgno = Get32(d);
    }
    if (n != 0 && errors_ == errors_at_start) {
      Msg("%s is %u but should be %u", freelist ? "size" : "overflow list length", expected - n,
          expected);
    }
  }

  void CheckFreelist() {
    PageRef p1;
    if (npages_ == 0 || !bt_.pager->Get(1, &p1).ok()) return;
    Pgno trunk = Get32(p1.data() + kHdrFreelistTrunk);
    uint32_t count = Get32(p1.data() + kHdrFreelistCount);
    prefix_ = "Main freelist: ";
    CheckList(true, trunk, count);
    prefix_.clear();
  }

  void CheckTree(const IntegrityRoot& r) {
    cmp_ = r.cmp;
    cmp_ctx_ = r.ctx;
    have_prev_ = false;
    if (r.root > 1) CheckPtrmap(r.root, kPtrmapRoot, 0);
    int64_t lo = 0;
    CheckPage(r.root, 0, true, &lo, false, INT64_MAX, true);
  }

  void CheckUnused() {
    for (Pgno i = 1; i <= npages_ && !done(); ++i) {
      const bool map = autovac_ && IsPtrmapPage(bt_, i);
      if (!referenced_[i] && !map) Msg("Page %u is never used", i);
      if (referenced_[i] && map) Msg("Pointer map page %u is referenced", i);
    }
  }

 private:
  void SetPrefix(const char* fmt, Pgno pgno, int cell = -1) {
    char buf[80];
    if (cell < 0) {
      std::snprintf(buf, sizeof buf, fmt, pgno);
    } else {
      std::snprintf(buf, sizeof buf, fmt, pgno, cell);
    }
    prefix_ = buf;
  }

  // The prefix for messages about cell i of page n. SQLite checks the
  // right-most child first and, in auto-vacuum databases, leaves that
  // check's prefix in place for the cells of interior pages.
  void CellPrefix(const Node& n, int i) {
    if (autovac_ && !n.leaf) {
      SetPrefix("On page %u at right child: ", n.pgno);
    } else {
      SetPrefix("On tree page %u cell %d: ", n.pgno, i);
    }
  }

  // Checks an index key against the previous one in tree order.
  void CheckKeyOrder(const CellInfo& info) {
    if (cmp_ == nullptr) return;
    std::vector<uint8_t> key(info.payload_size);
    if (!ReadCellPayload(bt_, info, 0, info.payload_size, key.data()).ok()) return;
    if (have_prev_ && cmp_(cmp_ctx_, prev_key_.data(), uint32_t(prev_key_.size()), key.data(),
                           uint32_t(key.size())) > 0) {
      Msg("Index key out of order");
    }
    prev_key_.swap(key);
    have_prev_ = true;
  }

  // Checks the subtree at pgno. Table keys must lie in (lo, hi] (with
  // open ends as flagged); *lo is advanced to the largest key seen. Returns
  // the subtree depth (leaf = 1), or 0 when the page could not be read.
  int CheckPage(Pgno pgno, int level, bool is_root, int64_t* lo, bool has_lo, int64_t hi,
                bool open_hi) {
    if (done() || pgno == 0) return 0;
    std::string saved_prefix = prefix_;
    SetPrefix("Page %u: ", pgno);
    if (!Ref(pgno) || level >= 20) {
      if (level >= 20) Msg("tree is too deep");
      prefix_ = saved_prefix;
      return 0;
    }
    Node n;
    {
      PageRef ref;
      Status st = bt_.pager->Get(pgno, &ref);
      if (st.ok()) st = InitNode(bt_, std::move(ref), &n);
      if (!st.ok()) {
        Msg("btreeInitPage() returns error code %d", st.code());
        prefix_ = saved_prefix;
        return 0;
      }
    }
    int nfree;
    if (!FreeSpace(bt_, n, &nfree).ok()) {
      Msg("free space corruption");
      prefix_ = saved_prefix;
      return 0;
    }
    if (!is_root && n.ncell == 0) Msg("empty non-root page");
    // Intervals (start << 16 | end) of cells and freeblocks.
    std::vector<uint32_t> spans;
    spans.reserve(n.ncell + 8u);
    int depth = -1;
    const uint32_t array_end = uint32_t(n.ptrs) + 2u * n.ncell;
    for (int i = 0; i < n.ncell && !done(); ++i) {
      CellPrefix(n, i);
      uint32_t off = Get16(n.data + n.ptrs + 2 * i);
      if (off < array_end || off + kMinCellSize > bt_.usable) {
        Msg("Offset %u out of range %u..%u", off, array_end, bt_.usable - kMinCellSize);
        continue;
      }
      CellInfo info;
      if (!ParseCell(bt_, n, n.data + off, &info).ok()) {
        Msg("Extends off end of page");
        continue;
      }
      spans.push_back((off << 16) | (off + info.size - 1));
      if (n.intkey) {
        if ((has_lo && info.key <= *lo) || (!open_hi && info.key > hi)) {
          Msg("Rowid %lld out of order", static_cast<long long>(info.key));
        }
      }
      if (info.local < info.payload_size) {
        Pgno first = Get32(info.payload + info.local);
        CheckPtrmap(first, kPtrmapOverflow1, pgno);
        CheckList(false, first, OverflowPageCount(bt_, info));
      }
      if (!n.leaf) {
        CheckPtrmap(Get32(n.data + off), kPtrmapBtree, pgno);
        int64_t child_hi = n.intkey ? info.key : hi;
        int d = CheckPage(Get32(n.data + off), level + 1, false, lo, has_lo, child_hi,
                          n.intkey ? false : open_hi);
        CellPrefix(n, i);
        if (depth < 0)
          depth = d;
        else if (d != depth && d != 0)
          Msg("Child page depth differs");
        if (n.intkey) {
          *lo = info.key;
          has_lo = true;
        }
      } else if (n.intkey) {
        *lo = info.key;
        has_lo = true;
      }
      if (!n.intkey) CheckKeyOrder(info);
    }
    if (!n.leaf && !done()) {
      SetPrefix("On page %u at right child: ", pgno);
      CheckPtrmap(RightChild(n), kPtrmapBtree, pgno);
      int d = CheckPage(RightChild(n), level + 1, false, lo, has_lo, hi, open_hi);
      if (depth < 0)
        depth = d;
      else if (d != depth && d != 0)
        Msg("Child page depth differs");
    }
    // The coverage messages carry no prefix (they name the page).
    prefix_.clear();
    // Freeblocks (FreeSpace validated the chain).
    for (uint32_t pc = Get16(n.data + n.hdr + kPgFirstFreeblock); pc != 0;
         pc = Get16(n.data + pc)) {
      spans.push_back((pc << 16) | (pc + Get16(n.data + pc + 2) - 1));
    }
    std::sort(spans.begin(), spans.end());
    uint32_t prev = ContentStart(n) - 1;
    uint32_t frag = 0;
    bool overlap = false;
    for (uint32_t s : spans) {
      if ((s >> 16) <= prev) {
        Msg("Multiple uses for byte %u of page %u", s >> 16, pgno);
        overlap = true;
        break;
      }
      frag += (s >> 16) - prev - 1;
      prev = s & 0xffff;
    }
    if (!overlap) {
      frag += bt_.usable - 1 - prev;
      if (frag != n.data[n.hdr + kPgFragBytes]) {
        Msg("Fragmentation of %u bytes reported as %u on page %u", frag,
            n.data[n.hdr + kPgFragBytes], pgno);
      }
    }
    prefix_ = saved_prefix;
    return n.leaf ? 1 : (depth > 0 ? depth + 1 : 0);
  }

  BtShared& bt_;
  int max_errors_;
  int errors_ = 0;
  std::vector<std::string>* msgs_;
  Pgno npages_;
  std::vector<uint8_t> referenced_;
  std::string prefix_;
  bool autovac_ = false;
  KeyComparator cmp_ = nullptr;
  void* cmp_ctx_ = nullptr;
  bool have_prev_ = false;
  std::vector<uint8_t> prev_key_;
};

}  // namespace

Status Btree::IntegrityCheck(std::span<const IntegrityRoot> roots, int max_errors,
                             std::vector<std::string>* msgs, bool partial) {
  Pager& pager = *s_->pager;
  bool opened = false;
  TRY(s_->BeginRead(&opened));
  {
    Checker ck(*s_, max_errors, msgs);
    if (pager.page_count() > 0) {
      if (!partial) {
        ck.CheckFreelist();
        ck.CheckLargestRoot(roots);
        bool has1 = false;
        for (const IntegrityRoot& r : roots) has1 |= r.root == 1;
        if (!has1) ck.CheckTree(IntegrityRoot{1, nullptr, nullptr});
      }
      for (const IntegrityRoot& r : roots) {
        if (!ck.done()) ck.CheckTree(r);
      }
      if (!partial) ck.CheckUnused();
    }
  }
  if (opened) TRY(pager.Commit());
  return Status();
}

std::string FormatIntegrityReport(const std::vector<std::string>& msgs, std::string_view db_name) {
  if (msgs.empty()) return "ok";
  std::string out = "*** in database ";
  out.append(db_name);
  out += " ***";
  for (const std::string& m : msgs) {
    out += '\n';
    out += m;
  }
  return out;
}

}  // namespace basalt

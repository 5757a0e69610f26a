// The segment reader (reader.h).
#include "ext/fts5/reader.h"

#include <algorithm>

namespace basalt::fts5 {

int SegReader::LoadLeaf(int pgno, Leaf* out) {
  int rc = store_->Read(SegmentRowid(seg_.id, pgno), &out->data);
  if (rc != SQLITE_OK) return rc;
  if (out->data.size() < 4) return SQLITE_CORRUPT_VTAB;
  out->rowid_ptr = GetU16(out->p());
  out->szleaf = GetU16(out->p() + 2);
  if (out->szleaf > out->nn() || out->szleaf < 4) return SQLITE_CORRUPT_VTAB;
  return SQLITE_OK;
}

int SegReader::ReadTermAt(int off, bool first) {
  const uint8_t* p = leaf_.p();
  const uint8_t* end = p + leaf_.szleaf;
  uint64_t keep = 0, n = 0;
  int k;
  if (!first) {
    if ((k = GetVarint(p + off, end, &keep)) == 0) return SQLITE_CORRUPT_VTAB;
    off += k;
  }
  if ((k = GetVarint(p + off, end, &n)) == 0) return SQLITE_CORRUPT_VTAB;
  off += k;
  if (off + n > static_cast<uint64_t>(leaf_.szleaf) || keep > term_.size() || n == 0) {
    return SQLITE_CORRUPT_VTAB;
  }
  term_.resize(keep);
  term_.append(reinterpret_cast<const char*>(p + off), n);
  term_end_ = off + static_cast<int>(n);
  // The next page-index entry locates the next term on this leaf.
  if (pgidx_off_ >= leaf_.nn()) {
    next_term_ = leaf_.nn() + 1;
  } else {
    uint64_t d;
    int m = GetVarint(p + pgidx_off_, p + leaf_.nn(), &d);
    if (m == 0) return SQLITE_CORRUPT_VTAB;
    pgidx_off_ += m;
    next_term_ += static_cast<int>(d);
  }
  return SQLITE_OK;
}

int SegReader::StartAt(int pgno) {
  for (; pgno <= seg_.last; ++pgno) {
    int rc = LoadLeaf(pgno, &leaf_);
    if (rc != SQLITE_OK) return rc;
    if (leaf_.szleaf >= leaf_.nn()) continue;  // no term on this leaf
    uint64_t first;
    const uint8_t* p = leaf_.p();
    int m = GetVarint(p + leaf_.szleaf, p + leaf_.nn(), &first);
    if (m == 0 || first >= static_cast<uint64_t>(leaf_.szleaf)) return SQLITE_CORRUPT_VTAB;
    pgidx_off_ = leaf_.szleaf + m;
    next_term_ = static_cast<int>(first);
    term_pgno_ = pgno;
    term_.clear();
    eof_ = false;
    return ReadTermAt(static_cast<int>(first), true);
  }
  eof_ = true;
  return SQLITE_OK;
}

int SegReader::First() {
  if (seg_.last == 0) {
    eof_ = true;
    return SQLITE_OK;
  }
  return StartAt(seg_.first);
}

int SegReader::Next() {
  if (next_term_ < leaf_.szleaf) return ReadTermAt(next_term_, false);
  return StartAt(term_pgno_ + 1);
}

int SegReader::Seek(std::string_view key) {
  if (seg_.last == 0) {
    eof_ = true;
    return SQLITE_OK;
  }
  int64_t v;
  int rc = store_->LookupIdx(seg_.id, key, &v);
  if (rc != SQLITE_OK) return rc;
  seek_dlidx_ = (v & 1) != 0;
  int pgno = static_cast<int>(v >> 1);
  if (pgno < seg_.first) pgno = seg_.first;
  rc = StartAt(pgno);
  while (rc == SQLITE_OK && !eof_ && std::string_view(term_) < key) rc = Next();
  return rc;
}

int SegReader::ReadDoclist(RawDoclist* out) {
  // Entries are reused (their position strings keep their memory); the
  // vector is cut to the number read at the end.
  size_t count = 0;
  Leaf spare;
  const Leaf* lf = &leaf_;
  int pgno = term_pgno_;
  int off = term_end_;
  int limit = next_term_;  // the doclist ends here on the term's leaf
  int64_t rowid = 0;
  bool first = true;
  for (;;) {
    // Position at the next rowid, moving to the next leaf if needed.
    bool absolute = first;
    if (off >= lf->szleaf) {
      if (++pgno > seg_.last) break;
      int rc = LoadLeaf(pgno, &spare);
      if (rc != SQLITE_OK) return rc;
      lf = &spare;
      limit = lf->szleaf < lf->nn() ? 0 : lf->nn() + 1;
      if (limit == 0) {
        uint64_t f;
        GetVarint(lf->p() + lf->szleaf, lf->p() + lf->nn(), &f);
        limit = static_cast<int>(f);
      }
      // As SQLite reads: with detail=none the doclist goes on right after
      // the header (up to the first term), whatever the rowid pointer says;
      // otherwise at the rowid pointer, none meaning the doclist ended.
      if (none_) {
        off = 4;
        if (off >= std::min(limit, lf->szleaf)) break;
      } else {
        if (lf->rowid_ptr == 0) break;
        off = lf->rowid_ptr;
      }
      absolute = true;
    } else if (off >= limit) {
      break;
    } else if (lf != &leaf_ && off == lf->rowid_ptr) {
      absolute = true;
    }
    const uint8_t* p = lf->p();
    const uint8_t* end = p + lf->szleaf;
    uint64_t v;
    int k = GetVarint(p + off, end, &v);
    if (k == 0) return SQLITE_CORRUPT_VTAB;
    off += k;
    rowid = absolute ? static_cast<int64_t>(v) : rowid + static_cast<int64_t>(v);
    first = false;
    if (count == out->size()) out->emplace_back();
    RawEntry& e = (*out)[count++];
    e.rowid = rowid;
    e.pgno = pgno;
    e.del = false;
    e.none_flags = 0;
    e.pos.clear();
    if (none_) {
      while (e.none_flags < 2 && off < lf->szleaf && off < limit && p[off] == 0) {
        ++e.none_flags;
        ++off;
      }
      e.del = e.none_flags > 0;
      continue;
    }
    if ((k = GetVarint(p + off, end, &v)) == 0) return SQLITE_CORRUPT_VTAB;
    off += k;
    e.del = (v & 1) != 0;
    size_t need = v >> 1;
    while (need > 0) {
      if (off >= lf->szleaf) {
        if (++pgno > seg_.last) return SQLITE_CORRUPT_VTAB;
        int rc = LoadLeaf(pgno, &spare);
        if (rc != SQLITE_OK) return rc;
        lf = &spare;
        off = 4;
        limit = lf->szleaf < lf->nn() ? 0 : lf->nn() + 1;
        if (limit == 0) {
          uint64_t f;
          GetVarint(lf->p() + lf->szleaf, lf->p() + lf->nn(), &f);
          limit = static_cast<int>(f);
        }
      }
      size_t take = std::min(need, static_cast<size_t>(lf->szleaf - off));
      e.pos.append(reinterpret_cast<const char*>(lf->p() + off), take);
      off += static_cast<int>(take);
      need -= take;
    }
  }
  out->resize(count);
  return SQLITE_OK;
}

}  // namespace basalt::fts5

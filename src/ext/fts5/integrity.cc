// The structural half of 'integrity-check' (the other half, in
// commands.cc, compares the index's postings with the content): each
// segment's %_idx b-tree keys against the leaves they point at, the leaves
// between them, and the doclist indexes. Checked as SQLite does:
//   1. an %_idx row whose leaf was trimmed by a merge (pgno < first) is
//      skipped; any other names a leaf that exists, holds a term, has its
//      first rowid (if any) before its first term, and whose first term is
//      not smaller than the key;
//   2. that leaf's page index lists terms in strictly increasing order,
//      each inside the leaf;
//   3. the leaves between two keyed leaves exist and hold no term; those
//      past the doclist index of the previous key hold no rowid either;
//   4. a key flagged with a doclist index: each entry (leaf, first rowid)
//      of its level-0 pages, reached from the root down, names a leaf
//      whose first rowid is that rowid, and the leaves skipped between
//      entries hold no rowid.
// Any failure is SQLITE_CORRUPT_VTAB.
#include <algorithm>
#include <set>
#include <tuple>

#include "ext/fts5/index.h"
#include "ext/fts5/integrity.h"

namespace basalt::fts5 {
namespace {

constexpr int kCorrupt = SQLITE_CORRUPT_VTAB;

// Reads leaf pgno of segment segid (missing or malformed: corrupt).
int ReadLeaf(DataStore* store, int segid, int pgno, Leaf* out) {
  int rc = store->Read(SegmentRowid(segid, pgno), &out->data);
  if (rc != SQLITE_OK) return rc;
  if (out->data.size() < 4) return kCorrupt;
  out->rowid_ptr = GetU16(out->p());
  out->szleaf = GetU16(out->p() + 2);
  return out->szleaf > out->nn() ? kCorrupt : SQLITE_OK;
}

// Step 2: the page index's terms, strictly increasing, inside the leaf.
int CheckPageIndex(const Leaf& lf) {
  const uint8_t* p = lf.p();
  const uint8_t* end = p + lf.nn();
  std::string prev, cur;
  int off = 0;
  bool first = true;
  for (int at = lf.szleaf; at < lf.nn();) {
    uint64_t incr = 0;
    int k = GetVarint(p + at, end, &incr);
    if (k == 0) return kCorrupt;
    at += k;
    off += static_cast<int>(incr);
    if (off >= lf.szleaf || off < 0) return kCorrupt;
    const uint8_t* t = p + off;
    const uint8_t* leaf_end = p + lf.szleaf;
    uint64_t keep = 0, n = 0;
    if (!first && (k = GetVarint(t, leaf_end, &keep)) == 0) return kCorrupt;
    if (!first) t += k;
    if ((k = GetVarint(t, leaf_end, &n)) == 0) return kCorrupt;
    t += k;
    if (keep > cur.size() || t + n > leaf_end) return kCorrupt;
    cur.resize(keep);
    cur.append(reinterpret_cast<const char*>(t), n);
    if (!first && cur <= prev) return kCorrupt;
    prev = cur;
    first = false;
  }
  return SQLITE_OK;
}

// Step 1 for one keyed leaf.
int CheckKeyedLeaf(const Leaf& lf, const std::string& key) {
  if (lf.nn() <= lf.szleaf) return kCorrupt;  // no term on the leaf
  const uint8_t* p = lf.p();
  uint64_t term_off = 0;
  if (GetVarint(p + lf.szleaf, p + lf.nn(), &term_off) == 0) return kCorrupt;
  if (static_cast<uint64_t>(lf.rowid_ptr) >= term_off ||
      term_off >= static_cast<uint64_t>(lf.szleaf)) {
    return kCorrupt;
  }
  uint64_t n = 0;
  int k = GetVarint(p + term_off, p + lf.szleaf, &n);
  if (k == 0) return kCorrupt;
  const uint8_t* t = p + term_off + k;
  size_t avail = static_cast<size_t>(p + lf.szleaf - t);
  size_t len = std::min<size_t>(n, avail);
  std::string_view term(reinterpret_cast<const char*>(t), len);
  size_t m = std::min(term.size(), key.size());
  int c = term.substr(0, m).compare(std::string_view(key).substr(0, m));
  if (c == 0) c = static_cast<int>(n) - static_cast<int>(key.size());
  if (c < 0) return kCorrupt;
  return CheckPageIndex(lf);
}

// Step 3: leaves from..to hold no term; from no_rowid on, no rowid.
int CheckEmptyLeaves(DataStore* store, int segid, int from, int no_rowid, int to) {
  for (int pg = from; pg <= to; ++pg) {
    Leaf lf;
    int rc = ReadLeaf(store, segid, pg, &lf);
    if (rc != SQLITE_OK) return rc;
    if (lf.nn() != lf.szleaf) return kCorrupt;
    if (pg >= no_rowid && lf.rowid_ptr != 0) return kCorrupt;
  }
  return SQLITE_OK;
}

// The entries of one doclist-index page: (page number, rowid); at level 0
// a zero delta is a leaf without a rowid (rowid -1 here).
int DlidxEntries(const std::string& page, bool level0, std::vector<std::pair<int, int64_t>>* out) {
  const auto* p = reinterpret_cast<const uint8_t*>(page.data());
  const uint8_t* end = p + page.size();
  if (page.empty()) return kCorrupt;
  int at = 1;
  uint64_t pg = 0, rowid = 0;
  int k = GetVarint(p + at, end, &pg);
  if (k == 0) return kCorrupt;
  at += k;
  if ((k = GetVarint(p + at, end, &rowid)) == 0) return kCorrupt;
  at += k;
  out->emplace_back(static_cast<int>(pg), static_cast<int64_t>(rowid));
  while (at < static_cast<int>(page.size())) {
    uint64_t v = 0;
    if ((k = GetVarint(p + at, end, &v)) == 0) return kCorrupt;
    at += k;
    ++pg;
    if (v == 0 && level0) {
      out->emplace_back(static_cast<int>(pg), -1);
      continue;
    }
    rowid += v;
    out->emplace_back(static_cast<int>(pg), static_cast<int64_t>(rowid));
  }
  return SQLITE_OK;
}

// The page numbers of the doclist-index pages at `level` under the root
// (the highest level, one page numbered `leaf`).
int DlidxPages(DataStore* store, int segid, int leaf, int level, int top, std::vector<int>* out) {
  if (level == top) {
    out->push_back(leaf);
    return SQLITE_OK;
  }
  std::vector<int> parents;
  int rc = DlidxPages(store, segid, leaf, level + 1, top, &parents);
  for (size_t i = 0; rc == SQLITE_OK && i < parents.size(); ++i) {
    std::string page;
    if ((rc = store->Read(DlidxRowid(segid, level + 1, parents[i]), &page)) != SQLITE_OK) break;
    std::vector<std::pair<int, int64_t>> e;
    if ((rc = DlidxEntries(page, false, &e)) != SQLITE_OK) break;
    for (const auto& [pg, r] : e) out->push_back(pg);
  }
  return rc;
}

// Step 4. *last = the last leaf an entry named.
int CheckDlidx(DataStore* store, int segid, int leaf, int* last) {
  int top = 0;
  int rc = ReadDlidxLevels(store, segid, leaf, &top);
  if (rc != SQLITE_OK) return rc;
  std::vector<int> pages;
  rc = DlidxPages(store, segid, leaf, 0, top, &pages);
  int prev = leaf;
  *last = leaf + 1;
  for (size_t i = 0; rc == SQLITE_OK && i < pages.size(); ++i) {
    std::string page;
    if ((rc = store->Read(DlidxRowid(segid, 0, pages[i]), &page)) != SQLITE_OK) break;
    std::vector<std::pair<int, int64_t>> e;
    if ((rc = DlidxEntries(page, true, &e)) != SQLITE_OK) break;
    for (const auto& [pg, rowid] : e) {
      if (rowid < 0) continue;  // a leaf without a rowid: checked below
      for (int q = prev + 1; q < pg && rc == SQLITE_OK; ++q) {
        Leaf lf;
        if ((rc = ReadLeaf(store, segid, q, &lf)) == SQLITE_OK && lf.rowid_ptr != 0) rc = kCorrupt;
      }
      *last = std::max(prev + 1, pg);
      prev = pg;
      if (rc != SQLITE_OK) break;
      Leaf lf;
      if ((rc = ReadLeaf(store, segid, pg, &lf)) != SQLITE_OK) break;
      uint64_t first = 0;
      if (lf.rowid_ptr >= lf.szleaf ||
          GetVarint(lf.p() + lf.rowid_ptr, lf.p() + lf.szleaf, &first) == 0 ||
          static_cast<int64_t>(first) != rowid) {
        rc = kCorrupt;
        break;
      }
    }
  }
  return rc;
}

}  // namespace

int ReadDlidxLevels(DataStore* store, int segid, int leaf, int* top) {
  for (*top = 0;; ++*top) {
    std::string page;
    int rc = store->Read(DlidxRowid(segid, *top, leaf), &page);
    if (rc != SQLITE_OK) return rc;
    if (page.empty()) return kCorrupt;
    if ((static_cast<uint8_t>(page[0]) & 0x01) == 0) return SQLITE_OK;  // no level above
    if (*top > 32) return kCorrupt;
  }
}

int CheckSegmentTree(DataStore* store, const Segment& seg) {
  if (seg.first == 0 || seg.last == 0) return SQLITE_OK;
  std::vector<std::pair<std::string, int64_t>> keys;
  int rc = store->IdxRows(seg.id, &keys);
  if (rc != SQLITE_OK) return rc;
  int prev_keyed = seg.first - 1;
  int prev_dlidx = seg.last;
  for (const auto& [key, value] : keys) {
    int leaf = static_cast<int>(value >> 1);
    if (leaf < seg.first) continue;
    Leaf lf;
    if ((rc = ReadLeaf(store, seg.id, leaf, &lf)) != SQLITE_OK) return rc;
    if ((rc = CheckKeyedLeaf(lf, key)) != SQLITE_OK) return rc;
    rc = CheckEmptyLeaves(store, seg.id, prev_keyed + 1, prev_dlidx + 1, leaf - 1);
    if (rc != SQLITE_OK) return rc;
    if ((value & 1) != 0) {
      if ((rc = CheckDlidx(store, seg.id, leaf, &prev_dlidx)) != SQLITE_OK) return rc;
    } else {
      prev_dlidx = seg.last;
    }
    prev_keyed = leaf;
  }
  return SQLITE_OK;
}

int CheckIndexTrees(Index* index) {
  Structure s;
  int rc = index->ReadStructure(&s);
  for (size_t l = 0; rc == SQLITE_OK && l < s.levels.size(); ++l) {
    for (const Segment& seg : s.levels[l].segs) {
      if ((rc = CheckSegmentTree(index->store(), seg)) != SQLITE_OK) break;
    }
  }
  return rc;
}

int CheckPrefixIndexes(Index* index, const std::vector<std::pair<std::string, RawDoclist>>& main) {
  const Config& cfg = *index->config();
  // (key, rowid, position bytes) of every posting; positions compared as
  // decoded values so that merged lists compare equal.
  using Entry = std::tuple<std::string, int64_t, uint64_t>;
  std::vector<uint64_t> pos;
  auto add = [&](std::set<Entry>* out, const std::string& key, const RawEntry& e) {
    if (cfg.detail == Detail::kNone) {
      out->insert({key, e.rowid, 0});
      return;
    }
    DecodePositions(e.pos, cfg.detail, &pos);
    for (uint64_t v : pos) out->insert({key, e.rowid, v});
  };
  for (size_t i = 0; i < cfg.prefixes.size(); ++i) {
    const char pc = static_cast<char>(kMainPrefix + i + 1);
    std::set<Entry> want, have;
    for (const auto& [term, dl] : main) {
      int nb = CharsToBytes(term.data() + 1, static_cast<int>(term.size()) - 1, cfg.prefixes[i]);
      if (nb == 0) continue;
      std::string key = std::string(1, pc) + term.substr(1, static_cast<size_t>(nb));
      for (const RawEntry& e : dl) add(&want, key, e);
    }
    std::vector<std::pair<std::string, RawDoclist>> terms;
    int rc = index->ScanTerms(std::string(1, pc), &terms, true);
    if (rc != SQLITE_OK) return rc;
    for (const auto& [key, dl] : terms) {
      for (const RawEntry& e : dl) add(&have, key, e);
    }
    if (want != have) return kCorrupt;
  }
  return SQLITE_OK;
}

}  // namespace basalt::fts5

// Merging segments (index.h): automerge after each flush, crisismerge when
// a level holds crisismerge segments, 'optimize' and 'merge'.
//
// A merge reads the oldest `n` segments of a level and writes one segment
// at the next level. An incremental merge (automerge, 'merge') stops at a
// term boundary once its page budget is spent; the input segments are then
// trimmed — their consumed leaves deleted and the leaf holding the next
// term rewritten to start with it — and the level's `merge` count records
// the merge in progress, which the next call continues.
#include <algorithm>

#include "ext/fts5/index.h"
#include "ext/fts5/merge_iter.h"
#include "ext/fts5/writer.h"

namespace basalt::fts5 {
namespace {

// Rewrites the leaf holding r's current term so that it starts with that
// term; deletes the leaves before it.
int TrimSegment(DataStore* store, const SegReader& r, bool same_leaf, Segment* seg) {
  const Leaf& lf = r.term_leaf();
  const std::string& term = r.term();
  std::string b(4, '\0');
  PutVarint(&b, term.size());
  b += term;
  b.append(lf.data, r.term_end(), lf.szleaf - r.term_end());
  PutU16(reinterpret_cast<uint8_t*>(b.data()) + 2, static_cast<int>(b.size()));
  PutVarint(&b, 4);
  if (same_leaf && r.next_term() < lf.szleaf && r.pgidx_off() <= lf.nn()) {
    int diff = lf.szleaf - r.next_term();
    PutVarint(&b, b.size() - 1 - diff - 4);
    b.append(lf.data, r.pgidx_off(), lf.nn() - r.pgidx_off());
  }
  seg->first = r.term_pgno();
  int rc = store->DeleteRange(SegmentRowid(seg->id, 1), SegmentRowid(seg->id, r.term_pgno()));
  if (rc == SQLITE_OK) rc = store->Write(SegmentRowid(seg->id, r.term_pgno()), b);
  return rc;
}

}  // namespace

int Index::RemoveSegment(int segid) {
  int rc = store_.DeleteRange(SegmentRowid(segid, 0), SegmentRowid(segid + 1, 0) - 1);
  if (rc == SQLITE_OK) rc = store_.DeleteIdx(segid);
  return rc;
}

void Index::PromoteTo(Structure* s, int to, int sz) {
  Level& out = s->levels[to];
  if (out.merge != 0) return;
  for (size_t il = to + 1; il < s->levels.size(); ++il) {
    Level& l = s->levels[il];
    if (l.merge) return;
    for (int is = static_cast<int>(l.segs.size()) - 1; is >= 0; --is) {
      if (l.segs[is].Size() > sz) return;
      out.segs.insert(out.segs.begin(), l.segs[is]);
      l.segs.pop_back();
    }
  }
}

void Index::Promote(Structure* s, int lvl) {
  if (s->levels[lvl].segs.empty()) return;
  int sz_seg = s->levels[lvl].segs.back().Size();
  int tst = lvl - 1;
  while (tst >= 0 && s->levels[tst].segs.empty()) --tst;
  if (tst >= 0) {
    int sz_max = 0;
    for (const Segment& sg : s->levels[tst].segs) sz_max = std::max(sz_max, sg.Size());
    if (sz_max >= sz_seg) {
      PromoteTo(s, tst, sz_max);
      return;
    }
  }
  PromoteTo(s, lvl, sz_seg);
}

int Index::MergeLevel(Structure* s, int lvl, int* rem) {
  bool none = cfg_->detail == Detail::kNone;
  int ninput;
  int out_idx;
  int segid;
  bool resume = s->levels[lvl].merge != 0;
  if (resume) {
    ninput = s->levels[lvl].merge;
    segid = s->levels[lvl + 1].segs.back().id;
  } else {
    segid = AllocateSegid(*s);
    if (segid == 0) return SQLITE_FULL;
    if (lvl == static_cast<int>(s->levels.size()) - 1) s->levels.emplace_back();
    s->levels[lvl + 1].segs.push_back(Segment{segid, 1, 0});
    ninput = static_cast<int>(s->levels[lvl].segs.size());
  }
  Level& in = s->levels[lvl];
  Level& out = s->levels[lvl + 1];
  out_idx = static_cast<int>(out.segs.size()) - 1;
  SegWriter w(&store_, cfg_->pgsz, segid);
  if (resume) w.ResumeAt(out.segs[out_idx].last + 1);
  bool oldest = out.segs.size() == 1 && static_cast<int>(s->levels.size()) == lvl + 2;

  std::vector<Segment> inputs(in.segs.begin(), in.segs.begin() + ninput);
  MergeIter it;
  int rc = it.Init(&store_, inputs, none);
  std::string term;
  bool have_term = false, written = false;
  for (; rc == SQLITE_OK && !it.eof(); rc = it.Next()) {
    SegCursor& sc = it.cur();
    if (!have_term || sc.term() != term) {
      if (rem != nullptr && w.leaves_written() > *rem) break;
      term = sc.term();
      have_term = true;
      written = false;
    }
    const RawEntry& e = sc.entry();
    bool empty = none ? e.none_flags == 1 : e.pos.empty();
    // A delete marker is dropped when nothing older can hold the rowid.
    if (empty && (oldest || !sc.del)) continue;
    if (!written) {
      if ((rc = w.AppendTerm(term)) != SQLITE_OK) return rc;
      written = true;
    }
    if ((rc = w.AppendRowid(e.rowid)) != SQLITE_OK) return rc;
    if (none) {
      if (sc.del) {
        w.AppendRawVarint(0);
        if (!empty) w.AppendRawVarint(0);
      }
    } else {
      w.AppendRawVarint((uint64_t{e.pos.size()} << 1) | (sc.del ? 1 : 0));
      rc = w.AppendPoslistData(reinterpret_cast<const uint8_t*>(e.pos.data()),
                               static_cast<int>(e.pos.size()));
      if (rc != SQLITE_OK) return rc;
    }
  }
  if (rc != SQLITE_OK) return rc;
  int last = 0;
  if ((rc = w.Finish(&last)) != SQLITE_OK) return rc;
  out.segs[out_idx].last = last;
  if (it.eof()) {
    for (int i = 0; i < ninput && rc == SQLITE_OK; ++i) rc = RemoveSegment(in.segs[i].id);
    in.segs.erase(in.segs.begin(), in.segs.begin() + ninput);
    in.merge = 0;
    if (out.segs[out_idx].last == 0) out.segs.erase(out.segs.begin() + out_idx);
  } else {
    for (int i = 0; i < ninput && rc == SQLITE_OK; ++i) {
      SegCursor& c = it.input(i);
      if (c.eof) {
        in.segs[i].first = 0;
        in.segs[i].last = 0;
      } else {
        rc = TrimSegment(&store_, *c.reader, c.entry().pgno == c.reader->term_pgno(), &in.segs[i]);
      }
    }
    in.merge = ninput;
  }
  if (rem != nullptr) *rem -= w.leaves_written();
  return rc;
}

int Index::MergeUntil(Structure* s, int npg, int nmin, bool* did) {
  int rem = npg;
  while (rem > 0) {
    int best_lvl = 0, best = 0;
    for (size_t l = 0; l < s->levels.size(); ++l) {
      const Level& lv = s->levels[l];
      if (lv.merge) {
        if (lv.merge > best) {
          best_lvl = static_cast<int>(l);
          best = lv.merge;
        }
        break;
      }
      if (static_cast<int>(lv.segs.size()) > best) {
        best = static_cast<int>(lv.segs.size());
        best_lvl = static_cast<int>(l);
      }
    }
    if (s->levels.empty() || (best < nmin && s->levels[best_lvl].merge == 0)) break;
    if (did != nullptr) *did = true;
    int rc = MergeLevel(s, best_lvl, &rem);
    if (rc != SQLITE_OK) return rc;
    if (s->levels[best_lvl].merge == 0) Promote(s, best_lvl + 1);
  }
  return SQLITE_OK;
}

int Index::Automerge(Structure* s, int nleaf) {
  if (cfg_->automerge <= 0) return SQLITE_OK;
  uint64_t w = s->write_counter;
  int nwork = static_cast<int>((w + nleaf) / kWorkUnit - w / kWorkUnit);
  s->write_counter += nleaf;
  int rem = kWorkUnit * nwork * static_cast<int>(s->levels.size());
  return MergeUntil(s, rem, cfg_->automerge, nullptr);
}

int Index::Crisismerge(Structure* s) {
  for (size_t lvl = 0;
       lvl < s->levels.size() && static_cast<int>(s->levels[lvl].segs.size()) >= cfg_->crisismerge;
       ++lvl) {
    int rc = MergeLevel(s, static_cast<int>(lvl), nullptr);
    if (rc != SQLITE_OK) return rc;
    Promote(s, static_cast<int>(lvl) + 1);
  }
  return SQLITE_OK;
}

namespace {
// The structure 'optimize' merges: null when there is nothing to do; the
// same when all segments share a level; else all segments on one new
// bottom level, oldest first.
bool OptimizeStruct(const Structure& s, Structure* out) {
  int nseg = s.SegmentCount();
  if (nseg < 2) return false;
  for (const Level& l : s.levels) {
    int n = static_cast<int>(l.segs.size());
    if (n == nseg || (n == nseg - 1 && l.merge == n)) {
      *out = s;
      return true;
    }
  }
  *out = Structure();
  out->cookie = s.cookie;
  out->write_counter = s.write_counter;
  out->levels.resize(std::min<size_t>(s.levels.size() + 1, 64));
  Level& dst = out->levels.back();
  for (auto l = s.levels.rbegin(); l != s.levels.rend(); ++l) {
    for (const Segment& sg : l->segs) dst.segs.push_back(sg);
  }
  return true;
}
}  // namespace

int Index::Optimize() {
  int rc = Flush();
  if (rc != SQLITE_OK) return rc;
  Structure s, n;
  if ((rc = ReadStructure(&s)) != SQLITE_OK) return rc;
  if (!OptimizeStruct(s, &n)) return SQLITE_OK;
  size_t lvl = 0;
  while (n.levels[lvl].segs.empty()) ++lvl;
  while (!n.levels[lvl].segs.empty()) {
    int rem = kOptWorkUnit;
    if ((rc = MergeLevel(&n, static_cast<int>(lvl), &rem)) != SQLITE_OK) return rc;
  }
  return WriteStructure(n);
}

int Index::Merge(int npages) {
  Structure s;
  int rc = ReadStructure(&s);
  if (rc != SQLITE_OK) return rc;
  int nmin = cfg_->usermerge;
  if (npages < 0) {
    Structure n;
    if (!OptimizeStruct(s, &n)) return SQLITE_OK;
    s = n;
    nmin = 2;
    npages = -npages;
  }
  if (s.levels.empty()) return SQLITE_OK;
  bool did = false;  // the structure is written only when a merge ran
  if ((rc = MergeUntil(&s, npages, nmin, &did)) != SQLITE_OK) return rc;
  return did ? WriteStructure(s) : SQLITE_OK;
}

}  // namespace basalt::fts5

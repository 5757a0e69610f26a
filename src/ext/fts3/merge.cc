// Merging segments: a full level into one segment of the next level (done
// when a 17th segment would be added to a level), and everything into one
// segment ('optimize'). Deletion markers are dropped when no older segment
// remains below the output.
#include <map>

#include "ext/fts3/fts_table.h"

namespace basalt::fts {
namespace {

// Reads every term of `segs` (newest first) and merges each term's doclists.
int MergeTerms(FtsTable* t, const std::vector<SegInfo>& segs, bool drop_deletes,
               std::vector<std::pair<std::string, std::string>>* out) {
  std::map<std::string, std::vector<std::pair<size_t, Doclist>>> all;
  for (size_t i = 0; i < segs.size(); ++i) {
    int rc = ScanSegment(t, segs[i], "", true, [&](const std::string& term, std::string_view dl) {
      Doclist d;
      if (!DecodeDoclist(dl, t->desc, &d)) return SQLITE_CORRUPT_VTAB;
      all[term].emplace_back(i, std::move(d));
      return SQLITE_OK;
    });
    if (rc != SQLITE_OK) return rc;
  }
  for (auto& [term, lists] : all) {
    std::vector<const Doclist*> ptrs;
    for (auto& l : lists) ptrs.push_back(&l.second);
    Doclist m = MergeDoclists(ptrs, t->desc, drop_deletes);
    if (m.empty()) continue;
    std::string enc;
    EncodeDoclist(m, t->desc, &enc);
    out->emplace_back(term, std::move(enc));
  }
  return SQLITE_OK;
}

int DeleteSegments(FtsTable* t, const std::vector<SegInfo>& segs) {
  Stmt blk, dir;
  int rc =
      Prep(t, &blk, "DELETE FROM " + t->Shadow("_segments") + " WHERE blockid BETWEEN ? AND ?");
  if (rc == SQLITE_OK) {
    rc = Prep(t, &dir, "DELETE FROM " + t->Shadow("_segdir") + " WHERE level=? AND idx=?");
  }
  for (const auto& g : segs) {
    if (rc != SQLITE_OK) break;
    if (g.start > 0) {
      sqlite3_bind_int64(blk, 1, g.start);
      sqlite3_bind_int64(blk, 2, g.end > g.leaves_end ? g.end : g.leaves_end);
      rc = sqlite3_step(blk) == SQLITE_DONE ? SQLITE_OK : sqlite3_reset(blk);
      sqlite3_reset(blk);
    }
    if (rc != SQLITE_OK) break;
    sqlite3_bind_int64(dir, 1, g.level);
    sqlite3_bind_int(dir, 2, g.idx);
    rc = sqlite3_step(dir) == SQLITE_DONE ? SQLITE_OK : sqlite3_reset(dir);
    sqlite3_reset(dir);
  }
  return rc;
}

int NextBlock(FtsTable* t, int64_t* id) {
  Stmt mx;
  int rc = Prep(t, &mx, "SELECT coalesce(max(blockid), 0) + 1 FROM " + t->Shadow("_segments"));
  if (rc != SQLITE_OK) return rc;
  sqlite3_step(mx);
  *id = sqlite3_column_int64(mx, 0);
  return SQLITE_OK;
}

// The highest level holding a segment for (langid, index), or -1.
int MaxLevel(FtsTable* t, int langid, int index, int64_t* out) {
  Stmt s;
  int rc = Prep(t, &s,
                "SELECT max(level) FROM " + t->Shadow("_segdir") + " WHERE level BETWEEN ? AND ?");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int64(s, 1, t->AbsLevel(langid, index, 0));
  sqlite3_bind_int64(s, 2, t->AbsLevel(langid, index, kMaxLevel - 1));
  sqlite3_step(s);
  *out = sqlite3_column_type(s, 0) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 0);
  return SQLITE_OK;
}

}  // namespace

int MergeLevel(FtsTable* t, int langid, int index, int level) {
  int64_t max_level;
  int rc = MaxLevel(t, langid, index, &max_level);
  if (rc != SQLITE_OK) return rc;
  int64_t abs = t->AbsLevel(langid, index, level);
  std::vector<SegInfo> segs;
  if ((rc = LoadSegments(t, abs, abs, &segs)) != SQLITE_OK) return rc;
  if (segs.empty()) return SQLITE_OK;
  int idx = 0;
  if ((rc = AllocateIdx(t, langid, index, level + 1, &idx)) != SQLITE_OK) return rc;
  bool drop = abs + 1 > max_level;
  std::vector<std::pair<std::string, std::string>> terms;
  if ((rc = MergeTerms(t, segs, drop, &terms)) != SQLITE_OK) return rc;
  if ((rc = WriteSegment(t, abs + 1, idx, terms)) != SQLITE_OK) return rc;
  return DeleteSegments(t, segs);
}

int AllocateIdx(FtsTable* t, int langid, int index, int level, int* idx) {
  Stmt s;
  int rc = Prep(t, &s,
                "SELECT coalesce(max(idx) + 1, 0) FROM " + t->Shadow("_segdir") + " WHERE level=?");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int64(s, 1, t->AbsLevel(langid, index, level));
  sqlite3_step(s);
  *idx = sqlite3_column_int(s, 0);
  if (*idx >= kMergeCount && level + 1 < kMaxLevel) {
    rc = MergeLevel(t, langid, index, level);
    *idx = 0;
  }
  return rc;
}

int MergeAll(FtsTable* t, bool* already_optimal) {
  if (already_optimal != nullptr) *already_optimal = false;
  int rc = FlushPending(t);
  if (rc != SQLITE_OK) return rc;
  // Every language present, every index.
  std::vector<SegInfo> all;
  if ((rc = LoadSegments(t, 0, INT64_MAX, &all)) != SQLITE_OK) return rc;
  std::map<int64_t, std::vector<SegInfo>> groups;  // by (langid, index)
  for (auto& g : all) groups[g.level / kMaxLevel].push_back(std::move(g));
  for (auto& [group, segs] : groups) {
    if (segs.size() == 1) {
      // SQLite reports "already optimal" when any language/index holds a
      // single segment (after the pending terms are flushed).
      if (already_optimal != nullptr) *already_optimal = true;
      continue;
    }
    int64_t top = 0;
    for (const auto& g : segs) top = std::max(top, g.level);
    std::vector<std::pair<std::string, std::string>> terms;
    if ((rc = MergeTerms(t, segs, true, &terms)) != SQLITE_OK) return rc;
    int64_t first = 0;
    if ((rc = NextBlock(t, &first)) != SQLITE_OK) return rc;
    if ((rc = DeleteSegments(t, segs)) != SQLITE_OK) return rc;
    if ((rc = WriteSegment(t, top, 0, terms, first)) != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

int DeleteAll(FtsTable* t, bool content) {
  DiscardPending(t);
  std::string sql;
  if (content && !t->external_content) sql += "DELETE FROM " + t->Shadow("_content") + ";";
  sql += "DELETE FROM " + t->Shadow("_segments") + ";";
  sql += "DELETE FROM " + t->Shadow("_segdir") + ";";
  if (t->has_docsize) sql += "DELETE FROM " + t->Shadow("_docsize") + ";";
  if (t->has_stat) sql += "DELETE FROM " + t->Shadow("_stat") + ";";
  return Exec(t, sql);
}

}  // namespace basalt::fts

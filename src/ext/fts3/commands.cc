// The special INSERTs: INSERT INTO t(t) VALUES('<command>').
//   optimize         merge every segment into one;
//   rebuild          rebuild the index from the content;
//   integrity-check  compare the index with the content: a checksum over
//                    every (index, language, docid, column, offset, term)
//                    computed from both sides must agree;
//   merge=X,Y        merge levels that hold at least Y (>= 2) segments;
//   automerge=N      record the setting in %_stat row 2.
#include <cstdlib>
#include <cstring>

#include "ext/fts3/fts_update.h"

namespace basalt::fts {
namespace {

uint64_t Mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}
uint64_t EntryHash(int64_t group, int64_t docid, int col, int pos, std::string_view term) {
  uint64_t h = 1469598103934665603ULL;
  for (char c : term) h = (h ^ static_cast<uint8_t>(c)) * 1099511628211ULL;
  h = Mix(h ^ Mix(static_cast<uint64_t>(group) * 31 + static_cast<uint64_t>(docid)));
  return Mix(h + static_cast<uint64_t>(col) * 1000003ULL + static_cast<uint64_t>(pos));
}

int IndexChecksum(FtsTable* t, uint64_t* sum) {
  std::vector<SegInfo> all;
  int rc = LoadSegments(t, 0, INT64_MAX, &all);
  if (rc != SQLITE_OK) return rc;
  std::map<int64_t, std::vector<SegInfo>> groups;
  for (auto& g : all) groups[g.level / kMaxLevel].push_back(std::move(g));
  for (auto& [group, segs] : groups) {
    std::map<std::string, std::vector<Doclist>> terms;
    for (const auto& g : segs) {
      rc = ScanSegment(t, g, "", true, [&](const std::string& term, std::string_view dl) {
        auto& v = terms[term];
        v.emplace_back();
        return DecodeDoclist(dl, t->desc, &v.back()) ? SQLITE_OK : SQLITE_CORRUPT_VTAB;
      });
      if (rc != SQLITE_OK) return rc;
    }
    for (auto& [term, lists] : terms) {
      std::vector<const Doclist*> ptrs;
      for (auto& l : lists) ptrs.push_back(&l);
      for (const auto& e : MergeDoclists(ptrs, t->desc, true)) {
        std::vector<Position> ps;
        DecodePositions(e.pos, &ps);
        for (const auto& p : ps) *sum += EntryHash(group, e.docid, p.col, p.pos, term);
      }
    }
  }
  return SQLITE_OK;
}

// Calls fn(docid, langid, values) for each document of the content.
int ForEachDoc(FtsTable* t,
               const std::function<int(int64_t, int, const std::vector<std::string>&)>& fn) {
  std::string sql = ContentSelect(t);
  sql = "SELECT " + std::string(t->external_content ? "rowid" : "docid") + ", " +
        sql.substr(7, sql.rfind(" WHERE ") - 7);
  Stmt s;
  int rc = Prep(t, &s, sql);
  if (rc != SQLITE_OK) return rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    std::vector<std::string> vals(t->ncol());
    for (int c = 0; c < t->ncol(); ++c) {
      const char* z = reinterpret_cast<const char*>(sqlite3_column_text(s, c + 1));
      if (z) vals[c].assign(z, sqlite3_column_bytes(s, c + 1));
    }
    int lang = t->langid_col.empty() ? 0 : sqlite3_column_int(s, t->ncol() + 1);
    int r = fn(sqlite3_column_int64(s, 0), lang, vals);
    if (r != SQLITE_OK) return r;
  }
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int ContentChecksum(FtsTable* t, uint64_t* sum) {
  return ForEachDoc(t, [&](int64_t docid, int lang, const std::vector<std::string>& vals) {
    for (int c = 0; c < t->ncol(); ++c) {
      if (t->notindexed[c]) continue;
      int rc = t->tokenizer.Run(vals[c], lang, [&](std::string_view tok, int, int, int pos) {
        *sum += EntryHash(t->AbsLevel(lang, 0, 0) / kMaxLevel, docid, c, pos, tok);
        for (int i = 1; i < t->nindex(); ++i) {
          size_t n = static_cast<size_t>(t->prefixes[i - 1]);
          if (tok.size() < n) continue;
          *sum += EntryHash(t->AbsLevel(lang, i, 0) / kMaxLevel, docid, c, pos, tok.substr(0, n));
        }
        return true;
      });
      if (rc != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
  });
}

int IntegrityCheck(FtsTable* t) {
  int rc = FlushPending(t);
  if (rc != SQLITE_OK) return rc;
  uint64_t a = 0, b = 0;
  if ((rc = IndexChecksum(t, &a)) != SQLITE_OK) return rc;
  if (t->contentless) return SQLITE_OK;
  if ((rc = ContentChecksum(t, &b)) != SQLITE_OK) return rc;
  return a == b ? SQLITE_OK : SQLITE_CORRUPT_VTAB;
}

int Rebuild(FtsTable* t) {
  int rc = DeleteAll(t, false);
  if (rc != SQLITE_OK) return rc;
  std::vector<int> total(t->ncol() + 1, 0);
  int n = 0;
  rc = ForEachDoc(t, [&](int64_t docid, int lang, const std::vector<std::string>& vals) {
    int r = PrepareDocid(t, docid, false, lang);
    std::vector<int> sz;
    if (r == SQLITE_OK) r = AddDocTerms(t, docid, lang, vals, 1, &sz);
    if (r == SQLITE_OK && t->has_docsize) r = WriteDocsize(t, docid, sz);
    for (size_t i = 0; i < sz.size(); ++i) total[i] += sz[i];
    ++n;
    return r;
  });
  if (rc == SQLITE_OK && t->has_stat) rc = UpdateTotals(t, total, {}, n);
  return rc;
}

int IncrMerge(FtsTable* t, int min_segs) {
  int rc = FlushPending(t);
  if (rc != SQLITE_OK) return rc;
  if (min_segs < 2) min_segs = 2;
  Stmt s;
  rc = Prep(t, &s,
            "SELECT level FROM " + t->Shadow("_segdir") +
                " GROUP BY level HAVING count(*) >= ? ORDER BY level");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int(s, 1, min_segs);
  std::vector<int64_t> levels;
  while (sqlite3_step(s) == SQLITE_ROW) levels.push_back(sqlite3_column_int64(s, 0));
  for (int64_t abs : levels) {
    int64_t group = abs / kMaxLevel;
    int level = static_cast<int>(abs % kMaxLevel);
    if (level + 1 >= kMaxLevel) continue;
    rc = MergeLevel(t, static_cast<int>(group / t->nindex()), static_cast<int>(group % t->nindex()),
                    level);
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

}  // namespace

int SpecialInsert(FtsTable* t, const char* cmd) {
  std::string c = cmd ? cmd : "";
  if (c == "optimize") return MergeAll(t);
  if (c == "rebuild") {
    if (t->contentless) return SQLITE_ERROR;
    return Rebuild(t);
  }
  if (c == "integrity-check") return IntegrityCheck(t);
  if (c.compare(0, 6, "merge=") == 0) {
    const char* comma = std::strchr(c.c_str() + 6, ',');
    int y = comma ? std::atoi(comma + 1) : 16;
    return IncrMerge(t, y);
  }
  if (c.compare(0, 10, "automerge=") == 0) {
    int n = std::atoi(c.c_str() + 10);
    if (n == 1 || n > 16) n = 8;  // SQLite's default merge width
    std::string v;
    PutVarint(&v, static_cast<uint64_t>(n));
    t->automerge = n;
    if (!t->has_stat) {
      int rc = Exec(t, "CREATE TABLE IF NOT EXISTS " + t->ShadowDecl("_stat") +
                           "(id INTEGER PRIMARY KEY, value BLOB)");
      if (rc != SQLITE_OK) return rc;
      t->has_stat = true;
    }
    Stmt s;
    int rc = Prep(t, &s, "REPLACE INTO " + t->Shadow("_stat") + " VALUES(2, ?)");
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_int(s, 1, n);
    rc = sqlite3_step(s);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
  }
  if (c.compare(0, 9, "nodesize=") == 0) {
    t->node_size = std::atoi(c.c_str() + 9);
    return SQLITE_OK;
  }
  if (c.compare(0, 11, "maxpending=") == 0) {
    t->max_pending = std::atoi(c.c_str() + 11);
    return SQLITE_OK;
  }
  return SQLITE_ERROR;
}

}  // namespace basalt::fts

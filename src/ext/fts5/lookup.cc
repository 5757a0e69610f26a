// Term lookups: one key, or every key under a prefix, merged across the
// segments (oldest first) and the pending data (newest).
#include <algorithm>
#include <map>

#include "ext/fts5/index.h"
#include "ext/fts5/integrity.h"

namespace basalt::fts5 {
namespace {

bool StartsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
}

// The segments of s, oldest first.
std::vector<Segment> OldestFirst(const Structure& s) {
  std::vector<Segment> out;
  for (auto l = s.levels.rbegin(); l != s.levels.rend(); ++l) {
    for (const Segment& sg : l->segs) out.push_back(sg);
  }
  return out;
}

}  // namespace

int Index::ScanTerms(const std::string& prefix,
                     std::vector<std::pair<std::string, RawDoclist>>* out, bool from_first) {
  Structure s;
  int rc = ReadStructure(&s);
  if (rc != SQLITE_OK) return rc;
  bool none = cfg_->detail == Detail::kNone;
  // term -> per-source doclists, oldest source first
  std::map<std::string, std::vector<RawDoclist>> by_term;
  for (const Segment& sg : OldestFirst(s)) {
    SegReader r(&store_, sg, none);
    rc = prefix.empty() || from_first ? r.First() : r.Seek(prefix);
    while (rc == SQLITE_OK && !r.eof() && r.term() < prefix) rc = r.Next();
    while (rc == SQLITE_OK && !r.eof() && StartsWith(r.term(), prefix)) {
      RawDoclist d;
      if ((rc = r.ReadDoclist(&d)) != SQLITE_OK) return rc;
      by_term[r.term()].push_back(std::move(d));
      rc = r.Next();
    }
    if (rc != SQLITE_OK) return rc;
  }
  for (const PendingHash::Entry& e : hash_.entries()) {
    const std::string& key = e.key;
    if (!StartsWith(key, prefix)) continue;
    std::string bytes;
    hash_.Closed(e, &bytes);
    RawDoclist d;
    DecodeHashDoclist(bytes, none, &d);
    by_term[key].push_back(std::move(d));
  }
  out->clear();
  for (auto& [term, lists] : by_term) {
    std::vector<RawDoclist*> ptrs;
    for (RawDoclist& l : lists) ptrs.push_back(&l);
    RawDoclist merged;
    MergeDoclists(ptrs, true, none, &merged);
    if (!merged.empty()) out->emplace_back(term, std::move(merged));
  }
  return SQLITE_OK;
}

int Index::Query(const std::string& key, bool prefix, RawDoclist* out) {
  out->clear();
  bool none = cfg_->detail == Detail::kNone;
  if (prefix) {
    std::vector<std::pair<std::string, RawDoclist>> terms;
    int rc = ScanTerms(key, &terms);
    if (rc != SQLITE_OK) return rc;
    if (terms.size() == 1) {
      out->swap(terms[0].second);
      return SQLITE_OK;
    }
    // Union of the terms' doclists; positions of one rowid merged.
    std::map<int64_t, std::vector<std::string*>> rows;
    for (auto& t : terms) {
      for (RawEntry& e : t.second) rows[e.rowid].push_back(&e.pos);
    }
    for (auto& [rowid, lists] : rows) {
      RawEntry e;
      e.rowid = rowid;
      if (lists.size() == 1 || none) {
        e.pos = *lists[0];
      } else {
        std::vector<uint64_t> all;
        for (std::string* pl : lists) {
          const auto* p = reinterpret_cast<const uint8_t*>(pl->data());
          const uint8_t* end = p + pl->size();
          uint64_t col = 0, off = 0, v;
          while (p < end) {
            p += GetVarint(p, end, &v);
            if (v == 1 && cfg_->detail == Detail::kFull) {
              p += GetVarint(p, end, &col);
              off = 0;
              continue;
            }
            off += v - 2;
            all.push_back((col << 32) | off);
          }
        }
        std::sort(all.begin(), all.end());
        all.erase(std::unique(all.begin(), all.end()), all.end());
        uint64_t col = 0, prev = 0;
        for (uint64_t x : all) {
          uint64_t c = x >> 32, o = x & 0xffffffffu;
          if (cfg_->detail == Detail::kFull && c != col) {
            e.pos.push_back(1);
            PutVarint(&e.pos, c);
            col = c;
            prev = 0;
          }
          PutVarint(&e.pos, o - prev + 2);
          prev = o;
        }
      }
      out->push_back(std::move(e));
    }
    return SQLITE_OK;
  }
  Structure s;
  int rc = ReadStructure(&s);
  if (rc != SQLITE_OK) return rc;
  std::vector<RawDoclist> lists;
  for (const Segment& sg : OldestFirst(s)) {
    SegReader r(&store_, sg, none);
    if ((rc = r.Seek(key)) != SQLITE_OK) return rc;
    if (r.eof() || r.term() != key) continue;
    if (r.seek_dlidx()) {
      // SQLite loads the doclist index of the term's leaf here.
      int top = 0;
      if ((rc = ReadDlidxLevels(&store_, sg.id, r.term_pgno(), &top)) != SQLITE_OK) return rc;
    }
    lists.emplace_back();
    if ((rc = r.ReadDoclist(&lists.back())) != SQLITE_OK) return rc;
  }
  if (const PendingHash::Entry* e = hash_.Find(key)) {
    std::string bytes;
    hash_.Closed(*e, &bytes);
    lists.emplace_back();
    DecodeHashDoclist(bytes, none, &lists.back());
  }
  std::vector<RawDoclist*> ptrs;
  for (RawDoclist& l : lists) ptrs.push_back(&l);
  MergeDoclists(ptrs, true, none, out);
  return SQLITE_OK;
}

}  // namespace basalt::fts5

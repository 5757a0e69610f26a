// The index: structure record, pending writes, flush and term lookups
// (index.h). Merging is in merge.cc.
#include "ext/fts5/index.h"

#include <algorithm>

#include "ext/fts5/writer.h"

namespace basalt::fts5 {

int Index::ReadStructure(Structure* s) {
  std::string b;
  int rc = store_.Read(kStructureId, &b);
  if (rc != SQLITE_OK) return rc;
  *s = Structure();
  if (b.size() < 4) return SQLITE_CORRUPT_VTAB;
  const auto* p = reinterpret_cast<const uint8_t*>(b.data());
  const uint8_t* end = p + b.size();
  s->cookie = GetU32(p);
  p += 4;
  uint64_t nlevel, nseg, v;
  int k;
  if ((k = GetVarint(p, end, &nlevel)) == 0) return SQLITE_CORRUPT_VTAB;
  p += k;
  if ((k = GetVarint(p, end, &nseg)) == 0) return SQLITE_CORRUPT_VTAB;
  p += k;
  if ((k = GetVarint(p, end, &s->write_counter)) == 0) return SQLITE_CORRUPT_VTAB;
  p += k;
  if (nlevel > 64 || nseg > kMaxSegment) return SQLITE_CORRUPT_VTAB;
  s->levels.resize(nlevel);
  for (Level& l : s->levels) {
    uint64_t merge, n;
    if ((k = GetVarint(p, end, &merge)) == 0) return SQLITE_CORRUPT_VTAB;
    p += k;
    if ((k = GetVarint(p, end, &n)) == 0 || n > kMaxSegment || merge > n) {
      return SQLITE_CORRUPT_VTAB;
    }
    p += k;
    l.merge = static_cast<int>(merge);
    l.segs.resize(n);
    for (Segment& sg : l.segs) {
      int* f[3] = {&sg.id, &sg.first, &sg.last};
      for (int* x : f) {
        if ((k = GetVarint(p, end, &v)) == 0) return SQLITE_CORRUPT_VTAB;
        p += k;
        *x = static_cast<int>(v);
      }
    }
  }
  if (s->cookie != cfg_->cookie) {
    std::string err;
    rc = cfg_->Load(&err);
    if (rc != SQLITE_OK) return rc;
    cfg_->cookie = s->cookie;
  }
  return SQLITE_OK;
}

int Index::WriteStructure(const Structure& s) {
  std::string b(4, '\0');
  uint32_t c = cfg_->cookie;
  for (int i = 0; i < 4; ++i) b[i] = static_cast<char>(c >> (24 - 8 * i));
  PutVarint(&b, s.levels.size());
  PutVarint(&b, static_cast<uint64_t>(s.SegmentCount()));
  PutVarint(&b, s.write_counter);
  for (const Level& l : s.levels) {
    PutVarint(&b, static_cast<uint64_t>(l.merge));
    PutVarint(&b, l.segs.size());
    for (const Segment& sg : l.segs) {
      PutVarint(&b, static_cast<uint64_t>(sg.id));
      PutVarint(&b, static_cast<uint64_t>(sg.first));
      PutVarint(&b, static_cast<uint64_t>(sg.last));
    }
  }
  return store_.Write(kStructureId, b);
}

int Index::SetCookie(uint32_t cookie) {
  std::string b;
  int rc = store_.Read(kStructureId, &b);
  if (rc != SQLITE_OK) return rc;
  for (int i = 0; i < 4; ++i) b[i] = static_cast<char>(cookie >> (24 - 8 * i));
  return store_.Write(kStructureId, b);
}

int Index::ReadAverages(std::string* blob) {
  bool found;
  int rc = store_.ReadOptional(kAveragesId, blob, &found);
  if (rc == SQLITE_OK && !found) blob->clear();
  return rc;
}

int Index::WriteAverages(const std::string& blob) { return store_.Write(kAveragesId, blob); }

int Index::Reinit() {
  hash_.Clear();
  have_write_ = false;
  int rc = store_.Write(kAveragesId, "");
  if (rc == SQLITE_OK) rc = WriteStructure(Structure());
  return rc;
}

int Index::BeginWrite(int64_t rowid, bool is_delete) {
  int rc = SQLITE_OK;
  if (have_write_ && (rowid < write_rowid_ || (rowid == write_rowid_ && !write_delete_))) {
    rc = Flush();
  } else if (hash_.bytes() > cfg_->hash_size) {
    rc = Flush();
  }
  write_rowid_ = rowid;
  write_delete_ = is_delete;
  have_write_ = true;
  return rc;
}

int CharsToBytes(const char* tok, int n, int n_char) {
  int i = 0;
  for (int c = 0; c < n_char; ++c) {
    if (i >= n) return 0;
    unsigned char b = static_cast<unsigned char>(tok[i++]);
    if (b >= 0xc0) {
      while (i < n && (static_cast<unsigned char>(tok[i]) & 0xc0) == 0x80) ++i;
    }
  }
  return i;
}

int Index::Write(int col, int pos, const char* tok, int n) {
  hash_.Write(write_rowid_, col, pos, kMainPrefix, tok, n);
  for (size_t i = 0; i < cfg_->prefixes.size(); ++i) {
    int nb = CharsToBytes(tok, n, cfg_->prefixes[i]);
    if (nb > 0)
      hash_.Write(write_rowid_, col, pos, static_cast<char>(kMainPrefix + i + 1), tok, nb);
  }
  return SQLITE_OK;
}

int Index::Flush() {
  have_write_ = false;
  if (hash_.empty()) return SQLITE_OK;
  return FlushHash();
}

int Index::FlushHash() {
  Structure s;
  int rc = ReadStructure(&s);
  if (rc != SQLITE_OK) return rc;
  int segid = AllocateSegid(s);
  if (segid == 0) return SQLITE_FULL;
  int last = 0;
  {
    SegWriter w(&store_, cfg_->pgsz, segid);
    bool none = cfg_->detail == Detail::kNone;
    for (const auto& [key, doclist] : hash_.Sorted()) {
      if ((rc = w.AppendTerm(key)) != SQLITE_OK) return rc;
      if ((rc = w.AppendDoclist(*doclist, none)) != SQLITE_OK) return rc;
    }
    if ((rc = w.Finish(&last)) != SQLITE_OK) return rc;
  }
  hash_.Clear();
  if (s.levels.empty()) s.levels.emplace_back();
  s.levels[0].segs.push_back(Segment{segid, 1, last});
  Promote(&s, 0);
  if ((rc = Automerge(&s, last)) != SQLITE_OK) return rc;
  if ((rc = Crisismerge(&s)) != SQLITE_OK) return rc;
  return WriteStructure(s);
}

int Index::AllocateSegid(const Structure& s) {
  if (s.SegmentCount() >= kMaxSegment) return 0;
  std::vector<bool> used(kMaxSegment + 2, false);
  for (const Level& l : s.levels) {
    for (const Segment& sg : l.segs) {
      if (sg.id > 0 && sg.id <= kMaxSegment) used[sg.id] = true;
    }
  }
  for (int i = 1; i <= kMaxSegment; ++i) {
    if (!used[i]) return i;
  }
  return 0;
}

void DecodeHashDoclist(const std::string& d, bool detail_none, RawDoclist* out) {
  const auto* p = reinterpret_cast<const uint8_t*>(d.data());
  const uint8_t* end = p + d.size();
  int64_t rowid = 0;
  while (p < end) {
    uint64_t v;
    int k = GetVarint(p, end, &v);
    if (k == 0) return;
    p += k;
    rowid += static_cast<int64_t>(v);
    RawEntry e;
    e.rowid = rowid;
    if (detail_none) {
      while (e.none_flags < 2 && p < end && *p == 0) {
        ++e.none_flags;
        ++p;
      }
      e.del = e.none_flags > 0;
    } else {
      if ((k = GetVarint(p, end, &v)) == 0) return;
      p += k;
      e.del = (v & 1) != 0;
      size_t n = std::min<size_t>(v >> 1, end - p);
      e.pos.assign(reinterpret_cast<const char*>(p), n);
      p += n;
    }
    out->push_back(std::move(e));
  }
}

void MergeDoclists(std::vector<RawDoclist*> lists, bool drop_deletes, bool none, RawDoclist* out) {
  RawDoclist acc;
  for (RawDoclist* l : lists) {
    if (acc.empty()) {
      acc.swap(*l);
      continue;
    }
    RawDoclist merged;
    merged.reserve(acc.size() + l->size());
    size_t i = 0, j = 0;
    while (i < acc.size() || j < l->size()) {
      if (j >= l->size() || (i < acc.size() && acc[i].rowid < (*l)[j].rowid)) {
        merged.push_back(std::move(acc[i++]));
      } else {
        // The newer entry wins but takes the older one's delete flag, as
        // SQLite's merge does: a delete marker over an insert that had
        // nothing to delete ends up with neither flag nor positions.
        bool older_del = false, same = i < acc.size() && acc[i].rowid == (*l)[j].rowid;
        if (same) older_del = acc[i++].del;
        merged.push_back(std::move((*l)[j++]));
        if (same) merged.back().del = older_del;
      }
    }
    acc.swap(merged);
  }
  if (drop_deletes) {
    out->clear();
    for (RawEntry& e : acc) {
      bool empty = none ? e.none_flags == 1 : e.pos.empty();
      if (!empty) out->push_back(std::move(e));
    }
  } else {
    out->swap(acc);
  }
}

void DecodePositions(const std::string& pl, Detail d, std::vector<uint64_t>* out) {
  out->clear();
  const auto* p = reinterpret_cast<const uint8_t*>(pl.data());
  const uint8_t* end = p + pl.size();
  uint64_t col = 0, off = 0, v;
  while (p < end) {
    int k = GetVarint(p, end, &v);
    if (k == 0) return;
    p += k;
    if (d == Detail::kFull && v == 1) {
      if ((k = GetVarint(p, end, &col)) == 0) return;
      p += k;
      off = 0;
      continue;
    }
    off += v - 2;
    out->push_back(d == Detail::kFull ? (col << 32) | off : off << 32);
  }
}

}  // namespace basalt::fts5

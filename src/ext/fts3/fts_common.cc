// Doclist and position-list codecs (formats in fts_common.h) and quoting.
#include "ext/fts3/fts_common.h"

#include <algorithm>

namespace basalt::fts {

bool DecodeDoclist(std::string_view data, bool desc, Doclist* out) {
  auto* p = reinterpret_cast<const uint8_t*>(data.data());
  const uint8_t* end = p + data.size();
  int64_t docid = 0;
  bool first = true;
  while (p < end) {
    uint64_t d;
    if (!GetVarint(&p, end, &d)) return false;
    if (first) {
      docid = static_cast<int64_t>(d);
      first = false;
    } else {
      docid = desc ? docid - static_cast<int64_t>(d) : docid + static_cast<int64_t>(d);
    }
    const uint8_t* start = p;
    // Walk varints to the 0x00 that ends the position list; a 0x01 column
    // marker is followed by a column varint that may itself be small.
    for (;;) {
      uint64_t v;
      if (!GetVarint(&p, end, &v)) return false;
      if (v == 0) break;
      if (v == 1 && !GetVarint(&p, end, &v)) return false;
    }
    out->push_back(DocEntry{docid, std::string(reinterpret_cast<const char*>(start),
                                               static_cast<size_t>(p - 1 - start))});
  }
  return true;
}

void EncodeDoclist(const Doclist& list, bool desc, std::string* out) {
  int64_t prev = 0;
  bool first = true;
  for (const auto& e : list) {
    uint64_t d = first ? static_cast<uint64_t>(e.docid)
                       : static_cast<uint64_t>(desc ? prev - e.docid : e.docid - prev);
    PutVarint(out, d);
    out->append(e.pos);
    out->push_back('\0');
    prev = e.docid;
    first = false;
  }
}

Doclist MergeDoclists(std::vector<const Doclist*> lists, bool desc, bool drop_deletes) {
  Doclist out;
  std::vector<size_t> at(lists.size(), 0);
  auto before = [desc](int64_t a, int64_t b) { return desc ? a > b : a < b; };
  for (;;) {
    int best = -1;
    for (size_t i = 0; i < lists.size(); ++i) {
      if (at[i] >= lists[i]->size()) continue;
      int64_t d = (*lists[i])[at[i]].docid;
      if (best < 0 || before(d, (*lists[best])[at[best]].docid)) best = static_cast<int>(i);
    }
    if (best < 0) break;
    // The lowest list index is the newest: take its entry, skip the others.
    int64_t d = (*lists[best])[at[best]].docid;
    const DocEntry* win = nullptr;
    for (size_t i = 0; i < lists.size(); ++i) {
      if (at[i] < lists[i]->size() && (*lists[i])[at[i]].docid == d) {
        if (win == nullptr) win = &(*lists[i])[at[i]];
        ++at[i];
      }
    }
    if (!(drop_deletes && win->pos.empty())) out.push_back(*win);
  }
  return out;
}

void DecodePositions(std::string_view pos, std::vector<Position>* out) {
  auto* p = reinterpret_cast<const uint8_t*>(pos.data());
  const uint8_t* end = p + pos.size();
  int col = 0;
  int64_t cur = 0;
  while (p < end) {
    uint64_t v;
    if (!GetVarint(&p, end, &v)) return;
    if (v == 0) return;
    if (v == 1) {
      if (!GetVarint(&p, end, &v)) return;
      col = static_cast<int>(v);
      cur = 0;
      continue;
    }
    cur += static_cast<int64_t>(v) - 2;
    out->push_back(Position{col, static_cast<int>(cur)});
  }
}

void EncodePositions(const std::vector<Position>& in, std::string* out) {
  int col = 0;
  int prev = 0;
  for (const auto& p : in) {
    if (p.col != col) {
      out->push_back('\x01');
      PutVarint(out, static_cast<uint64_t>(p.col));
      col = p.col;
      prev = 0;
    }
    PutVarint(out, static_cast<uint64_t>(p.pos - prev + 2));
    prev = p.pos;
  }
}

std::string QuoteLiteral(std::string_view s) {
  std::string r = "'";
  for (char c : s) {
    r.push_back(c);
    if (c == '\'') r.push_back('\'');
  }
  return r + "'";
}

std::string QuoteIdent(std::string_view s) {
  std::string r = "\"";
  for (char c : s) {
    r.push_back(c);
    if (c == '"') r.push_back('"');
  }
  return r + "\"";
}

}  // namespace basalt::fts

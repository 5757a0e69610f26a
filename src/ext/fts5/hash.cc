// The pending-terms hash (hash.h).
//
// Byte accounting follows SQLite's hash entries so that the flush threshold
// (hash_size) falls on the same rows: a new key costs 48 bytes of entry
// header, the key with its prefix byte and a terminator, the first rowid
// varint and a 1-byte size placeholder; each further rowid costs its delta
// varint, the placeholder and the growth of the previous size field beyond
// one byte; each position costs its bytes.
#include <algorithm>

#include "ext/fts5/common.h"
#include "ext/fts5/hash.h"

namespace basalt::fts5 {
namespace {
constexpr int kEntryHeader = 48;
}

void PendingHash::Close(Entry* e) {
  if (!e->open) return;
  if (detail_ == Detail::kNone) {
    if (e->del) {
      e->doclist.push_back(0);
      if (e->content) e->doclist.push_back(0);
    }
  } else {
    uint64_t sz = (uint64_t{e->cur_pos.size()} << 1) | (e->del ? 1 : 0);
    PutVarint(&e->doclist, sz);
    e->doclist += e->cur_pos;
  }
  e->cur_pos.clear();
  e->open = false;
}

void PendingHash::Closed(const Entry& e, std::string* out) const {
  out->append(e.doclist);
  if (!e.open) return;
  if (detail_ == Detail::kNone) {
    if (e.del) {
      out->push_back(0);
      if (e.content) out->push_back(0);
    }
    return;
  }
  PutVarint(out, (uint64_t{e.cur_pos.size()} << 1) | (e.del ? 1 : 0));
  out->append(e.cur_pos);
}

void PendingHash::Write(int64_t rowid, int col, int pos, char prefix, const char* tok, int n) {
  key_.assign(1, prefix);
  key_.append(tok, n);
  bool fresh;
  Entry& e = *Lookup(key_, &fresh);
  int64_t grow = 0;
  bool new_row = false;
  if (fresh) {
    grow += kEntryHeader + n + 2;
  }
  if (fresh || !e.open || rowid != e.last_rowid) {
    if (e.open) {
      size_t before = e.doclist.size() + e.cur_pos.size() + (detail_ == Detail::kNone ? 0 : 1);
      Close(&e);
      grow += static_cast<int64_t>(e.doclist.size()) - static_cast<int64_t>(before);
    }
    uint64_t delta = static_cast<uint64_t>(rowid) - static_cast<uint64_t>(e.last_rowid);
    if (fresh) delta = static_cast<uint64_t>(rowid);
    size_t before = e.doclist.size();
    PutVarint(&e.doclist, delta);
    grow += static_cast<int64_t>(e.doclist.size() - before) + (detail_ == Detail::kNone ? 0 : 1);
    e.last_rowid = rowid;
    e.open = true;
    e.del = false;
    e.content = false;
    e.col = detail_ == Detail::kFull ? 0 : -1;
    e.pos = 0;
    new_row = true;
  }
  if (col < 0) {
    e.del = true;
  } else if (detail_ == Detail::kNone) {
    e.content = true;
  } else {
    size_t before = e.cur_pos.size();
    bool add = detail_ == Detail::kFull || new_row;
    if (col != e.col) {
      if (detail_ == Detail::kFull) {
        e.cur_pos.push_back(1);
        PutVarint(&e.cur_pos, static_cast<uint64_t>(col));
        e.col = col;
        e.pos = 0;
      } else {
        add = true;
        e.col = col;
        pos = col;
      }
    } else if (detail_ == Detail::kColumn) {
      add = false;
    }
    if (add) {
      PutVarint(&e.cur_pos, static_cast<uint64_t>(pos - e.pos + 2));
      e.pos = pos;
    }
    grow += static_cast<int64_t>(e.cur_pos.size() - before);
  }
  bytes_ += grow;
}

namespace {
uint32_t HashKey(std::string_view s) {
  uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}
}  // namespace

PendingHash::Entry* PendingHash::Lookup(std::string_view key, bool* fresh) {
  if (slots_.empty() || entries_.size() * 2 >= slots_.size()) {
    size_t cap = slots_.empty() ? 1024 : slots_.size() * 2;
    slots_.assign(cap, 0);
    hashes_.assign(cap, 0);
    for (size_t i = 0; i < entries_.size(); ++i) {
      uint32_t h = HashKey(entries_[i].key);
      size_t at = h & (cap - 1);
      while (slots_[at] != 0) at = (at + 1) & (cap - 1);
      slots_[at] = static_cast<uint32_t>(i + 1);
      hashes_[at] = h;
    }
  }
  uint32_t h = HashKey(key);
  size_t mask = slots_.size() - 1;
  size_t at = h & mask;
  for (; slots_[at] != 0; at = (at + 1) & mask) {
    if (hashes_[at] == h && entries_[slots_[at] - 1].key == key) {
      *fresh = false;
      return &entries_[slots_[at] - 1];
    }
  }
  entries_.emplace_back();
  entries_.back().key.assign(key);
  slots_[at] = static_cast<uint32_t>(entries_.size());
  hashes_[at] = h;
  *fresh = true;
  return &entries_.back();
}

std::vector<std::pair<std::string_view, const std::string*>> PendingHash::Sorted() {
  std::vector<std::pair<std::string_view, const std::string*>> out;
  out.reserve(entries_.size());
  for (Entry& e : entries_) {
    Close(&e);
    out.emplace_back(e.key, &e.doclist);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

const PendingHash::Entry* PendingHash::Find(const std::string& key) const {
  if (slots_.empty()) return nullptr;
  uint32_t h = HashKey(key);
  size_t mask = slots_.size() - 1;
  for (size_t at = h & mask; slots_[at] != 0; at = (at + 1) & mask) {
    if (hashes_[at] == h && entries_[slots_[at] - 1].key == key) return &entries_[slots_[at] - 1];
  }
  return nullptr;
}

}  // namespace basalt::fts5

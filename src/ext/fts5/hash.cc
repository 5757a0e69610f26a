// The pending-terms hash (hash.h).
//
// Byte accounting follows SQLite's hash entries so that the flush threshold
// (hash_size) falls on the same rows: a new key costs 48 bytes of entry
// header, the key with its prefix byte and a terminator, the first rowid
// varint and a 1-byte size placeholder; each further rowid costs its delta
// varint, the placeholder and the growth of the previous size field beyond
// one byte; each position costs its bytes.
#include <algorithm>
#include <cstring>

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
// Eight bytes at a time, multiply-xorshift mixing.
uint32_t HashKey(std::string_view s) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ s.size();
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  uint64_t w = 0;
  for (size_t k = 0; i + k < s.size(); ++k)
    w |= uint64_t{static_cast<unsigned char>(s[i + k])} << (8 * k);
  h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 29;
  return static_cast<uint32_t>(h);
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
  // Sorted on the first 8 key bytes as a big-endian number (zero-padded,
  // so the order agrees with bytewise order), then on the whole key.
  struct Item {
    uint64_t head;
    uint32_t index;
  };
  std::vector<Item> items;
  items.reserve(entries_.size());
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    Entry& e = entries_[i];
    Close(&e);
    uint64_t head = 0;
    for (size_t k = 0; k < 8; ++k) {
      head = (head << 8) | (k < e.key.size() ? static_cast<unsigned char>(e.key[k]) : 0);
    }
    items.push_back({head, i});
  }
  std::sort(items.begin(), items.end(), [&](const Item& a, const Item& b) {
    if (a.head != b.head) return a.head < b.head;
    return entries_[a.index].key < entries_[b.index].key;
  });
  std::vector<std::pair<std::string_view, const std::string*>> out;
  out.reserve(items.size());
  for (const Item& it : items)
    out.emplace_back(entries_[it.index].key, &entries_[it.index].doclist);
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

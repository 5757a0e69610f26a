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
  e->open = false;
  if (detail_ == Detail::kNone) {
    if (e->del) {
      e->doclist.push_back(0);
      if (e->content) e->doclist.push_back(0);
    }
    return;
  }
  size_t npos = e->doclist.size() - e->size_off - 1;
  uint64_t sz = (uint64_t{npos} << 1) | (e->del ? 1 : 0);
  if (sz < 0x80) {
    e->doclist[e->size_off] = static_cast<char>(sz);
    return;
  }
  std::string v;
  PutVarint(&v, sz);
  e->doclist.replace(e->size_off, 1, v);
}

void PendingHash::Closed(const Entry& e, std::string* out) const {
  if (!e.open || detail_ == Detail::kNone) {
    out->append(e.doclist);
    if (e.open && e.del) {
      out->push_back(0);
      if (e.content) out->push_back(0);
    }
    return;
  }
  out->append(e.doclist, 0, e.size_off);
  size_t npos = e.doclist.size() - e.size_off - 1;
  PutVarint(out, (uint64_t{npos} << 1) | (e.del ? 1 : 0));
  out->append(e.doclist, e.size_off + 1, npos);
}

void PendingHash::Write(int64_t rowid, int col, int pos, char prefix, const char* tok, int n) {
  bool fresh;
  Entry& e = *Lookup(prefix, std::string_view(tok, n), &fresh);
  size_t before = e.doclist.size();
  int64_t grow = fresh ? kEntryHeader + n + 2 : 0;
  bool new_row = false;
  if (fresh || !e.open || rowid != e.last_rowid) {
    Close(&e);
    uint64_t delta = static_cast<uint64_t>(rowid) - static_cast<uint64_t>(e.last_rowid);
    if (fresh) delta = static_cast<uint64_t>(rowid);
    PutVarint(&e.doclist, delta);
    if (detail_ != Detail::kNone) {
      e.size_off = e.doclist.size();
      e.doclist.push_back(0);
    }
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
    bool add = detail_ == Detail::kFull || new_row;
    if (col != e.col) {
      if (detail_ == Detail::kFull) {
        e.doclist.push_back(1);
        PutVarint(&e.doclist, static_cast<uint64_t>(col));
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
      PutVarint(&e.doclist, static_cast<uint64_t>(pos - e.pos + 2));
      e.pos = pos;
    }
  }
  bytes_ += grow + static_cast<int64_t>(e.doclist.size()) - static_cast<int64_t>(before);
}

namespace {
// FNV-1a over the prefix byte and the token.
uint32_t HashKey(char prefix, std::string_view tok) {
  uint32_t h = (2166136261u ^ static_cast<unsigned char>(prefix)) * 16777619u;
  for (unsigned char c : tok) h = (h ^ c) * 16777619u;
  return h;
}

bool KeyIs(const std::string& key, char prefix, std::string_view tok) {
  return key.size() == tok.size() + 1 && key[0] == prefix &&
         std::memcmp(key.data() + 1, tok.data(), tok.size()) == 0;
}
}  // namespace

PendingHash::Entry* PendingHash::Lookup(char prefix, std::string_view tok, bool* fresh) {
  if (slots_.empty() || count_ * 2 >= slots_.size()) {
    size_t cap = slots_.empty() ? 1024 : slots_.size() * 2;
    slots_.assign(cap, 0);
    hashes_.assign(cap, 0);
    for (size_t i = 0; i < count_; ++i) {
      const std::string& k = entries_[i].key;
      uint32_t h = HashKey(k[0], std::string_view(k).substr(1));
      size_t at = h & (cap - 1);
      while (slots_[at] != 0) at = (at + 1) & (cap - 1);
      slots_[at] = static_cast<uint32_t>(i + 1);
      hashes_[at] = h;
    }
  }
  uint32_t h = HashKey(prefix, tok);
  size_t mask = slots_.size() - 1;
  size_t at = h & mask;
  for (; slots_[at] != 0; at = (at + 1) & mask) {
    if (hashes_[at] == h && KeyIs(entries_[slots_[at] - 1].key, prefix, tok)) {
      *fresh = false;
      return &entries_[slots_[at] - 1];
    }
  }
  if (count_ == entries_.size()) entries_.emplace_back();
  Entry& e = entries_[count_++];
  e.key.push_back(prefix);
  e.key.append(tok);
  e.open = false;
  e.last_rowid = 0;
  slots_[at] = static_cast<uint32_t>(count_);
  hashes_[at] = h;
  *fresh = true;
  return &e;
}

std::vector<std::pair<std::string_view, const std::string*>> PendingHash::Sorted() {
  // Sorted on the first 8 key bytes as a big-endian number (zero-padded,
  // so the order agrees with bytewise order), then on the whole key.
  struct Item {
    uint64_t head;
    uint32_t index;
  };
  std::vector<Item> items;
  items.reserve(count_);
  for (uint32_t i = 0; i < count_; ++i) {
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
  if (key.empty()) return nullptr;
  std::string_view tok = std::string_view(key).substr(1);
  uint32_t h = HashKey(key[0], tok);
  size_t mask = slots_.size() - 1;
  for (size_t at = h & mask; slots_[at] != 0; at = (at + 1) & mask) {
    if (hashes_[at] == h && KeyIs(entries_[slots_[at] - 1].key, key[0], tok)) {
      return &entries_[slots_[at] - 1];
    }
  }
  return nullptr;
}

}  // namespace basalt::fts5

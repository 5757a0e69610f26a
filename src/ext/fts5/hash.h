// The pending-terms hash: what this transaction wrote since the last flush,
// per index key (a prefix byte — '0' for the main index, '1'+i for prefix
// index i — then the token), as a doclist in the segment format.
//
// Invariant: within a key, rowids arrive ascending (the index flushes
// before a smaller or repeated rowid, see Index::BeginWrite); the position
// list of the last rowid is still open (after a 1-byte size placeholder at
// `size_off`, as in SQLite's hash) until the next rowid or
// the flush closes it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ext/fts5/config.h"

namespace basalt::fts5 {

class PendingHash {
 public:
  struct Entry {
    std::string key;
    std::string doclist;  // closed rowids: rowid delta, size field, positions
    size_t size_off = 0;  // the open rowid's size placeholder (detail != none)
    int64_t last_rowid = 0;
    int col = 0;
    int pos = 0;
    bool open = false;
    bool del = false;
    bool content = false;  // detail=none: a real occurrence, not only a delete
  };

  explicit PendingHash(Detail d) : detail_(d) {}
  // Adds one occurrence (col >= 0) or a delete marker (col < 0) for rowid.
  void Write(int64_t rowid, int col, int pos, char prefix, const char* tok, int n);
  // The bytes SQLite would count for the same data (its flush threshold).
  int64_t bytes() const { return bytes_; }
  bool empty() const { return count_ == 0; }
  // Empties the hash but keeps its memory: entry strings and the slot
  // array are reused by the next transaction's writes.
  void Clear() {
    for (size_t i = 0; i < count_; ++i) {
      Entry& e = entries_[i];
      e.key.clear();
      e.doclist.clear();
    }
    count_ = 0;
    std::fill(slots_.begin(), slots_.end(), 0);
    bytes_ = 0;
  }
  // Closes every open position list and returns the keys in order.
  std::vector<std::pair<std::string_view, const std::string*>> Sorted();
  // The doclist for a key (closed copy), or nullptr.
  const Entry* Find(const std::string& key) const;
  std::span<const Entry> entries() const { return {entries_.data(), count_}; }
  // Appends the doclist of e with its open rowid closed.
  void Closed(const Entry& e, std::string* out) const;

 private:
  void Close(Entry* e);
  // Open addressing: slots_ hold 1 + an index into entries_ (0 = empty),
  // hashes_ the full hash of that slot's key; capacity a power of two,
  // at most half full.
  Entry* Lookup(char prefix, std::string_view tok, bool* fresh);
  Detail detail_;
  std::vector<Entry> entries_;  // the first count_ are live
  size_t count_ = 0;
  std::vector<uint32_t> slots_;
  std::vector<uint32_t> hashes_;
  int64_t bytes_ = 0;
};

}  // namespace basalt::fts5

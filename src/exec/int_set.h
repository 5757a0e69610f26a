// A set of 64-bit integers in one open-addressing table (linear probing,
// power-of-two capacity, at most half full): the rowids a RIGHT JOIN's
// table matched, added and tested once per row without allocating per key.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "common/assert.h"

namespace basalt {

class IntSet {
 public:
  void Insert(int64_t v) {
    if (v == kEmpty) {
      has_empty_key_ = true;
      return;
    }
    if (2 * (size_ + 1) > slots_.size()) Grow();
    if (Place(&slots_, v)) ++size_;
  }

  bool Contains(int64_t v) const {
    if (v == kEmpty) return has_empty_key_;
    if (slots_.empty()) return false;
    const size_t mask = slots_.size() - 1;
    for (size_t i = Hash(v) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == v) return true;
      if (slots_[i] == kEmpty) return false;
    }
  }

 private:
  static constexpr int64_t kEmpty = std::numeric_limits<int64_t>::min();

  static size_t Hash(int64_t v) {
    return static_cast<size_t>((static_cast<uint64_t>(v) * 0x9E3779B97F4A7C15ull) >> 20);
  }

  // Puts v into `slots` (not full); false if it was there already.
  static bool Place(std::vector<int64_t>* slots, int64_t v) {
    const size_t mask = slots->size() - 1;
    for (size_t i = Hash(v) & mask;; i = (i + 1) & mask) {
      int64_t& s = (*slots)[i];
      if (s == v) return false;
      if (s == kEmpty) {
        s = v;
        return true;
      }
    }
  }

  void Grow() {
    std::vector<int64_t> bigger(slots_.empty() ? 64 : slots_.size() * 2, kEmpty);
    for (int64_t v : slots_) {
      if (v != kEmpty) Place(&bigger, v);
    }
    slots_.swap(bigger);
    BASALT_DCHECK(2 * size_ <= slots_.size());
  }

  std::vector<int64_t> slots_;
  size_t size_ = 0;
  bool has_empty_key_ = false;
};

}  // namespace basalt

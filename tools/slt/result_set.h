// The rendered values of one query, in one buffer: every value is stored
// followed by '\n', which is also exactly the form the md5 hash covers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "script.h"

namespace basalt::slt {

class ResultSet {
 public:
  // Empties the set for a query with `columns` columns.
  void Reset(int columns);

  // Appending one value: write its text to buffer(), then call EndValue().
  std::string* buffer() { return &data_; }
  void EndValue() {
    data_.push_back('\n');
    starts_.push_back(next_start_);
    next_start_ = static_cast<uint32_t>(data_.size());
  }

  int columns() const { return columns_; }
  size_t size() const { return starts_.size(); }

  // The i-th value in the current order (after Sort), without the '\n'.
  std::string_view value(size_t i) const {
    const uint32_t k = order_.empty() ? static_cast<uint32_t>(i) : order_[i];
    const uint32_t end = k + 1 < starts_.size() ? starts_[k + 1] : next_start_;
    return std::string_view(data_.data() + starts_[k], end - starts_[k] - 1);
  }

  // Orders the values as the script asks: whole rows (rowsort) or single
  // values (valuesort), by strcmp of the rendered text.
  void Sort(SortMode mode);

  // "N values hashing to <md5>" over the values in the current order.
  std::string HashLine() const;

 private:
  std::string data_;
  std::vector<uint32_t> starts_;  // offset of each value in data_
  std::vector<uint32_t> order_;   // empty: insertion order
  uint32_t next_start_ = 0;
  int columns_ = 1;
};

// True if `line` has the form "N values hashing to <32 hex digits>".
bool IsHashLine(std::string_view line);

}  // namespace basalt::slt

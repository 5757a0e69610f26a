#include "result_set.h"

#include <algorithm>
#include <numeric>

#include "md5.h"

namespace basalt::slt {

void ResultSet::Reset(int columns) {
  data_.clear();
  starts_.clear();
  order_.clear();
  next_start_ = 0;
  columns_ = columns > 0 ? columns : 1;
}

void ResultSet::Sort(SortMode mode) {
  order_.clear();
  const size_t n = starts_.size();
  if (mode == SortMode::kNoSort || n < 2) return;
  // Compare through value(), which reads order_; keep it empty meanwhile.
  if (mode == SortMode::kValueSort) {
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(),
              [this](uint32_t a, uint32_t b) { return value(a) < value(b); });
    order_ = std::move(order);
    return;
  }
  const size_t cols = static_cast<size_t>(columns_);
  const size_t rows = n / cols;
  std::vector<uint32_t> row_order(rows);
  std::iota(row_order.begin(), row_order.end(), 0u);
  std::sort(row_order.begin(), row_order.end(), [this, cols](uint32_t a, uint32_t b) {
    for (size_t c = 0; c < cols; ++c) {
      const int cmp = value(a * cols + c).compare(value(b * cols + c));
      if (cmp != 0) return cmp < 0;
    }
    return false;
  });
  std::vector<uint32_t> order;
  order.reserve(n);
  for (uint32_t r : row_order) {
    for (size_t c = 0; c < cols; ++c) order.push_back(static_cast<uint32_t>(r * cols + c));
  }
  // A partial last row (impossible for engine results) keeps its place.
  for (size_t i = rows * cols; i < n; ++i) order.push_back(static_cast<uint32_t>(i));
  order_ = std::move(order);
}

std::string ResultSet::HashLine() const {
  Md5 md5;
  if (order_.empty()) {
    md5.Update(data_);
  } else {
    for (size_t i = 0; i < order_.size(); ++i) {
      const std::string_view v = value(i);
      md5.Update(v.data(), v.size() + 1);  // the value and its '\n'
    }
  }
  return std::to_string(size()) + " values hashing to " + md5.HexDigest();
}

bool IsHashLine(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
  if (i == 0) return false;
  constexpr std::string_view kMiddle = " values hashing to ";
  if (line.substr(i, kMiddle.size()) != kMiddle) return false;
  const std::string_view hex = line.substr(i + kMiddle.size());
  if (hex.size() != 32) return false;
  for (char c : hex) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace basalt::slt

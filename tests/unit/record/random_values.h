// Random SQL values for the differential tests: edge-heavy integers and
// reals, numeric-looking and arbitrary text, and blobs.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "record/value.h"

namespace basalt::testing {

class RandomValues {
 public:
  explicit RandomValues(uint64_t seed) : rng_(seed) {}

  int64_t Int();
  double Real();
  // Text that often looks like a number: spaces, signs, digits, '.', 'e'.
  std::string NumericText();
  Value Any();  // any storage class
  uint64_t Below(uint64_t n) { return rng_() % n; }
  bool Chance(int percent) { return static_cast<int>(rng_() % 100) < percent; }

 private:
  std::mt19937_64 rng_;
};

}  // namespace basalt::testing

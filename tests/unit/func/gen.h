// Random argument values for the differential tests, biased towards the
// edges the functions care about: small and extreme integers, reals with
// fractions and huge exponents, numeric-looking text, UTF-8 (valid and
// not), embedded NULs, quotes and wildcard characters, blobs.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "record/value.h"

namespace basalt::functest {

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}

  uint64_t Below(uint64_t n) { return n ? rng_() % n : 0; }
  bool Chance(int percent) { return static_cast<int>(Below(100)) < percent; }
  template <typename T, size_t N>
  const T& Pick(const T (&items)[N]) {
    return items[Below(N)];
  }

  int64_t SmallInt() { return static_cast<int64_t>(Below(21)) - 10; }
  int64_t Int();
  double Real();
  std::string NumericText();
  std::string Text();  // arbitrary, often short
  std::string Blob();
  Value Any();          // any storage class
  Value SmallNumber();  // mostly small ints, sometimes anything

 private:
  std::mt19937_64 rng_;
};

}  // namespace basalt::functest

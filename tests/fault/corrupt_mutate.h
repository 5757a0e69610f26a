// Damage done to a valid database image for corrupt_test.cc: each mutation
// is a pure function of the image and a 64-bit case seed, so a failing case
// is reproduced (and described) from its seed alone.
#pragma once

#include <cstdint>
#include <string>

namespace basalt::testing {

enum class MutationKind : int {
  kHeaderBytes,   // random bytes of the 100-byte database header
  kPageHeader,    // bytes of one page's b-tree header
  kCellPointers,  // bytes of one page's cell pointer array
  kCellContent,   // bytes of one cell (varints, child pointer, payload)
  kField16,       // a 2-byte page-header field or cell pointer set to an extreme
  kField32,       // a 4-byte page number / count set to an extreme
  kTruncate,      // the file cut at a random length
  kZeroPage,      // one page all zeros
  kSwapPages,     // two pages exchanged
  kNotADatabase,  // the whole file replaced by random bytes or text
  kRandomBytes,   // bytes anywhere in the file
  kCombined,      // two to four of the above
  kCount
};

// A damaged copy of `image` (a database of `page_size`-byte pages) and a
// one-line description of what was done.
struct Mutation {
  std::string bytes;
  std::string what;
};

Mutation Mutate(const std::string& image, uint32_t page_size, uint64_t case_seed);

// The seed of case i of a run with seed `run_seed`.
uint64_t CaseSeed(uint64_t run_seed, uint64_t i);

}  // namespace basalt::testing

// Lookups over the generated Unicode tables (unicode_data.h).
//
// The category runs are expanded once, at first use, into a two-level
// table: kBlockBits low bits of a code point index a block of category
// bytes, the high bits pick the block; identical blocks are stored once.
// The byte also flags code points that fold to something else in some
// remove_diacritics mode (kUnicodeMayFold), so the common case (CJK,
// symbols) never searches the fold tables, and the combining marks that
// continue tokens (kUnicodeDiacritic).
#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "ext/fts5/tokenize/unicode_data.h"

namespace basalt::fts5 {
namespace {

constexpr int kBlockBits = UnicodeTable::kBlockBits;
constexpr uint32_t kBlockSize = 1u << kBlockBits;
constexpr uint32_t kCodeSpace = UnicodeTable::kCodeSpace;

struct Storage {
  std::vector<uint16_t> block_of;
  std::vector<uint8_t> blocks;
};

uint32_t FoldCase(uint32_t cp) {
  // The last run whose first code point is <= cp.
  int lo = 0, hi = kFoldRunCount;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (kFoldRuns[mid].first <= cp) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == 0) return cp;
  const FoldRun& r = kFoldRuns[lo - 1];
  uint32_t off = cp - r.first;
  if (off % r.stride != 0 || off / r.stride >= r.count) return cp;
  return static_cast<uint32_t>(static_cast<int32_t>(cp) + r.delta);
}

// The kDiacritics entry of folded code point `cp`, or 0.
uint32_t DiacriticEntry(uint32_t cp) {
  const uint32_t* end = kDiacritics + kDiacriticCount;
  const uint32_t* it = std::lower_bound(kDiacritics, end, cp << 8);
  if (it == end || (*it >> 8) != cp) return 0;
  return *it;
}

Storage Build() {
  std::vector<uint8_t> flat(kCodeSpace);
  for (int i = 0; i < kCategoryRunCount; ++i) {
    uint32_t first = kCategoryRuns[i] >> 5;
    uint32_t last = i + 1 < kCategoryRunCount ? kCategoryRuns[i + 1] >> 5 : kCodeSpace;
    std::memset(&flat[first], static_cast<int>(kCategoryRuns[i] & kUnicodeCategoryMask),
                last - first);
  }
  for (int i = 0; i < kFoldRunCount; ++i) {
    const FoldRun& r = kFoldRuns[i];
    for (uint32_t k = 0; k < r.count; ++k) flat[r.first + k * r.stride] |= kUnicodeMayFold;
  }
  // Diacritic removal applies to folded code points: every code point that
  // folds to one of them already carries the bit from the fold runs.
  for (int i = 0; i < kDiacriticCount; ++i) {
    uint32_t cp = kDiacritics[i] >> 8;
    flat[cp] |= kUnicodeMayFold;
    if ((kDiacritics[i] & 0x7F) == 0 && FoldCase(cp) == cp) flat[cp] |= kUnicodeDiacritic;
  }
  Storage t;
  std::map<std::string, uint16_t> seen;
  for (uint32_t b = 0; b < (kCodeSpace >> kBlockBits); ++b) {
    std::string key(reinterpret_cast<const char*>(&flat[b << kBlockBits]), kBlockSize);
    auto [it, fresh] = seen.emplace(key, static_cast<uint16_t>(seen.size()));
    if (fresh) t.blocks.insert(t.blocks.end(), key.begin(), key.end());
    t.block_of.push_back(it->second);
  }
  return t;
}

}  // namespace

const UnicodeTable& GetUnicodeTable() {
  static const Storage storage = Build();
  static const UnicodeTable table{storage.block_of.data(), storage.blocks.data()};
  return table;
}

uint32_t UnicodeFold(uint32_t cp, int remove_diacritics) {
  uint32_t folded = FoldCase(cp);
  if (remove_diacritics == 0) return folded;
  uint32_t e = DiacriticEntry(folded);
  if (e == 0 || (remove_diacritics == 1 && (e & 0x80))) return folded;
  return e & 0x7F;
}

bool UnicodeParseCategory(const char* p, bool enabled[kCategorySlots]) {
  const char major = p[0];
  const char minor = p[1];
  static constexpr const char* kMajors = "CLMNPSZ";
  if (std::strchr(kMajors, major) == nullptr || major == '\0') return true;  // ignored
  bool any = false;
  for (int c = 0; c < kCategoryCount; ++c) {
    if (kCategoryNames[c][0] != major) continue;
    if (minor == '*' || kCategoryNames[c][1] == minor) {
      enabled[c] = true;
      any = true;
    }
  }
  // "LC" (cased letter) is accepted but, as in SQLite, selects nothing.
  return any || (major == 'L' && minor == 'C');
}

}  // namespace basalt::fts5

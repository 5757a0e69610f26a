// The database header fields the pager itself reads or writes
// (fileformat2 section 1.3; the B-tree owns the rest of page 1).
//
//   offset size field
//        0   16 "SQLite format 3\0"
//       16    2 page size (1 means 65536)
//       18    1 file format write version: 1 rollback journal, 2 WAL
//       19    1 file format read version: 1 rollback journal, 2 WAL
//       24    4 file change counter
//       28    4 database size in pages (valid when bytes 24..27 == 92..95)
//       92    4 version-valid-for: the change counter when 28 was written
#pragma once

#include <cstdint>
#include <cstring>

#include "common/coding.h"

namespace basalt::dbhdr {

inline constexpr char kMagic[16] = "SQLite format 3";  // with its NUL: 16 bytes
inline constexpr int kPageSize = 16;
inline constexpr int kWriteVersion = 18;
inline constexpr int kReadVersion = 19;
inline constexpr int kChangeCounter = 24;
inline constexpr int kDatabaseSize = 28;
inline constexpr int kVersionValidFor = 92;
inline constexpr int kSize = 100;
// The 16 bytes at 24 that change with every commit (counter, size and the
// freelist fields): what a rollback-mode reader compares to know whether
// its cache is still good.
inline constexpr int kFileVersion = 24;
inline constexpr int kFileVersionSize = 16;

inline bool HasMagic(const uint8_t* h) { return std::memcmp(h, kMagic, 16) == 0; }
inline uint32_t PageSize(const uint8_t* h) {
  uint32_t v = Get16(h + kPageSize);
  return v == 1 ? 65536u : v;
}
// The in-header size when it is trustworthy, else 0.
inline uint32_t ValidDatabaseSize(const uint8_t* h) {
  if (std::memcmp(h + kChangeCounter, h + kVersionValidFor, 4) != 0) return 0;
  return Get32(h + kDatabaseSize);
}

}  // namespace basalt::dbhdr

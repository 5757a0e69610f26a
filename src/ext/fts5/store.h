// Access to an FTS5 table's %_data and %_idx shadow tables through cached
// statements: page reads and writes, range deletes, segment b-tree keys.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ext/fts5/common.h"
#include "ext/fts5/config.h"

namespace basalt::fts5 {

class DataStore {
 public:
  explicit DataStore(const Config* cfg) : cfg_(cfg) {}
  // Reads record id into *out; SQLITE_CORRUPT_VTAB when it is missing.
  int Read(int64_t id, std::string* out);
  // Like Read, but *found is false instead of an error.
  int ReadOptional(int64_t id, std::string* out, bool* found);
  int Write(int64_t id, std::string_view blob);
  int DeleteRange(int64_t lo, int64_t hi);  // ids in [lo, hi]
  int WriteIdx(int segid, std::string_view term, int64_t pgno);
  int DeleteIdx(int segid);
  // The %_idx page value for the largest key <= term (0 if none).
  int LookupIdx(int segid, std::string_view term, int64_t* pgno);
  // Every %_idx row of a segment, in term order: (term, pgno value).
  int IdxRows(int segid, std::vector<std::pair<std::string, int64_t>>* out);
  int64_t reads() const { return reads_; }
  // Drops the cached statements (before a rename or drop).
  void Reset();

 private:
  int Prep(Stmt* s, const std::string& sql);
  const Config* cfg_;
  int64_t reads_ = 0;  // records read (MATCH '*reads')
  Stmt read_, write_, del_range_, idx_write_, idx_del_, idx_lookup_;
};

}  // namespace basalt::fts5

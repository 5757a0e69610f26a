// The FTS5 full-text index of one table: the pending hash, the segments
// listed by the structure record, flushing, merging and term lookups.
//
// Write protocol (each step named by the function that performs it):
//   1. BeginWrite(rowid, is_delete) — flushes first when the rowid does not
//      follow the previous write (smaller, or equal after an insert) or the
//      pending data passed hash_size.
//   2. Write(col, pos, token) per token (col -1 for a delete marker).
//   3. Flush() at xSync / xSavepoint / commands: the pending hash becomes a
//      level-0 segment, then Automerge() and Crisismerge() run and the
//      structure record is written.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ext/fts5/config.h"
#include "ext/fts5/hash.h"
#include "ext/fts5/reader.h"
#include "ext/fts5/store.h"

namespace basalt::fts5 {

class Index {
 public:
  explicit Index(Config* cfg) : cfg_(cfg), store_(cfg), hash_(cfg->detail) {}

  DataStore* store() { return &store_; }
  Config* config() { return cfg_; }

  int BeginWrite(int64_t rowid, bool is_delete);
  int Write(int col, int pos, const char* tok, int n);
  int Flush();
  void DiscardPending() { hash_.Clear(); }
  bool HasPending() const { return !hash_.empty(); }

  // Fresh, empty index (CREATE, 'delete-all', 'rebuild').
  int Reinit();
  int Optimize();
  int Merge(int npages);  // the 'merge' command (negative: usermerge-style)
  int SetCookie(uint32_t cookie);

  int ReadStructure(Structure* s);
  int WriteStructure(const Structure& s);
  int ReadAverages(std::string* blob);
  int WriteAverages(const std::string& blob);

  // The merged doclist of key (prefix byte included): every segment and the
  // pending data, newest entry per rowid, delete markers dropped. With
  // `prefix`, the union over all keys starting with key.
  int Query(const std::string& key, bool prefix, RawDoclist* out);
  // Every key starting with `prefix`, in order, with its merged doclist
  // (delete markers dropped; keys left without rowids omitted).
  // With from_first, each segment is read from its first leaf (not sought
  // through %_idx), as the integrity check reads.
  int ScanTerms(const std::string& prefix, std::vector<std::pair<std::string, RawDoclist>>* out,
                bool from_first = false);

 private:
  int FlushHash();
  int Automerge(Structure* s, int nleaf);
  int Crisismerge(Structure* s);
  int MergeUntil(Structure* s, int npg, int nmin, bool* did);
  int MergeLevel(Structure* s, int lvl, int* rem);
  int AllocateSegid(const Structure& s);
  void Promote(Structure* s, int lvl);
  void PromoteTo(Structure* s, int to, int sz);
  int RemoveSegment(int segid);

  Config* cfg_;
  DataStore store_;
  PendingHash hash_;
  int64_t write_rowid_ = 0;
  bool write_delete_ = false;
  bool have_write_ = false;
};

// Bytes of the first n_char UTF-8 characters of tok, or 0 if it is shorter
// (the key a prefix index of n_char characters holds for the token).
int CharsToBytes(const char* tok, int n, int n_char);

// Merges per-source doclists (oldest first) into one, the newest entry per
// rowid winning; drops entries without positions when drop_deletes.
void MergeDoclists(std::vector<RawDoclist*> oldest_first, bool drop_deletes, bool detail_none,
                   RawDoclist* out);
// Decodes a doclist in the pending-hash format (rowid deltas).
void DecodeHashDoclist(const std::string& d, bool detail_none, RawDoclist* out);
// Decodes a position list into column<<32 | offset values (detail=column:
// column<<32 only); a truncated list ends the output.
void DecodePositions(const std::string& pl, Detail d, std::vector<uint64_t>* out);

}  // namespace basalt::fts5

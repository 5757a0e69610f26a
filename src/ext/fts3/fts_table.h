// The FTS3/FTS4 virtual table: its configuration (from CREATE VIRTUAL
// TABLE), the in-memory pending terms, and the operations on its shadow
// tables that the module methods are built from.
//
// Shadow tables (names and CREATE TABLE text as SQLite writes them):
//   %_content(docid INTEGER PRIMARY KEY, 'c0<col0>', ... [, langid])
//       the documents (absent with content=);
//   %_segments(blockid INTEGER PRIMARY KEY, block BLOB)
//       segment b-tree nodes other than roots;
//   %_segdir(level, idx, start_block, leaves_end_block, end_block, root)
//       one row per segment; end_block holds "<end block> <leaf bytes>";
//   %_docsize(docid INTEGER PRIMARY KEY, size BLOB)   (FTS4)
//       varint token count per column;
//   %_stat(id INTEGER PRIMARY KEY, value BLOB)        (FTS4)
//       row 0: varint document count, token total per column, byte total;
//       row 2: the automerge setting.
// Segments: levels 0..1023 of index i (0 main, 1.. the prefix= indexes) and
// language l live at absolute level (l * nIndex + i) * 1024 + level. A
// segment is newer than those of higher levels and than lower idx at its
// level.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ext/fts3/fts_common.h"
#include "ext/fts3/tokenizer.h"
#include "sqlite3.h"

namespace basalt::fts {

inline constexpr int kMaxLevel = 1024;
inline constexpr int kMergeCount = 16;

// A term's doclist being built in memory from inserts and deletes.
struct PendingList {
  std::string data;  // encoded doclist so far (current entry unterminated)
  int64_t last_docid = 0;
  bool has_doc = false;
  int last_col = 0;
  int last_pos = 0;
  // Adds (docid, col, pos); col < 0 records only the docid (a deletion).
  void Add(int64_t docid, int col, int pos);
  // The finished doclist (terminates the open entry).
  std::string Finish() const { return has_doc ? data + std::string(1, '\0') : data; }
};

// One segment as listed in %_segdir.
struct SegInfo {
  int64_t level = 0;
  int idx = 0;
  int64_t start = 0, leaves_end = 0, end = 0;
  int64_t leaf_bytes = 0;
  std::string root;
};

struct FtsTable {
  FtsTable() = default;
  FtsTable(const FtsTable&) = delete;
  FtsTable& operator=(const FtsTable&) = delete;
  ~FtsTable() { ClearStatements(); }
  void ClearStatements() {
    for (auto& [sql, s] : stmt_cache) sqlite3_finalize(s);
    stmt_cache.clear();
  }
  sqlite3_vtab base{};
  // Prepared statements on the shadow tables, by SQL text (see Prep).
  std::map<std::string, sqlite3_stmt*> stmt_cache;
  sqlite3* db = nullptr;
  std::string schema, name;
  bool fts4 = false;
  std::vector<std::string> columns;
  std::vector<bool> notindexed;
  bool has_docsize = false, has_stat = false;
  bool external_content = false;  // content= (including contentless)
  bool contentless = false;       // content=''
  std::string content_table;      // content= table name
  std::string langid_col;         // languageid=
  std::vector<int> prefixes;      // prefix= lengths, index 1..
  bool desc = false;              // order=DESC
  bool matchinfo_fts3 = false;    // matchinfo=fts3
  std::string compress, uncompress;
  Tokenizer tokenizer;
  int node_size = 4061;
  int max_pending = 1048576;
  // Pending terms per index (0 main), all of language pending_langid.
  std::vector<std::map<std::string, PendingList>> pending;
  size_t pending_bytes = 0;
  int64_t prev_docid = 0;
  bool prev_delete = false;
  bool any_pending = false;
  int pending_langid = 0;
  int automerge = -1;  // -1: not read yet
  int page_size = 0;   // of the database holding the table; 0: not read yet
  // > 0 while the table runs its own SQL (xUpdate, commands): the statement
  // savepoints of those nested statements reach xSavepoint / xRollbackTo
  // of this table too, and must not flush or drop the pending terms.
  int busy = 0;

  int nindex() const { return 1 + static_cast<int>(prefixes.size()); }
  int ncol() const { return static_cast<int>(columns.size()); }
  std::string Shadow(const char* suffix) const {
    return QuoteIdent(schema) + "." + QuoteIdent(name + suffix);
  }
  // The name in CREATE TABLE: SQLite's stored text quotes it as 'x_suffix'.
  std::string ShadowDecl(const char* suffix) const {
    return QuoteIdent(schema) + "." + QuoteLiteral(name + suffix);
  }
  int64_t AbsLevel(int langid, int index, int level) const {
    return (static_cast<int64_t>(langid) * nindex() + index) * kMaxLevel + level;
  }
  void SetError(const std::string& msg) {
    sqlite3_free(base.zErrMsg);
    base.zErrMsg = sqlite3_mprintf("%s", msg.c_str());
  }
};

// create.cc
int ParseAndCreate(sqlite3* db, void* aux, int argc, const char* const* argv, bool create,
                   FtsTable** out, char** err);
// The SELECT list that reads a document's columns (and langid) by docid,
// from %_content or the content= table.
std::string ContentSelect(const FtsTable* t);

// write.cc: pending terms and documents.
int AddDocTerms(FtsTable* t, int64_t docid, int langid, const std::vector<std::string>& vals,
                int col_sign, std::vector<int>* sizes);
int FlushPending(FtsTable* t);
void DiscardPending(FtsTable* t);
int PrepareDocid(FtsTable* t, int64_t docid, bool is_delete, int langid);

// segments.cc: reading and writing segments.
int LoadSegments(FtsTable* t, int64_t lo_level, int64_t hi_level, std::vector<SegInfo>* out);
// Calls fn(term, doclist) for terms of `seg` in [lo, hi] (hi empty: no
// bound; prefix: every term starting with lo).
// The blockid of the leaf of `seg` that may hold `key` (the segment must
// not be root-only).
int FindLeaf(FtsTable* t, const SegInfo& seg, const std::string& key, int64_t* leaf);
// first_leaf: when given, the size in bytes of the first leaf read (left
// alone for a root-only segment).
int ScanSegment(FtsTable* t, const SegInfo& seg, const std::string& lo, bool prefix,
                const std::function<int(const std::string&, std::string_view)>& fn,
                int64_t* first_leaf = nullptr);
// Writes a segment from sorted (term, doclist) pairs at absolute level
// `level`, index `idx`.
// first_block: the first blockid to use (0: max(blockid) + 1).
int WriteSegment(FtsTable* t, int64_t level, int idx,
                 const std::vector<std::pair<std::string, std::string>>& terms,
                 int64_t first_block = 0);
// Merges all segments of absolute level range into one at `to_level`.
int MergeLevel(FtsTable* t, int langid, int index, int level);
int MergeAll(FtsTable* t, bool* already_optimal = nullptr);
// The next free idx at an absolute level, merging the level first when it
// is full.
int AllocateIdx(FtsTable* t, int langid, int index, int level, int* idx);
// Removes all index data (segments, segdir, docsize, stat, content).
int DeleteAll(FtsTable* t, bool content);

// Prepares `sql` into *s, from the table's cache when the cached statement
// is not running (a nested use gets a statement of its own).
int Prep(FtsTable* t, Stmt* s, const std::string& sql);

// Runs SQL text that needs no result; returns an SQLite code.
int Exec(FtsTable* t, const std::string& sql);

}  // namespace basalt::fts

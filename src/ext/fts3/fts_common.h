// Shared helpers of the FTS3/FTS4 extension: the varint of the index format,
// prepared-statement RAII, and the decoded forms of doclists.
//
// Varint (fts3.html, appendix): little-endian groups of 7 bits, the high bit
// of each byte set when another byte follows; at most 10 bytes for 64 bits.
// Doclist: for each document, varint(docid delta) (the first docid as is),
// then its position list, then 0x00. A position list is a run of varints:
// 1 followed by varint(column) switches column (column 0 has no marker);
// any other value v is a position, previous position in the column + v - 2.
// An entry with an empty position list marks a deleted document.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sqlite3.h"

namespace basalt::fts {

inline void PutVarint(std::string* out, uint64_t v) {
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    if (v != 0) b |= 0x80;
    out->push_back(static_cast<char>(b));
  } while (v != 0);
}

inline int VarintLen(uint64_t v) {
  int n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

// Reads a varint at *p (p < end); returns false on a truncated one.
inline bool GetVarint(const uint8_t** p, const uint8_t* end, uint64_t* v) {
  uint64_t r = 0;
  for (int shift = 0; shift < 64 && *p < end; shift += 7) {
    uint8_t b = *(*p)++;
    r |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      *v = r;
      return true;
    }
  }
  return false;
}

// One document of a doclist: its position list without the 0x00 that ends
// it (empty for a deletion marker).
struct DocEntry {
  int64_t docid = 0;
  std::string pos;
};
using Doclist = std::vector<DocEntry>;

// Decodes a doclist; returns false when it is malformed.
bool DecodeDoclist(std::string_view data, bool desc, Doclist* out);
// Appends the encoding of `list` (docids ascending, or descending if desc).
void EncodeDoclist(const Doclist& list, bool desc, std::string* out);
// Merges doclists ordered newest first: for a docid in several, the newest
// entry wins; drops deletion markers when drop_deletes.
Doclist MergeDoclists(std::vector<const Doclist*> newest_first, bool desc, bool drop_deletes);

// A decoded position: column and token offset.
struct Position {
  int col;
  int pos;
};
// Decodes a position list body (see above).
void DecodePositions(std::string_view pos, std::vector<Position>* out);
// Encodes sorted positions (by column then offset).
void EncodePositions(const std::vector<Position>& in, std::string* out);

// A prepared statement finalized on scope exit.
class Stmt {
 public:
  Stmt() = default;
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  ~Stmt() { Release(); }
  int Prepare(sqlite3* db, const std::string& sql) {
    Release();
    return sqlite3_prepare_v2(db, sql.c_str(), -1, &s_, nullptr);
  }
  // Uses a statement owned by a cache: reset (not finalized) on release.
  void Borrow(sqlite3_stmt* s) {
    Release();
    s_ = s;
    borrowed_ = true;
  }
  sqlite3_stmt* get() const { return s_; }
  operator sqlite3_stmt*() const { return s_; }

 private:
  void Release() {
    if (borrowed_) {
      sqlite3_reset(s_);
      sqlite3_clear_bindings(s_);
    } else {
      sqlite3_finalize(s_);
    }
    s_ = nullptr;
    borrowed_ = false;
  }
  sqlite3_stmt* s_ = nullptr;
  bool borrowed_ = false;
};

// SQL quoting helpers: 'x' with quotes doubled, "x" likewise.
std::string QuoteLiteral(std::string_view s);
std::string QuoteIdent(std::string_view s);

}  // namespace basalt::fts

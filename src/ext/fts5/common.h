// Shared helpers of the FTS5 module: the varint of its file format, big-
// endian 16/32-bit fields, prepared-statement RAII and SQL quoting.
//
// Varint (the same as SQLite's record format): big-endian groups of 7 bits,
// the high bit of each of the first eight bytes set when another byte
// follows; a ninth byte, when present, holds 8 bits. At most 9 bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sqlite3.h"

namespace basalt::fts5 {

int VarintLen(uint64_t v);
// Appends the varint of v to *out.
void PutVarintSlow(std::string* out, uint64_t v);
inline void PutVarint(std::string* out, uint64_t v) {
  if (v < 0x80) {
    out->push_back(static_cast<char>(v));
  } else if (v < 0x4000) {
    char b[2] = {static_cast<char>(0x80 | (v >> 7)), static_cast<char>(v & 0x7f)};
    out->append(b, 2);
  } else {
    PutVarintSlow(out, v);
  }
}
// Reads a varint at p (bounded by end); returns the bytes read, 0 if it is
// truncated.
int GetVarint(const uint8_t* p, const uint8_t* end, uint64_t* v);

inline int GetU16(const uint8_t* p) { return (p[0] << 8) | p[1]; }
inline void PutU16(uint8_t* p, int v) {
  p[0] = static_cast<uint8_t>(v >> 8);
  p[1] = static_cast<uint8_t>(v);
}
inline uint32_t GetU32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

// 'x' with quotes doubled; "x" likewise.
std::string QuoteLiteral(std::string_view s);
std::string QuoteIdent(std::string_view s);

// A prepared statement finalized on scope exit.
class Stmt {
 public:
  Stmt() = default;
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  ~Stmt() { sqlite3_finalize(s_); }
  int Prepare(sqlite3* db, const std::string& sql) {
    sqlite3_finalize(s_);
    s_ = nullptr;
    return sqlite3_prepare_v2(db, sql.c_str(), -1, &s_, nullptr);
  }
  void Finalize() {
    sqlite3_finalize(s_);
    s_ = nullptr;
  }
  sqlite3_stmt* get() const { return s_; }
  operator sqlite3_stmt*() const { return s_; }
  explicit operator bool() const { return s_ != nullptr; }

 private:
  sqlite3_stmt* s_ = nullptr;
};

// Runs every statement of `sql`; on error leaves the message in *err.
int ExecSql(sqlite3* db, const std::string& sql, std::string* err);

}  // namespace basalt::fts5

// The changeset / patchset format (sessionintro.html), shared by the
// session object, the iterator, apply, invert, concat and the rebaser.
//
// A changeset is a sequence of tables, each a header followed by changes:
//   header   'T' (changeset) or 'P' (patchset), varint nCol, nCol bytes of
//            primary-key flags (0, or the column's position in the key),
//            the table name with its nul terminator
//   change   op byte (SQLITE_INSERT 18, SQLITE_DELETE 9, SQLITE_UPDATE 23),
//            indirect byte (0/1), then records:
//              INSERT  new record (every column)
//              DELETE  old record (patchset: the primary-key columns only)
//              UPDATE  old record then new record (patchset: new record
//                      only, its primary-key columns set)
// A record holds one field per column:
//   0x00     undefined (an UPDATE column that did not change)
//   0x01     INTEGER: 8 bytes, big-endian two's complement
//   0x02     REAL: the 8 bytes of the IEEE double, big-endian
//   0x03     TEXT: varint length, then the UTF-8 bytes
//   0x04     BLOB: varint length, then the bytes
//   0x05     NULL
// Varints are the database file's (1 to 9 bytes, big-endian 7-bit groups,
// the ninth byte whole).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "sqlite3.h"

namespace basalt::session {

inline constexpr int kOpInsert = SQLITE_INSERT;
inline constexpr int kOpDelete = SQLITE_DELETE;
inline constexpr int kOpUpdate = SQLITE_UPDATE;

// Appending to a changeset.
void PutVarint(std::string* out, uint64_t v);
void PutInt64(std::string* out, int64_t v);  // 8 bytes, big-endian
// One field holding `v` (null: undefined).
void PutValue(std::string* out, sqlite3_value* v);
// Column i of the current row of `stmt` as a field.
void PutColumn(std::string* out, sqlite3_stmt* stmt, int i);

// Reading: the varint at p (false if it runs past end).
bool GetVarint(const uint8_t** p, const uint8_t* end, uint64_t* v);
int64_t GetInt64(const uint8_t* p);

// One field of a record, pointing into the changeset.
struct Field {
  int type = 0;  // 0 undefined, else SQLITE_INTEGER..SQLITE_NULL
  int64_t i = 0;
  double r = 0;
  std::string_view bytes;  // TEXT / BLOB
  std::string_view raw;    // the whole encoded field
};
// Reads the field at *p; false on a malformed field.
bool GetField(const uint8_t** p, const uint8_t* end, Field* f);
// Binds field f to parameter `param` of stmt (undefined binds nothing).
int BindField(sqlite3_stmt* stmt, int param, const Field& f);
// True if f and v hold the same type and value (text/blob byte-wise).
bool FieldEquals(const Field& f, sqlite3_value* v);

// SQLite's row hash over the primary-key fields (changes are kept in hash
// buckets and written out bucket by bucket, so the order depends on it).
inline uint32_t HashStep(uint32_t h, uint32_t add) { return (h << 3) ^ h ^ add; }
uint32_t HashInt64(uint32_t h, int64_t v);
uint32_t HashBytes(uint32_t h, std::string_view b);
// The hash of field f's value (after its type), for a key column.
uint32_t HashField(uint32_t h, const Field& f);

// A table header of a changeset being parsed.
struct TableHeader {
  bool patchset = false;
  int n_col = 0;
  std::vector<uint8_t> pk;
  std::string name;
};
bool GetTableHeader(const uint8_t** p, const uint8_t* end, TableHeader* t);
void PutTableHeader(std::string* out, const TableHeader& t);

// One change of a parsed changeset: fields per column (old / new sides
// hold n_col entries each when present).
struct Change {
  int op = 0;
  bool indirect = false;
  std::vector<Field> old_rec;  // empty: none
  std::vector<Field> new_rec;
  std::string_view raw;  // the op byte through the end of the records
};
// Reads the change at *p for table t; false on malformed input.
bool GetChange(const uint8_t** p, const uint8_t* end, const TableHeader& t, Change* c);

// A whole changeset parsed into tables, in order.
struct ParsedTable {
  TableHeader hdr;
  std::vector<Change> changes;
};
// SQLITE_CORRUPT on malformed input.
int ParseChangeset(const void* data, int n, std::vector<ParsedTable>* out);

// Reads an input callback to its end (the _strm variants).
int ReadAll(int (*input)(void*, void*, int*), void* in, std::string* out);
// Writes `data` to an output callback (in chunks, as SQLite's stream size).
int WriteAll(int (*output)(void*, const void*, int), void* out, const std::string& data);
// A copy of `s` in sqlite3_malloc memory (null for empty), for returned buffers.
int ReturnBuffer(const std::string& s, int* n, void** p);

}  // namespace basalt::session

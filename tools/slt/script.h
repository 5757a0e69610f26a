// A parsed sqllogictest script.
//
// The format: records separated by blank lines; '#' starts a comment line.
//   [skipif ENGINE | onlyif ENGINE]...        conditions, any number
//   statement ok | statement error            then SQL lines
//   query TYPES [nosort|rowsort|valuesort] [LABEL]
//                                             then SQL lines, "----", values
//   hash-threshold N
//   halt
// The Script owns the file text; records refer to it with string_views.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace basalt::slt {

enum class RecordKind : uint8_t {
  kStatement,
  kQuery,
  kHashThreshold,
  kHalt,
  kMalformed,  // unknown record type or bad command line; `error` says why
};

enum class SortMode : uint8_t { kNoSort, kRowSort, kValueSort };

struct Condition {
  bool only_if;  // "onlyif ENGINE" (else "skipif ENGINE")
  std::string_view engine;
};

struct Record {
  RecordKind kind = RecordKind::kMalformed;
  int first_line = 0;  // 1-based line where the record starts (conditions too)
  int line = 0;        // 1-based line of the command ("statement", "query", ...)
  int end_line = 0;    // 1-based line after the record's last line
  uint32_t condition_begin = 0, condition_count = 0;  // into Script::conditions

  // statement and query: the SQL lines joined by '\n', NUL-terminated in the
  // script's buffer, so sql.data() can go straight to sqlite3_prepare.
  std::string_view sql;
  int sql_line = 0;   // first line of the SQL
  int sql_lines = 0;  // number of SQL lines

  bool expect_error = false;  // statement error

  // query
  std::string_view types;  // one letter per column: T, I or R
  SortMode sort = SortMode::kNoSort;
  std::string_view label;                           // empty if none
  bool has_separator = false;                       // a "----" line was present
  int expected_line = 0;                            // 1-based line of the first expected value
  uint32_t expected_begin = 0, expected_count = 0;  // into Script::lines

  int hash_threshold = 0;  // hash-threshold

  std::string error;  // kMalformed
};

struct Script {
  std::string path;
  std::string text;                     // the file, CRs before newlines removed, NULs after SQL
  std::vector<std::string_view> lines;  // every line, without its newline
  std::vector<Condition> conditions;
  std::vector<Record> records;

  std::string_view expected(const Record& r, uint32_t i) const {
    return lines[r.expected_begin + i];
  }
};

// Parses text (the contents of a script) into *script.
void ParseScript(std::string text, Script* script);

// Reads and parses a file. On failure returns false with *error set.
bool LoadScript(const std::string& path, Script* script, std::string* error);

// True if the record's conditions let it run on `engine` (the reference
// harness's engine name; Basalt runs as "sqlite").
bool Applies(const Script& script, const Record& record, std::string_view engine);

// True for the kinds counted as test records (statement, query, malformed).
inline bool IsCounted(const Record& r) {
  return r.kind == RecordKind::kStatement || r.kind == RecordKind::kQuery ||
         r.kind == RecordKind::kMalformed;
}

}  // namespace basalt::slt

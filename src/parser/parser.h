// The SQL parser: text in, AST out (see ast.h). Depends only on common.
#pragma once

#include <string_view>
#include <vector>

#include "common/arena.h"
#include "common/status.h"
#include "common/strings.h"
#include "parser/ast.h"

namespace basalt {

// Bound parameters seen while parsing, shared by all statements parsed by one
// Parser: `?` takes the next number, `?N` uses N, a named parameter (:a, @a,
// $a) gets a number on first sight and reuses it afterwards.
struct ParamTable {
  int count = 0;                        // highest parameter number used
  std::vector<std::string_view> names;  // names[i-1] = name of parameter i ("" for ?/?N)
};

// The run-time limits the parser enforces (sqlite3_limit); the defaults
// are the reference build's compile-time maxima.
struct ParseLimits {
  int expr_depth = 1000;         // SQLITE_LIMIT_EXPR_DEPTH
  int function_arg = 127;        // SQLITE_LIMIT_FUNCTION_ARG
  int compound_select = 500;     // SQLITE_LIMIT_COMPOUND_SELECT
  int variable_number = 250000;  // SQLITE_LIMIT_VARIABLE_NUMBER
  int column = 2000;             // SQLITE_LIMIT_COLUMN (table columns, UPDATE's SET list)
};

class Parser {
 public:
  // `sql` must outlive the AST (names and spans point into it or the arena).
  Parser(Arena* arena, std::string_view sql);

  // Parses the next statement, consuming a trailing ';' if present. Returns
  // nullptr (OK status) when only whitespace, comments and ';' remain.
  // Errors are SQLite's messages with code kError, e.g.
  //   near "FROM": syntax error      (text of the offending token)
  //   incomplete input               (input ended inside a statement)
  //   unrecognized token: "'abc"     (unterminated string etc.)
  Result<ast::Stmt*> ParseStatement();
  // Lowers the limits checked by the statements parsed from now on.
  void SetLimits(const ParseLimits& limits);
  // For ALTER TABLE's renames (SQLite's IN_RENAME_OBJECT): keep every name
  // of the text in the tree. Otherwise, as SQLite's parser does, `x AND 0`
  // and `0 AND x` with an integer literal 0 become the literal 0 at once,
  // so x is never resolved or evaluated.
  void SetRenameMode(bool on);

  // Byte offset in `sql` just after the last parsed statement (and its ';').
  size_t offset() const;
  const ParamTable& params() const;
  // Byte offset in `sql` of the token a syntax error names, or -1.
  int error_offset() const;

  // True if `sql` ends with a complete statement (sqlite3_complete semantics).
  static bool IsComplete(std::string_view sql);
  // Offset just past the ';' ending the first statement of sql (a cheap
  // lexical scan; sql.size() if no statement ends).
  static size_t StatementEnd(std::string_view sql);

 private:
  struct Impl;
  Impl* impl_;  // arena-allocated
};

}  // namespace basalt

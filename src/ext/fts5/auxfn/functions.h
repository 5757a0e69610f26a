// The built-in auxiliary functions, one concept per file; builtins.cc
// lists them. Each is an fts5_extension_function written only against
// Fts5ExtensionApi (and the sqlite3_result_* / sqlite3_value_* C API).
#pragma once

#include <string>

#include "ext/fts5/fts5_abi.h"

namespace basalt::fts5 {

void Bm25Function(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx, int argc,
                  sqlite3_value** argv);
void HighlightFunction(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx,
                       int argc, sqlite3_value** argv);
void SnippetFunction(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx, int argc,
                     sqlite3_value** argv);

// The phrase instances of one column merged where they overlap: each step
// gives the first and last token of a run of overlapping instances, in
// token order (xInst reports instances sorted by column and offset).
class MergedInstances {
 public:
  MergedInstances(const Fts5ExtensionApi* api, Fts5Context* fts, int column)
      : api_(api), fts_(fts), column_(column) {}
  // Reads the instance count and moves to the first run.
  int Start();
  // Moves to the next run; first() is -1 once there is none.
  int Next();
  int first() const { return first_; }
  int last() const { return last_; }

 private:
  const Fts5ExtensionApi* api_;
  Fts5Context* fts_;
  int column_;
  int inst_ = 0;
  int inst_count_ = 0;
  int first_ = -1;
  int last_ = -1;
};

// Copies a column's text with open/close markers around the merged phrase
// instances, optionally restricted to the token range [range_first,
// range_last] (snippets). Fed token by token through OnToken, the
// xTokenize callback; Finish appends the text after the last token.
struct HighlightWriter {
  explicit HighlightWriter(MergedInstances instances) : inst(instances) {}

  MergedInstances inst;
  const char* open = "";
  const char* close = "";
  const char* text = nullptr;
  int text_bytes = 0;
  int pos = 0;          // position of the next token
  int copied = 0;       // bytes of `text` already handled
  int range_first = 0;  // with range_last > 0: the snippet's window
  int range_last = 0;
  std::string out;

  static int OnToken(void* self, int flags, const char* token, int token_bytes, int start, int end);
  void CopyTo(int end_byte);
};

// The text of an SQL value ("" for NULL), as SQLite's functions read it.
const char* ValueText(sqlite3_value* v);

// Reports `rc` as the function's error (nothing when SQLITE_OK).
void ResultErrorCode(sqlite3_context* ctx, int rc);

}  // namespace basalt::fts5

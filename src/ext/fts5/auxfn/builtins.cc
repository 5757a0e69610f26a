// The table of FTS5's built-in auxiliary functions (ext/fts5/builtins.h).
#include "ext/fts5/builtins.h"

#include "ext/fts5/auxfn/functions.h"

namespace basalt::fts5 {

std::span<const BuiltinFunction> BuiltinFunctions() {
  static const BuiltinFunction kTable[] = {
      {"snippet", &SnippetFunction},
      {"highlight", &HighlightFunction},
      {"bm25", &Bm25Function},
  };
  return kTable;
}

}  // namespace basalt::fts5

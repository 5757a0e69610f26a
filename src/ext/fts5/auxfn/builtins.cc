// The table of FTS5's built-in auxiliary functions (ext/fts5/builtins.h).
#include "ext/fts5/builtins.h"

namespace basalt::fts5 {

std::span<const BuiltinFunction> BuiltinFunctions() { return {}; }

}  // namespace basalt::fts5

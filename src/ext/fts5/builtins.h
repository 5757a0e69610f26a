// FTS5's built-in tokenizers and auxiliary functions, as tables the module
// registers in each connection's fts5_api when it starts.
//
// Both are written only against the public interfaces of fts5_abi.h, so each
// can also be registered into any FTS5 implementation (the tests load them
// into the system SQLite's and compare with its own built-ins).
#pragma once

#include <span>

#include "ext/fts5/fts5_abi.h"

namespace basalt::fts5 {

struct BuiltinTokenizer {
  const char* name;  // "unicode61", "ascii", "porter", "trigram"
  fts5_tokenizer methods;
};

struct BuiltinFunction {
  const char* name;  // "bm25", "highlight", "snippet"
  fts5_extension_function function;
};

// Defined in tokenize/ (tokenizers) and auxfn/ (auxiliary functions).
// The porter tokenizer wraps another tokenizer and finds it through the
// fts5_api passed as its xCreate user data, as SQLite's does.
std::span<const BuiltinTokenizer> BuiltinTokenizers();
std::span<const BuiltinFunction> BuiltinFunctions();

}  // namespace basalt::fts5

// The table of FTS5's built-in tokenizers (ext/fts5/builtins.h).
#include "ext/fts5/builtins.h"

#include "ext/fts5/tokenize/tokenizers.h"

namespace basalt::fts5 {

std::span<const BuiltinTokenizer> BuiltinTokenizers() {
  static const BuiltinTokenizer kTable[] = {
      {"unicode61", kUnicode61Tokenizer},
      {"ascii", kAsciiTokenizer},
      {"porter", kPorterTokenizer},
      {"trigram", kTrigramTokenizer},
  };
  return kTable;
}

}  // namespace basalt::fts5

// The built-in tokenizers, one file each; builtins.cc lists them.
#pragma once

#include "ext/fts5/fts5_abi.h"

namespace basalt::fts5 {

extern const fts5_tokenizer kUnicode61Tokenizer;  // unicode61.cc
extern const fts5_tokenizer kAsciiTokenizer;      // ascii.cc
extern const fts5_tokenizer kPorterTokenizer;     // porter.cc (user data: the fts5_api)
extern const fts5_tokenizer kTrigramTokenizer;    // trigram.cc
// Whether a trigram tokenizer instance folds case (case_sensitive 0).
bool TrigramFolds(Fts5Tokenizer* tok);

}  // namespace basalt::fts5

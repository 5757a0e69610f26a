// The tokenizer: one token at a time from SQL text, following SQLite's
// lexical rules (see tokenizer.cc for the rules and the character classes).
#pragma once

#include <cstdint>
#include <string_view>

#include "parser/token.h"

namespace basalt::parser {

struct Token {
  const char* z = nullptr;  // first byte in the SQL text
  uint32_t n = 0;           // length in bytes
  Tk type = Tk::kEof;

  std::string_view text() const { return std::string_view(z, n); }
  const char* end() const { return z + n; }
};

// Scans the token that starts at `z` (z <= end). Returns its length and sets
// *type. Whitespace and comments come back as Tk::kSpace; `z == end` or a NUL
// byte is Tk::kEof with length 0. Keywords are looked up (WINDOW, OVER and
// FILTER come back as keywords; the token stream decides from context).
uint32_t ScanToken(const char* z, const char* end, Tk* type);

// The next token that is not whitespace or a comment, starting at *pos;
// advances *pos past it.
void NextToken(const char** pos, const char* end, Token* out);

// Character predicates shared with the parser.
bool IsIdChar(unsigned char c);     // may appear inside an identifier
bool IsSpaceChar(unsigned char c);  // SQLite's isspace: \t \n \v \f \r and ' '

}  // namespace basalt::parser

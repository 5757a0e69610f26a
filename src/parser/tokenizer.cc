// Lexical rules (those of SQLite 3.40):
//
//  1. Whitespace is ' ', \t, \n, \f, \r (a \v may continue a run of
//     whitespace but cannot start one). `-- ...` runs to the end of the line;
//     `/* ... */` may be left unterminated at the end of input. A `/*` that
//     is the very last thing in the input is a slash followed by a star.
//  2. Identifiers: a letter, '_' or a byte >= 0x80, then letters, digits, '_',
//     '$' and bytes >= 0x80. Quoted forms: "..." and `...` (the quote doubled
//     inside), [...] (no escape). A bare word made only of letters and '_' is
//     looked up as a keyword.
//  3. Strings '...' with '' inside. An unterminated string or quoted
//     identifier is an illegal token running to the end of input.
//  4. Blobs x'..' / X'..': an even number of hex digits; otherwise the
//     illegal token runs to the closing quote (or the end).
//  5. Numbers: 0x / 0X followed by hex digits (whatever follows starts the
//     next token: "0x1g" is 0x1 then g); otherwise digits, an optional
//     '.' and digits, an optional exponent e[+-]digits. A decimal number
//     directly followed by identifier characters is one illegal token ("12ab").
//     A '.' not followed by a digit is the DOT operator.
//  6. Parameters: `?` digits*; `$ @ : #` followed by identifier characters,
//     with `::` allowed inside and an optional `(...)` suffix (no spaces) once
//     at least one identifier character was seen; no identifier character at
//     all makes the token illegal.
//  7. Operators: - + * / % ( ) ; , & ~ | || = == < <= <> << > >= >> != -> ->>
//     and `.`; a lone '!' and any other byte is an illegal one-byte token.
#include "parser/tokenizer.h"

#include <array>

namespace basalt::parser {

namespace {

// Character classes for the first byte of a token.
enum Cc : uint8_t {
  kCcEof,     // NUL
  kCcSpace,   // \t \n \f \r ' '
  kCcWord,    // letter (not x/X) or '_': identifier or keyword
  kCcX,       // x X: blob literal or identifier
  kCcIdOnly,  // byte >= 0x80: identifier
  kCcDigit,
  kCcVarName,  // $ @ : #
  kCcVarNum,   // ?
  kCcQuote,    // ' " `
  kCcBracket,  // [
  kCcMinus,
  kCcLp,
  kCcRp,
  kCcSemi,
  kCcPlus,
  kCcStar,
  kCcSlash,
  kCcRem,
  kCcEq,
  kCcLt,
  kCcGt,
  kCcBang,
  kCcPipe,
  kCcComma,
  kCcAmp,
  kCcTilde,
  kCcDot,
  kCcIllegal,
};

// Per-byte properties used inside tokens.
enum CharBit : uint8_t {
  kBitId = 1,  // identifier character
  kBitKw = 2,  // keyword character (letter or '_')
  kBitDigit = 4,
  kBitHex = 8,
  kBitSpace = 16,  // isspace, including \v
};

struct Tables {
  std::array<uint8_t, 256> cls{};
  std::array<uint8_t, 256> bits{};
};

constexpr Tables BuildTables() {
  Tables t;
  for (int c = 0; c < 256; ++c) {
    uint8_t cls = kCcIllegal;
    uint8_t bits = 0;
    bool upper = c >= 'A' && c <= 'Z';
    bool lower = c >= 'a' && c <= 'z';
    bool digit = c >= '0' && c <= '9';
    if (upper || lower || c == '_') {
      cls = (c == 'x' || c == 'X') ? kCcX : kCcWord;
      bits |= kBitId | kBitKw;
    } else if (digit) {
      cls = kCcDigit;
      bits |= kBitId | kBitDigit | kBitHex;
    } else if (c >= 0x80) {
      cls = kCcIdOnly;
      bits |= kBitId;
    }
    if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) bits |= kBitHex;
    switch (c) {
      case 0:
        cls = kCcEof;
        break;
      case ' ':
      case '\t':
      case '\n':
      case '\f':
      case '\r':
        cls = kCcSpace;
        bits |= kBitSpace;
        break;
      case '\v':
        bits |= kBitSpace;
        break;
      case '$':
        cls = kCcVarName;
        bits |= kBitId;
        break;
      case '@':
      case ':':
      case '#':
        cls = kCcVarName;
        break;
      case '?':
        cls = kCcVarNum;
        break;
      case '\'':
      case '"':
      case '`':
        cls = kCcQuote;
        break;
      case '[':
        cls = kCcBracket;
        break;
      case '-':
        cls = kCcMinus;
        break;
      case '(':
        cls = kCcLp;
        break;
      case ')':
        cls = kCcRp;
        break;
      case ';':
        cls = kCcSemi;
        break;
      case '+':
        cls = kCcPlus;
        break;
      case '*':
        cls = kCcStar;
        break;
      case '/':
        cls = kCcSlash;
        break;
      case '%':
        cls = kCcRem;
        break;
      case '=':
        cls = kCcEq;
        break;
      case '<':
        cls = kCcLt;
        break;
      case '>':
        cls = kCcGt;
        break;
      case '!':
        cls = kCcBang;
        break;
      case '|':
        cls = kCcPipe;
        break;
      case ',':
        cls = kCcComma;
        break;
      case '&':
        cls = kCcAmp;
        break;
      case '~':
        cls = kCcTilde;
        break;
      case '.':
        cls = kCcDot;
        break;
      default:
        break;
    }
    t.cls[c] = cls;
    t.bits[c] = bits;
  }
  return t;
}

constexpr Tables kTables = BuildTables();

inline bool Has(unsigned char c, uint8_t bit) { return (kTables.bits[c] & bit) != 0; }

// Byte i of the token, or 0 past the end (the end behaves like a NUL).
struct Cursor {
  const char* z;
  const char* end;
  unsigned char operator[](size_t i) const {
    return z + i < end ? static_cast<unsigned char>(z[i]) : 0;
  }
};

uint32_t ScanNumber(Cursor c, Tk* type) {
  uint32_t i = 0;
  *type = Tk::kInteger;
  if (c[0] == '0' && (c[1] == 'x' || c[1] == 'X') && Has(c[2], kBitHex)) {
    for (i = 3; Has(c[i], kBitHex); ++i) {
    }
    return i;
  }
  while (Has(c[i], kBitDigit)) ++i;
  if (c[i] == '.') {
    ++i;
    while (Has(c[i], kBitDigit)) ++i;
    *type = Tk::kFloat;
  }
  if ((c[i] == 'e' || c[i] == 'E') &&
      (Has(c[i + 1], kBitDigit) ||
       ((c[i + 1] == '+' || c[i + 1] == '-') && Has(c[i + 2], kBitDigit)))) {
    i += 2;
    while (Has(c[i], kBitDigit)) ++i;
    *type = Tk::kFloat;
  }
  while (Has(c[i], kBitId)) {
    *type = Tk::kIllegal;
    ++i;
  }
  return i;
}

uint32_t ScanVariable(Cursor c, Tk* type) {
  int ident_chars = 0;
  uint32_t i = 1;
  *type = Tk::kVariable;
  for (;;) {
    unsigned char ch = c[i];
    if (ch == 0) break;
    if (Has(ch, kBitId)) {
      ++ident_chars;
      ++i;
    } else if (ch == '(' && ident_chars > 0) {
      // A Tcl-style array suffix: runs to ')' with no whitespace inside.
      do {
        ++i;
        ch = c[i];
      } while (ch != 0 && !Has(ch, kBitSpace) && ch != ')');
      if (ch == ')') {
        ++i;
      } else {
        *type = Tk::kIllegal;
      }
      break;
    } else if (ch == ':' && c[i + 1] == ':') {
      i += 2;
    } else {
      break;
    }
  }
  if (ident_chars == 0) *type = Tk::kIllegal;
  return i;
}

}  // namespace

bool IsIdChar(unsigned char c) { return Has(c, kBitId); }
bool IsSpaceChar(unsigned char c) { return Has(c, kBitSpace); }

namespace {

// A keyword or an identifier made of word characters.
inline uint32_t ScanWord(const Cursor& c, const char* z, Tk* type) {
  uint32_t i = 1;
  while (Has(c[i], kBitKw)) ++i;
  if (Has(c[i], kBitId)) {
    // A digit, '$' or a UTF-8 byte follows: an identifier, not a keyword.
    ++i;
    while (Has(c[i], kBitId)) ++i;
    *type = Tk::kId;
    return i;
  }
  *type = LookupKeyword(z, i);
  return i;
}

// A run of the characters with property `bit`, as one token of `kind`.
inline uint32_t ScanRun(const Cursor& c, uint32_t from, uint8_t bit, Tk kind, Tk* type) {
  uint32_t i = from;
  while (Has(c[i], bit)) ++i;
  *type = kind;
  return i;
}

// x'...': an even number of hex digits, else an illegal token up to the
// closing quote.
inline uint32_t ScanBlobLiteral(const Cursor& c, Tk* type) {
  uint32_t i = 2;
  *type = Tk::kBlob;
  while (Has(c[i], kBitHex)) ++i;
  if (c[i] != '\'' || i % 2 != 0) {
    *type = Tk::kIllegal;
    while (c[i] != 0 && c[i] != '\'') ++i;
  }
  if (c[i] != 0) ++i;
  return i;
}

// '...' (a string), "..." or `...` (identifiers); a doubled delimiter
// stands for itself.
inline uint32_t ScanQuoted(const Cursor& c, Tk* type) {
  unsigned char delim = c[0];
  unsigned char ch = 0;
  uint32_t i = 1;
  for (; (ch = c[i]) != 0; ++i) {
    if (ch == delim) {
      if (c[i + 1] != delim) break;
      ++i;
    }
  }
  if (ch == 0) {
    *type = Tk::kIllegal;
    return i;
  }
  *type = ch == '\'' ? Tk::kString : Tk::kId;
  return i + 1;
}

// [identifier]
inline uint32_t ScanBracketed(const Cursor& c, Tk* type) {
  unsigned char ch = 0;
  uint32_t i = 1;
  while ((ch = c[i]) != 0 && ch != ']') ++i;
  if (ch != ']') {
    *type = Tk::kIllegal;
    return i;
  }
  *type = Tk::kId;
  return i + 1;
}

// "-- comment", "->", "->>" or "-".
inline uint32_t ScanMinus(const Cursor& c, Tk* type) {
  if (c[1] == '-') {
    uint32_t i = 2;
    while (c[i] != 0 && c[i] != '\n') ++i;
    *type = Tk::kSpace;
    return i;
  }
  if (c[1] == '>') {
    *type = Tk::kPtr;
    return c[2] == '>' ? 3 : 2;
  }
  *type = Tk::kMinus;
  return 1;
}

// "/* comment */" (to the end of input if unclosed) or "/".
inline uint32_t ScanSlash(const Cursor& c, Tk* type) {
  if (c[1] != '*' || c[2] == 0) {
    *type = Tk::kSlash;
    return 1;
  }
  uint32_t i = 2;
  for (;; ++i) {
    if (c[i] == 0) break;
    if (c[i] == '*' && c[i + 1] == '/') {
      i += 2;
      break;
    }
  }
  *type = Tk::kSpace;
  return i;
}

// One of the operators that may take a second character.
inline uint32_t ScanTwoCharOperator(const Cursor& c, Tk one, Tk* type) {
  struct Pair {
    unsigned char first, second;
    Tk tk;
  };
  static constexpr Pair kPairs[] = {
      {'<', '=', Tk::kLe},     {'<', '>', Tk::kNe}, {'<', '<', Tk::kLshift}, {'>', '=', Tk::kGe},
      {'>', '>', Tk::kRshift}, {'!', '=', Tk::kNe}, {'|', '|', Tk::kConcat}, {'=', '=', Tk::kEq},
  };
  for (const Pair& p : kPairs) {
    if (p.first == c[0] && p.second == c[1]) {
      *type = p.tk;
      return 2;
    }
  }
  *type = one;
  return 1;
}

inline uint32_t Scan(const char* z, const char* end, Tk* type) {
  if (z >= end) {
    *type = Tk::kEof;
    return 0;
  }
  Cursor c{z, end};
  switch (kTables.cls[c[0]]) {
    case kCcWord:
      return ScanWord(c, z, type);
    case kCcSpace:
      return ScanRun(c, 1, kBitSpace, Tk::kSpace, type);
    case kCcIdOnly:
      return ScanRun(c, 1, kBitId, Tk::kId, type);
    case kCcX:
      return c[1] == '\'' ? ScanBlobLiteral(c, type) : ScanWord(c, z, type);
    case kCcDigit:
      return ScanNumber(c, type);
    case kCcDot:
      if (!Has(c[1], kBitDigit)) {
        *type = Tk::kDot;
        return 1;
      }
      return ScanNumber(c, type);
    case kCcQuote:
      return ScanQuoted(c, type);
    case kCcBracket:
      return ScanBracketed(c, type);
    case kCcVarName:
      return ScanVariable(c, type);
    case kCcVarNum:
      return ScanRun(c, 1, kBitDigit, Tk::kVariable, type);
    case kCcMinus:
      return ScanMinus(c, type);
    case kCcSlash:
      return ScanSlash(c, type);
    case kCcLp:
      *type = Tk::kLp;
      return 1;
    case kCcRp:
      *type = Tk::kRp;
      return 1;
    case kCcSemi:
      *type = Tk::kSemi;
      return 1;
    case kCcPlus:
      *type = Tk::kPlus;
      return 1;
    case kCcStar:
      *type = Tk::kStar;
      return 1;
    case kCcRem:
      *type = Tk::kRem;
      return 1;
    case kCcComma:
      *type = Tk::kComma;
      return 1;
    case kCcAmp:
      *type = Tk::kBitAnd;
      return 1;
    case kCcTilde:
      *type = Tk::kBitNot;
      return 1;
    case kCcEq:
      return ScanTwoCharOperator(c, Tk::kEq, type);
    case kCcLt:
      return ScanTwoCharOperator(c, Tk::kLt, type);
    case kCcGt:
      return ScanTwoCharOperator(c, Tk::kGt, type);
    case kCcBang:
      return ScanTwoCharOperator(c, Tk::kIllegal, type);
    case kCcPipe:
      return ScanTwoCharOperator(c, Tk::kBitOr, type);
    case kCcEof:
      *type = Tk::kEof;
      return 0;
    default:
      *type = Tk::kIllegal;
      return 1;
  }
}

}  // namespace

uint32_t ScanToken(const char* z, const char* end, Tk* type) { return Scan(z, end, type); }

void NextToken(const char** pos, const char* end, Token* out) {
  const char* z = *pos;
  for (;;) {
    // Whitespace runs are skipped here without dispatching on them.
    if (z < end && kTables.cls[static_cast<unsigned char>(*z)] == kCcSpace) {
      ++z;
      while (z < end && Has(static_cast<unsigned char>(*z), kBitSpace)) ++z;
    }
    Tk t;
    uint32_t n = Scan(z, end, &t);
    if (t != Tk::kSpace) {
      out->z = z;
      out->n = n;
      out->type = t;
      *pos = z + n;
      return;
    }
    z += n;
  }
}

}  // namespace basalt::parser

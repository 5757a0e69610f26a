// The JSON parser: RFC 8259 text (no JSON5, which is 3.42) into JsonDoc
// nodes, with SQLite 3.40's particulars:
//   - whitespace is space, tab, newline and carriage return only;
//   - a string may not hold a raw byte below 0x20; its escapes are \" \\ \/
//     \b \f \n \r \t and \u with four hex digits; other bytes (invalid
//     UTF-8 included) are taken as they are;
//   - numbers follow the JSON grammar (-?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?);
//     true, false and null may not run into a letter or digit;
//   - at most kMaxDepth nested arrays and objects;
//   - any value may be the whole document; text after it (but whitespace)
//     makes it malformed; a NUL byte ends the text.
//
// The parser is iterative: `open` holds the containers entered and not yet
// closed, so deep documents use no machine stack.
#include <cstring>

#include "func/json_internal.h"

namespace basalt::func::json {
namespace {

inline bool IsJsonSpace(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
inline bool IsHex(unsigned char c) {
  return IsAsciiDigit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

class Parser {
 public:
  Parser(const char* z, size_t n, std::vector<Node>* nodes) : z_(z), n_(n), nodes_(nodes) {}

  bool Run();

 private:
  unsigned char At(size_t i) const { return i < n_ ? static_cast<unsigned char>(z_[i]) : 0; }
  size_t SkipSpace(size_t i) const {
    while (IsJsonSpace(At(i))) ++i;
    return i;
  }
  void Add(JType t, size_t at, size_t len, uint8_t flags = 0) {
    Node nd;
    nd.type = t;
    nd.text = z_ + at;
    nd.n = static_cast<uint32_t>(len);
    nd.flags = flags;
    nodes_->push_back(nd);
  }
  // Each returns the position after what it read, or 0 on error (no value
  // ends at 0).
  size_t String(size_t i, uint8_t flags);
  size_t Number(size_t i);
  size_t Literal(size_t i);
  // A label, the colon and the space after it, at i (after '{' or ',').
  size_t Label(size_t i);
  // Closes the innermost container.
  void Close() {
    uint32_t c = open_.back();
    open_.pop_back();
    (*nodes_)[c].n = static_cast<uint32_t>(nodes_->size() - c - 1);
  }

  const char* z_;
  size_t n_;
  std::vector<Node>* nodes_;
  std::vector<uint32_t> open_;
};

size_t Parser::String(size_t i, uint8_t flags) {
  size_t j = i + 1;
  for (;;) {
    unsigned char c = At(j);
    if (c < 0x20) return 0;  // a control byte, or the end of the text
    if (c == '"') break;
    if (c == '\\') {
      c = At(++j);
      if (c == 'u') {
        if (!IsHex(At(j + 1)) || !IsHex(At(j + 2)) || !IsHex(At(j + 3)) || !IsHex(At(j + 4))) {
          return 0;
        }
      } else if (std::strchr("\"\\/bfnrt", c) == nullptr || c == 0) {
        return 0;
      }
      flags |= kEscaped;
    }
    ++j;
  }
  Add(JType::kString, i, j + 1 - i, flags);
  return j + 1;
}

size_t Parser::Number(size_t i) {
  size_t j = i;
  if (At(j) == '-') ++j;
  if (!IsAsciiDigit(At(j))) return 0;
  if (At(j) == '0') {
    if (IsAsciiDigit(At(j + 1))) return 0;  // no leading zeros
    ++j;
  } else {
    while (IsAsciiDigit(At(j))) ++j;
  }
  bool real = false;
  if (At(j) == '.') {
    real = true;
    ++j;
    if (!IsAsciiDigit(At(j))) return 0;
    while (IsAsciiDigit(At(j))) ++j;
  }
  if (At(j) == 'e' || At(j) == 'E') {
    real = true;
    ++j;
    if (At(j) == '+' || At(j) == '-') ++j;
    if (!IsAsciiDigit(At(j))) return 0;
    while (IsAsciiDigit(At(j))) ++j;
  }
  Add(real ? JType::kReal : JType::kInt, i, j - i);
  return j;
}

size_t Parser::Literal(size_t i) {
  static constexpr struct {
    const char* word;
    size_t len;
    JType type;
  } kWords[] = {{"null", 4, JType::kNull}, {"true", 4, JType::kTrue}, {"false", 5, JType::kFalse}};
  for (const auto& w : kWords) {
    if (i + w.len <= n_ && std::memcmp(z_ + i, w.word, w.len) == 0) {
      unsigned char next = At(i + w.len);
      if (IsAsciiDigit(next) || IsAsciiAlpha(next)) return 0;
      Add(w.type, i, 0);
      return i + w.len;
    }
  }
  return 0;
}

size_t Parser::Label(size_t i) {
  i = SkipSpace(i);
  if (At(i) != '"') return 0;
  i = String(i, kLabel);
  if (i == 0) return 0;
  i = SkipSpace(i);
  if (At(i) != ':') return 0;
  return SkipSpace(i + 1);
}

bool Parser::Run() {
  size_t i = SkipSpace(0);
  for (;;) {
    // A value starts at i.
    unsigned char c = At(i);
    if (c == '[' || c == '{') {
      if (open_.size() >= static_cast<size_t>(kMaxDepth)) return false;
      open_.push_back(static_cast<uint32_t>(nodes_->size()));
      Add(c == '[' ? JType::kArray : JType::kObject, i, 0);
      nodes_->back().text = nullptr;
      i = SkipSpace(i + 1);
      if (At(i) == (c == '[' ? ']' : '}')) {
        Close();
        ++i;
      } else {
        if (c == '{' && (i = Label(i)) == 0) return false;
        continue;
      }
    } else if (c == '"') {
      i = String(i, 0);
    } else if (c == '-' || IsAsciiDigit(c)) {
      i = Number(i);
    } else {
      i = Literal(i);
    }
    if (i == 0) return false;
    // After a value: separators and closing brackets.
    for (;;) {
      i = SkipSpace(i);
      if (open_.empty()) return At(i) == 0;
      bool object = (*nodes_)[open_.back()].type == JType::kObject;
      unsigned char d = At(i);
      if (d == ',') {
        i = object ? Label(i + 1) : SkipSpace(i + 1);
        if (i == 0) return false;
        break;
      }
      if (d != (object ? '}' : ']')) return false;
      Close();
      ++i;
    }
  }
}

}  // namespace

bool JsonDoc::Parse(const char* text, size_t n) {
  const void* nul = std::memchr(text, 0, n);
  if (nul != nullptr) n = static_cast<size_t>(static_cast<const char*>(nul) - text);
  size_t before = nodes_.size();
  Parser p(text, n, &nodes_);
  if (p.Run()) return true;
  nodes_.resize(before);
  return false;
}

bool JsonDoc::ParseCopy(const char* text, size_t n) {
  BASALT_DCHECK(texts_used_ < 2);
  std::string& copy = texts_[texts_used_];
  copy.assign(text, n);
  if (!Parse(copy.data(), copy.size())) return false;
  ++texts_used_;
  return true;
}

uint32_t JsonDoc::Add(JType t, uint32_t n, const char* text) {
  Node nd;
  nd.type = t;
  nd.n = n;
  nd.text = text;
  nodes_.push_back(nd);
  return static_cast<uint32_t>(nodes_.size() - 1);
}

const std::vector<uint32_t>& JsonDoc::parents() {
  up_.assign(nodes_.size(), 0);
  // Each container hands its index to its direct children.
  for (uint32_t i = 0; i < nodes_.size(); ++i) {
    const Node& nd = nodes_[i];
    if (!nd.is_container()) continue;
    for (uint32_t j = i + 1; j <= i + nd.n; j += Size(j)) {
      up_[j] = i;
      if (nd.type == JType::kObject) up_[++j] = i;  // the label, then its value
    }
  }
  return up_;
}

const char* TypeName(JType t) {
  static const char* const kNames[] = {"null", "true", "false", "integer",
                                       "real", "text", "array", "object"};
  return kNames[static_cast<int>(t)];
}

}  // namespace basalt::func::json

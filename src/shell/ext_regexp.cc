// regexp(PATTERN, TEXT), regexpi() and so the REGEXP operator, in the dialect
// of the regexp extension Debian's sqlite3 3.40.1 shell carries:
//   X* X+ X? X{m} X{m,} X{,n} X{m,n}  (X) X|Y  .  [abc] [^a-z]
//   ^ (only at the very start of the text)   $ (the end of the text, matched
//   as one extra character, so nothing but an empty match may follow it)
//   \b \w \W \d \D \s \S, escapes \\ \( \) \* \. \+ \? \[ \$ \^ \{ \| \} \]
//   \a \f \n \r \t \v \xHH \uHHHH.
// A pattern not starting with ^ may match anywhere. regexpi folds ASCII
// letters of both sides to lower case. Matching runs the compiled program
// as a set of threads over the text (no backtracking: time O(text*program)).
// The compiled pattern is cached on the call with sqlite3_set_auxdata.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "shell/shell_ext.h"

namespace shell {
namespace {

enum class Op : uint8_t {
  kChar,      // consumes arg
  kAny,       // consumes any character but the end
  kClass,     // consumes a member of classes[arg] (its own negation applied)
  kWord,      // \w  (these six: arg 1 negates)
  kDigit,     // \d
  kSpace,     // \s
  kBoundary,  // \b, zero width
  kAtStart,   // ^ inside the pattern, zero width
  kSplit,     // continue at next and at arg
  kJmp,       // continue at arg
  kMatch,
};

struct Inst {
  Op op;
  uint32_t arg;
  bool neg = false;
};

struct CharClass {
  bool neg = false;
  std::vector<std::pair<uint32_t, uint32_t>> ranges;
};

struct Program {
  std::vector<Inst> code;
  std::vector<CharClass> classes;
  bool anchored = false;
  bool nocase = false;
};

bool IsWordChar(uint32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool IsDigitChar(uint32_t c) { return c >= '0' && c <= '9'; }
bool IsSpaceChar(uint32_t c) { return c == ' ' || (c >= 9 && c <= 13); }
int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads one UTF-8 character at s[*i] (0 past the end).
uint32_t NextChar(const unsigned char* s, size_t n, size_t* i, bool nocase) {
  if (*i >= n) return 0;
  uint32_t c = s[(*i)++];
  if (c >= 0xc0) {
    int more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
    c &= (0x3f >> more);
    while (more-- > 0 && *i < n && (s[*i] & 0xc0) == 0x80) c = (c << 6) | (s[(*i)++] & 0x3f);
  }
  if (nocase && c >= 'A' && c <= 'Z') c += 'a' - 'A';
  return c;
}

// Pattern AST: parsed first, then emitted (repetition copies its operand).
struct Node {
  enum Kind { kLeaf, kCat, kAlt, kRepeat } kind = kLeaf;
  Inst leaf{Op::kMatch, 0};
  int min = 0, max = -1;  // kRepeat; max -1 means unbounded
  std::vector<std::unique_ptr<Node>> kids;
};
using NodePtr = std::unique_ptr<Node>;

class Parser {
 public:
  Parser(const std::string& p, Program* prog) : p_(p), prog_(prog) {}
  const char* Parse(NodePtr* out) {
    if (!p_.empty() && p_[0] == '^') {
      prog_->anchored = true;
      pos_ = 1;
    }
    *out = Alternation();
    if (err_ == nullptr && pos_ < p_.size()) err_ = "unrecognized character";
    return err_;
  }

 private:
  uint32_t Peek() {
    size_t i = pos_;
    return NextChar(Bytes(), p_.size(), &i, prog_->nocase);
  }
  uint32_t Next() { return NextChar(Bytes(), p_.size(), &pos_, prog_->nocase); }
  const unsigned char* Bytes() const { return reinterpret_cast<const unsigned char*>(p_.data()); }

  NodePtr Alternation() {
    auto alt = std::make_unique<Node>();
    alt->kind = Node::kAlt;
    alt->kids.push_back(Sequence());
    while (err_ == nullptr && pos_ < p_.size() && p_[pos_] == '|') {
      ++pos_;
      alt->kids.push_back(Sequence());
    }
    return alt;
  }

  static NodePtr Leaf(Op op, uint32_t arg, bool neg = false) {
    auto n = std::make_unique<Node>();
    n->leaf = Inst{op, arg, neg};
    return n;
  }

  bool Number(int* v) {
    bool any = false;
    *v = 0;
    while (pos_ < p_.size() && IsDigitChar(static_cast<unsigned char>(p_[pos_]))) {
      if (*v < 100000) *v = *v * 10 + (p_[pos_] - '0');
      ++pos_;
      any = true;
    }
    return any;
  }

  // Applies a {m,n} after its operand (the last of seq).
  void Braces(std::vector<NodePtr>* seq) {
    if (seq->empty()) {
      err_ = "'{m,n}' without operand";
      return;
    }
    int m = 0, n = 0;
    Number(&m);
    n = m;
    if (pos_ < p_.size() && p_[pos_] == ',') {
      ++pos_;
      if (!Number(&n)) n = -1;
    }
    if (pos_ >= p_.size() || p_[pos_] != '}') {
      err_ = "unmatched '{'";
      return;
    }
    ++pos_;
    if (n >= 0 && n < m) {
      err_ = "n less than m in '{m,n}'";
      return;
    }
    if (m == 0 && n == 0) {
      err_ = "both m and n are zero in '{m,n}'";
      return;
    }
    Wrap(seq, m, n);
  }

  static void Wrap(std::vector<NodePtr>* seq, int min, int max) {
    auto r = std::make_unique<Node>();
    r->kind = Node::kRepeat;
    r->min = min;
    r->max = max;
    r->kids.push_back(std::move(seq->back()));
    seq->back() = std::move(r);
  }

  // After a backslash: the character an escape stands for; sets err_ if none.
  uint32_t EscapedChar() {
    if (pos_ >= p_.size()) return 0;  // a trailing backslash stands for the end
    const char c = p_[pos_++];        // an unknown escape leaves c unread (see below)
    static const char kSame[] = "\\()*.+?[$^{|}]";
    static const char kCtl[] = "afnrtv";
    static const char kCtlValue[] = "\a\f\n\r\t\v";
    if (std::strchr(kSame, c) != nullptr) return static_cast<unsigned char>(c);
    if (const char* k = std::strchr(kCtl, c))
      return static_cast<unsigned char>(kCtlValue[k - kCtl]);
    const int digits = c == 'u' ? 4 : c == 'x' ? 2 : 0;
    if (digits > 0 && pos_ + digits <= p_.size()) {
      uint32_t v = 0;
      int i = 0;
      for (; i < digits && HexValue(p_[pos_ + i]) >= 0; ++i) v = v * 16 + HexValue(p_[pos_ + i]);
      if (i == digits) {
        pos_ += digits;
        if (prog_->nocase && v >= 'A' && v <= 'Z') v += 'a' - 'A';
        return v;
      }
    }
    --pos_;
    if (err_ == nullptr) err_ = "unknown \\ escape";
    return 0;
  }

  NodePtr Class() {
    CharClass cc;
    if (pos_ < p_.size() && p_[pos_] == '^') {
      cc.neg = true;
      ++pos_;
    }
    while (pos_ < p_.size()) {
      uint32_t c = Next();
      if (c == '[' && pos_ < p_.size() && p_[pos_] == ':') {
        err_ = "POSIX character classes not supported";
        return nullptr;
      }
      if (c == '\\') c = EscapedChar();
      uint32_t hi = c;
      if (pos_ < p_.size() && p_[pos_] == '-') {
        ++pos_;
        hi = Next();
        if (hi == '\\') hi = EscapedChar();
      }
      cc.ranges.emplace_back(c, hi);
      if (pos_ < p_.size() && p_[pos_] == ']') {
        ++pos_;
        prog_->classes.push_back(std::move(cc));
        return Leaf(Op::kClass, static_cast<uint32_t>(prog_->classes.size() - 1));
      }
    }
    err_ = "unclosed '['";  // reported even over an earlier bad escape
    return nullptr;
  }

  NodePtr Escape() {
    if (pos_ < p_.size()) {
      const char c = p_[pos_];
      const char lower = static_cast<char>(c | 0x20);
      const bool neg = c >= 'A' && c <= 'Z';
      Op op = Op::kMatch;
      if (lower == 'w') op = Op::kWord;
      if (lower == 'd') op = Op::kDigit;
      if (lower == 's') op = Op::kSpace;
      if (c == 'b') op = Op::kBoundary;
      if (op != Op::kMatch) {
        ++pos_;
        return Leaf(op, 0, neg);
      }
    }
    const uint32_t v = EscapedChar();
    return Leaf(Op::kChar, v);
  }

  NodePtr Sequence() {
    auto cat = std::make_unique<Node>();
    cat->kind = Node::kCat;
    auto& seq = cat->kids;
    while (err_ == nullptr && pos_ < p_.size()) {
      const uint32_t c = Peek();
      if (c == '|' || c == ')') break;
      Next();
      switch (c) {
        case '(': {
          NodePtr inner = Alternation();
          if (err_ != nullptr) break;
          if (pos_ >= p_.size() || p_[pos_] != ')') {
            err_ = "unmatched '('";
            break;
          }
          ++pos_;
          seq.push_back(std::move(inner));
          break;
        }
        case '*':
        case '+':
        case '?':
          if (seq.empty()) {
            err_ = c == '*'   ? "'*' without operand"
                   : c == '+' ? "'+' without operand"
                              : "'?' without operand";
            break;
          }
          Wrap(&seq, c == '+' ? 1 : 0, c == '?' ? 1 : -1);
          break;
        case '{':
          Braces(&seq);
          break;
        case '.':
          seq.push_back(Leaf(Op::kAny, 0));
          break;
        case '$':
          seq.push_back(Leaf(Op::kChar, 0));
          break;
        case '^':
          seq.push_back(Leaf(Op::kAtStart, 0));
          break;
        case '[':
          seq.push_back(Class());
          break;
        case '\\':
          seq.push_back(Escape());
          break;
        default:
          seq.push_back(Leaf(Op::kChar, c));
      }
    }
    return cat;
  }

  const std::string& p_;
  Program* prog_;
  size_t pos_ = 0;
  const char* err_ = nullptr;
};

void Emit(const Node& n, std::vector<Inst>* code);

void EmitRepeat(const Node& n, std::vector<Inst>* code) {
  const Node& kid = *n.kids[0];
  for (int i = 0; i < n.min; ++i) Emit(kid, code);
  if (n.max < 0) {  // L: split(body, out); body; jmp L
    const size_t split = code->size();
    code->push_back(Inst{Op::kSplit, 0});
    Emit(kid, code);
    code->push_back(Inst{Op::kJmp, static_cast<uint32_t>(split)});
    (*code)[split].arg = static_cast<uint32_t>(code->size());
    return;
  }
  std::vector<size_t> splits;
  for (int i = n.min; i < n.max; ++i) {
    splits.push_back(code->size());
    code->push_back(Inst{Op::kSplit, 0});
    Emit(kid, code);
  }
  for (size_t s : splits) (*code)[s].arg = static_cast<uint32_t>(code->size());
}

void Emit(const Node& n, std::vector<Inst>* code) {
  switch (n.kind) {
    case Node::kLeaf:
      code->push_back(n.leaf);
      return;
    case Node::kCat:
      for (const NodePtr& k : n.kids) Emit(*k, code);
      return;
    case Node::kRepeat:
      EmitRepeat(n, code);
      return;
    case Node::kAlt: {
      std::vector<size_t> jumps;
      for (size_t i = 0; i < n.kids.size(); ++i) {
        size_t split = 0;
        const bool last = i + 1 == n.kids.size();
        if (!last) {
          split = code->size();
          code->push_back(Inst{Op::kSplit, 0});
        }
        Emit(*n.kids[i], code);
        if (!last) {
          jumps.push_back(code->size());
          code->push_back(Inst{Op::kJmp, 0});
          (*code)[split].arg = static_cast<uint32_t>(code->size());
        }
      }
      for (size_t j : jumps) (*code)[j].arg = static_cast<uint32_t>(code->size());
      return;
    }
  }
}

bool ClassHas(const CharClass& cc, uint32_t c) {
  bool in = false;
  for (const auto& r : cc.ranges) in |= c >= r.first && c <= r.second;
  return in != cc.neg;
}

// The thread set for one text position: each program counter at most once.
struct ThreadSet {
  std::vector<uint32_t> pcs;
  std::vector<uint32_t> seen;  // generation stamp per pc
  uint32_t gen = 0;
};

// Adds pc and whatever it reaches without consuming, given the characters
// around the current position.
void AddThread(const Program& p, ThreadSet* s, uint32_t pc, bool at_start, uint32_t prev,
               uint32_t cur) {
  if (s->seen[pc] == s->gen) return;
  s->seen[pc] = s->gen;
  const Inst& in = p.code[pc];
  switch (in.op) {
    case Op::kSplit:
      AddThread(p, s, pc + 1, at_start, prev, cur);
      AddThread(p, s, in.arg, at_start, prev, cur);
      return;
    case Op::kJmp:
      AddThread(p, s, in.arg, at_start, prev, cur);
      return;
    case Op::kBoundary:
      if (IsWordChar(prev) != IsWordChar(cur)) AddThread(p, s, pc + 1, at_start, prev, cur);
      return;
    case Op::kAtStart:
      if (at_start) AddThread(p, s, pc + 1, at_start, prev, cur);
      return;
    default:
      s->pcs.push_back(pc);
  }
}

bool Consumes(const Program& p, const Inst& in, uint32_t c) {
  switch (in.op) {
    case Op::kChar:
      return c == in.arg;
    case Op::kAny:
      return c != 0;
    case Op::kClass:
      return c != 0 && ClassHas(p.classes[in.arg], c);
    case Op::kWord:
      return c != 0 && IsWordChar(c) != in.neg;
    case Op::kDigit:
      return c != 0 && IsDigitChar(c) != in.neg;
    case Op::kSpace:
      return c != 0 && IsSpaceChar(c) != in.neg;
    default:
      return false;
  }
}

// Steps all threads over the text's characters and then one more, the end
// (character 0), which only '$' consumes.
bool Run(const Program& p, const unsigned char* text, size_t n) {
  ThreadSet now;
  now.seen.assign(p.code.size(), 0);
  std::vector<uint32_t> carried;
  size_t i = 0;
  uint32_t prev = 0;
  bool past_end = false;
  for (bool first = true;; first = false) {
    size_t after = i;
    const uint32_t c = past_end ? 0 : NextChar(text, n, &after, p.nocase);
    ++now.gen;
    now.pcs.clear();
    for (uint32_t pc : carried) AddThread(p, &now, pc, first, prev, c);
    if (!past_end && (first || !p.anchored)) AddThread(p, &now, 0, first, prev, c);
    for (uint32_t pc : now.pcs) {
      if (p.code[pc].op == Op::kMatch) return true;
    }
    if (past_end) return false;
    carried.clear();
    for (uint32_t pc : now.pcs) {
      if (Consumes(p, p.code[pc], c)) carried.push_back(pc + 1);
    }
    if (carried.empty() && p.anchored) return false;
    past_end = i >= n;
    prev = c;
    i = after;
  }
}

void FreeProgram(void* p) { delete static_cast<Program*>(p); }

void RegexpFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* prog = static_cast<Program*>(sqlite3_get_auxdata(ctx, 0));
  if (prog == nullptr) {
    const unsigned char* pat = sqlite3_value_text(argv[0]);
    if (pat == nullptr) return;
    auto fresh = std::make_unique<Program>();
    fresh->nocase = sqlite3_user_data(ctx) != nullptr;
    const std::string text(reinterpret_cast<const char*>(pat),
                           static_cast<size_t>(sqlite3_value_bytes(argv[0])));
    NodePtr root;
    Parser parser(text, fresh.get());
    if (const char* err = parser.Parse(&root)) {
      sqlite3_result_error(ctx, err, -1);
      return;
    }
    Emit(*root, &fresh->code);
    fresh->code.push_back(Inst{Op::kMatch, 0});
    prog = fresh.release();
    sqlite3_set_auxdata(ctx, 0, prog, FreeProgram);
    prog = static_cast<Program*>(sqlite3_get_auxdata(ctx, 0));
    if (prog == nullptr) {
      sqlite3_result_error_nomem(ctx);
      return;
    }
  }
  const unsigned char* s = sqlite3_value_text(argv[1]);
  if (s == nullptr) return;
  sqlite3_result_int(ctx, Run(*prog, s, static_cast<size_t>(sqlite3_value_bytes(argv[1]))));
}

}  // namespace

void RegisterRegexp(sqlite3* db) {
  static int nocase = 1;
  const int flags = SQLITE_UTF8 | SQLITE_INNOCUOUS | SQLITE_DETERMINISTIC;
  sqlite3_create_function(db, "regexp", 2, flags, nullptr, RegexpFunc, nullptr, nullptr);
  sqlite3_create_function(db, "regexpi", 2, flags, &nocase, RegexpFunc, nullptr, nullptr);
}

}  // namespace shell

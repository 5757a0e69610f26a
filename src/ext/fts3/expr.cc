// The MATCH expression parser. The query is cut into items: phrases (one
// token of a bare word, or a "quoted" run), the keywords AND, OR, NOT,
// NEAR[/n] (upper case, followed by a space, a quote, a parenthesis or the
// end), and parentheses; a column name followed by ':' filters the token
// after it. Bare text is read one token at a time with the table's
// tokenizer: "a-b" is two items. Then a precedence-climbing parse.
#include "ext/fts3/expr.h"

#include <cctype>
#include <cstring>

namespace basalt::fts {
namespace {

struct Item {
  // kDone: a column name with no token after it (at a quote, a parenthesis
  // or the end), which ends the enclosing level of the query (Normalize).
  enum Kind { kPhrase, kOp, kOpen, kClose, kDone } kind;
  Expr::Kind op = Expr::kAnd;
  int near = 10;
  std::unique_ptr<Expr> phrase;
};

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

class Lexer {
 public:
  Lexer(const FtsTable* t, std::string_view q, int col) : t_(t), q_(q), col_(col) {}

  // Cuts the whole query; returns false when malformed.
  bool Run(std::vector<Item>* out) {
    while (true) {
      while (pos_ < q_.size() && IsSpace(q_[pos_])) ++pos_;
      if (pos_ >= q_.size()) return true;
      if (Keyword(out)) continue;
      char c = q_[pos_];
      if (c == '"') {
        size_t end = q_.find('"', pos_ + 1);
        if (end == std::string_view::npos) return false;
        auto e = MakePhrase(q_.substr(pos_ + 1, end - pos_ - 1), col_, true, nullptr);
        pos_ = end + 1;
        if (e) out->push_back(Item{Item::kPhrase, Expr::kAnd, 10, std::move(e)});
        continue;
      }
      if (c == '(') {
        ++pos_;
        out->push_back(Item{Item::kOpen, Expr::kAnd, 10, nullptr});
        continue;
      }
      if (c == ')') {
        ++pos_;
        out->push_back(Item{Item::kClose, Expr::kAnd, 10, nullptr});
        continue;
      }
      int col = col_;
      for (int i = 0; i < t_->ncol(); ++i) {
        const std::string& n = t_->columns[i];
        if (q_.size() - pos_ > n.size() && q_[pos_ + n.size()] == ':' &&
            sqlite3_strnicmp(q_.data() + pos_, n.c_str(), static_cast<int>(n.size())) == 0) {
          col = i;
          pos_ += n.size() + 1;
          break;
        }
      }
      // Only the text before the next quote or parenthesis is tokenized.
      size_t stop = q_.find_first_of("\"()", pos_);
      if (stop == std::string_view::npos) stop = q_.size();
      if (stop == pos_) {
        out->push_back(Item{Item::kDone, Expr::kAnd, 10, nullptr});
        continue;
      }
      size_t used = 0;
      auto e = MakePhrase(q_.substr(pos_, stop - pos_), col, false, &used);
      pos_ = e ? pos_ + used : stop;
      if (e) out->push_back(Item{Item::kPhrase, Expr::kAnd, 10, std::move(e)});
    }
  }

 private:
  bool Keyword(std::vector<Item>* out) {
    static const struct {
      const char* z;
      Expr::Kind k;
    } kw[] = {{"OR", Expr::kOr}, {"AND", Expr::kAnd}, {"NOT", Expr::kNot}, {"NEAR", Expr::kNear}};
    for (const auto& k : kw) {
      size_t n = std::strlen(k.z);
      if (q_.compare(pos_, n, k.z) != 0) continue;
      size_t len = n;
      int near = 10;
      if (k.k == Expr::kNear && pos_ + 5 < q_.size() + 0 && q_[pos_ + 4] == '/' &&
          pos_ + 5 < q_.size() && std::isdigit(static_cast<unsigned char>(q_[pos_ + 5]))) {
        near = 0;
        len = 5;
        while (pos_ + len < q_.size() && std::isdigit(static_cast<unsigned char>(q_[pos_ + len]))) {
          near = near * 10 + (q_[pos_ + len] - '0');
          ++len;
        }
      }
      char next = pos_ + len < q_.size() ? q_[pos_ + len] : '\0';
      if (!(IsSpace(next) || next == '"' || next == '(' || next == ')' || next == '\0')) continue;
      pos_ += len;
      Item it{Item::kOp, k.k, near, nullptr};
      out->push_back(std::move(it));
      return true;
    }
    return false;
  }

  // Tokenizes `s`: all of it for a quoted phrase, else its first token
  // (*used: bytes consumed). Null when there is no token.
  std::unique_ptr<Expr> MakePhrase(std::string_view s, int col, bool all, size_t* used) {
    auto e = std::make_unique<Expr>();
    e->col = col;
    size_t consumed = s.size();
    t_->tokenizer.Run(s, 0, [&](std::string_view tok, int start, int end, int) {
      PhraseToken pt;
      pt.text = std::string(tok);
      size_t stop = static_cast<size_t>(end);
      if (stop < s.size() && s[stop] == '*') {
        pt.prefix = true;
        ++stop;
      }
      // ^ marks a first token in FTS4, and in any quoted phrase.
      if ((t_->fts4 || all) && start > 0 && s[start - 1] == '^') pt.first = true;
      e->tokens.push_back(std::move(pt));
      consumed = stop;
      return all;
    });
    if (used) *used = consumed;
    if (e->tokens.empty() && !all) return nullptr;  // an empty "" is a phrase matching nothing
    return e;
  }

  const FtsTable* t_;
  std::string_view q_;
  int col_;
  size_t pos_ = 0;
};

// Binding strength: lower binds tighter.
int Prec(Expr::Kind k) {
  switch (k) {
    case Expr::kNear:
      return 1;
    case Expr::kNot:
      return 2;
    case Expr::kAnd:
      return 3;
    default:
      return 4;
  }
}

class Parser {
 public:
  explicit Parser(std::vector<Item>* items) : items_(items) {}
  bool ok = true;

  // expr := operand (op operand)*, op binding at most `max_prec`.
  std::unique_ptr<Expr> Parse(int max_prec) {
    auto left = Operand();
    if (!left) return nullptr;
    for (;;) {
      if (at_ >= items_->size()) return left;
      Item& it = (*items_)[at_];
      Expr::Kind k;
      int near = 10;
      bool implicit = false;
      if (it.kind == Item::kOp) {
        k = it.op;
        near = it.near;
      } else if (it.kind == Item::kPhrase || it.kind == Item::kOpen) {
        k = Expr::kAnd;
        implicit = true;
      } else {
        return left;  // ')'
      }
      if (Prec(k) > max_prec) return left;
      if (!implicit) ++at_;
      auto right = Parse(Prec(k) - 1);
      if (!right) {
        ok = false;
        return nullptr;
      }
      if (k == Expr::kNear && (right->kind != Expr::kPhrase ||
                               (left->kind != Expr::kPhrase && left->kind != Expr::kNear))) {
        ok = false;
        return nullptr;
      }
      auto n = std::make_unique<Expr>();
      n->kind = k;
      n->near = near;
      n->left = std::move(left);
      n->right = std::move(right);
      left = std::move(n);
    }
  }
  size_t at_ = 0;

 private:
  std::unique_ptr<Expr> Operand() {
    if (at_ >= items_->size()) {
      ok = false;
      return nullptr;
    }
    Item& it = (*items_)[at_];
    if (it.kind == Item::kPhrase) {
      ++at_;
      return std::move(it.phrase);
    }
    if (it.kind == Item::kOpen) {
      ++at_;
      auto e = Parse(4);
      if (!e || at_ >= items_->size() || (*items_)[at_].kind != Item::kClose) {
        ok = false;
        return nullptr;
      }
      ++at_;
      return e;
    }
    ok = false;
    return nullptr;
  }
  std::vector<Item>* items_;
};

// Rewrites the items into properly nested ones as SQLite's parser reads
// them: each level (the query, or a parenthesis) ends at a ')' or at a
// kDone; a kDone leaves its '(' open, so that a later ')' ends the level
// around it, and the query itself ends at the first ')' or kDone it meets
// (the rest is ignored). An empty "()" stands for nothing. False when a
// ')' has no '(' or a '(' stays open.
bool Normalize(std::vector<Item>* items) {
  std::vector<Item> out;
  int depth = 0;  // levels open in `out`
  int nest = 0;   // '(' not yet matched by a ')'
  for (Item& it : *items) {
    bool end_level = false;
    if (it.kind == Item::kOpen) {
      ++depth;
      ++nest;
    } else if (it.kind == Item::kClose) {
      if (nest == 0) return false;
      --nest;
      end_level = true;
    } else if (it.kind == Item::kDone) {
      end_level = true;
    }
    if (!end_level) {
      out.push_back(std::move(it));
      continue;
    }
    if (depth == 0) break;
    --depth;
    if (!out.empty() && out.back().kind == Item::kOpen) {
      out.pop_back();  // "()"
    } else {
      out.push_back(Item{Item::kClose, Expr::kAnd, 10, nullptr});
    }
  }
  *items = std::move(out);
  return nest == 0;
}

constexpr int kMaxDepth = 12;  // SQLite's SQLITE_FTS3_MAX_EXPR_DEPTH

enum class Shape { kOk, kMalformed, kTooBig };

void Leaves(std::unique_ptr<Expr> e, Expr::Kind kind, std::vector<std::unique_ptr<Expr>>* out) {
  if (e->kind != kind) {
    out->push_back(std::move(e));
    return;
  }
  Leaves(std::move(e->left), kind, out);
  Leaves(std::move(e->right), kind, out);
}

// Rebuilds every run of AND (or of OR) nodes as SQLite does after parsing:
// the run's operands, left to right, are paired like the digits of a binary
// counter (slot i holds a tree of 2^i operands), then the slots are joined
// from the smallest up, each larger one on the left. NOT keeps its shape
// (its sides are rebuilt); NEAR groups and phrases are left alone.
Shape Balance(std::unique_ptr<Expr>* pp, int depth) {
  if (depth == 0) return Shape::kMalformed;
  Expr* root = pp->get();
  if (root->kind == Expr::kNot) {
    Shape s = Balance(&root->left, depth - 1);
    return s == Shape::kOk ? Balance(&root->right, depth - 1) : s;
  }
  if (root->kind != Expr::kAnd && root->kind != Expr::kOr) return Shape::kOk;
  Expr::Kind kind = root->kind;
  std::vector<std::unique_ptr<Expr>> leaves;
  Leaves(std::move(*pp), kind, &leaves);
  std::vector<std::unique_ptr<Expr>> slot(static_cast<size_t>(depth));
  auto join = [kind](std::unique_ptr<Expr> l, std::unique_ptr<Expr> r) {
    auto n = std::make_unique<Expr>();
    n->kind = kind;
    n->left = std::move(l);
    n->right = std::move(r);
    return n;
  };
  for (auto& leaf : leaves) {
    Shape s = Balance(&leaf, depth - 1);
    if (s != Shape::kOk) return s;
    std::unique_ptr<Expr> p = std::move(leaf);
    for (size_t i = 0; p && i < slot.size(); ++i) {
      if (!slot[i]) {
        slot[i] = std::move(p);
      } else {
        p = join(std::move(slot[i]), std::move(p));
      }
    }
    if (p) return Shape::kTooBig;
  }
  std::unique_ptr<Expr> p;
  for (auto& s : slot) {
    if (!s) continue;
    p = p ? join(std::move(s), std::move(p)) : std::move(s);
  }
  *pp = std::move(p);
  return Shape::kOk;
}

bool DepthOk(const Expr* e, int left) {
  if (e == nullptr) return true;
  if (left < 0) return false;
  return DepthOk(e->left.get(), left - 1) && DepthOk(e->right.get(), left - 1);
}

// Numbers the phrases the auxiliary functions see (all but those on the
// right of a NOT) first, in query order; pass 1 then numbers the others.
void Number(Expr* e, int* n, int pass, bool under_not) {
  if (e == nullptr) return;
  if (e->kind == Expr::kPhrase) {
    if ((pass == 0) != under_not) e->phrase_index = (*n)++;
    return;
  }
  Number(e->left.get(), n, pass, under_not);
  Number(e->right.get(), n, pass, under_not || e->kind == Expr::kNot);
}

}  // namespace

int ParseExpr(const FtsTable* t, std::string_view query, int default_col,
              std::unique_ptr<Expr>* out, std::string* err) {
  std::vector<Item> items;
  Lexer lex(t, query, default_col);
  bool ok = lex.Run(&items) && Normalize(&items);
  out->reset();
  if (ok && !items.empty()) {
    Parser p(&items);
    *out = p.Parse(4);
    ok = p.ok && *out != nullptr && p.at_ == items.size();
  }
  if (ok && *out) {
    Shape shape = Balance(out, kMaxDepth);
    if (shape == Shape::kOk && !DepthOk(out->get(), kMaxDepth)) shape = Shape::kTooBig;
    if (shape == Shape::kTooBig) {
      out->reset();
      *err = "FTS expression tree is too large (maximum depth " + std::to_string(kMaxDepth) + ")";
      return SQLITE_ERROR;
    }
    ok = shape == Shape::kOk;
  }
  if (!ok) {
    out->reset();
    *err = "malformed MATCH expression: [" + std::string(query) + "]";
    return SQLITE_ERROR;
  }
  int n = 0;
  Number(out->get(), &n, 0, false);
  Number(out->get(), &n, 1, false);
  return SQLITE_OK;
}

}  // namespace basalt::fts

// The MATCH-string parser (grammar in expr.h). Errors name the token where
// parsing stopped, as SQLite's: fts5: syntax error near "<token>".
#include <algorithm>
#include <cstring>

#include "ext/fts5/expr.h"

namespace basalt::fts5 {
namespace {

enum Tok {
  kEof,
  kString,
  kAndTok,
  kOrTok,
  kNotTok,
  kLp,
  kRp,
  kLcp,
  kRcp,
  kColon,
  kComma,
  kPlus,
  kStar,
  kMinus,
  kCaret
};

struct Token {
  Tok type = kEof;
  const char* p = nullptr;
  int n = 0;
  std::string word;  // kString: the unquoted text
};

bool IsBare(unsigned char c) { return c >= 0x80 || std::isalnum(c) || c == '_' || c == 0x1a; }

class Parser {
 public:
  Parser(const Config& cfg, const std::string& q, Expr* e, std::string* err)
      : cfg_(cfg), z_(q.c_str()), e_(e), err_(err) {}

  int Run(std::unique_ptr<ExprNode>* out) {
    if (!Advance()) return SQLITE_ERROR;
    *out = ParseOr();
    if (rc_ == SQLITE_OK && tok_.type != kEof) SyntaxError();
    return rc_;
  }

 private:
  bool Advance() {
    const char* p = z_;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') ++p;
    tok_ = Token();
    tok_.p = p;
    tok_.n = 1;
    switch (*p) {
      case 0:
        tok_.type = kEof;
        tok_.n = 0;
        break;
      case '(':
        tok_.type = kLp;
        break;
      case ')':
        tok_.type = kRp;
        break;
      case '{':
        tok_.type = kLcp;
        break;
      case '}':
        tok_.type = kRcp;
        break;
      case ':':
        tok_.type = kColon;
        break;
      case ',':
        tok_.type = kComma;
        break;
      case '+':
        tok_.type = kPlus;
        break;
      case '*':
        tok_.type = kStar;
        break;
      case '-':
        tok_.type = kMinus;
        break;
      case '^':
        tok_.type = kCaret;
        break;
      case '"': {
        const char* s = p + 1;
        for (;;) {
          if (*s == 0) {
            Fail("unterminated string");
            return false;
          }
          if (*s == '"') {
            if (s[1] != '"') break;
            tok_.word.push_back('"');
            s += 2;
            continue;
          }
          tok_.word.push_back(*s++);
        }
        tok_.type = kString;
        tok_.n = static_cast<int>(s + 1 - p);
        break;
      }
      default: {
        if (!IsBare(static_cast<unsigned char>(*p))) {
          SyntaxErrorAt(p, 1);
          return false;
        }
        const char* s = p;
        while (IsBare(static_cast<unsigned char>(*s))) ++s;
        tok_.n = static_cast<int>(s - p);
        tok_.word.assign(p, s);
        tok_.type = kString;
        if (tok_.word == "OR") tok_.type = kOrTok;
        if (tok_.word == "AND") tok_.type = kAndTok;
        if (tok_.word == "NOT") tok_.type = kNotTok;
      }
    }
    z_ = p + tok_.n;
    return true;
  }
  // Peeks at the type of the token after the current one.
  Tok PeekNext() {
    const char* save = z_;
    Token t = tok_;
    int rc = rc_;
    std::string err = *err_;
    Tok r = Advance() ? tok_.type : kEof;
    z_ = save;
    tok_ = t;
    rc_ = rc;
    *err_ = err;
    return r;
  }
  void Fail(const std::string& m) {
    if (rc_ == SQLITE_OK) {
      rc_ = SQLITE_ERROR;
      *err_ = m;
    }
  }
  void SyntaxErrorAt(const char* p, int n) {
    Fail("fts5: syntax error near \"" + std::string(p, n) + "\"");
  }
  void SyntaxError() { SyntaxErrorAt(tok_.p, tok_.n); }
  bool Next() { return rc_ == SQLITE_OK && Advance(); }
  bool Ok() const { return rc_ == SQLITE_OK; }

  std::unique_ptr<ExprNode> Binary(ExprNode::Kind k, std::unique_ptr<ExprNode> l,
                                   std::unique_ptr<ExprNode> r) {
    auto n = std::make_unique<ExprNode>();
    n->kind = k;
    n->kids.push_back(std::move(l));
    n->kids.push_back(std::move(r));
    return n;
  }

  std::unique_ptr<ExprNode> ParseOr() {
    auto l = ParseAnd();
    while (Ok() && tok_.type == kOrTok) {
      if (!Next()) return nullptr;
      auto r = ParseAnd();
      if (!Ok()) return nullptr;
      l = Binary(ExprNode::kOr, std::move(l), std::move(r));
    }
    return l;
  }
  std::unique_ptr<ExprNode> ParseAnd() {
    auto l = ParseNot();
    while (Ok() && tok_.type == kAndTok) {
      if (!Next()) return nullptr;
      auto r = ParseNot();
      if (!Ok()) return nullptr;
      l = Binary(ExprNode::kAnd, std::move(l), std::move(r));
    }
    return l;
  }
  std::unique_ptr<ExprNode> ParseNot() {
    auto l = ParseUnary();
    while (Ok() && tok_.type == kNotTok) {
      if (!Next()) return nullptr;
      auto r = ParseUnary();
      if (!Ok()) return nullptr;
      l = Binary(ExprNode::kNot, std::move(l), std::move(r));
    }
    return l;
  }

  bool StartsColset() {
    if (tok_.type == kMinus || tok_.type == kLcp) return true;
    return tok_.type == kString && PeekNext() == kColon;
  }

  // colset: ['-'] (word | '{' word+ '}'); leaves the token after it.
  bool ParseColset(std::vector<int>* cols) {
    bool neg = false;
    if (tok_.type == kMinus) {
      neg = true;
      if (!Next()) return false;
    }
    std::vector<int> named;
    auto add = [&]() {
      for (int i = 0; i < cfg_.ncol(); ++i) {
        if (sqlite3_stricmp(cfg_.cols[i].c_str(), tok_.word.c_str()) == 0) {
          named.push_back(i);
          return true;
        }
      }
      Fail("no such column: " + tok_.word);
      return false;
    };
    if (tok_.type == kLcp) {
      if (!Next()) return false;
      if (tok_.type != kString) {
        SyntaxError();
        return false;
      }
      while (tok_.type == kString) {
        if (!add() || !Next()) return false;
      }
      if (tok_.type != kRcp) {
        SyntaxError();
        return false;
      }
    } else if (tok_.type == kString) {
      if (!add()) return false;
    } else {
      SyntaxError();
      return false;
    }
    if (!Next()) return false;
    std::sort(named.begin(), named.end());
    named.erase(std::unique(named.begin(), named.end()), named.end());
    cols->clear();
    for (int i = 0; i < cfg_.ncol(); ++i) {
      bool in = std::binary_search(named.begin(), named.end(), i);
      if (in != neg) cols->push_back(i);
    }
    return true;
  }

  std::unique_ptr<ExprNode> ParseUnary() {
    if (tok_.type == kLp) {
      if (!Next()) return nullptr;
      auto e = ParseOr();
      if (!Ok()) return nullptr;
      if (tok_.type != kRp) {
        SyntaxError();
        return nullptr;
      }
      Next();
      return e;
    }
    std::unique_ptr<ExprNode> list;
    bool first = true;
    while (Ok()) {
      Tok t = tok_.type;
      if (t != kString && t != kMinus && t != kLcp && t != kCaret) {
        if (first) SyntaxError();
        break;
      }
      std::vector<int> cols;
      bool has_cols = false;
      if (StartsColset()) {
        if (!ParseColset(&cols)) return nullptr;
        if (tok_.type != kColon) {
          SyntaxError();
          return nullptr;
        }
        if (!Next()) return nullptr;
        has_cols = true;
        if (first && tok_.type == kLp) {
          if (!Next()) return nullptr;
          auto e = ParseOr();
          if (!Ok()) return nullptr;
          if (tok_.type != kRp) {
            SyntaxError();
            return nullptr;
          }
          Next();
          ApplyColset(e.get(), cols);
          return e;
        }
      }
      auto n = ParseNearset();
      if (!Ok()) return nullptr;
      if (has_cols) ApplyColset(n.get(), cols);
      list = first ? std::move(n) : ImplicitAnd(std::move(list), std::move(n));
      first = false;
    }
    return list;
  }

  std::unique_ptr<ExprNode> ImplicitAnd(std::unique_ptr<ExprNode> l, std::unique_ptr<ExprNode> r) {
    auto drop = [&](ExprNode* n) {
      for (Phrase* ph : n->phrases) {
        auto& v = e_->phrases;
        v.erase(std::remove_if(v.begin(), v.end(), [&](const auto& p) { return p.get() == ph; }),
                v.end());
      }
    };
    if (r->kind == ExprNode::kEmpty) {
      drop(r.get());
      return l;
    }
    if (l->kind == ExprNode::kEmpty) {
      drop(l.get());
      return r;
    }
    if (l->kind == ExprNode::kAnd && l->kids.size() >= 2 &&
        l->kids.back()->kind == ExprNode::kEmpty) {
      drop(l->kids.back().get());
      l->kids.back() = std::move(r);
      return l;
    }
    return Binary(ExprNode::kAnd, std::move(l), std::move(r));
  }

  void ApplyColset(ExprNode* n, const std::vector<int>& cols) {
    if (cfg_.detail == Detail::kNone) {
      Fail("fts5: column queries are not supported (detail=none)");
      return;
    }
    for (Phrase* p : n->phrases) {
      if (p->cols.empty()) {
        p->cols = cols;
        if (cols.empty()) p->cols.push_back(-1);  // nothing allowed
      } else {
        std::vector<int> both;
        std::set_intersection(p->cols.begin(), p->cols.end(), cols.begin(), cols.end(),
                              std::back_inserter(both));
        if (both.empty()) both.push_back(-1);
        p->cols = both;
      }
    }
    for (auto& k : n->kids) ApplyColset(k.get(), cols);
  }

  static int OnToken(void* ctx, int flags, const char* t, int n, int, int) {
    auto* v = static_cast<std::vector<PhraseToken>*>(ctx);
    if (flags & FTS5_TOKEN_COLOCATED) return SQLITE_OK;
    if (n > kMaxTokenSize) n = kMaxTokenSize;
    v->push_back(PhraseToken{std::string(t, n), false});
    return SQLITE_OK;
  }

  // phrase := word ['*'] ('+' word ['*'])*
  Phrase* ParsePhrase(bool caret) {
    auto ph = std::make_unique<Phrase>();
    ph->caret = caret;
    for (;;) {
      if (tok_.type != kString) {
        SyntaxError();
        return nullptr;
      }
      std::string word = tok_.word;
      if (!Next()) return nullptr;
      bool star = tok_.type == kStar;
      if (star && !Next()) return nullptr;
      std::vector<PhraseToken> toks;
      int flags = FTS5_TOKENIZE_QUERY | (star ? FTS5_TOKENIZE_PREFIX : 0);
      int rc = cfg_.Tokenize(flags, word.c_str(), static_cast<int>(word.size()), &toks, &OnToken);
      if (rc != SQLITE_OK) {
        rc_ = rc;
        return nullptr;
      }
      if (star && !toks.empty()) toks.back().prefix = true;
      for (auto& t : toks) ph->tokens.push_back(std::move(t));
      if (tok_.type != kPlus) break;
      if (!Next()) return nullptr;
    }
    if (cfg_.detail != Detail::kFull && ph->tokens.size() > 1) {
      Fail("fts5: phrase queries are not supported (detail!=full)");
      return nullptr;
    }
    e_->phrases.push_back(std::move(ph));
    return e_->phrases.back().get();
  }

  std::unique_ptr<ExprNode> ParseNearset() {
    auto n = std::make_unique<ExprNode>();
    n->kind = ExprNode::kNear;
    if (tok_.type == kString && PeekNext() == kLp) {
      Token name = tok_;
      if (!Next() || !Next()) return nullptr;
      if (name.word != "NEAR" || name.p[0] == '"') {
        SyntaxErrorAt(name.p, name.n);
        return nullptr;
      }
      n->is_near = true;
      while (Ok() && tok_.type == kString) {
        Phrase* p = ParsePhrase(false);
        if (p == nullptr) return nullptr;
        n->phrases.push_back(p);
      }
      if (!Ok()) return nullptr;
      if (tok_.type == kComma) {
        if (!Next()) return nullptr;
        if (tok_.type != kString) {
          SyntaxError();
          return nullptr;
        }
        int v = 0;
        for (char c : tok_.word) {
          if (c < '0' || c > '9') {
            Fail("expected integer, got \"" + std::string(tok_.p, tok_.n) + "\"");
            return nullptr;
          }
          v = v * 10 + (c - '0');
        }
        n->near = v;
        if (!Next()) return nullptr;
      }
      if (tok_.type != kRp || n->phrases.empty()) {
        SyntaxError();
        return nullptr;
      }
      Next();
      if (cfg_.detail != Detail::kFull && n->phrases.size() > 1) {
        Fail("fts5: NEAR queries are not supported (detail!=full)");
        return nullptr;
      }
    } else {
      bool caret = false;
      if (tok_.type == kCaret) {
        caret = true;
        if (!Next()) return nullptr;
      }
      Phrase* p = ParsePhrase(caret);
      if (p == nullptr) return nullptr;
      n->phrases.push_back(p);
      if (p->tokens.empty()) n->kind = ExprNode::kEmpty;
    }
    if (!n->is_near || n->phrases.size() == 1) n->is_near = n->phrases.size() > 1;
    return n;
  }

  const Config& cfg_;
  const char* z_;
  Expr* e_;
  std::string* err_;
  Token tok_;
  int rc_ = SQLITE_OK;
};

}  // namespace

int ParseExpr(const Config& cfg, const std::string& query, int col, Expr* out, std::string* err) {
  Parser p(cfg, query, out, err);
  int rc = p.Run(&out->root);
  if (rc != SQLITE_OK) {
    out->root.reset();
    return rc;
  }
  if (out->root && col >= 0 && col < cfg.ncol()) {
    for (auto& ph : out->phrases) {
      if (ph->cols.empty()) {
        ph->cols.push_back(col);
      } else if (!std::binary_search(ph->cols.begin(), ph->cols.end(), col)) {
        ph->cols.assign(1, -1);
      } else {
        ph->cols.assign(1, col);
      }
    }
  }
  return SQLITE_OK;
}

void AndExpr(Expr* into, Expr* other) {
  for (auto& p : other->phrases) into->phrases.push_back(std::move(p));
  other->phrases.clear();
  if (!into->root) {
    into->root = std::move(other->root);
    return;
  }
  if (!other->root) return;
  auto n = std::make_unique<ExprNode>();
  n->kind = ExprNode::kAnd;
  n->kids.push_back(std::move(into->root));
  n->kids.push_back(std::move(other->root));
  into->root = std::move(n);
}

}  // namespace basalt::fts5

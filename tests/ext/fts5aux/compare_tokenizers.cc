// Tokenizers: SQLite's and Basalt's called directly on the same inputs
// (every token's text, byte range and flags), fts5vocab over tables built
// with each, CREATE VIRTUAL TABLE errors for bad options, and speed.
#include <chrono>
#include <random>

#include "compare.h"
#include "corpus.h"
#include "ext/fts5/builtins.h"

namespace basalt::fts5test {
namespace {

struct Config {
  const char* tokenizer;
  std::vector<const char*> args;
  bool every_code_point = false;  // also compare on each code point in turn
};

// Every configuration compared; those SQLite rejects must be rejected too.
const std::vector<Config>& Configs() {
  static const std::vector<Config> kConfigs = {
      {"unicode61", {}, true},
      {"unicode61", {"remove_diacritics", "0"}, true},
      {"unicode61", {"remove_diacritics", "2"}, true},
      {"unicode61", {"REMOVE_DIACRITICS", "1"}},
      {"unicode61", {"tokenchars", "-_.'\xc3\xa9\xe2\x80\x90"}},
      {"unicode61", {"separators", "ae\xc3\xa9\xcd\xb8\xe6\x97\xa5"}},
      {"unicode61", {"separators", "\xcc\x81", "remove_diacritics", "0"}},
      {"unicode61", {"tokenchars", "x", "separators", "x"}},
      {"unicode61", {"categories", "L* N* Co Mn"}, true},
      {"unicode61", {"categories", "Lu Nd Zs", "tokenchars", "\xc3\xa9"}},
      {"unicode61", {"categories", "P* S*", "remove_diacritics", "2"}},
      {"unicode61", {"categories", ""}},
      {"unicode61", {"categories", "LC Lu3 x"}},
      {"unicode61", {"categories", "L*", "categories", "N*"}},
      {"unicode61", {"remove_diacritics", "3"}},
      {"unicode61", {"remove_diacritics", "01"}},
      {"unicode61", {"categories", "Zz"}},
      {"unicode61", {"categories", "L"}},
      {"unicode61", {"nonsense", "1"}},
      {"unicode61", {"tokenchars"}},
      {"ascii", {}},
      {"ascii", {"tokenchars", "-_\xc3\xa9"}},
      {"ascii", {"separators", "aeiou\xc3\xa9", "TOKENCHARS", "e"}},
      {"ascii", {"remove_diacritics", "0"}},
      {"ascii", {"separators"}},
      {"porter", {}},
      {"porter", {"ascii"}},
      {"porter", {"unicode61", "remove_diacritics", "0"}},
      {"porter", {"unicode61", "tokenchars", "-"}},
      {"porter", {"porter", "ascii"}},
      {"porter", {"nosuchtokenizer"}},
      {"porter", {"unicode61", "bad", "option"}},
      {"trigram", {}, true},
      {"trigram", {"case_sensitive", "1"}},
      {"trigram", {"case_sensitive", "0"}},
      {"trigram", {"case_sensitive", "2"}},
      {"trigram", {"remove_diacritics", "1"}},
      // Not {"trigram", {"case_sensitive"}}: SQLite 3.40.1 itself crashes on
      // the missing value (reads argv[1] past the end).
  };
  return kConfigs;
}

struct Token {
  std::string text;
  int flags, start, end;
  bool operator==(const Token&) const = default;
};

int Collect(void* out, int flags, const char* token, int bytes, int start, int end) {
  static_cast<std::vector<Token>*>(out)->push_back({std::string(token, bytes), flags, start, end});
  return SQLITE_OK;
}

std::string Show(const std::vector<Token>& tokens) {
  std::string s;
  for (const auto& t : tokens) {
    s += "[" + Escape(t.text) + " " + std::to_string(t.flags) + " " + std::to_string(t.start) +
         "-" + std::to_string(t.end) + "]";
  }
  return s;
}

std::string Describe(const Config& c) {
  std::string s = c.tokenizer;
  for (const char* a : c.args) s += " '" + Escape(a) + "'";
  return s;
}

struct Pair {
  fts5_tokenizer sys, ours;
  Fts5Tokenizer* sys_tok = nullptr;
  Fts5Tokenizer* ours_tok = nullptr;
  int sys_rc = SQLITE_ERROR, ours_rc = SQLITE_ERROR;
};

// Creates SQLite's tokenizer and Basalt's (registered as b_<name>).
Pair Open(const Env& env, const Config& c) {
  Pair p;
  void *sys_ud = nullptr, *ours_ud = nullptr;
  std::string ours = std::string("b_") + c.tokenizer;
  if (env.api->xFindTokenizer(env.api, c.tokenizer, &sys_ud, &p.sys) != SQLITE_OK) return p;
  if (env.api->xFindTokenizer(env.api, ours.c_str(), &ours_ud, &p.ours) != SQLITE_OK) return p;
  auto* args = const_cast<const char**>(c.args.data());
  const int n = static_cast<int>(c.args.size());
  p.sys_rc = p.sys.xCreate(sys_ud, args, n, &p.sys_tok);
  p.ours_rc = p.ours.xCreate(ours_ud, args, n, &p.ours_tok);
  return p;
}

void Close(Pair* p) {
  if (p->sys_rc == SQLITE_OK) p->sys.xDelete(p->sys_tok);
  if (p->ours_rc == SQLITE_OK) p->ours.xDelete(p->ours_tok);
}

void CompareOn(Pair* p, const std::string& text, int flags, const std::string& what, Tally* tally) {
  std::vector<Token> a, b;
  int ra =
      p->sys.xTokenize(p->sys_tok, &a, flags, text.data(), static_cast<int>(text.size()), &Collect);
  int rb = p->ours.xTokenize(p->ours_tok, &b, flags, text.data(), static_cast<int>(text.size()),
                             &Collect);
  tally->Check(ra == rb && a == b,
               what + " on '" + Escape(text) + "':\n  sqlite " + Show(a) + "\n  basalt " + Show(b));
}

}  // namespace

void CompareTokenizers(const Env& env, Tally* tally) {
  std::mt19937 rng(20240601);
  for (const Config& c : Configs()) {
    Pair p = Open(env, c);
    const std::string what = Describe(c);
    tally->Check(p.sys_rc == p.ours_rc, what + ": xCreate returned " + std::to_string(p.sys_rc) +
                                            " vs " + std::to_string(p.ours_rc));
    if (p.sys_rc == SQLITE_OK && p.ours_rc == SQLITE_OK) {
      for (int i = 0; i < 1500; ++i) {
        CompareOn(&p, RandomText(&rng), FTS5_TOKENIZE_DOCUMENT, what, tally);
        CompareOn(&p, StemmerWords(&rng), FTS5_TOKENIZE_DOCUMENT, what, tally);
      }
      for (int i = 0; i < 300; ++i) {
        const int flags = i % 3 == 0   ? FTS5_TOKENIZE_QUERY
                          : i % 3 == 1 ? FTS5_TOKENIZE_QUERY | FTS5_TOKENIZE_PREFIX
                                       : FTS5_TOKENIZE_DOCUMENT;
        CompareOn(&p, Document(i, true), flags, what, tally);
      }
      // Every code point, one by one between letters.
      std::string all;
      const bool decodes = c.every_code_point;
      for (uint32_t cp = 1; decodes && cp < 0x110000; ++cp) {
        if ((cp & 0xFFFFF800) == 0xD800) continue;
        all += Utf8(cp);
        all += cp % 3 == 0 ? " x" : "x";
        if (all.size() > 4000) {
          CompareOn(&p, all, FTS5_TOKENIZE_DOCUMENT, what, tally);
          all.clear();
        }
      }
      if (decodes) CompareOn(&p, all, FTS5_TOKENIZE_DOCUMENT, what, tally);
    }
    Close(&p);
  }
}

void CompareVocabularies(const Env& env, Tally* tally) {
  for (const Config& c : Configs()) {
    std::string spec;
    for (const char* a : c.args) {
      std::string q = a;
      std::string quoted = "'";
      for (char ch : q) quoted += ch == '\'' ? std::string("''") : std::string(1, ch);
      spec += " " + quoted + "'";
    }
    auto sql_quote = [](const std::string& s) {
      std::string o = "'";
      for (char ch : s) o += ch == '\'' ? std::string("''") : std::string(1, ch);
      return o + "'";
    };
    Exec(env, "DROP TABLE IF EXISTS s; DROP TABLE IF EXISTS b;");
    std::string es, eb;
    bool ok_s = Exec(env,
                     "CREATE VIRTUAL TABLE s USING fts5(x, y, tokenize=" +
                         sql_quote(std::string(c.tokenizer) + spec) + ")",
                     &es);
    bool ok_b = Exec(env,
                     "CREATE VIRTUAL TABLE b USING fts5(x, y, tokenize=" +
                         sql_quote(std::string("b_") + c.tokenizer + spec) + ")",
                     &eb);
    tally->Check(ok_s == ok_b && es == eb,
                 "CREATE with " + Describe(c) + ": '" + es + "' vs '" + eb + "'");
    if (!ok_s || !ok_b) continue;
    Exec(env, "BEGIN");
    sqlite3_stmt* st = nullptr;
    env.sys.prepare_v2(env.db, "INSERT INTO s(x, y) VALUES(?1, ?2)", -1, &st, nullptr);
    sqlite3_stmt* st2 = nullptr;
    env.sys.prepare_v2(env.db, "INSERT INTO b(x, y) VALUES(?1, ?2)", -1, &st2, nullptr);
    for (int i = 0; i < 250; ++i) {
      std::string x = Document(i, true), y = Document(i + 1000, false);
      for (sqlite3_stmt* s : {st, st2}) {
        env.sys.bind_text(s, 1, x.data(), static_cast<int>(x.size()), SQLITE_TRANSIENT);
        env.sys.bind_text(s, 2, y.data(), static_cast<int>(y.size()), SQLITE_TRANSIENT);
        env.sys.step(s);
        env.sys.reset(s);
      }
    }
    env.sys.finalize(st);
    env.sys.finalize(st2);
    Exec(env, "COMMIT");
    Exec(env,
         "CREATE VIRTUAL TABLE temp.sv USING fts5vocab(main, s, instance);"
         "CREATE VIRTUAL TABLE temp.bv USING fts5vocab(main, b, instance);");
    auto a = Rows(env, "SELECT term, doc, col, offset FROM sv ORDER BY 1, 2, 3, 4");
    auto b = Rows(env, "SELECT term, doc, col, offset FROM bv ORDER BY 1, 2, 3, 4");
    tally->Check(a == b, "fts5vocab of " + Describe(c) + ": " + std::to_string(a.size()) + " vs " +
                             std::to_string(b.size()) + " rows");
    Exec(env, "DROP TABLE temp.sv; DROP TABLE temp.bv;");
  }
  Exec(env, "DROP TABLE IF EXISTS s; DROP TABLE IF EXISTS b;");
}

void MeasureTokenizers(const Env& env) {
  std::string corpus;
  for (int i = 0; i < 3000; ++i) corpus += Document(i, false) + "\n";
  for (const char* name : {"unicode61", "ascii", "porter", "trigram"}) {
    Pair p = Open(env, {name, {}});
    if (p.sys_rc != SQLITE_OK || p.ours_rc != SQLITE_OK) continue;
    double secs[2] = {0, 0};
    long tokens = 0;
    auto count = [](void* n, int, const char*, int, int, int) {
      ++*static_cast<long*>(n);
      return SQLITE_OK;
    };
    for (int round = 0; round < 6; ++round) {
      for (int which = 0; which < 2; ++which) {
        const fts5_tokenizer& m = which == 0 ? p.sys : p.ours;
        Fts5Tokenizer* t = which == 0 ? p.sys_tok : p.ours_tok;
        long n = 0;
        auto t0 = std::chrono::steady_clock::now();
        m.xTokenize(t, &n, FTS5_TOKENIZE_DOCUMENT, corpus.data(), static_cast<int>(corpus.size()),
                    count);
        secs[which] += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        tokens += which == 0 ? n : 0;
      }
    }
    std::printf("%-10s sqlite %6.2f Mtokens/s, basalt %6.2f Mtokens/s (basalt/sqlite time %.2f)\n",
                name, tokens / secs[0] / 1e6, tokens / secs[1] / 1e6, secs[1] / secs[0]);
    Close(&p);
  }
}

}  // namespace basalt::fts5test

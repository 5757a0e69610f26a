// Parsing of the CREATE VIRTUAL TABLE ... USING fts5(...) arguments and of
// the %_config options (config.h).
//
// Each argument is either a column, `name [UNINDEXED]`, or an option,
// `key = value`; names and values are barewords or quoted ('', "", ``, []).
#include <cstring>

#include "ext/fts5/config.h"
#include "ext/fts5/tokenize/tokenizers.h"

namespace basalt::fts5 {
namespace {

bool IsBareChar(unsigned char c) { return c >= 0x80 || std::isalnum(c) || c == '_' || c == 0x1a; }
bool IsSpace(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

const char* SkipSpace(const char* p) {
  while (*p && IsSpace(static_cast<unsigned char>(*p))) ++p;
  return p;
}

// Reads one bareword or quoted word at p; returns the position after it, or
// nullptr if there is none. *quoted is set when the word was quoted.
const char* ReadWord(const char* p, std::string* out, bool* quoted) {
  out->clear();
  *quoted = false;
  char q = *p;
  if (q == '\'' || q == '"' || q == '`' || q == '[') {
    char close = q == '[' ? ']' : q;
    *quoted = true;
    for (++p; *p; ++p) {
      if (*p == close) {
        if (close != ']' && p[1] == close) {
          out->push_back(close);
          ++p;
          continue;
        }
        return p + 1;
      }
      out->push_back(*p);
    }
    return nullptr;  // unterminated
  }
  const char* s = p;
  while (*p && IsBareChar(static_cast<unsigned char>(*p))) ++p;
  if (p == s) return nullptr;
  out->assign(s, p);
  return p;
}

// Splits a tokenize= or prefix= value into words.
bool SplitWords(const std::string& v, std::vector<std::string>* out) {
  const char* p = SkipSpace(v.c_str());
  std::string w;
  bool q;
  while (*p) {
    const char* e = ReadWord(p, &w, &q);
    if (e == nullptr) return false;
    out->push_back(w);
    p = SkipSpace(e);
  }
  return true;
}

int ParsePrefix(const std::string& v, Config* cfg, std::string* err) {
  const char* p = SkipSpace(v.c_str());
  if (*p == 0) {
    *err = "malformed prefix=... directive";
    return SQLITE_ERROR;
  }
  while (*p) {
    if (*p < '0' || *p > '9') {
      *err = "malformed prefix=... directive";
      return SQLITE_ERROR;
    }
    int n = 0;
    while (*p >= '0' && *p <= '9') {
      if (n < 100000) n = n * 10 + (*p - '0');
      ++p;
    }
    if (n <= 0 || n >= 1000) {
      *err = "prefix length out of range (max 999)";
      return SQLITE_ERROR;
    }
    cfg->prefixes.push_back(n);
    p = SkipSpace(p);
    if (*p == ',') p = SkipSpace(p + 1);
  }
  return SQLITE_OK;
}

int ApplyOption(const std::string& key, const std::string& val, bool* have_tok, Config* cfg,
                std::string* err) {
  if (sqlite3_stricmp(key.c_str(), "prefix") == 0) return ParsePrefix(val, cfg, err);
  if (sqlite3_stricmp(key.c_str(), "tokenize") == 0) {
    if (*have_tok) {
      *err = "multiple tokenize=... directives";
      return SQLITE_ERROR;
    }
    *have_tok = true;
    if (!SplitWords(val, &cfg->tokenize_args) || cfg->tokenize_args.empty()) {
      *err = "parse error in tokenize directive";
      return SQLITE_ERROR;
    }
    return SQLITE_OK;
  }
  if (sqlite3_stricmp(key.c_str(), "content") == 0) {
    if (val.empty()) {
      cfg->content = Content::kNone;
    } else {
      cfg->content = Content::kExternal;
      cfg->content_table = val;
    }
    return SQLITE_OK;
  }
  if (sqlite3_stricmp(key.c_str(), "content_rowid") == 0) {
    cfg->content_rowid = val;
    return SQLITE_OK;
  }
  if (sqlite3_stricmp(key.c_str(), "columnsize") == 0) {
    if (val != "0" && val != "1") {
      *err = "malformed columnsize=... directive";
      return SQLITE_ERROR;
    }
    cfg->columnsize = val == "1";
    return SQLITE_OK;
  }
  if (sqlite3_stricmp(key.c_str(), "detail") == 0) {
    if (sqlite3_stricmp(val.c_str(), "full") == 0) {
      cfg->detail = Detail::kFull;
    } else if (sqlite3_stricmp(val.c_str(), "none") == 0) {
      cfg->detail = Detail::kNone;
    } else if (sqlite3_stricmp(val.c_str(), "column") == 0) {
      cfg->detail = Detail::kColumn;
    } else {
      *err = "malformed detail=... directive";
      return SQLITE_ERROR;
    }
    return SQLITE_OK;
  }
  *err = "unrecognized option: \"" + key + "\"";
  return SQLITE_ERROR;
}

// One argument: a column or an option.
int ParseArg(const char* arg, bool* have_tok, Config* cfg, std::string* err) {
  std::string word, val;
  bool quoted, vq;
  const char* p = SkipSpace(arg);
  const char* e = ReadWord(p, &word, &quoted);
  if (e == nullptr) {
    *err = std::string("parse error in \"") + arg + "\"";
    return SQLITE_ERROR;
  }
  p = SkipSpace(e);
  if (*p == '=') {
    if (quoted) {
      *err = std::string("parse error in \"") + arg + "\"";
      return SQLITE_ERROR;
    }
    p = SkipSpace(p + 1);
    e = ReadWord(p, &val, &vq);
    if (e == nullptr || *SkipSpace(e) != 0) {
      *err = std::string("parse error in \"") + arg + "\"";
      return SQLITE_ERROR;
    }
    return ApplyOption(word, val, have_tok, cfg, err);
  }
  bool unindexed = false;
  if (*p) {
    std::string opt;
    bool oq;
    e = ReadWord(p, &opt, &oq);
    if (e == nullptr || oq || sqlite3_stricmp(opt.c_str(), "unindexed") != 0 ||
        *SkipSpace(e) != 0) {
      *err = std::string("parse error in \"") + arg + "\"";
      return SQLITE_ERROR;
    }
    unindexed = true;
  }
  if (sqlite3_stricmp(word.c_str(), "rank") == 0 || sqlite3_stricmp(word.c_str(), "rowid") == 0) {
    *err = "reserved fts5 column name: " + word;
    return SQLITE_ERROR;
  }
  for (const std::string& c : cfg->cols) {
    if (sqlite3_stricmp(c.c_str(), word.c_str()) == 0) return SQLITE_ERROR;  // no message
  }
  cfg->cols.push_back(word);
  cfg->unindexed.push_back(unindexed);
  return SQLITE_OK;
}

int CreateTokenizer(Config* cfg, std::string* err) {
  const char* name = cfg->tokenize_args.empty() ? nullptr : cfg->tokenize_args[0].c_str();
  cfg->tok_module = cfg->global->FindTokenizer(name);
  if (cfg->tok_module == nullptr) {
    *err = std::string("no such tokenizer: ") + (name ? name : "");
    return SQLITE_ERROR;
  }
  std::vector<const char*> args;
  for (size_t i = 1; i < cfg->tokenize_args.size(); ++i) {
    args.push_back(cfg->tokenize_args[i].c_str());
  }
  int rc = cfg->tok_module->methods.xCreate(cfg->tok_module->user_data, args.data(),
                                            static_cast<int>(args.size()), &cfg->tok);
  if (rc != SQLITE_OK) {
    cfg->tok = nullptr;
    *err = "error in tokenizer constructor";
  } else if (cfg->tok_module->methods.xCreate == kTrigramTokenizer.xCreate) {
    cfg->pattern =
        TrigramFolds(cfg->tok) ? SQLITE_INDEX_CONSTRAINT_LIKE : SQLITE_INDEX_CONSTRAINT_GLOB;
  }
  return rc;
}

}  // namespace

Config::~Config() {
  if (tok != nullptr && tok_module != nullptr) tok_module->methods.xDelete(tok);
}

std::string Config::Shadow(const char* suffix) const {
  return QuoteLiteral(schema) + "." + QuoteLiteral(name + suffix);
}

int Config::Tokenize(int flags, const char* text, int n, void* ctx,
                     int (*cb)(void*, int, const char*, int, int, int)) const {
  if (text == nullptr) return SQLITE_OK;
  return tok_module->methods.xTokenize(tok, ctx, flags, text, n, cb);
}

int ParseConfig(sqlite3* db, Global* g, int argc, const char* const* argv, Config* cfg,
                std::string* err) {
  cfg->db = db;
  cfg->global = g;
  cfg->schema = argv[1];
  cfg->name = argv[2];
  bool have_tok = false;
  for (int i = 3; i < argc; ++i) {
    int rc = ParseArg(argv[i], &have_tok, cfg, err);
    if (rc != SQLITE_OK) return rc;
  }
  if (cfg->cols.empty()) return SQLITE_ERROR;  // "vtable constructor failed"
  if (cfg->content != Content::kExternal && cfg->content_rowid != "rowid") {
    *err = "non-default content_rowid= requires content=";  // not reached in SQLite 3.40
    cfg->content_rowid = "rowid";
  }
  return CreateTokenizer(cfg, err);
}

int ParseRank(const std::string& v, std::string* fn, std::string* args) {
  const char* p = SkipSpace(v.c_str());
  const char* s = p;
  while (*p && IsBareChar(static_cast<unsigned char>(*p))) ++p;
  if (p == s) return SQLITE_ERROR;
  fn->assign(s, p);
  p = SkipSpace(p);
  if (*p++ != '(') return SQLITE_ERROR;
  p = SkipSpace(p);
  const char* close = std::strrchr(p, ')');
  if (close == nullptr || *SkipSpace(close + 1) != 0) return SQLITE_ERROR;
  args->assign(p, close);
  return SQLITE_OK;
}

int Config::SetValue(const std::string& key, sqlite3_value* v, bool* bad) {
  *bad = false;
  bool is_int = sqlite3_value_numeric_type(v) == SQLITE_INTEGER;
  int n = sqlite3_value_int(v);
  const char* k = key.c_str();
  if (sqlite3_stricmp(k, "pgsz") == 0) {
    if (!is_int || n < 32 || n > 65536)
      *bad = true;
    else
      pgsz = n;
  } else if (sqlite3_stricmp(k, "hashsize") == 0) {
    if (!is_int || n <= 0)
      *bad = true;
    else
      hash_size = n;
  } else if (sqlite3_stricmp(k, "automerge") == 0) {
    if (!is_int || n < 0 || n > 64)
      *bad = true;
    else
      automerge = n == 1 ? kDefaultAutomerge : n;
  } else if (sqlite3_stricmp(k, "usermerge") == 0) {
    if (!is_int || n < 2 || n > 16)
      *bad = true;
    else
      usermerge = n;
  } else if (sqlite3_stricmp(k, "crisismerge") == 0) {
    if (!is_int || n < 0) {
      *bad = true;
    } else {
      crisismerge = n <= 1 ? kDefaultCrisismerge : (n >= 2000 ? 1999 : n);
    }
  } else if (sqlite3_stricmp(k, "rank") == 0) {
    const unsigned char* t = sqlite3_value_text(v);
    std::string fn, args;
    if (t == nullptr || ParseRank(reinterpret_cast<const char*>(t), &fn, &args) != SQLITE_OK) {
      *bad = true;
    } else {
      rank = fn;
      rank_args = args;
    }
  } else {
    *bad = true;
  }
  return SQLITE_OK;
}

int Config::Load(std::string* err) {
  pgsz = kDefaultPgsz;
  automerge = kDefaultAutomerge;
  usermerge = kDefaultUsermerge;
  crisismerge = kDefaultCrisismerge;
  hash_size = kDefaultHashSize;
  rank = "bm25";
  rank_args.clear();
  Stmt s;
  int rc = s.Prepare(db, "SELECT k, v FROM " + Shadow("_config"));
  if (rc != SQLITE_OK) return rc;
  int version = 0;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    const char* k = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
    if (k == nullptr) continue;
    if (sqlite3_stricmp(k, "version") == 0) {
      version = sqlite3_column_int(s, 1);
    } else {
      bool bad;
      SetValue(k, sqlite3_column_value(s, 1), &bad);
    }
  }
  if (rc != SQLITE_DONE) return rc;
  if (version != kFileFormatVersion) {
    *err = "invalid fts5 file format (found " + std::to_string(version) + ", expected " +
           std::to_string(kFileFormatVersion) + ") - run 'rebuild'";
    return SQLITE_ERROR;
  }
  return SQLITE_OK;
}

}  // namespace basalt::fts5

// CREATE VIRTUAL TABLE ... USING fts3/fts4(...): argument parsing, the
// declared schema, the shadow tables.
//
// Each argument is either an option "key=value" (FTS4 only, except
// tokenize, which both accept, also as "tokenize name ...") or a column:
// its first token, dequoted, is the name. No column gives one named
// "content". The declared table is
//   CREATE TABLE x('<col>', ..., '<table>' HIDDEN, docid HIDDEN, '<langid>' HIDDEN)
// so the table-named column is ncol(), docid ncol()+1, the language ncol()+2.
#include <cctype>
#include <cstdlib>
#include <cstring>

#include "ext/fts3/fts_table.h"

namespace basalt::fts {
namespace {

// Splits s into whitespace-separated tokens, a quoted run ('', "", [], ``)
// being one token, dequoted.
std::vector<std::string> SplitTokens(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i >= s.size()) break;
    char q = s[i];
    std::string tok;
    if (q == '\'' || q == '"' || q == '`' || q == '[') {
      char close = q == '[' ? ']' : q;
      ++i;
      while (i < s.size()) {
        if (s[i] == close) {
          if (close != ']' && i + 1 < s.size() && s[i + 1] == close) {
            tok.push_back(close);
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        tok.push_back(s[i++]);
      }
    } else {
      while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) tok.push_back(s[i++]);
    }
    out.push_back(tok);
  }
  return out;
}

std::string Dequote(std::string_view s) {
  auto toks = SplitTokens(s);
  if (s.empty()) return "";
  char q = s[0];
  if (q == '\'' || q == '"' || q == '`' || q == '[') return toks.empty() ? "" : toks[0];
  return std::string(s);
}

// A column's name: its first token, a quoted string dequoted or a run of
// identifier characters (letters, digits, '_', '$', bytes >= 0x80).
std::string ColumnName(std::string_view a) {
  if (!a.empty() && (a[0] == '\'' || a[0] == '"' || a[0] == '`' || a[0] == '[')) {
    auto toks = SplitTokens(a);
    return toks.empty() ? std::string() : toks[0];
  }
  size_t n = 0;
  while (n < a.size()) {
    auto c = static_cast<unsigned char>(a[n]);
    if (!(std::isalnum(c) || c == '_' || c == '$' || c >= 0x80)) break;
    ++n;
  }
  return std::string(a.substr(0, n));
}

bool IEquals(std::string_view a, const char* b) {
  size_t n = std::strlen(b);
  if (a.size() != n) return false;
  for (size_t i = 0; i < n; ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  }
  return true;
}

int ParsePrefixes(const std::string& v, std::vector<int>* out) {
  size_t i = 0;
  while (i < v.size()) {
    if (v[i] == ',') {
      ++i;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(v[i]))) return SQLITE_ERROR;
    long n = 0;
    while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) {
      n = n * 10 + (v[i++] - '0');
      if (n > 1000000) return SQLITE_ERROR;
    }
    if (n <= 0) continue;
    out->push_back(static_cast<int>(n));
    if (i < v.size() && v[i] != ',') return SQLITE_ERROR;
  }
  return SQLITE_OK;
}

std::string DeclareSql(const FtsTable* t) {
  std::string s = "CREATE TABLE x(";
  for (const auto& c : t->columns) s += QuoteLiteral(c) + ", ";
  s += QuoteLiteral(t->name) + " HIDDEN, docid HIDDEN, " +
       QuoteLiteral(t->langid_col.empty() ? "__langid" : t->langid_col) + " HIDDEN)";
  return s;
}

int CreateShadows(FtsTable* t) {
  std::string sql;
  if (!t->external_content) {
    sql += "CREATE TABLE " + t->ShadowDecl("_content") + "(docid INTEGER PRIMARY KEY";
    for (int i = 0; i < t->ncol(); ++i) {
      sql += ", " + QuoteLiteral("c" + std::to_string(i) + t->columns[i]);
    }
    if (!t->langid_col.empty()) sql += ", langid";
    sql += ");";
  }
  sql +=
      "CREATE TABLE " + t->ShadowDecl("_segments") + "(blockid INTEGER PRIMARY KEY, block BLOB);";
  sql += "CREATE TABLE " + t->ShadowDecl("_segdir") +
         "(level INTEGER,idx INTEGER,start_block INTEGER,leaves_end_block INTEGER,end_block "
         "INTEGER,root BLOB,PRIMARY KEY(level, idx));";
  if (t->has_docsize) {
    sql += "CREATE TABLE " + t->ShadowDecl("_docsize") + "(docid INTEGER PRIMARY KEY, size BLOB);";
  }
  if (t->has_stat) {
    sql += "CREATE TABLE IF NOT EXISTS " + t->ShadowDecl("_stat") +
           "(id INTEGER PRIMARY KEY, value BLOB);";
  }
  return Exec(t, sql);
}

// Applies one FTS4 option; returns false with *err set when it is invalid.
bool ApplyOption(FtsTable* t, std::string_view key, const std::string& val,
                 std::vector<std::string>* notindexed, std::string* err) {
  if (IEquals(key, "prefix")) {
    if (ParsePrefixes(val, &t->prefixes) != SQLITE_OK) {
      *err = "error parsing prefix parameter: " + val;
      return false;
    }
  } else if (IEquals(key, "compress")) {
    t->compress = val;
  } else if (IEquals(key, "uncompress")) {
    t->uncompress = val;
  } else if (IEquals(key, "order")) {
    if (IEquals(val, "asc")) {
      t->desc = false;
    } else if (IEquals(val, "desc")) {
      t->desc = true;
    } else {
      *err = "unrecognized order: " + val;
      return false;
    }
  } else if (IEquals(key, "content")) {
    t->external_content = true;
    t->content_table = val;
    t->contentless = val.empty();
  } else if (IEquals(key, "languageid")) {
    t->langid_col = val;
  } else if (IEquals(key, "notindexed")) {
    notindexed->push_back(val);
  } else if (IEquals(key, "matchinfo")) {
    if (IEquals(val, "fts3")) {
      t->matchinfo_fts3 = true;
    } else {
      *err = "unrecognized matchinfo: " + val;
      return false;
    }
  } else {
    *err = "unrecognized parameter: " + std::string(key) + "=" + val;
    return false;
  }
  return true;
}

// The columns of the content= table, when no column is given.
void ColumnsOfContentTable(FtsTable* t) {
  Stmt s;
  std::string sql = "SELECT * FROM " + QuoteIdent(t->schema) + "." + QuoteIdent(t->content_table);
  if (Prep(t, &s, sql) != SQLITE_OK) return;
  for (int i = 0; i < sqlite3_column_count(s); ++i) {
    t->columns.push_back(sqlite3_column_name(s, i));
  }
}

}  // namespace

std::string ContentSelect(const FtsTable* t) {
  std::string s = "SELECT ";
  if (t->external_content) {
    for (int i = 0; i < t->ncol(); ++i) s += (i ? ", " : "") + QuoteIdent(t->columns[i]);
    if (!t->langid_col.empty()) s += ", " + QuoteIdent(t->langid_col);
    s += " FROM " + QuoteIdent(t->schema) + "." + QuoteIdent(t->content_table) + " WHERE rowid=?";
  } else {
    for (int i = 0; i < t->ncol(); ++i) {
      s += (i ? ", " : "") + QuoteIdent("c" + std::to_string(i) + t->columns[i]);
    }
    if (!t->langid_col.empty()) s += ", langid";
    s += " FROM " + t->Shadow("_content") + " WHERE docid=?";
  }
  return s;
}

int ParseAndCreate(sqlite3* db, void* aux, int argc, const char* const* argv, bool create,
                   FtsTable** out, char** err) {
  auto t = std::make_unique<FtsTable>();
  t->db = db;
  t->fts4 = IEquals(argv[0], "fts4");
  t->schema = argv[1];
  t->name = argv[2];
  std::vector<std::string> tok_spec = {"simple"};
  std::vector<std::string> notindexed;
  std::string msg;
  for (int i = 3; i < argc; ++i) {
    std::string_view a = argv[i];
    while (!a.empty() && std::isspace(static_cast<unsigned char>(a.front()))) a.remove_prefix(1);
    size_t eq = a.find('=');
    std::string_view key = a.substr(0, eq == std::string_view::npos ? a.size() : eq);
    while (!key.empty() && std::isspace(static_cast<unsigned char>(key.back()))) {
      key.remove_suffix(1);
    }
    if (a.size() > 8 && IEquals(a.substr(0, 8), "tokenize") &&
        (a[8] == '=' || std::isspace(static_cast<unsigned char>(a[8])))) {
      tok_spec = SplitTokens(a.substr(9));
      if (tok_spec.empty()) tok_spec = {"simple"};
      continue;
    }
    if (t->fts4 && eq != std::string_view::npos) {
      std::string val = Dequote(a.substr(eq + 1));
      if (!ApplyOption(t.get(), key, val, &notindexed, &msg)) {
        *err = sqlite3_mprintf("%s", msg.c_str());
        return SQLITE_ERROR;
      }
      continue;
    }
    t->columns.push_back(ColumnName(a));
  }
  if (t->columns.empty() && t->external_content && !t->contentless) ColumnsOfContentTable(t.get());
  if (t->columns.empty()) t->columns.push_back("content");
  t->notindexed.assign(t->columns.size(), false);
  for (const auto& n : notindexed) {
    bool found = false;
    for (size_t c = 0; c < t->columns.size(); ++c) {
      if (sqlite3_stricmp(t->columns[c].c_str(), n.c_str()) == 0) {
        t->notindexed[c] = true;
        found = true;
      }
    }
    if (!found) {
      *err = sqlite3_mprintf("no such column: %s", n.c_str());
      return SQLITE_ERROR;
    }
  }
  if (t->compress.empty() != t->uncompress.empty()) {
    *err = sqlite3_mprintf("missing %s parameter in fts4 constructor",
                           t->compress.empty() ? "compress" : "uncompress");
    return SQLITE_ERROR;
  }
  t->has_docsize = t->fts4 && !t->matchinfo_fts3;  // SQLite keeps no %_docsize then
  t->has_stat = t->fts4;
  auto* reg = static_cast<TokenizerRegistry*>(aux);
  const sqlite3_tokenizer_module* m = reg->Find(tok_spec[0]);
  if (m == nullptr) {
    *err = sqlite3_mprintf("unknown tokenizer: %s", tok_spec[0].c_str());
    return SQLITE_ERROR;
  }
  std::vector<std::string> targs(tok_spec.begin() + 1, tok_spec.end());
  if (t->tokenizer.Create(m, targs) != SQLITE_OK) {
    *err = sqlite3_mprintf("unknown tokenizer");
    return SQLITE_ERROR;
  }
  t->pending.resize(t->nindex());
  // As SQLite: the shadow tables, the page size, then the declaration
  // (the authorizer sees their statements in that order).
  int rc = create ? CreateShadows(t.get()) : SQLITE_OK;
  if (rc != SQLITE_OK) return rc;
  {
    Stmt ps;
    std::string psql = "PRAGMA " + QuoteIdent(t->schema) + ".page_size";
    if (ps.Prepare(db, psql) == SQLITE_OK && sqlite3_step(ps) == SQLITE_ROW) {
      t->node_size = sqlite3_column_int(ps, 0) - 35;
    }
  }
  rc = sqlite3_declare_vtab(db, DeclareSql(t.get()).c_str());
  if (rc != SQLITE_OK) return rc;
  *out = t.release();
  return SQLITE_OK;
}

}  // namespace basalt::fts

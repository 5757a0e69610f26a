// The sqlite3 shell's own helper functions, as its 3.40.1 build defines them:
//   shell_add_schema(SQL, SCHEMA, NAME)  "CREATE <kind> x" -> "CREATE <kind> SCHEMA.x",
//       plus a "/* schema.name(cols) */" line for views and virtual tables
//   shell_module_schema(NAME)  "/* name(cols) */" for a table or module name
//   shell_idquote(X)     X as a double-quoted identifier
//   shell_escape_crnl(X) X unchanged (the reference escapes only on Windows)
//   shell_int32(BLOB, N) the N-th big-endian 32-bit unsigned word of BLOB
//   shell_putsnl(X)      writes X and a newline to the shell's output; returns X
//   usleep(N)            sleeps N microseconds; returns N
//   edit(X ?, EDITOR?)   X through an editor ($VISUAL unless EDITOR is given)
// and the -safe authorizer that ends the shell on ATTACH and on functions
// reaching files or programs.
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "shell/shell.h"
#include "shell/shell_ext.h"

namespace shell {
namespace {

std::string Text(sqlite3_value* v) {
  const unsigned char* z = sqlite3_value_text(v);
  return z ? std::string(reinterpret_cast<const char*>(z)) : std::string();
}

// '"' when the name needs quoting as an identifier, else 0.
char QuoteChar(const std::string& z) {
  if (z.empty() || (!std::isalpha(static_cast<unsigned char>(z[0])) && z[0] != '_')) return '"';
  for (char c : z) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return '"';
  }
  return sqlite3_keyword_check(z.c_str(), static_cast<int>(z.size())) ? '"' : 0;
}

std::string Quoted(const std::string& z, char q) {
  if (q == 0) return z;
  std::string r(1, q);
  for (char c : z) {
    r += c;
    if (c == q) r += c;
  }
  return r + q;
}

// "schema.name(col,...)" from PRAGMA table_info; empty when it has no columns.
std::string FakeSchema(sqlite3* db, const char* schema, const std::string& name) {
  char* sql =
      sqlite3_mprintf("PRAGMA \"%w\".table_info=%Q;", schema ? schema : "main", name.c_str());
  sqlite3_stmt* st = nullptr;
  const int rc = sqlite3_prepare_v2(db, sql, -1, &st, nullptr);
  sqlite3_free(sql);
  if (rc != SQLITE_OK) return std::string();
  std::string s;
  if (schema != nullptr) {
    char q = QuoteChar(schema);
    if (q && sqlite3_stricmp(schema, "temp") == 0) q = 0;
    s = Quoted(schema, q) + ".";
  }
  s += Quoted(name, QuoteChar(name));
  const char* sep = "(";
  int rows = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    ++rows;
    const unsigned char* col = sqlite3_column_text(st, 1);
    const std::string c = col ? reinterpret_cast<const char*>(col) : "";
    s += sep + Quoted(c, QuoteChar(c));
    sep = ",";
  }
  sqlite3_finalize(st);
  return rows ? s + ")" : std::string();
}

void AddSchemaFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  static const char* const kKinds[] = {"TABLE",   "INDEX", "UNIQUE INDEX",
                                       "TRIGGER", "VIEW",  "VIRTUAL TABLE"};
  const unsigned char* in = sqlite3_value_text(argv[0]);
  const unsigned char* schema = sqlite3_value_text(argv[1]);
  const unsigned char* name = sqlite3_value_text(argv[2]);
  const char* sql = reinterpret_cast<const char*>(in);
  if (sql != nullptr && std::strncmp(sql, "CREATE ", 7) == 0) {
    for (const char* kind : kKinds) {
      const size_t n = std::strlen(kind);
      if (std::strncmp(sql + 7, kind, n) != 0 || sql[n + 7] != ' ') continue;
      std::string out;
      bool have = false;
      const char* zs = reinterpret_cast<const char*>(schema);
      if (zs != nullptr) {
        const char q = QuoteChar(zs);
        const std::string s = (q && sqlite3_stricmp(zs, "temp") != 0) ? Quoted(zs, '"') : zs;
        out = std::string(sql, n + 7) + " " + s + "." + (sql + n + 8);
        have = true;
      }
      if (name != nullptr && kind[0] == 'V') {
        const std::string fake =
            FakeSchema(sqlite3_context_db_handle(ctx), zs, reinterpret_cast<const char*>(name));
        if (!fake.empty()) {
          out = (have ? out : std::string(sql)) + "\n/* " + fake + " */";
          have = true;
        }
      }
      if (have) {
        sqlite3_result_text(ctx, out.c_str(), -1, SQLITE_TRANSIENT);
        return;
      }
    }
  }
  sqlite3_result_value(ctx, argv[0]);
}

void ModuleSchemaFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_text(argv[0]) == nullptr) return;
  const std::string fake = FakeSchema(sqlite3_context_db_handle(ctx), nullptr, Text(argv[0]));
  if (fake.empty()) return;
  sqlite3_result_text(ctx, ("/* " + fake + " */").c_str(), -1, SQLITE_TRANSIENT);
}

void IdQuoteFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_text(argv[0]) == nullptr) return;
  const std::string q = Quoted(Text(argv[0]), '"');
  sqlite3_result_text(ctx, q.c_str(), static_cast<int>(q.size()), SQLITE_TRANSIENT);
}

void EscapeCrnlFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  sqlite3_result_value(ctx, argv[0]);
}

void Int32Func(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const auto* blob = static_cast<const unsigned char*>(sqlite3_value_blob(argv[0]));
  const int n = sqlite3_value_bytes(argv[0]);
  const int i = sqlite3_value_int(argv[1]);
  if (blob == nullptr || i < 0 || (i + 1) * 4 > n) return;
  const unsigned char* p = blob + i * 4;
  const sqlite3_int64 v = (sqlite3_int64{p[0]} << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
  sqlite3_result_int64(ctx, v);
}

void PutsFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* sh = static_cast<Shell*>(sqlite3_user_data(ctx));
  sqlite3_result_value(ctx, argv[0]);  // before the text conversion below
  const unsigned char* z = sqlite3_value_text(argv[0]);
  std::fprintf(sh->out, "%s\n", z ? reinterpret_cast<const char*>(z) : "(null)");
}

void UsleepFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const int us = sqlite3_value_int(argv[0]);
  if (us > 0) usleep(static_cast<useconds_t>(us));
  sqlite3_result_int(ctx, us);
}

void EditFunc(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  const char* editor = argc == 2 ? reinterpret_cast<const char*>(sqlite3_value_text(argv[1]))
                                 : std::getenv("VISUAL");
  if (editor == nullptr) {
    sqlite3_result_error(ctx, "no editor for edit()", -1);
    return;
  }
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_error(ctx, "NULL input to edit()", -1);
    return;
  }
  const bool bin = sqlite3_value_type(argv[0]) == SQLITE_BLOB;
  char name[] = "/tmp/basalt_editXXXXXX";
  const int fd = mkstemp(name);
  FILE* f = fd < 0 ? nullptr : fdopen(fd, "wb");
  if (f == nullptr) {
    sqlite3_result_error(ctx, "edit() cannot open temp file", -1);
    return;
  }
  const void* data = bin ? sqlite3_value_blob(argv[0]) : sqlite3_value_text(argv[0]);
  std::fwrite(data, 1, static_cast<size_t>(sqlite3_value_bytes(argv[0])), f);
  std::fclose(f);
  const std::string cmd = std::string(editor) + " \"" + name + "\"";
  if (std::system(cmd.c_str()) != 0) {
    sqlite3_result_error(ctx, "EDITOR returned non-zero", -1);
  } else if ((f = std::fopen(name, "rb")) == nullptr) {
    sqlite3_result_error(ctx, "edit() cannot reopen temp file after edit", -1);
  } else {
    std::string got;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) got.append(buf, n);
    std::fclose(f);
    if (bin) {
      sqlite3_result_blob(ctx, got.data(), static_cast<int>(got.size()), SQLITE_TRANSIENT);
    } else {
      sqlite3_result_text(ctx, got.data(), static_cast<int>(got.size()), SQLITE_TRANSIENT);
    }
  }
  std::remove(name);
}

// -safe: ATTACH and the functions in kProhibited end the shell.
int SafeModeAuth(void* arg, int op, const char* a1, const char* a2, const char*, const char*) {
  static const char* const kProhibited[] = {"edit",       "fts3_tokenizer", "load_extension",
                                            "readfile",   "writefile",      "zipfile",
                                            "zipfile_cds"};
  auto* sh = static_cast<Shell*>(arg);
  if (!sh->safe_mode) return SQLITE_OK;
  if (op == SQLITE_ATTACH) {
    std::fprintf(stderr, "line %d: cannot run ATTACH in safe mode\n", sh->lineno);
    std::exit(1);
  }
  if (op == SQLITE_FUNCTION) {
    const char* fn = a2 ? a2 : a1;
    for (const char* p : kProhibited) {
      if (fn != nullptr && sqlite3_stricmp(fn, p) == 0) {
        std::fprintf(stderr, "line %d: cannot use the %s() function in safe mode\n", sh->lineno,
                     fn);
        std::exit(1);
      }
    }
  }
  return SQLITE_OK;
}

}  // namespace

void RegisterShellHelpers(sqlite3* db, Shell* sh) {
  const int f = SQLITE_UTF8;
  sqlite3_create_function(db, "shell_add_schema", 3, f, nullptr, AddSchemaFunc, nullptr, nullptr);
  sqlite3_create_function(db, "shell_module_schema", 1, f, nullptr, ModuleSchemaFunc, nullptr,
                          nullptr);
  sqlite3_create_function(db, "shell_idquote", 1, f, nullptr, IdQuoteFunc, nullptr, nullptr);
  sqlite3_create_function(db, "shell_escape_crnl", 1, f, nullptr, EscapeCrnlFunc, nullptr, nullptr);
  sqlite3_create_function(db, "shell_int32", 2, f, nullptr, Int32Func, nullptr, nullptr);
  sqlite3_create_function(db, "shell_putsnl", 1, f, sh, PutsFunc, nullptr, nullptr);
  sqlite3_create_function(db, "usleep", 1, f, nullptr, UsleepFunc, nullptr, nullptr);
  sqlite3_create_function(db, "edit", 1, f, nullptr, EditFunc, nullptr, nullptr);
  sqlite3_create_function(db, "edit", 2, f, nullptr, EditFunc, nullptr, nullptr);
  if (sh->safe_mode || sh->safe_persist) sqlite3_set_authorizer(db, SafeModeAuth, sh);
}

}  // namespace shell

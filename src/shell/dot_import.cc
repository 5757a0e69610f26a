// .import FILE TABLE: CSV or ASCII-separated rows into a table, creating
// it from the first row (the column names) when it does not exist.
//
// Field reading follows sqlite3: a CSV field may be "quoted" (with ""
// for a quote, and separators or newlines inside); a row ends at the row
// separator, a trailing \r dropped; rows with too few fields are padded
// with NULL, extra fields ignored, each reported on stderr.
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {
namespace {

struct ImportCtx {
  FILE* in = nullptr;
  std::string file;  // name used in messages ("<pipe>" for a command)
  int col_sep = ',';
  int row_sep = '\n';
  bool csv = true;
  bool not_first = false;
  int line = 1;
  int term = 0;  // the character that ended the last field (EOF at end)
  std::string z;
  int rows = 0;
  int errors = 0;
};

// Reads one field into ctx.z; false at end of input.
bool ReadField(ImportCtx& p) {
  p.z.clear();
  int c = std::fgetc(p.in);
  if (c == EOF) {
    p.term = EOF;
    return false;
  }
  if (p.csv && c == '"') {
    const int start = p.line;
    int pc = 0, ppc = 0;
    while (true) {
      c = std::fgetc(p.in);
      if (c == p.row_sep) ++p.line;
      if (c == '"' && pc == '"') {
        pc = 0;
        continue;
      }
      if ((c == p.col_sep && pc == '"') || (c == p.row_sep && pc == '"') ||
          (c == p.row_sep && pc == '\r' && ppc == '"') || (c == EOF && pc == '"')) {
        while (!p.z.empty() && p.z.back() != '"') p.z.pop_back();
        if (!p.z.empty()) p.z.pop_back();
        p.term = c;
        break;
      }
      if (pc == '"' && c != '\r') {
        std::fprintf(stderr, "%s:%d: unescaped %c character\n", p.file.c_str(), p.line, '"');
      }
      if (c == EOF) {
        std::fprintf(stderr, "%s:%d: unterminated %c-quoted field\n", p.file.c_str(), start, '"');
        p.term = c;
        break;
      }
      p.z += static_cast<char>(c);
      ppc = pc;
      pc = c;
    }
  } else {
    if (p.csv && (c & 0xff) == 0xef && !p.not_first) {  // a UTF-8 byte order mark
      p.z += static_cast<char>(c);
      c = std::fgetc(p.in);
      if ((c & 0xff) == 0xbb) {
        p.z += static_cast<char>(c);
        c = std::fgetc(p.in);
        if ((c & 0xff) == 0xbf) {
          p.not_first = true;
          return ReadField(p);
        }
      }
    }
    while (c != EOF && c != p.col_sep && c != p.row_sep) {
      p.z += static_cast<char>(c);
      c = std::fgetc(p.in);
    }
    if (c == p.row_sep) {
      ++p.line;
      if (p.csv && !p.z.empty() && p.z.back() == '\r') p.z.pop_back();
    }
    p.term = c;
  }
  p.not_first = true;
  return true;
}

int UsageError(Shell& sh, const std::string& msg) {
  std::fprintf(sh.out, "%s", msg.c_str());
  ShowHelp(sh.out, "import");
  return 1;
}

// The column list of a table made from the header row: duplicate names
// (ignoring case) become name_N, N the column's position.
std::string ColumnDefs(const std::vector<std::string>& names, std::string* renames) {
  std::map<std::string, int> count;
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  for (const std::string& n : names) ++count[lower(n)];
  std::string defs = "(\n";
  for (size_t i = 0; i < names.size(); ++i) {
    std::string name = names[i];
    const int reps = count[lower(name)];
    if (reps > 1) {
      const int digits = static_cast<int>(std::to_string(reps).size());
      char suffix[32];
      std::snprintf(suffix, sizeof(suffix), "_%0*d", digits, static_cast<int>(i + 1));
      if (!renames->empty()) *renames += ",\n";
      *renames += QuoteIdent(name) + " to " + QuoteIdent(name + suffix);
      name += suffix;
    }
    if (i) defs += ", ";
    defs += QuoteIdent(name) + " TEXT";
  }
  return defs + ")";
}

// Reads the rows after the header (or all of them) into the prepared
// INSERT, one row per ncol fields.
void InsertRows(Shell& sh, ImportCtx& ctx, sqlite3_stmt* st, int ncol) {
  do {
    const int start = ctx.line;
    int i = 0;
    for (; i < ncol; ++i) {
      const bool got = ReadField(ctx);
      if (!got && i == 0) break;
      if (sh.mode == Mode::kAscii && (!got || ctx.z.empty()) && i == 0) break;
      if (got) {
        sqlite3_bind_text(st, i + 1, ctx.z.c_str(), -1, SQLITE_TRANSIENT);
      } else {
        sqlite3_bind_null(st, i + 1);
      }
      if (i < ncol - 1 && ctx.term != ctx.col_sep) {
        std::fprintf(stderr,
                     "%s:%d: expected %d columns but found %d - filling the rest with NULL\n",
                     ctx.file.c_str(), start, ncol, i + 1);
        i += 2;
        while (i <= ncol) sqlite3_bind_null(st, i++);
      }
    }
    if (ctx.term == ctx.col_sep) {
      do {
        ReadField(ctx);
        ++i;
      } while (ctx.term == ctx.col_sep);
      std::fprintf(stderr, "%s:%d: expected %d columns but found %d - extras ignored\n",
                   ctx.file.c_str(), start, ncol, i);
    }
    if (i >= ncol) {
      sqlite3_step(st);
      if (sqlite3_reset(st) != SQLITE_OK) {
        std::fprintf(stderr, "%s:%d: INSERT failed: %s\n", ctx.file.c_str(), start,
                     sqlite3_errmsg(sh.db));
        ++ctx.errors;
      } else {
        ++ctx.rows;
      }
    }
  } while (ctx.term != EOF);
}

}  // namespace

int DotImport(Shell& sh, const std::vector<std::string>& a) {
  ImportCtx ctx;
  std::string file, table, schema;
  bool have_file = false, have_table = false, use_mode = true;
  int verbose = 0;
  long long skip = 0;
  for (size_t i = 1; i < a.size(); ++i) {
    const char* z = a[i].c_str();
    if (z[0] == '-' && z[1] == '-') ++z;
    if (z[0] != '-') {
      if (!have_file) {
        have_file = true;
        file = z;
      } else if (!have_table) {
        have_table = true;
        table = z;
      } else {
        return UsageError(sh, "ERROR: extra argument: \"" + std::string(z) + "\".  Usage:\n");
      }
    } else if (std::strcmp(z, "-v") == 0) {
      ++verbose;
    } else if (std::strcmp(z, "-schema") == 0 && i + 1 < a.size()) {
      schema = a[++i];
    } else if (std::strcmp(z, "-skip") == 0 && i + 1 < a.size()) {
      skip = IntegerValue(a[++i]);
    } else if (std::strcmp(z, "-ascii") == 0) {
      ctx.col_sep = 0x1f;
      ctx.row_sep = 0x1e;
      ctx.csv = false;
      use_mode = false;
    } else if (std::strcmp(z, "-csv") == 0) {
      ctx.col_sep = ',';
      ctx.row_sep = '\n';
      ctx.csv = true;
      use_mode = false;
    } else {
      return UsageError(sh, "ERROR: unknown option: \"" + std::string(z) + "\".  Usage:\n");
    }
  }
  if (!have_table) {
    return UsageError(sh, std::string("ERROR: missing ") + (have_file ? "TABLE" : "FILE") +
                              " argument. Usage:\n");
  }
  OpenDb(sh, false);
  if (use_mode) {
    if (sh.col_sep.empty()) {
      std::fprintf(stderr, "Error: non-null column separator required for import\n");
      return 1;
    }
    if (sh.col_sep.size() > 1) {
      std::fprintf(stderr, "Error: multi-character column separators not allowed for import\n");
      return 1;
    }
    if (sh.row_sep.empty()) {
      std::fprintf(stderr, "Error: non-null row separator required for import\n");
      return 1;
    }
    if (sh.mode == Mode::kCsv && sh.row_sep == "\r\n") sh.row_sep = "\n";
    if (sh.row_sep.size() > 1) {
      std::fprintf(stderr, "Error: multi-character row separators not allowed for import\n");
      return 1;
    }
    ctx.col_sep = static_cast<unsigned char>(sh.col_sep[0]);
    ctx.row_sep = static_cast<unsigned char>(sh.row_sep[0]);
    ctx.csv = sh.mode != Mode::kAscii;
  }
  const bool pipe = file[0] == '|';
  ctx.file = pipe ? "<pipe>" : file;
  ctx.in = pipe ? popen(file.c_str() + 1, "r") : std::fopen(file.c_str(), "rb");
  if (ctx.in == nullptr) {
    std::fprintf(stderr, "Error: cannot open \"%s\"\n", file.c_str());
    return 1;
  }
  auto close_in = [&]() { pipe ? pclose(ctx.in) : std::fclose(ctx.in); };
  if (verbose >= 2 || (verbose >= 1 && use_mode)) {
    char sep[2] = {static_cast<char>(ctx.col_sep), 0};
    std::fputs("Column separator ", sh.out);
    OutCString(sh.out, sep);
    std::fputs(", row separator ", sh.out);
    sep[0] = static_cast<char>(ctx.row_sep);
    OutCString(sh.out, sep);
    std::fputs("\n", sh.out);
  }
  while (skip-- > 0) {
    while (ReadField(ctx) && ctx.term == ctx.col_sep) {
    }
  }
  const std::string full =
      schema.empty() ? QuoteIdent(table) : QuoteIdent(schema) + "." + QuoteIdent(table);
  std::string select = "SELECT * FROM " + full;
  sqlite3_stmt* st = nullptr;
  int rc = sqlite3_prepare_v2(sh.db, select.c_str(), -1, &st, nullptr);
  if (rc && std::strncmp(sqlite3_errmsg(sh.db), "no such table: ", 15) == 0) {
    std::vector<std::string> names;
    while (ReadField(ctx)) {
      names.push_back(ctx.z);
      if (ctx.term != ctx.col_sep) break;
    }
    if (names.empty()) {
      std::fprintf(stderr, "%s: empty file\n", ctx.file.c_str());
      close_in();
      return 1;
    }
    std::string renames;
    std::string create = "CREATE TABLE " + full + ColumnDefs(names, &renames) + "\n";
    if (!renames.empty()) {
      std::fprintf(sh.interactive && sh.in == nullptr ? sh.out : stderr,
                   "Columns renamed during .import %s due to duplicates:\n%s\n", ctx.file.c_str(),
                   renames.c_str());
    }
    if (verbose >= 1) std::fprintf(sh.out, "%s\n", create.c_str());
    if (sqlite3_exec(sh.db, create.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
      std::fprintf(stderr, "%s failed:\n%s\n", create.c_str(), sqlite3_errmsg(sh.db));
      close_in();
      return 1;
    }
    rc = sqlite3_prepare_v2(sh.db, select.c_str(), -1, &st, nullptr);
  }
  if (rc) {
    sqlite3_finalize(st);
    std::fprintf(stderr, "Error: %s\n", sqlite3_errmsg(sh.db));
    close_in();
    return 1;
  }
  const int ncol = sqlite3_column_count(st);
  sqlite3_finalize(st);
  if (ncol == 0) {
    close_in();
    return 0;
  }
  std::string insert = "INSERT INTO " + full + " VALUES(?";
  for (int i = 1; i < ncol; ++i) insert += ",?";
  insert += ")";
  if (verbose >= 2) std::fprintf(sh.out, "Insert using: %s\n", insert.c_str());
  if (sqlite3_prepare_v2(sh.db, insert.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    std::fprintf(stderr, "Error: %s\n", sqlite3_errmsg(sh.db));
    sqlite3_finalize(st);
    close_in();
    return 1;
  }
  const bool commit = sqlite3_get_autocommit(sh.db) != 0;
  if (commit) sqlite3_exec(sh.db, "BEGIN", nullptr, nullptr, nullptr);
  InsertRows(sh, ctx, st, ncol);
  close_in();
  sqlite3_finalize(st);
  if (commit) sqlite3_exec(sh.db, "COMMIT", nullptr, nullptr, nullptr);
  if (verbose > 0) {
    std::fprintf(sh.out, "Added %d rows with %d errors using %d lines of input\n", ctx.rows,
                 ctx.errors, ctx.line - 1);
  }
  return 0;
}

}  // namespace shell

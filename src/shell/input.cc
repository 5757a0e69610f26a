// The input loop. Lines are read from a file (.read, -init, ~/.basaltrc),
// from piped standard input, or at a terminal with line editing. A line
// starting with '.' (outside SQL) is a dot-command, '#' a comment; other
// lines accumulate until they end a complete SQL statement.
//
// Invariant: `sql` is empty or holds the text of an incomplete statement
// that began on line `startline`.
#include <unistd.h>

#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

#include "shell/shell.h"

#ifdef BASALT_SHELL_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace shell {

volatile int g_interrupts = 0;

namespace {

bool IsSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// One line without its "\n" or "\r\n"; false at end of input.
bool ReadLine(FILE* in, std::string* line) {
  line->clear();
  int c;
  bool any = false;
  while ((c = std::fgetc(in)) != EOF) {
    any = true;
    if (c == '\n') break;
    line->push_back(static_cast<char>(c));
  }
  if (!any) return false;
  if (c == '\n' && !line->empty() && line->back() == '\r') line->pop_back();
  return true;
}

#ifdef BASALT_SHELL_READLINE
// Tab completion at the terminal, as sqlite3's: the distinct candidates of
// the completion table for the word being typed, case-insensitively
// sorted; nothing before a database is open.
Shell* g_completing = nullptr;

char* CompletionGenerator(const char* text, int state) {
  static sqlite3_stmt* st = nullptr;
  if (state == 0) {
    sqlite3_finalize(st);
    st = nullptr;
    if (g_completing != nullptr && g_completing->db != nullptr) {
      char* sql = sqlite3_mprintf(
          "SELECT DISTINCT candidate COLLATE nocase  FROM completion(%Q) ORDER BY 1", text);
      sqlite3_prepare_v2(g_completing->db, sql, -1, &st, nullptr);
      sqlite3_free(sql);
    }
  }
  if (st != nullptr && sqlite3_step(st) == SQLITE_ROW) {
    const unsigned char* z = sqlite3_column_text(st, 0);
    return z ? strdup(reinterpret_cast<const char*>(z)) : nullptr;
  }
  sqlite3_finalize(st);
  st = nullptr;
  return nullptr;
}

char** CompleteWord(const char* text, int, int) {
  rl_attempted_completion_over = 1;
  return rl_completion_matches(text, CompletionGenerator);
}
#endif

bool InteractiveLine(Shell& sh, bool continuation, std::string* line) {
  const std::string& prompt = continuation ? sh.continue_prompt : sh.prompt;
#ifdef BASALT_SHELL_READLINE
  g_completing = &sh;
  rl_attempted_completion_function = CompleteWord;
  char* z = readline(prompt.c_str());
  if (z == nullptr) return false;
  *line = z;
  if (*z) add_history(z);
  free(z);
  return true;
#else
  std::fputs(prompt.c_str(), stdout);
  std::fflush(stdout);
  return ReadLine(stdin, line);
#endif
}

// "/" or "go" alone on a line ends the statement (Oracle and SQL Server).
bool IsCommandTerminator(const std::string& line) {
  size_t i = 0;
  while (i < line.size() && IsSpace(line[i])) ++i;
  if (i < line.size() && line[i] == '/') {
    ++i;
  } else if (i + 1 < line.size() && std::tolower(line[i]) == 'g' &&
             std::tolower(line[i + 1]) == 'o') {
    i += 2;
  } else {
    return false;
  }
  return AllWhitespace(line.c_str() + i);
}

}  // namespace

// True when z holds only white space and SQL comments.
bool AllWhitespace(const char* z) {
  for (; *z; ++z) {
    if (IsSpace(*z)) continue;
    if (z[0] == '/' && z[1] == '*') {
      z += 2;
      while (*z && !(z[0] == '*' && z[1] == '/')) ++z;
      if (*z == 0) return false;
      ++z;
      continue;
    }
    if (z[0] == '-' && z[1] == '-') {
      z += 2;
      while (*z && *z != '\n') ++z;
      if (*z == 0) return true;
      continue;
    }
    return false;
  }
  return true;
}

int ProcessInput(Shell& sh) {
  if (sh.input_nesting == 25) {
    std::fprintf(stderr, "Input nesting limit (25) reached at line %d. Check recursion.\n",
                 sh.lineno);
    return 1;
  }
  ++sh.input_nesting;
  sh.lineno = 0;
  std::string sql;
  std::string line;
  int errors = 0;
  int startline = 0;
  const bool at_terminal = sh.in == nullptr && sh.interactive;
  while (errors == 0 || !sh.bail || at_terminal) {
    std::fflush(sh.out);
    bool got = at_terminal ? InteractiveLine(sh, !sql.empty(), &line)
                           : ReadLine(sh.in ? sh.in : stdin, &line);
    if (!got) {
      if (at_terminal) std::printf("\n");
      break;
    }
    if (g_interrupts) {
      if (sh.in != nullptr) break;
      g_interrupts = 0;
    }
    ++sh.lineno;
    if (sql.empty() && AllWhitespace(line.c_str())) {
      if (sh.echo) std::printf("%s\n", line.c_str());
      continue;
    }
    if (sql.empty() && !line.empty() && (line[0] == '.' || line[0] == '#')) {
      if (sh.echo) std::printf("%s\n", line.c_str());
      if (line[0] == '.') {
        int rc = DoMetaCommand(sh, line);
        if (rc == 2) break;
        if (rc) ++errors;
      }
      continue;
    }
    if (IsCommandTerminator(line) && sqlite3_complete((sql + ";").c_str())) line = ";";
    const size_t prior = sql.size();
    if (sql.empty()) {
      size_t i = 0;
      while (i < line.size() && IsSpace(line[i])) ++i;
      sql = line.substr(i);
      startline = sh.lineno;
    } else {
      sql += '\n';
      sql += line;
    }
    if (!sql.empty() && sql.find(';', prior) != std::string::npos &&
        sqlite3_complete(sql.c_str())) {
      errors += RunSqlLine(sh, sql, startline);
      sql.clear();
      if (sh.once_pending) {
        OutputReset(sh);
        sh.once_pending = 0;
      }
    } else if (!sql.empty() && AllWhitespace(sql.c_str())) {
      if (sh.echo) std::printf("%s\n", sql.c_str());
      sql.clear();
    }
  }
  if (!sql.empty() && !AllWhitespace(sql.c_str())) errors += RunSqlLine(sh, sql, startline);
  --sh.input_nesting;
  return errors > 0;
}

}  // namespace shell

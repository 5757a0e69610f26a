// basalt: a sqlite3-compatible command-line shell (first cut: SQL from
// standard input or a terminal, list output mode, sqlite3's error format and
// exit status). It uses only the public C API.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "sqlite3.h"

namespace {

struct Shell {
  sqlite3* db = nullptr;
  bool headers = false;
  std::string separator = "|";
  std::string null_text;
  bool had_error = false;
  int last_rc = 0;  // result code of the last failed statement
};

void PrintRow(Shell& sh, sqlite3_stmt* stmt, bool first) {
  int n = sqlite3_column_count(stmt);
  if (first && sh.headers) {
    for (int i = 0; i < n; ++i) {
      if (i) std::fputs(sh.separator.c_str(), stdout);
      std::fputs(sqlite3_column_name(stmt, i), stdout);
    }
    std::fputc('\n', stdout);
  }
  for (int i = 0; i < n; ++i) {
    if (i) std::fputs(sh.separator.c_str(), stdout);
    const unsigned char* t = sqlite3_column_text(stmt, i);
    if (t == nullptr) {
      std::fputs(sh.null_text.c_str(), stdout);
    } else {
      std::fwrite(t, 1, static_cast<size_t>(sqlite3_column_bytes(stmt, i)), stdout);
    }
  }
  std::fputc('\n', stdout);
}

// EXPLAIN QUERY PLAN rows (id, parent, -, detail) drawn as sqlite3 draws
// them: a "QUERY PLAN" line, then each row under its parent with |-- (more
// siblings follow) or `-- (the last one).
struct EqpRow {
  int id;
  int parent;
  std::string detail;
};

void RenderEqpLevel(const std::vector<EqpRow>& rows, int parent, std::string* prefix) {
  std::vector<const EqpRow*> level;
  for (const EqpRow& r : rows) {
    if (r.parent == parent) level.push_back(&r);
  }
  for (size_t i = 0; i < level.size(); ++i) {
    const bool more = i + 1 < level.size();
    std::printf("%s%s%s\n", prefix->c_str(), more ? "|--" : "`--", level[i]->detail.c_str());
    const size_t n = prefix->size();
    if (n < 93) {  // sqlite3's prefix buffer bounds the depth drawn
      *prefix += more ? "|  " : "   ";
      RenderEqpLevel(rows, level[i]->id, prefix);
      prefix->resize(n);
    }
  }
}

int StepEqp(sqlite3_stmt* stmt) {
  std::vector<EqpRow> rows;
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    const unsigned char* t = sqlite3_column_text(stmt, 3);
    rows.push_back({sqlite3_column_int(stmt, 0), sqlite3_column_int(stmt, 1),
                    t ? reinterpret_cast<const char*>(t) : ""});
  }
  if (!rows.empty()) {
    std::fputs("QUERY PLAN\n", stdout);
    std::string prefix;
    RenderEqpLevel(rows, 0, &prefix);
  }
  return rc;
}

// The excerpt of `sql` around the error offset, with a marker under it, as
// sqlite3 prints it ("" when the error has no offset).
std::string ErrorContext(sqlite3* db, const char* sql) {
  int off = sqlite3_error_offset(db);
  if (off < 0) return "";
  const char* z = sql;
  while (off > 50) {
    --off;
    ++z;
    while ((static_cast<unsigned char>(*z) & 0xc0) == 0x80) {
      ++z;
      --off;
    }
  }
  size_t len = std::strlen(z);
  if (len > 78) {
    len = 78;
    while ((static_cast<unsigned char>(z[len]) & 0xc0) == 0x80) --len;
  }
  std::string code(z, len);
  for (char& c : code) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') c = ' ';
  }
  std::string out = "\n  " + code + "\n  ";
  if (off < 25) {
    out += std::string(static_cast<size_t>(off), ' ') + "^--- error here";
  } else {
    out += std::string(static_cast<size_t>(off - 14), ' ') + "error here ---^";
  }
  return out;
}

// Runs every statement in `sql` (which starts on line `line`; 0 for SQL
// given on the command line, whose errors sqlite3 words differently).
void RunSql(Shell& sh, const std::string& sql, int line) {
  const char* tail = sql.c_str();
  while (*tail) {
    sqlite3_stmt* stmt = nullptr;
    const char* next = nullptr;
    int rc = sqlite3_prepare_v2(sh.db, tail, -1, &stmt, &next);
    if (rc != SQLITE_OK) {
      std::string msg = sqlite3_errmsg(sh.db);
      // sqlite3 adds the result code unless it is the generic SQLITE_ERROR.
      if (rc > 1) msg += " (" + std::to_string(rc) + ")";
      if (line == 0) {
        std::fprintf(stderr, "Error: in prepare, %s%s\n", msg.c_str(),
                     ErrorContext(sh.db, tail).c_str());
      } else {
        std::fprintf(stderr, "Parse error near line %d: %s%s\n", line, msg.c_str(),
                     ErrorContext(sh.db, tail).c_str());
      }
      sh.had_error = true;
      sh.last_rc = rc;
      return;
    }
    if (stmt == nullptr) break;
    bool first = true;
    if (sqlite3_stmt_isexplain(stmt) == 2) {
      rc = StepEqp(stmt);
    } else {
      while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        PrintRow(sh, stmt, first);
        first = false;
      }
    }
    if (rc != SQLITE_DONE) {
      // sqlite3 adds the result code unless it is the generic SQLITE_ERROR.
      std::string msg = sqlite3_errmsg(sh.db);
      if (rc > 1) msg += " (" + std::to_string(rc) + ")";
      if (line == 0) {
        std::fprintf(stderr, "Error: stepping, %s\n", msg.c_str());
      } else {
        std::fprintf(stderr, "Runtime error near line %d: %s\n", line, msg.c_str());
      }
      sh.had_error = true;
      sh.last_rc = rc;
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE) return;
    tail = next;
    while (*tail == ' ' || *tail == '\t' || *tail == '\n' || *tail == '\r' || *tail == '\f') {
      ++tail;
    }
  }
}

bool DotCommand(Shell& sh, const std::string& line) {
  std::string cmd = line.substr(0, line.find_first_of(" \t"));
  std::string arg;
  size_t sp = line.find_first_of(" \t");
  if (sp != std::string::npos) {
    arg = line.substr(line.find_first_not_of(" \t", sp));
    while (!arg.empty() && (arg.back() == ' ' || arg.back() == '\r')) arg.pop_back();
  }
  if (cmd == ".quit" || cmd == ".exit") return false;
  if (cmd == ".headers" || cmd == ".header") {
    sh.headers = arg == "on" || arg == "1" || arg == "yes";
  } else if (cmd == ".separator") {
    if (!arg.empty()) sh.separator = arg;
  } else if (cmd == ".nullvalue") {
    sh.null_text = arg;
  } else {
    std::fprintf(stderr,
                 "Error: unknown command or invalid arguments:  \"%s\". Enter \".help\" for help\n",
                 cmd.c_str() + 1);
    sh.had_error = true;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Shell sh;
  const char* file = nullptr;
  std::vector<std::string> commands;  // SQL or dot-commands after the file name
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-' && argv[i][1] != '\0') continue;
    if (file == nullptr) {
      file = argv[i];
    } else {
      commands.emplace_back(argv[i]);
    }
  }
  if (file == nullptr) file = ":memory:";
  if (sqlite3_open(file, &sh.db) != SQLITE_OK) {
    std::fprintf(stderr, "Error: unable to open database \"%s\": %s\n", file,
                 sqlite3_errmsg(sh.db));
    return 1;
  }
  if (!commands.empty()) {
    // Each argument in turn, until the first error; the exit status is
    // then the result code of the failing statement (1 for a dot-command).
    for (const std::string& c : commands) {
      if (c[0] == '.') {
        if (!DotCommand(sh, c)) break;
        if (sh.had_error) {
          sqlite3_close(sh.db);
          return 1;
        }
        continue;
      }
      RunSql(sh, c, 0);  // line 0: the SQL came from the command line
      if (sh.had_error) break;
    }
    sqlite3_close(sh.db);
    return sh.had_error ? (sh.last_rc > 0 ? (sh.last_rc & 0xff) : 1) : 0;
  }
  bool interactive = isatty(0);
  std::string buf;
  int start_line = 0;
  int lineno = 0;
  std::string line;
  while (true) {
    if (interactive) std::fputs(buf.empty() ? "basalt> " : "   ...> ", stdout), std::fflush(stdout);
    if (!std::getline(std::cin, line)) break;
    ++lineno;
    if (buf.empty()) {
      size_t p = line.find_first_not_of(" \t");
      if (p != std::string::npos && line[p] == '.') {
        if (!DotCommand(sh, line.substr(p))) break;
        continue;
      }
      if (p == std::string::npos) continue;
      start_line = lineno;
    }
    if (!buf.empty()) buf += '\n';
    buf += line;
    if (sqlite3_complete(buf.c_str())) {
      RunSql(sh, buf, start_line);
      buf.clear();
    }
  }
  if (!buf.empty() && buf.find_first_not_of(" \t\n") != std::string::npos) {
    RunSql(sh, buf, start_line);
  }
  sqlite3_close(sh.db);
  return sh.had_error ? 1 : 0;
}

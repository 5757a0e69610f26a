// .recover and .nonce.
//
// .recover [--ignore-freelist] [--lost-and-found TABLE] [--no-rowids]:
// sqlite3 3.40.1 rebuilds a database from its pages, read through the
// sqlite_dbpage table. Debian's library lacks that table, so the reference
// prints the settings preamble (BEGIN, writable_schema, then encoding,
// page_size, auto_vacuum, user_version, application_id as they are) and
// then fails with "sql error: SQL logic error (1)". Basalt's library lacks
// it too and this does the same; should sqlite_dbpage exist, it says that
// page recovery is not available instead.
//
// .nonce STRING: with the -nonce STRING option, suspends -safe until the
// next dot-command has run (SQL before it runs unrestricted too); a wrong
// or missing nonce ends the shell.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {

int DotRecover(Shell& sh, const std::vector<std::string>& a) {
  // Options by prefix, as the reference matches them (after one '-' of a
  // leading "--"); the two taking an argument need one to follow.
  for (size_t i = 1; i < a.size(); ++i) {
    const char* z = a[i].c_str();
    if (z[0] == '-' && z[1] == '-') ++z;
    const size_t n = std::strlen(z);
    const bool has_arg = i + 1 < a.size();
    if (n <= 17 && std::strncmp("-ignore-freelist", z, n) == 0) continue;
    if ((n <= 12 && std::strncmp("-recovery-db", z, n) == 0 && has_arg) ||
        (n <= 15 && std::strncmp("-lost-and-found", z, n) == 0 && has_arg)) {
      ++i;
      continue;
    }
    if (n <= 10 && std::strncmp("-no-rowids", z, n) == 0) continue;
    std::fprintf(stderr, "unexpected option: %s\n", a[i].c_str());
    ShowHelp(sh.out, a[0]);
    return 1;
  }
  OpenDb(sh, true);
  std::fprintf(sh.out, "BEGIN;\nPRAGMA writable_schema = on;\n");
  static const char* const kPragmas[] = {"encoding", "page_size", "auto_vacuum", "user_version",
                                         "application_id"};
  for (const char* p : kPragmas) {
    ForEachRow(sh.db, std::string("PRAGMA 'main'.") + p, [&](sqlite3_stmt* st) {
      char* line = sqlite3_mprintf("PRAGMA %s = %Q;\n", p, ColText(st, 0).c_str());
      std::fputs(line, sh.out);
      sqlite3_free(line);
    });
  }
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(sh.db, "SELECT data FROM sqlite_dbpage('main') WHERE pgno=1", -1, &st,
                         nullptr) != SQLITE_OK) {
    std::fprintf(stderr, "sql error: SQL logic error (1)\n");
    return 1;
  }
  sqlite3_finalize(st);
  std::fprintf(stderr, "Error: .recover is not available in the basalt shell\n");
  return 1;
}

int DotNonce(Shell& sh, const std::vector<std::string>& a) {
  if (a.size() != 2) {
    std::fprintf(stderr, "Usage: .nonce NONCE\n");
    return 1;
  }
  if (!sh.has_nonce || a[1] != sh.nonce) {
    std::fprintf(stderr, "line %d: incorrect nonce: \"%s\"\n", sh.lineno, a[1].c_str());
    std::exit(1);
  }
  if (sh.safe_persist) {
    sh.safe_mode = false;
    sh.nonce_restore = true;
  }
  return 0;
}

}  // namespace shell

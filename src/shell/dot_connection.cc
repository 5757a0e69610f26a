// .connection ?close? ?N?: up to kConnections database connections, one of
// them active (the one Shell::db, Shell::db_name and Shell::sessions
// describe).
//
// State: Shell::conns[i] keeps connection i while it is not active; the
// active slot's entry is stale until the shell switches away (SwitchTo saves
// it). A slot never used has no name and opens ":memory:" lazily, like the
// shell's first connection; the listing calls it "(memory)".
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "shell/shell.h"

namespace shell {
namespace {

void SwitchTo(Shell& sh, size_t i) {
  ShellConn& old = sh.conns[sh.active_conn];
  old.db = sh.db;
  old.db_name = sh.db_name;
  old.sessions = std::move(sh.sessions);
  sh.active_conn = i;
  ShellConn& now = sh.conns[i];
  sh.db = now.db;
  sh.db_name = now.db_name;
  sh.sessions = std::move(now.sessions);
  now.db = nullptr;
  now.sessions.clear();
}

void CloseConn(ShellConn& c) {
  DeleteSessions(&c.sessions);
  sqlite3_close(c.db);
  c.db = nullptr;
}

void ListConns(const Shell& sh) {
  for (size_t i = 0; i < kConnections; ++i) {
    const bool active = i == sh.active_conn;
    const ShellConn& c = sh.conns[i];
    if (!active && c.db == nullptr) continue;
    const std::string& name = active ? sh.db_name : c.db_name;
    const char* shown = name.empty() ? "(memory)" : name.c_str();
    std::printf("%s%zu: %s\n", active ? "ACTIVE " : "       ", i, shown);
  }
}

bool OneDigit(const std::string& s) { return s.size() == 1 && s[0] >= '0' && s[0] <= '9'; }

}  // namespace

int DotConnection(Shell& sh, const std::vector<std::string>& a) {
  if (a.size() == 1) {
    ListConns(sh);
    return 0;
  }
  if (a.size() == 2 && OneDigit(a[1])) {
    const size_t i = static_cast<size_t>(a[1][0] - '0');
    if (i < kConnections && i != sh.active_conn) SwitchTo(sh, i);
    return 0;
  }
  if (a.size() == 3 && a[1] == "close" && OneDigit(a[2])) {
    const size_t i = static_cast<size_t>(a[2][0] - '0');
    if (i >= kConnections) return 0;
    if (i == sh.active_conn) {
      std::fprintf(stderr, "cannot close the active database connection\n");
      return 1;
    }
    if (sh.conns[i].db != nullptr) CloseConn(sh.conns[i]);
    return 0;
  }
  std::fprintf(stderr, "Usage: .connection [close] [CONNECTION-NUMBER]\n");
  return 1;
}

void CloseOtherConnections(Shell& sh) {
  for (size_t i = 0; i < kConnections; ++i) {
    if (i != sh.active_conn && sh.conns[i].db != nullptr) CloseConn(sh.conns[i]);
  }
}

}  // namespace shell

// .session ?NAME? CMD ...: the session extension, on the shell's connection.
//
// State: Shell::sessions, at most kMaxSessions, in creation order except
// that closing one moves the last into its place (as sqlite3 does, which
// .session list shows). A command names its session by a first argument
// that is a session's name; otherwise it acts on the first session. All
// sessions are deleted before the connection is closed (SessionCloseAll).
//
// Replies follow sqlite3's shell: a bad subcommand or argument count shows
// the .session help without failing; library errors are reported and
// ignored; enable/indirect/isempty print "session NAME ... flag = N".
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "ext/session/session_api.h"
#include "shell/shell.h"

namespace shell {
namespace {

constexpr size_t kMaxSessions = 4;

// The table filter: tables matching one of the session's GLOBs are left out.
int FilterTables(void* ctx, const char* table) {
  const auto* s = static_cast<const ShellSession*>(ctx);
  for (const std::string& g : s->filters) {
    if (sqlite3_strglob(g.c_str(), table) == 0) return 0;
  }
  return 1;
}

int SyntaxError(Shell& sh) {
  ShowHelp(sh.out, "session");
  return 0;
}

int NotOpen() {
  std::fprintf(stderr, "ERROR: No sessions are open\n");
  return 0;
}

// .session changeset|patchset FILE
int WriteChanges(Shell& sh, ShellSession* s, const std::vector<std::string>& cmd) {
  if (sh.safe_mode) {
    std::fprintf(stderr, "line %d: cannot run \".session %s\" in safe mode\n", sh.lineno,
                 cmd[0].c_str());
    std::exit(1);
  }
  if (cmd.size() != 2) return SyntaxError(sh);
  if (s == nullptr) return NotOpen();
  FILE* out = std::fopen(cmd[1].c_str(), "wb");
  if (out == nullptr) {
    std::fprintf(stderr, "ERROR: cannot open \"%s\" for writing\n", cmd[1].c_str());
    return 0;
  }
  int size = 0;
  void* data = nullptr;  // owned: freed below
  const int rc = cmd[0][0] == 'c' ? sqlite3session_changeset(s->p, &size, &data)
                                  : sqlite3session_patchset(s->p, &size, &data);
  if (rc != SQLITE_OK) std::printf("Error: error code %d\n", rc);
  if (data != nullptr && std::fwrite(data, static_cast<size_t>(size), 1, out) != 1) {
    std::fprintf(stderr, "ERROR: Failed to write entire %d-byte output\n", size);
  }
  sqlite3_free(data);
  std::fclose(out);
  return 0;
}

int OpenSession(Shell& sh, const std::vector<std::string>& cmd) {
  if (cmd.size() != 3 || cmd[2].empty()) return SyntaxError(sh);
  const std::string& name = cmd[2];
  for (const ShellSession& s : sh.sessions) {
    if (s.name == name) {
      std::fprintf(stderr, "Session \"%s\" already exists\n", name.c_str());
      return 0;
    }
  }
  if (sh.sessions.size() >= kMaxSessions) {
    std::fprintf(stderr, "Maximum of %zu sessions\n", kMaxSessions);
    return 0;
  }
  sqlite3_session* p = nullptr;
  const int rc = sqlite3session_create(sh.db, cmd[1].c_str(), &p);
  if (rc != SQLITE_OK) {
    std::fprintf(stderr, "Cannot open session: error code=%d\n", rc);
    return 0;
  }
  sh.sessions.push_back(ShellSession{p, name, {}});
  // The filter's context is the ShellSession; its address is fixed because
  // the vector's capacity is reserved for kMaxSessions (see DotSession).
  sqlite3session_table_filter(p, FilterTables, &sh.sessions.back());
  return 0;
}

// enable, indirect: query (no argument) or set the flag; isempty: query.
int Flag(Shell& sh, ShellSession* s, const std::vector<std::string>& cmd) {
  const bool isempty = cmd[0] == "isempty";
  if (isempty ? cmd.size() != 1 : cmd.size() > 2) return SyntaxError(sh);
  int v = cmd.size() == 1 ? -1 : (BooleanValue(cmd[1]) ? 1 : 0);
  if (s == nullptr) return 0;
  if (isempty) {
    v = sqlite3session_isempty(s->p);
  } else if (cmd[0] == "enable") {
    v = sqlite3session_enable(s->p, v);
  } else {
    v = sqlite3session_indirect(s->p, v);
  }
  std::fprintf(sh.out, "session %s %s flag = %d\n", s->name.c_str(), cmd[0].c_str(), v);
  return 0;
}

}  // namespace

void DeleteSessions(std::vector<ShellSession>* sessions) {
  for (ShellSession& s : *sessions) sqlite3session_delete(s.p);
  sessions->clear();
}

void SessionCloseAll(Shell& sh) { DeleteSessions(&sh.sessions); }

int DotSession(Shell& sh, const std::vector<std::string>& a) {
  if (a.size() <= 1) return SyntaxError(sh);
  OpenDb(sh, false);
  sh.sessions.reserve(kMaxSessions);
  std::vector<std::string> cmd(a.begin() + 1, a.end());
  size_t index = 0;
  if (a.size() >= 3) {
    for (size_t i = 0; i < sh.sessions.size(); ++i) {
      if (sh.sessions[i].name == a[1]) {
        index = i;
        cmd.erase(cmd.begin());
        break;
      }
    }
  }
  ShellSession* s = index < sh.sessions.size() ? &sh.sessions[index] : nullptr;
  const std::string& op = cmd[0];
  if (op == "attach") {
    if (cmd.size() != 2) return SyntaxError(sh);
    if (s == nullptr) return NotOpen();
    const int rc = sqlite3session_attach(s->p, cmd[1].c_str());
    if (rc != SQLITE_OK) std::fprintf(stderr, "ERROR: sqlite3session_attach() returns %d\n", rc);
    return 0;
  }
  if (op == "changeset" || op == "patchset") return WriteChanges(sh, s, cmd);
  if (op == "close") {
    if (cmd.size() != 1) return SyntaxError(sh);
    if (s == nullptr) return 0;
    sqlite3session_delete(s->p);
    if (index + 1 != sh.sessions.size()) {
      // The last session moves into the freed slot: its filter context moves too.
      *s = std::move(sh.sessions.back());
      sqlite3session_table_filter(s->p, FilterTables, s);
    }
    sh.sessions.pop_back();
    return 0;
  }
  if (op == "enable" || op == "indirect" || op == "isempty") return Flag(sh, s, cmd);
  if (op == "filter") {
    if (cmd.size() < 2) return SyntaxError(sh);
    if (s != nullptr) s->filters.assign(cmd.begin() + 1, cmd.end());
    return 0;
  }
  if (op == "list") {
    for (size_t i = 0; i < sh.sessions.size(); ++i) {
      std::fprintf(sh.out, "%zu %s\n", i, sh.sessions[i].name.c_str());
    }
    return 0;
  }
  if (op == "open") return OpenSession(sh, cmd);
  return SyntaxError(sh);
}

}  // namespace shell

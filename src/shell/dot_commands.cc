// Dot-commands: the argument splitter, the dispatch table, and the commands
// that only change the shell's settings (.headers, .separator, .mode, ...).
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "shell/archive.h"
#include "shell/expert.h"
#include "shell/help_text.h"
#include "shell/shell.h"

namespace shell {
namespace {

using Args = std::vector<std::string>;

int Usage(const char* text) {
  std::fprintf(stderr, "%s", text);
  return 1;
}

// .headers, .echo, .bail, .changes, .timer: one on/off argument.
int SetFlag(bool* flag, const Args& a, const char* usage) {
  if (a.size() != 2) return Usage(usage);
  *flag = BooleanValue(a[1]);
  return 0;
}

bool OptionMatch(const std::string& arg, const char* name) {
  const char* z = arg.c_str();
  if (*z != '-') return false;
  ++z;
  if (*z == '-') ++z;
  return std::strcmp(z, name) == 0;
}

void ShowHelpAll(FILE* out, bool all) {
  for (int i = 0; i < kHelpLineCount; ++i) {
    if (all || kHelpLines[i][0] == '.') std::fprintf(out, "%s\n", kHelpLines[i]);
  }
}

bool ContainsNoCase(const char* hay, const std::string& needle) {
  const size_t n = std::strlen(hay);
  for (size_t i = 0; i + needle.size() <= n; ++i) {
    if (sqlite3_strnicmp(hay + i, needle.c_str(), static_cast<int>(needle.size())) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

// .help PATTERN: the commands PATTERN is a prefix of (with details when just
// one), else every entry containing PATTERN. Returns how many matched.
int ShowHelp(FILE* out, const std::string& pat) {
  int n = 0;
  int j = 0;
  const std::string prefix = "." + pat;
  for (int i = 0; i < kHelpLineCount; ++i) {
    if (std::strncmp(kHelpLines[i], prefix.c_str(), prefix.size()) == 0) {
      std::fprintf(out, "%s\n", kHelpLines[i]);
      j = i + 1;
      ++n;
    }
  }
  if (n) {
    if (n == 1) {
      while (j < kHelpLineCount - 1 && kHelpLines[j][0] != '.') {
        std::fprintf(out, "%s\n", kHelpLines[j++]);
      }
    }
    return n;
  }
  for (int i = 0; i < kHelpLineCount; ++i) {
    if (kHelpLines[i][0] == '.') j = i;
    if (ContainsNoCase(kHelpLines[i], pat)) {
      std::fprintf(out, "%s\n", kHelpLines[j]);
      while (j < kHelpLineCount - 1 && kHelpLines[j + 1][0] != '.') {
        std::fprintf(out, "%s\n", kHelpLines[++j]);
      }
      i = j;
      ++n;
    }
  }
  return n;
}

namespace {

int DotEqp(Shell& sh, const Args& a) {
  if (a.size() != 2) return Usage("Usage: .eqp off|on|trace|trigger|full\n");
  if (a[1] == "full") {
    sh.eqp = 3;
  } else if (a[1] == "trigger") {
    sh.eqp = 2;
  } else {
    sh.eqp = BooleanValue(a[1]) ? 1 : 0;
  }
  return 0;
}

int DotExplain(Shell& sh, const Args& a) {
  int val = 1;
  if (a.size() >= 2) val = a[1] == "auto" ? 99 : (BooleanValue(a[1]) ? 1 : 0);
  if (val == 1 && sh.mode != Mode::kExplain) {
    sh.normal_mode = sh.mode;
    sh.mode = Mode::kExplain;
    sh.autoexplain = 0;
  } else if (val == 0) {
    if (sh.mode == Mode::kExplain) sh.mode = sh.normal_mode;
    sh.autoexplain = 0;
  } else if (val == 99) {
    if (sh.mode == Mode::kExplain) sh.mode = sh.normal_mode;
    sh.autoexplain = 1;
  }
  return 0;
}

int DotSeparator(Shell& sh, const Args& a) {
  int rc = 0;
  if (a.size() < 2 || a.size() > 3) rc = Usage("Usage: .separator COL ?ROW?\n");
  if (a.size() >= 2) sh.col_sep = a[1].substr(0, 19);
  if (a.size() >= 3) sh.row_sep = a[2].substr(0, 19);
  return rc;
}

int DotShellCmd(Shell& sh, const Args& a) {
  if (a.size() < 2) return Usage("Usage: .system COMMAND\n");
  std::string cmd;
  for (size_t i = 1; i < a.size(); ++i) {
    if (i > 1) cmd += ' ';
    const bool quote = a[i].find_first_of(" \t") != std::string::npos;
    cmd += quote ? "\"" + a[i] + "\"" : a[i];
  }
  std::fflush(sh.out);
  std::fflush(stdout);
  int x = std::system(cmd.c_str());
  if (x) std::fprintf(stderr, "System command returns %d\n", x);
  return 0;
}

int DotTimeout(Shell& sh, const Args& a) {
  OpenDb(sh, false);
  sqlite3_busy_timeout(sh.db, a.size() >= 2 ? static_cast<int>(IntegerValue(a[1])) : 0);
  return 0;
}

// -safe: commands that reach files or other programs end the shell.
void FailIfUnsafe(const Shell& sh, const char* name, const Args& a) {
  static const char* const kUnsafe[] = {"backup", "save",  "restore", "cd",    "import",
                                        "output", "once",  "read",    "shell", "system",
                                        "clone",  "excel", "load",    "log"};
  const char* why = nullptr;
  std::string msg;
  for (const char* u : kUnsafe) {
    if (std::strcmp(u, name) == 0) {
      msg = "cannot run ." + a[0] + " in safe mode";
      why = msg.c_str();
    }
  }
  if (std::strcmp(name, "open") == 0) {
    for (size_t i = 1; i < a.size(); ++i) {
      if (a[i][0] != '-' && a[i] != ":memory:") {
        why = "cannot open disk-based database files in safe mode";
      }
    }
  }
  if (why == nullptr) return;
  std::fprintf(stderr, "line %d: %s\n", sh.lineno, why);
  std::exit(1);
}

int NotAvailable(const Args& a) {
  std::fprintf(stderr, "Error: .%s is not available in this build of the basalt shell\n",
               a[0].c_str());
  return 1;
}

struct Command {
  const char* name;
  size_t min_len;  // shortest accepted abbreviation
  int (*fn)(Shell&, const Args&);
};

const Command kCommands[] = {
    {"archive", 2, [](Shell& sh, const Args& a) { return DotArchive(sh, a, false); }},
    {"backup", 2, DotBackup},
    {"bail", 3,
     [](Shell& sh, const Args& a) { return SetFlag(&sh.bail, a, "Usage: .bail on|off\n"); }},
    {"cd", 2,
     [](Shell&, const Args& a) {
       if (a.size() != 2) return Usage("Usage: .cd DIRECTORY\n");
       if (chdir(a[1].c_str()) != 0) {
         std::fprintf(stderr, "Cannot change to directory \"%s\"\n", a[1].c_str());
         return 1;
       }
       return 0;
     }},
    {"changes", 7,
     [](Shell& sh, const Args& a) {
       return SetFlag(&sh.count_changes, a, "Usage: .changes on|off\n");
     }},
    {"check", 3, DotCheck},
    {"clone", 2, DotClone},
    {"connection", 2, DotConnection},
    {"databases", 2, DotDatabases},
    {"dbconfig", 3, DotDbConfig},
    {"dbinfo", 3, DotDbInfo},
    {"dump", 2, DotDump},
    {"echo", 2,
     [](Shell& sh, const Args& a) { return SetFlag(&sh.echo, a, "Usage: .echo on|off\n"); }},
    {"eqp", 2, DotEqp},
    {"excel", 2, [](Shell&, const Args& a) { return NotAvailable(a); }},
    {"expert", 3, DotExpert},
    {"explain", 3, DotExplain},
    {"filectrl", 1, DotFileCtrl},
    {"fullschema", 2, [](Shell& sh, const Args& a) { return DotSchema(sh, a, true); }},
    {"headers", 2,
     [](Shell& sh, const Args& a) {
       if (a.size() != 2) return Usage("Usage: .headers on|off\n");
       sh.headers = BooleanValue(a[1]);
       sh.headers_set = true;
       return 0;
     }},
    {"help", 1, DotHelp},
    {"import", 2, DotImport},
    {"imposter", 3, DotImposter},  // after import: ".impo" is .import
    {"indexes", 3, [](Shell& sh, const Args& a) { return DotTables(sh, a, true); }},
    {"indices", 3, [](Shell& sh, const Args& a) { return DotTables(sh, a, true); }},
    {"limits", 5, DotLimit},
    {"lint", 2, DotLint},
    {"load", 2, DotLoad},
    {"log", 2, DotLog},
    {"mode", 1, DotMode},
    {"nonce", 2, DotNonce},
    {"nullvalue", 2,
     [](Shell& sh, const Args& a) {
       if (a.size() != 2) return Usage("Usage: .nullvalue STRING\n");
       sh.null_value = a[1].substr(0, 19);
       return 0;
     }},
    {"once", 2, [](Shell& sh, const Args& a) { return DotOutput(sh, a, true); }},
    {"open", 2, DotOpen},
    {"output", 2, [](Shell& sh, const Args& a) { return DotOutput(sh, a, false); }},
    {"parameter", 4, DotParameter},
    {"print", 2,
     [](Shell& sh, const Args& a) {
       for (size_t i = 1; i < a.size(); ++i) {
         if (i > 1) std::fputc(' ', sh.out);
         std::fputs(a[i].c_str(), sh.out);
       }
       std::fputc('\n', sh.out);
       return 0;
     }},
    {"prompt", 5,
     [](Shell& sh, const Args& a) {
       if (a.size() >= 2) sh.prompt = a[1];
       if (a.size() >= 3) sh.continue_prompt = a[2];
       return 0;
     }},
    {"quit", 1, [](Shell&, const Args&) { return 2; }},
    {"exit", 4,
     [](Shell&, const Args& a) {
       if (a.size() > 1) {
         int rc = static_cast<int>(IntegerValue(a[1]));
         if (rc != 0) std::exit(rc);
       }
       return 2;
     }},
    {"read", 3, DotRead},
    {"recover", 3, DotRecover},
    {"restore", 3, DotRestore},
    {"save", 3, DotBackup},
    {"scanstats", 2, DotScanStats},
    {"schema", 2, [](Shell& sh, const Args& a) { return DotSchema(sh, a, false); }},
    {"selftest", 4, DotSelftest},
    {"separator", 3, DotSeparator},
    {"session", 3, DotSession},
    {"sha3sum", 2, DotSha3},
    {"shell", 2, DotShellCmd},
    {"stats", 2, DotStats},
    {"system", 2, DotShellCmd},
    {"show", 2, DotShow},
    {"tables", 2, [](Shell& sh, const Args& a) { return DotTables(sh, a, false); }},
    {"timeout", 4, DotTimeout},
    {"testcase", 8, DotTestcase},
    {"timer", 2,
     [](Shell& sh, const Args& a) { return SetFlag(&sh.timer, a, "Usage: .timer on|off\n"); }},
    {"trace", 2, DotTrace},
    {"vfsinfo", 4, DotVfsInfo},
    {"vfslist", 4, DotVfsList},
    {"vfsname", 4, DotVfsName},
    {"width", 1,
     [](Shell& sh, const Args& a) {
       sh.widths.clear();
       for (size_t j = 1; j < a.size(); ++j)
         sh.widths.push_back(static_cast<int>(IntegerValue(a[j])));
       return 0;
     }},
};

}  // namespace

std::string ResolveBackslashes(const std::string& s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\\' && i + 1 < s.size()) {
      c = s[++i];
      switch (c) {
        case 'a':
          c = '\a';
          break;
        case 'b':
          c = '\b';
          break;
        case 't':
          c = '\t';
          break;
        case 'n':
          c = '\n';
          break;
        case 'v':
          c = '\v';
          break;
        case 'f':
          c = '\f';
          break;
        case 'r':
          c = '\r';
          break;
        default:
          if (c >= '0' && c <= '7') {
            int v = c - '0';
            for (int k = 0; k < 2 && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7'; ++k) {
              v = v * 8 + (s[++i] - '0');
            }
            c = static_cast<char>(v);
          }
      }
    }
    r += c;
  }
  return r;
}

// Splits a dot-command line (after the '.') into arguments: white space
// separates them; '...' is literal, "..." and bare words resolve escapes.
std::vector<std::string> SplitArgs(const std::string& line) {
  std::vector<std::string> args;
  size_t h = 0;
  const size_t n = line.size();
  auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  while (h < n) {
    while (h < n && space(line[h])) ++h;
    if (h >= n) break;
    if (line[h] == '\'' || line[h] == '"') {
      const char delim = line[h++];
      size_t start = h;
      while (h < n && line[h] != delim) {
        if (line[h] == '\\' && delim == '"' && h + 1 < n) ++h;
        ++h;
      }
      std::string a = line.substr(start, h - start);
      if (h < n) ++h;
      args.push_back(delim == '"' ? ResolveBackslashes(a) : a);
    } else {
      size_t start = h;
      while (h < n && !space(line[h])) ++h;
      args.push_back(ResolveBackslashes(line.substr(start, h - start)));
    }
  }
  return args;
}

long long IntegerValue(const std::string& s) {
  return std::strtoll(s.c_str(), nullptr, s.compare(0, 2, "0x") == 0 ? 16 : 10);
}

bool BooleanValue(const std::string& s) {
  size_t i = 0;
  if (s.compare(0, 2, "0x") == 0) {
    i = 2;
    while (i < s.size() && std::isxdigit(static_cast<unsigned char>(s[i]))) ++i;
  } else {
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  }
  if (i > 0 && i == s.size()) return IntegerValue(s) != 0;
  if (sqlite3_stricmp(s.c_str(), "on") == 0 || sqlite3_stricmp(s.c_str(), "yes") == 0) return true;
  if (sqlite3_stricmp(s.c_str(), "off") == 0 || sqlite3_stricmp(s.c_str(), "no") == 0) return false;
  std::fprintf(stderr, "ERROR: Not a boolean value: \"%s\". Assuming \"no\".\n", s.c_str());
  return false;
}

int DotHelp(Shell& sh, const Args& a) {
  if (a.size() >= 2) {
    const std::string& p = a[1];
    if (p[0] == '0' || p == "-a" || p == "-all" || p == "--all") {
      ShowHelpAll(sh.out, true);
    } else if (ShowHelp(sh.out, p) == 0) {
      std::fprintf(sh.out, "Nothing matches '%s'\n", p.c_str());
    }
  } else {
    ShowHelpAll(sh.out, false);
  }
  return 0;
}

int DoMetaCommand(Shell& sh, const std::string& line) {
  ExpertCancel(sh);  // a dot-command ends a pending .expert without a report
  Args a = SplitArgs(line.substr(1));
  if (a.empty()) return 0;
  int rc = -1;
  const std::string& name = a[0];
  for (const Command& c : kCommands) {
    if (name.size() >= c.min_len && name.size() <= std::strlen(c.name) &&
        std::strncmp(c.name, name.c_str(), name.size()) == 0) {
      if (sh.safe_mode) FailIfUnsafe(sh, c.name, a);
      const bool restore = sh.nonce_restore;  // the command .nonce let through
      sh.nonce_restore = false;
      rc = c.fn(sh, a);
      if (restore && !sh.nonce_restore) sh.safe_mode = sh.safe_persist;
      break;
    }
  }
  if (rc < 0) {
    std::fprintf(stderr,
                 "Error: unknown command or invalid arguments:  \"%s\". Enter \".help\" for help\n",
                 name.c_str());
    rc = 1;
  }
  if (sh.once_pending) {
    if (--sh.once_pending == 0) OutputReset(sh);
  }
  return rc;
}

}  // namespace shell

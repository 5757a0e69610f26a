// Command-line options, in sqlite3's two passes: the first finds the
// database name, the trailing SQL arguments and the options that must act
// before the init file; the second (after ~/.basaltrc or -init) sets the
// display options, so that they override the init file.
#include <dlfcn.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "shell/archive.h"
#include "shell/help_text.h"
#include "shell/shell.h"
#include "shell/shell_ext.h"

#ifdef BASALT_SHELL_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace shell {
namespace {

const char* g_argv0 = "basalt";
size_t g_cmd_count = 0;             // SQL and dot-commands given after the database name
sqlite3* volatile* g_db = nullptr;  // the connection Ctrl-C interrupts

// Ctrl-C: interrupts the running statement; a third one in a row exits.
void OnInterrupt(int) {
  if (++g_interrupts > 2) std::_Exit(1);
  if (g_db && *g_db) sqlite3_interrupt(*g_db);
}

const char* OptionValue(int argc, char** argv, int i) {
  if (i >= argc) {
    std::fprintf(stderr, "%s: Error: missing argument to %s\n", g_argv0, argv[argc - 1]);
    std::exit(1);
  }
  return argv[i];
}

[[noreturn]] void Usage(bool detail) {
  std::fprintf(stderr,
               "Usage: %s [OPTIONS] FILENAME [SQL]\n"
               "FILENAME is the name of an SQLite database. A new database is created\n"
               "if the file does not previously exist.\n",
               g_argv0);
  if (detail) {
    std::fprintf(stderr, "OPTIONS include:\n%s", kOptionsText);
  } else {
    std::fprintf(stderr, "Use the -help option for additional information\n");
  }
  std::exit(1);
}

void ProcessRcFile(Shell& sh, const std::string& init_file) {
  std::string path = init_file;
  if (path.empty()) {
    const char* home = std::getenv("HOME");
    if (home == nullptr) return;
    path = std::string(home) + "/.basaltrc";
  }
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f) {
    if (sh.interactive) std::fprintf(stderr, "-- Loading resources from %s\n", path.c_str());
    sh.in = f;
    if (ProcessInput(sh) && sh.bail) std::exit(1);
    std::fclose(f);
    sh.in = nullptr;
  } else if (!init_file.empty()) {
    std::fprintf(stderr, "cannot open: \"%s\"\n", path.c_str());
    if (sh.bail) std::exit(1);
  }
}

// The second pass over one option; returns -1 to go on, else an exit code.
int SecondPass(Shell& sh, int argc, char** argv, int* pi) {
  int& i = *pi;
  const char* z = argv[i];
  if (z[1] == '-') ++z;
  auto is = [&](const char* name) { return std::strcmp(z, name) == 0; };
  if (is("-init")) {
    ++i;
  } else if (is("-html")) {
    sh.mode = Mode::kHtml;
  } else if (is("-list")) {
    sh.mode = Mode::kList;
  } else if (is("-quote")) {
    sh.mode = Mode::kQuote;
    sh.col_sep = ",";
    sh.row_sep = "\n";
  } else if (is("-line")) {
    sh.mode = Mode::kLine;
  } else if (is("-column")) {
    sh.mode = Mode::kColumn;
  } else if (is("-json")) {
    sh.mode = Mode::kJson;
  } else if (is("-markdown")) {
    sh.mode = Mode::kMarkdown;
  } else if (is("-table")) {
    sh.mode = Mode::kTable;
  } else if (is("-box")) {
    sh.mode = Mode::kBox;
  } else if (is("-csv")) {
    sh.mode = Mode::kCsv;
    sh.col_sep = ",";
  } else if (is("-ascii")) {
    sh.mode = Mode::kAscii;
    sh.col_sep = "\x1f";
    sh.row_sep = "\x1e";
  } else if (is("-tabs")) {
    sh.mode = Mode::kList;
    sh.col_sep = "\t";
    sh.row_sep = "\n";
  } else if (is("-separator")) {
    sh.col_sep = OptionValue(argc, argv, ++i);
  } else if (is("-newline")) {
    sh.row_sep = OptionValue(argc, argv, ++i);
  } else if (is("-nullvalue")) {
    sh.null_value = OptionValue(argc, argv, ++i);
  } else if (is("-header") || is("-noheader")) {
    sh.headers = is("-header");
    sh.headers_set = true;
  } else if (is("-echo")) {
    sh.echo = true;
  } else if (is("-eqp")) {
    sh.eqp = 1;
  } else if (is("-eqpfull")) {
    sh.eqp = 3;
  } else if (is("-stats")) {
    sh.stats = 1;
  } else if (is("-safe")) {
    sh.safe_mode = true;
    sh.safe_persist = true;
  } else if (is("-scanstats") || is("-backslash") || is("-bail") || is("-utf8") ||
             is("-readonly") || is("-nofollow") || is("-deserialize") || is("-append")) {
  } else if (is("-version")) {
    std::printf("%s %s\n", sqlite3_libversion(), sqlite3_sourceid());
    return 0;
  } else if (is("-interactive")) {
    sh.interactive = true;
  } else if (is("-batch")) {
    sh.interactive = false;
  } else if (is("-heap") || is("-mmap") || is("-memtrace") || is("-sorterref") || is("-vfs") ||
             is("-maxsize")) {
    ++i;
  } else if (is("-pagecache") || is("-lookaside") || is("-threadsafe") || is("-nonce")) {
    i += 2;
  } else if (is("-help")) {
    Usage(true);
  } else if (is("-cmd")) {
    if (i == argc - 1) return -2;
    const char* cmd = OptionValue(argc, argv, ++i);
    if (cmd[0] == '.') {
      int rc = DoMetaCommand(sh, cmd);
      if (rc && sh.bail) return rc == 2 ? 0 : rc;
    } else {
      OpenDb(sh, false);
      std::string err;
      int rc = ExecSql(sh, cmd, &err);
      if (!err.empty()) {
        std::fprintf(stderr, "Error: %s\n", err.c_str());
        if (sh.bail) return rc ? rc : 1;
      } else if (rc) {
        std::fprintf(stderr, "Error: unable to process SQL \"%s\"\n", cmd);
        if (sh.bail) return rc;
      }
    }
  } else if (std::strncmp(z, "-A", 2) == 0) {
    // The rest of the command line is .archive's; the exit status is 0
    // whatever it does, as the reference's.
    if (g_cmd_count > 0) {
      std::fprintf(stderr, "Error: cannot mix regular SQL or dot-commands with \"%s\"\n", z);
      return 1;
    }
    sh.zip_default = true;
    OpenDb(sh, false);
    std::vector<std::string> args{"-A"};
    if (z[2] != '\0') args.emplace_back(z + 2);
    for (int k = i + 1; k < argc; ++k) args.emplace_back(argv[k]);
    DotArchive(sh, args, true);
    return 0;
  } else {
    std::fprintf(stderr, "%s: Error: unknown option: %s\n", g_argv0, z);
    std::fprintf(stderr, "Use -help for a list of options.\n");
    return 1;
  }
  sh.cmode = sh.mode;
  return -1;
}

// Whether the library knows a VFS of this name (sqlite3_vfs_find, looked up
// at run time; without it only the default "unix" is known).
bool VfsExists(const std::string& name) {
  using FindFn = void* (*)(const char*);
  auto find = reinterpret_cast<FindFn>(dlsym(RTLD_DEFAULT, "sqlite3_vfs_find"));
  if (find == nullptr) return name == "unix";
  return find(name.c_str()) != nullptr;
}

int RunInteractive(Shell& sh) {
  std::printf("SQLite version %s %.19s\nEnter \".help\" for usage hints.\n", sqlite3_libversion(),
              sqlite3_sourceid());
  if (sh.warn_memory_db) {
    std::printf(
        "Connected to a \033[1mtransient in-memory database\033[0m.\n"
        "Use \".open FILENAME\" to reopen on a persistent database.\n");
  }
  std::string history;
  const char* home = std::getenv("HOME");
  if (home) history = std::string(home) + "/.basalt_history";
#ifdef BASALT_SHELL_READLINE
  if (!history.empty()) read_history(history.c_str());
#endif
  sh.in = nullptr;
  int rc = ProcessInput(sh);
#ifdef BASALT_SHELL_READLINE
  if (!history.empty()) {
    stifle_history(2000);
    write_history(history.c_str());
  }
#endif
  return rc;
}

}  // namespace

int RunMain(Shell& sh, int argc, char** argv) {
  g_argv0 = argv[0];
  g_db = &sh.db;
  std::signal(SIGINT, OnInterrupt);
  RegisterAppendVfs();
  sh.interactive = isatty(0);
  std::vector<std::string> cmds;
  std::string init_file;
  std::string vfs;
  bool have_file = false;
  bool bare = argc == 1;
  for (int i = 1; i < argc; ++i) {
    const char* z = argv[i];
    if (z[0] != '-') {
      if (!have_file) {
        have_file = true;
        sh.db_name = z;
      } else {
        cmds.emplace_back(z);
      }
      continue;
    }
    if (z[1] == '-') ++z;
    auto is = [&](const char* name) { return std::strcmp(z, name) == 0; };
    if (is("-separator") || is("-nullvalue") || is("-newline") || is("-cmd")) {
      OptionValue(argc, argv, ++i);
    } else if (is("-init")) {
      init_file = OptionValue(argc, argv, ++i);
    } else if (is("-batch")) {
      sh.interactive = false;
    } else if (is("-vfs")) {
      vfs = OptionValue(argc, argv, ++i);
    } else if (is("-heap") || is("-mmap") || is("-sorterref")) {
      OptionValue(argc, argv, ++i);
    } else if (is("-pagecache") || is("-lookaside") || is("-threadsafe")) {
      i += 2;
    } else if (is("-maxsize") && i + 1 < argc) {
      ++i;
    } else if (is("-nonce")) {
      if (i + 1 < argc) {
        sh.has_nonce = true;
        sh.nonce = argv[++i];
      }
    } else if (is("-deserialize")) {
      sh.deserialize = true;
    } else if (is("-append")) {
      sh.open_append = true;
    } else if (is("-readonly")) {
      sh.open_flags = SQLITE_OPEN_READONLY;
    } else if (is("-nofollow")) {
      sh.open_flags |= SQLITE_OPEN_NOFOLLOW;
    } else if (is("-bail")) {
      sh.bail = true;
    } else if (std::strncmp(z, "-A", 2) == 0) {
      break;
    }
  }
  g_cmd_count = cmds.size();
  if (!vfs.empty() && !VfsExists(vfs)) {
    std::fprintf(stderr, "no such VFS: \"%s\"\n", vfs.c_str());
    std::exit(1);
  }
  if (sh.db_name.empty()) {
    sh.db_name = ":memory:";
    sh.warn_memory_db = bare;
  }
  if (access(sh.db_name.c_str(), F_OK) == 0) OpenDb(sh, false);
  ProcessRcFile(sh, init_file);
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] != '-') continue;
    int rc = SecondPass(sh, argc, argv, &i);
    if (rc == -2) break;
    if (rc >= 0) return rc;
  }
  int rc = 0;
  if (!cmds.empty()) {
    for (const std::string& c : cmds) {
      if (c[0] == '.') {
        rc = DoMetaCommand(sh, c);
        if (rc) {
          OutputReset(sh);
          return rc == 2 ? 0 : rc;
        }
      } else {
        OpenDb(sh, false);
        std::string err;
        rc = ExecSql(sh, c.c_str(), &err);
        if (!err.empty() || rc) {
          if (!err.empty()) {
            std::fprintf(stderr, "Error: %s\n", err.c_str());
          } else {
            std::fprintf(stderr, "Error: unable to process SQL: %s\n", c.c_str());
          }
          return rc ? rc : 1;
        }
      }
    }
  } else if (sh.interactive) {
    rc = RunInteractive(sh);
  } else {
    sh.in = nullptr;
    rc = ProcessInput(sh);
  }
  OutputReset(sh);  // waits for a .output pipe's command to finish
  SessionCloseAll(sh);
  if (sh.db) sqlite3_close(sh.db);
  CloseOtherConnections(sh);
  return rc;
}

}  // namespace shell

// .filectrl ?--schema DB? CMD ?ARGS?: sqlite3_file_control on the database
// file, named by a unique prefix (optionally after "-" or "--").
//
// Each control answers in one of three ways, as sqlite3's shell does:
//   a figure    size_limit, persist_wal, psow, has_moved, data_version
//   its own     tempfilename (the name), reserve_bytes (the value)
//   nothing     chunk_size, lock_timeout
// Wrong argument counts print the control's usage on the output and fail;
// an unknown name is reported on standard error without failing; an
// ambiguous prefix fails.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {
namespace {

struct FileCtrl {
  const char* name;
  int op;
  const char* usage;
};

// Sorted by name: the --help order.
const FileCtrl kFileCtrls[] = {
    {"chunk_size", SQLITE_FCNTL_CHUNK_SIZE, "SIZE"},
    {"data_version", SQLITE_FCNTL_DATA_VERSION, ""},
    {"has_moved", SQLITE_FCNTL_HAS_MOVED, ""},
    {"lock_timeout", SQLITE_FCNTL_LOCK_TIMEOUT, "MILLISEC"},
    {"persist_wal", SQLITE_FCNTL_PERSIST_WAL, "[BOOLEAN]"},
    {"psow", SQLITE_FCNTL_POWERSAFE_OVERWRITE, "[BOOLEAN]"},
    {"reserve_bytes", SQLITE_FCNTL_RESERVE_BYTES, "[N]"},
    {"size_limit", SQLITE_FCNTL_SIZE_LIMIT, "[LIMIT]"},
    {"tempfilename", SQLITE_FCNTL_TEMPFILENAME, ""},
};

enum class Answer { kUsage, kFigure, kDone };

// Runs control op with the arguments a (a[1] the control's name); *figure
// receives what kFigure prints.
Answer RunControl(Shell& sh, const char* schema, int op, const std::vector<std::string>& a,
                  long long* figure) {
  const size_t n = a.size();
  switch (op) {
    case SQLITE_FCNTL_SIZE_LIMIT: {
      if (n != 2 && n != 3) return Answer::kUsage;
      sqlite3_int64 v = n == 3 ? IntegerValue(a[2]) : -1;
      sqlite3_file_control(sh.db, schema, op, &v);
      *figure = v;
      return Answer::kFigure;
    }
    case SQLITE_FCNTL_LOCK_TIMEOUT:
    case SQLITE_FCNTL_CHUNK_SIZE: {
      if (n != 3) return Answer::kUsage;
      int v = static_cast<int>(IntegerValue(a[2]));
      sqlite3_file_control(sh.db, schema, op, &v);
      return Answer::kDone;
    }
    case SQLITE_FCNTL_PERSIST_WAL:
    case SQLITE_FCNTL_POWERSAFE_OVERWRITE: {
      if (n != 2 && n != 3) return Answer::kUsage;
      int v = n == 3 ? (BooleanValue(a[2]) ? 1 : 0) : -1;
      sqlite3_file_control(sh.db, schema, op, &v);
      *figure = v;
      return Answer::kFigure;
    }
    case SQLITE_FCNTL_DATA_VERSION:
    case SQLITE_FCNTL_HAS_MOVED: {
      if (n != 2) return Answer::kUsage;
      // Left as is when the control fails (sqlite3 prints an uninitialized
      // int then, -1 in practice on Debian's build). Both controls write an
      // int-sized value.
      int v = -1;
      sqlite3_file_control(sh.db, schema, op, &v);
      *figure = v;
      return Answer::kFigure;
    }
    case SQLITE_FCNTL_TEMPFILENAME: {
      if (n != 2) return Answer::kUsage;
      char* z = nullptr;  // owned when set: freed below
      sqlite3_file_control(sh.db, schema, op, &z);
      if (z != nullptr) std::fprintf(sh.out, "%s\n", z);
      sqlite3_free(z);
      return Answer::kDone;
    }
    default: {  // SQLITE_FCNTL_RESERVE_BYTES
      int v = 0;
      if (n >= 3) {
        v = std::atoi(a[2].c_str());
        sqlite3_file_control(sh.db, schema, op, &v);
      }
      v = -1;
      sqlite3_file_control(sh.db, schema, op, &v);
      std::fprintf(sh.out, "%d\n", v);
      return Answer::kDone;
    }
  }
}

}  // namespace

int DotFileCtrl(Shell& sh, const std::vector<std::string>& args) {
  OpenDb(sh, false);
  std::vector<std::string> a = args;
  std::string schema;
  const bool has_schema = a.size() >= 4 && (a[1] == "--schema" || a[1] == "-schema");
  if (has_schema) {
    schema = a[2];
    a.erase(a.begin() + 1, a.begin() + 3);
  }
  std::string cmd = a.size() >= 2 ? a[1] : "help";
  if (cmd.size() > 1 && cmd[0] == '-') {
    cmd.erase(0, 1);
    if (cmd.size() > 1 && cmd[0] == '-') cmd.erase(0, 1);
  }
  if (cmd == "help") {
    std::fprintf(sh.out, "Available file-controls:\n");
    for (const FileCtrl& c : kFileCtrls)
      std::fprintf(sh.out, "  .filectrl %s %s\n", c.name, c.usage);
    return 1;
  }
  const FileCtrl* found = nullptr;
  for (const FileCtrl& c : kFileCtrls) {
    if (std::strncmp(cmd.c_str(), c.name, cmd.size()) != 0) continue;
    if (found != nullptr) {
      std::fprintf(stderr,
                   "Error: ambiguous file-control: \"%s\"\nUse \".filectrl --help\" for help\n",
                   cmd.c_str());
      return 1;
    }
    found = &c;
  }
  if (found == nullptr) {
    std::fprintf(stderr, "Error: unknown file-control: %s\nUse \".filectrl --help\" for help\n",
                 cmd.c_str());
    return 0;
  }
  long long figure = 0;
  const Answer ans = RunControl(sh, has_schema ? schema.c_str() : nullptr, found->op, a, &figure);
  if (ans == Answer::kUsage) {
    std::fprintf(sh.out, "Usage: .filectrl %s %s\n", cmd.c_str(), found->usage);
    return 1;
  }
  if (ans == Answer::kFigure) std::fprintf(sh.out, "%lld\n", figure);
  return 0;
}

}  // namespace shell

// .archive / -A: the parsed command and its runner (dot_archive.cc,
// archive_args.cc).
#ifndef BASALT_SHELL_ARCHIVE_H_
#define BASALT_SHELL_ARCHIVE_H_

#include <string>
#include <vector>

#include "sqlite3.h"

namespace shell {

struct Shell;

struct ArCommand {
  // The command: 'c' create, 'x' extract, 'i' insert, 'h' help, 't' list,
  // 'r' remove, 'u' update; 0 when none was given (runs as update).
  char cmd = 0;
  bool verbose = false;
  bool dry_run = false;
  bool glob = false;
  bool from_cmdline = false;  // -A: errors point to "-A" for help
  bool has_file = false;
  std::string file;  // -f FILE (or -a FILE, with append)
  bool append = false;
  bool has_dir = false;
  std::string dir;                 // -C DIR
  std::vector<std::string> names;  // the files or members named
  // Set up by RunArchive:
  Shell* sh = nullptr;
  sqlite3* db = nullptr;  // the connection the SQL runs on
  bool zip = false;       // the archive is a ZIP file
  std::string src_table;  // what list/extract/remove read
};

// Parses args (args[0] is the command name); prints the reference's
// messages and returns SQLITE_ERROR on a bad command line.
int ParseArchiveArgs(const std::vector<std::string>& args, ArCommand* ar);
int RunArchive(Shell& sh, ArCommand& ar);
// How the shell opens a file: a ZIP archive (a file ending in an
// end-of-central-directory record, or when dflt_zip a missing or empty
// *.zip), a database appended to another file (ending in an apndvfs mark),
// or an ordinary database.
enum class DbType { kNormal, kZip, kAppend };
DbType DeduceDbType(const std::string& path, bool dflt_zip);
// .archive ARGS and -A ARGS.
int DotArchive(Shell& sh, const std::vector<std::string>& args, bool from_cmdline);

}  // namespace shell

#endif  // BASALT_SHELL_ARCHIVE_H_

// .archive's command line, as sqlite3 3.40.1's shell reads it:
//   tar style:  .ar tvf FILE NAME...   (first word without '-': a cluster of
//               short options, their arguments taken from the next words)
//   dashes:     .ar -tv -f FILE --glob NAME...  (short clusters, where an
//               option's argument may be the cluster's rest; long options
//               by unambiguous prefix; "--" or the first word without '-'
//               starts the names)
// and the -A option, which hands its words to the same parser.
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "shell/archive.h"
#include "shell/shell.h"

namespace shell {
namespace {

struct ArSwitch {
  const char* long_name;
  char short_name;
  bool is_command;
  bool takes_arg;
};

// In the reference's order: the order decides which prefixes are ambiguous.
constexpr ArSwitch kSwitches[] = {
    {"create", 'c', true, false}, {"extract", 'x', true, false},   {"insert", 'i', true, false},
    {"list", 't', true, false},   {"remove", 'r', true, false},    {"update", 'u', true, false},
    {"help", 'h', true, false},   {"verbose", 'v', false, false},  {"file", 'f', false, true},
    {"append", 'a', false, true}, {"directory", 'C', false, true}, {"dryrun", 'n', false, false},
    {"glob", 'g', false, false},
};

int ArError(const ArCommand& ar, const std::string& msg) {
  std::fprintf(stderr, "Error: %s\n", msg.c_str());
  std::fprintf(stderr, ar.from_cmdline ? "Use \"-A\" for more help\n"
                                       : "Use \".archive --help\" for more help\n");
  return SQLITE_ERROR;
}

int Apply(ArCommand* ar, const ArSwitch& sw, const std::string& arg) {
  if (sw.is_command) {
    if (ar->cmd != 0) return ArError(*ar, "multiple command options");
    ar->cmd = sw.short_name;
    return SQLITE_OK;
  }
  switch (sw.short_name) {
    case 'v':
      ar->verbose = true;
      break;
    case 'n':
      ar->dry_run = true;
      break;
    case 'g':
      ar->glob = true;
      break;
    case 'C':
      ar->has_dir = true;
      ar->dir = arg;
      break;
    default:  // 'f' and 'a'
      ar->append = sw.short_name == 'a';
      ar->has_file = true;
      ar->file = arg;
      break;
  }
  return SQLITE_OK;
}

const ArSwitch* FindShort(char c) {
  for (const ArSwitch& sw : kSwitches) {
    if (sw.short_name == c) return &sw;
  }
  return nullptr;
}

void TakeNames(const std::vector<std::string>& args, size_t from, ArCommand* ar) {
  ar->names.assign(args.begin() + static_cast<long>(std::min(from, args.size())), args.end());
}

int ParseDashes(const std::vector<std::string>& args, ArCommand* ar) {
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& z = args[i];
    if (z.empty() || z[0] != '-') {
      TakeNames(args, i, ar);
      return SQLITE_OK;
    }
    if (z.size() < 2 || z[1] != '-') {
      for (size_t k = 1; k < z.size(); ++k) {
        const ArSwitch* sw = FindShort(z[k]);
        if (sw == nullptr) return ArError(*ar, std::string("unrecognized option: ") + z[k]);
        std::string arg;
        if (sw->takes_arg) {
          if (k + 1 < z.size()) {
            arg = z.substr(k + 1);
            k = z.size();
          } else if (i + 1 >= args.size()) {
            return ArError(*ar, std::string("option requires an argument: ") + sw->short_name);
          } else {
            arg = args[++i];
          }
        }
        if (Apply(ar, *sw, arg) != SQLITE_OK) return SQLITE_ERROR;
      }
    } else if (z.size() == 2) {  // "--": the rest are names
      TakeNames(args, i + 1, ar);
      return SQLITE_OK;
    } else {
      const std::string word = z.substr(2);
      const ArSwitch* match = nullptr;
      for (const ArSwitch& sw : kSwitches) {
        if (word.size() <= std::strlen(sw.long_name) &&
            std::strncmp(word.c_str(), sw.long_name, word.size()) == 0) {
          if (match != nullptr) return ArError(*ar, "ambiguous option: " + z);
          match = &sw;
        }
      }
      if (match == nullptr) return ArError(*ar, "unrecognized option: " + z);
      std::string arg;
      if (match->takes_arg) {
        if (i + 1 >= args.size()) return ArError(*ar, "option requires an argument: " + z);
        arg = args[++i];
      }
      if (Apply(ar, *match, arg) != SQLITE_OK) return SQLITE_ERROR;
    }
  }
  return SQLITE_OK;
}

}  // namespace

int ParseArchiveArgs(const std::vector<std::string>& args, ArCommand* ar) {
  if (args.size() <= 1) {
    std::fprintf(stderr, "Wrong number of arguments.  Usage:\n");
    ShowHelp(stderr, "archive");
    return SQLITE_ERROR;
  }
  const std::string& first = args[1];
  if (!first.empty() && first[0] == '-') return ParseDashes(args, ar);
  size_t next = 2;
  for (char c : first) {
    const ArSwitch* sw = FindShort(c);
    if (sw == nullptr) return ArError(*ar, std::string("unrecognized option: ") + c);
    std::string arg;
    if (sw->takes_arg) {
      if (next >= args.size()) {
        return ArError(*ar, std::string("option requires an argument: ") + c);
      }
      arg = args[next++];
    }
    if (Apply(ar, *sw, arg) != SQLITE_OK) return SQLITE_ERROR;
  }
  TakeNames(args, next, ar);
  return SQLITE_OK;
}

DbType DeduceDbType(const std::string& path, bool dflt_zip) {
  const bool named_zip =
      path.size() >= 4 && sqlite3_stricmp(path.c_str() + path.size() - 4, ".zip") == 0;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return dflt_zip && named_zip ? DbType::kZip : DbType::kNormal;
  char buf[25];
  DbType type = DbType::kNormal;
  if (std::fread(buf, 16, 1, f) == 1 && std::memcmp(buf, "SQLite format 3", 16) == 0) {
    std::fclose(f);
    return DbType::kNormal;
  }
  std::fseek(f, -25, SEEK_END);
  if (std::fread(buf, 25, 1, f) == 1 && std::memcmp(buf, "Start-Of-SQLite3-", 17) == 0) {
    type = DbType::kAppend;
  } else {
    std::fseek(f, -22, SEEK_END);
    const size_t n = std::fread(buf, 22, 1, f);
    if (n == 1 && std::memcmp(buf, "PK\x05\x06", 4) == 0) {
      type = DbType::kZip;
    } else if (n != 1 && dflt_zip && named_zip) {
      type = DbType::kZip;
    }
  }
  std::fclose(f);
  return type;
}

int DotArchive(Shell& sh, const std::vector<std::string>& args, bool from_cmdline) {
  OpenDb(sh, true);
  ArCommand ar;
  ar.from_cmdline = from_cmdline;
  if (ParseArchiveArgs(args, &ar) != SQLITE_OK) return SQLITE_ERROR;
  return RunArchive(sh, ar);
}

}  // namespace shell

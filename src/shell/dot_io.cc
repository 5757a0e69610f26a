// Files and connections: .read, .output/.once, .open, and the lazily
// opened database connection.
#include <dlfcn.h>
#include <stdio_ext.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "shell/archive.h"
#include "shell/shell.h"
#include "shell/shell_ext.h"

namespace shell {

namespace {

// -deserialize: a temporary database holding a copy of the file (changes
// are never written back), through sqlite3_deserialize when the library
// has it.
bool OpenDeserialized(Shell& sh) {
  using DeserializeFn =
      int (*)(sqlite3*, const char*, unsigned char*, sqlite3_int64, sqlite3_int64, unsigned);
  auto deserialize = reinterpret_cast<DeserializeFn>(dlsym(RTLD_DEFAULT, "sqlite3_deserialize"));
  if (deserialize == nullptr) {
    std::fprintf(stderr,
                 "Error: -deserialize needs sqlite3_deserialize, which this library lacks\n");
    std::exit(1);
  }
  sqlite3* db = nullptr;
  sqlite3_open("", &db);
  sh.db = db;
  RegisterShellFunctions(db);
  RegisterShellExtensions(db, &sh);
  FILE* f = std::fopen(sh.db_name.c_str(), "rb");
  if (f == nullptr) return true;
  std::string bytes;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) bytes.append(buf, n);
  std::fclose(f);
  auto* data = static_cast<unsigned char*>(sqlite3_malloc64(bytes.size() + 1));
  std::memcpy(data, bytes.data(), bytes.size());
  const auto size = static_cast<sqlite3_int64>(bytes.size());
  int rc = deserialize(db, "main", data, size, size,
                       SQLITE_DESERIALIZE_RESIZEABLE | SQLITE_DESERIALIZE_FREEONCLOSE);
  if (rc) std::fprintf(stderr, "Error: sqlite3_deserialize() returns %d\n", rc);
  return true;
}

}  // namespace

bool OpenDb(Shell& sh, bool keep_going) {
  if (sh.db) return true;
  if (sh.deserialize) return OpenDeserialized(sh);
  const std::string name = sh.db_name.empty() ? ":memory:" : sh.db_name;
  const DbType type =
      sh.db_name.empty() ? DbType::kNormal : DeduceDbType(sh.db_name, sh.zip_default);
  sh.open_zip = type == DbType::kZip;
  if (sh.open_zip) {
    // As the reference: the archive is the table "zip" of an empty database.
    sqlite3* mem = nullptr;
    sqlite3_open(":memory:", &mem);
    sh.db = mem;
    RegisterShellFunctions(mem);
    RegisterShellExtensions(mem, &sh);
    char* sql = sqlite3_mprintf("CREATE VIRTUAL TABLE zip USING zipfile(%Q);", name.c_str());
    sqlite3_exec(mem, sql, nullptr, nullptr, nullptr);
    sqlite3_free(sql);
    return true;
  }
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | sh.open_flags;
  if (sh.open_flags & SQLITE_OPEN_READONLY) flags = sh.open_flags;
  sqlite3* db = nullptr;
  const bool append = sh.open_append || type == DbType::kAppend;
  const int rc =
      sqlite3_open_v2(name.c_str(), &db, flags | SQLITE_OPEN_URI, append ? "apndvfs" : nullptr);
  sh.db = db;
  if (rc == SQLITE_OK) {
    RegisterShellFunctions(db);
    RegisterShellExtensions(db, &sh);
  }
  if (rc != SQLITE_OK) {
    std::fprintf(stderr, "Error: unable to open database \"%s\": %s\n", name.c_str(),
                 sqlite3_errmsg(sh.db));
    sqlite3_close(sh.db);
    sh.db = nullptr;
    if (!keep_going) std::exit(1);
    return false;
  }
  return true;
}

void SetOutput(Shell& sh, FILE* f, bool pipe, const std::string& name) {
  // Only this thread writes the shell's output: stdio need not lock it
  // (it would, once the library has started a thread).
  __fsetlocking(f, FSETLOCKING_BYCALLER);
  sh.out = f;
  sh.out_is_pipe = pipe;
  sh.out_name = name;
}

void OutputReset(Shell& sh) {
  if (sh.out != stdout) {
    if (sh.out_is_pipe) {
      pclose(sh.out);
    } else {
      std::fclose(sh.out);
    }
  }
  SetOutput(sh, stdout, false, "");
}

int DotOutput(Shell& sh, const std::vector<std::string>& a, bool once) {
  std::string file;
  bool bom = false;
  for (size_t i = 1; i < a.size(); ++i) {
    const std::string& z = a[i];
    if (z[0] == '-') {
      const char* o = z.c_str() + 1;
      if (*o == '-') ++o;
      if (std::strcmp(o, "bom") == 0) {
        bom = true;
      } else if (std::strcmp(o, "x") == 0 || std::strcmp(o, "e") == 0) {
        std::fprintf(stderr, "Error: .%s %s is not available in the basalt shell\n", a[0].c_str(),
                     z.c_str());
        return 1;
      } else {
        std::fprintf(sh.out, "ERROR: unknown option: \"%s\".  Usage:\n", z.c_str());
        ShowHelp(sh.out, a[0]);
        return 1;
      }
    } else if (file.empty()) {
      file = z;
      if (file[0] == '|') {
        while (++i < a.size()) file += " " + a[i];
        break;
      }
    } else {
      std::fprintf(sh.out, "ERROR: extra parameter: \"%s\".  Usage:\n", z.c_str());
      ShowHelp(sh.out, a[0]);
      return 1;
    }
  }
  if (file.empty()) file = "stdout";
  OutputReset(sh);
  if (once) sh.once_pending = 2;
  if (file[0] == '|') {
    std::fflush(stdout);
    FILE* f = popen(file.c_str() + 1, "w");
    if (f == nullptr) {
      std::fprintf(stderr, "Error: cannot open pipe \"%s\"\n", file.c_str() + 1);
      return 1;
    }
    SetOutput(sh, f, true, file);
    if (bom) std::fputs("\357\273\277", sh.out);
    return 0;
  }
  if (file == "stdout") {
    if (bom) std::fputs("\357\273\277", sh.out);
    return 0;
  }
  FILE* f = std::fopen(file.c_str(), "wb");
  if (f == nullptr) {
    if (file != "off") {
      std::fprintf(stderr, "Error: cannot open \"%s\"\n", file.c_str());
      std::fprintf(stderr, "Error: cannot write to \"%s\"\n", file.c_str());
    }
    return 1;
  }
  SetOutput(sh, f, false, file);
  if (bom) std::fputs("\357\273\277", sh.out);
  return 0;
}

int DotRead(Shell& sh, const std::vector<std::string>& a) {
  if (a.size() != 2) {
    std::fprintf(stderr, "Usage: .read FILE\n");
    return 1;
  }
  FILE* saved_in = sh.in;
  const int saved_line = sh.lineno;
  int rc;
  if (a[1][0] == '|') {
    std::fflush(sh.out);
    FILE* f = popen(a[1].c_str() + 1, "r");
    if (f == nullptr) {
      std::fprintf(stderr, "Error: cannot open \"%s\"\n", a[1].c_str() + 1);
      return 1;
    }
    sh.in = f;
    rc = ProcessInput(sh);
    pclose(f);
  } else {
    FILE* f = std::fopen(a[1].c_str(), "rb");
    struct stat stbuf;
    if (f == nullptr || (fstat(fileno(f), &stbuf) == 0 && S_ISDIR(stbuf.st_mode))) {
      if (f) std::fclose(f);
      std::fprintf(stderr, "Error: cannot open \"%s\"\n", a[1].c_str());
      return 1;
    }
    sh.in = f;
    rc = ProcessInput(sh);
    std::fclose(f);
  }
  sh.in = saved_in;
  sh.lineno = saved_line;
  return rc;
}

int DotOpen(Shell& sh, const std::vector<std::string>& a) {
  std::string file;
  bool fresh = false;
  bool zip = false;
  bool append = false;
  int flags = 0;
  for (size_t i = 1; i < a.size(); ++i) {
    const char* z = a[i].c_str();
    if (z[0] == '-') {
      ++z;
      if (*z == '-') ++z;
      if (std::strcmp(z, "new") == 0) {
        fresh = true;
      } else if (std::strcmp(z, "readonly") == 0) {
        flags = SQLITE_OPEN_READONLY;
      } else if (std::strcmp(z, "nofollow") == 0) {
        flags |= SQLITE_OPEN_NOFOLLOW;
      } else if (std::strcmp(z, "zip") == 0) {
        zip = true;
      } else if (std::strcmp(z, "append") == 0) {
        append = true;
      } else {
        std::fprintf(stderr, "unknown option: %s\n", a[i].c_str());
        return 1;
      }
    } else if (file.empty()) {
      file = a[i];
    } else {
      std::fprintf(stderr, "extra argument: \"%s\"\n", a[i].c_str());
      return 1;
    }
  }
  SessionCloseAll(sh);
  if (sh.db) sqlite3_close(sh.db);
  sh.db = nullptr;
  if (fresh && !file.empty()) std::remove(file.c_str());
  sh.db_name = file;
  sh.open_flags = flags;
  sh.zip_default = zip;
  sh.open_append = append;
  if (!OpenDb(sh, true)) {
    std::fprintf(stderr, "Error: cannot open '%s'\n", file.c_str());
    return 1;
  }
  return 0;
}

}  // namespace shell

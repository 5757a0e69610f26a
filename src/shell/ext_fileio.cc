// Files from SQL, as the sqlite3 3.40.1 shell offers them:
//   readfile(PATH)                    the file's bytes as a blob (NULL if unreadable)
//   writefile(PATH, DATA ?, MODE ?, MTIME ??)  writes a file (or, by MODE, a
//       directory or a symlink to DATA); missing parent directories are made;
//       returns the bytes written for a file
//   lsmode(MODE)                      "drwxr-xr-x"-style text of a st_mode
//   fsdir(PATH ?, DIR?)               table name,mode,mtime,data of PATH and,
//       depth first in directory order, everything below it (DIR/ prefixes
//       the paths opened, not the names shown)
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "shell/shell_ext.h"

namespace shell {
namespace {

bool ReadWhole(const std::string& path, std::string* out) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out->append(buf, n);
  const bool ok = !std::ferror(f);
  std::fclose(f);
  return ok;
}

void ReadFileFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const unsigned char* path = sqlite3_value_text(argv[0]);
  if (path == nullptr) return;
  struct stat st;
  if (stat(reinterpret_cast<const char*>(path), &st) == 0 && S_ISDIR(st.st_mode)) {
    sqlite3_result_error_code(ctx, SQLITE_TOOBIG);  // as the reference reading a directory
    return;
  }
  std::string data;
  if (!ReadWhole(reinterpret_cast<const char*>(path), &data)) return;
  sqlite3_result_blob64(ctx, data.data(), data.size(), SQLITE_TRANSIENT);
}

// Creates every missing directory leading to path (not path itself).
void MakeParents(const std::string& path) {
  for (size_t i = 1; i < path.size(); ++i) {
    if (path[i] == '/') mkdir(path.substr(0, i).c_str(), 0777);
  }
}

// 0 written; 1 could not create (errno tells); 2 failed otherwise.
int WriteOne(sqlite3_context* ctx, const char* path, sqlite3_value* data, mode_t mode,
             sqlite3_int64 mtime) {
  if (S_ISLNK(mode)) {
    const unsigned char* target = sqlite3_value_text(data);
    if (symlink(target ? reinterpret_cast<const char*>(target) : "", path) < 0) return 1;
  } else if (S_ISDIR(mode)) {
    if (mkdir(path, mode) < 0) {
      struct stat st;
      if (errno != EEXIST) return 1;  // ENOENT: the caller makes the parents
      if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return 2;
    }
  } else {
    FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return 1;
    const void* z = sqlite3_value_blob(data);
    const size_t n = static_cast<size_t>(sqlite3_value_bytes(data));
    bool ok = z == nullptr || std::fwrite(z, 1, n, f) == n;
    std::fclose(f);
    if (ok && mode != 0 && chmod(path, mode & 0777) != 0) ok = false;
    if (!ok) return 2;
    sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(n));
  }
  if (mtime >= 0) {
    struct timespec times[2];
    times[0].tv_sec = time(nullptr);
    times[0].tv_nsec = 0;
    times[1].tv_sec = static_cast<time_t>(mtime);
    times[1].tv_nsec = 0;
    if (utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW) != 0) return 1;
  }
  return 0;
}

void WriteFileFunc(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc < 2 || argc > 4) {
    sqlite3_result_error(ctx, "wrong number of arguments to function writefile()", -1);
    return;
  }
  const unsigned char* zpath = sqlite3_value_text(argv[0]);
  if (zpath == nullptr) return;
  const char* path = reinterpret_cast<const char*>(zpath);
  const mode_t mode = argc >= 3 ? static_cast<mode_t>(sqlite3_value_int(argv[2])) : 0;
  const sqlite3_int64 mtime = argc == 4 ? sqlite3_value_int64(argv[3]) : -1;
  int rc = WriteOne(ctx, path, argv[1], mode, mtime);
  if (rc == 1 && errno == ENOENT) {
    MakeParents(path);
    rc = WriteOne(ctx, path, argv[1], mode, mtime);
  }
  if (rc == 0) return;
  const char* what = S_ISLNK(mode)   ? "failed to create symlink: %s"
                     : S_ISDIR(mode) ? "failed to create directory: %s"
                                     : "failed to write file: %s";
  char* msg = sqlite3_mprintf(what, path);
  sqlite3_result_error(ctx, msg, -1);
  sqlite3_free(msg);
}

void LsModeFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const int m = sqlite3_value_int(argv[0]);
  char z[11];
  z[0] = S_ISLNK(m) ? 'l' : S_ISREG(m) ? '-' : S_ISDIR(m) ? 'd' : '?';
  static const char kRwx[] = "rwx";
  for (int bit = 0; bit < 9; ++bit) z[1 + bit] = (m >> (8 - bit)) & 1 ? kRwx[bit % 3] : '-';
  z[10] = 0;
  sqlite3_result_text(ctx, z, -1, SQLITE_TRANSIENT);
}

// ---- fsdir ---------------------------------------------------------------

enum FsColumn { kName, kMode, kMtime, kData, kPath, kDir };

struct FsEntry {
  std::string name;  // as shown
  std::string path;  // as opened
  struct stat st;
};

struct FsCursor {
  sqlite3_vtab_cursor base;
  std::vector<FsEntry> rows;  // the whole walk, produced by the filter
  size_t at = 0;
};

int FsConnect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  const int rc =
      sqlite3_declare_vtab(db, "CREATE TABLE x(name,mode,mtime,data,path HIDDEN,dir HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  auto* vt = static_cast<sqlite3_vtab*>(sqlite3_malloc(sizeof(sqlite3_vtab)));
  if (vt == nullptr) return SQLITE_NOMEM;
  *vt = sqlite3_vtab{};
  sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
  *out = vt;
  return SQLITE_OK;
}

int FsDisconnect(sqlite3_vtab* vt) {
  sqlite3_free(vt);
  return SQLITE_OK;
}

int FsOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = &(new FsCursor())->base;
  return SQLITE_OK;
}

int FsClose(sqlite3_vtab_cursor* c) {
  delete reinterpret_cast<FsCursor*>(c);
  return SQLITE_OK;
}

int Fail(sqlite3_vtab_cursor* c, const char* fmt, const std::string& arg) {
  sqlite3_free(c->pVtab->zErrMsg);
  c->pVtab->zErrMsg = sqlite3_mprintf(fmt, arg.c_str());
  return SQLITE_ERROR;
}

// Appends the entries below a directory row, depth first.
int Walk(sqlite3_vtab_cursor* c, std::vector<FsEntry>* rows, const FsEntry& dir) {
  DIR* d = opendir(dir.path.c_str());
  if (d == nullptr) return Fail(c, "cannot read directory: %s", dir.path);
  int rc = SQLITE_OK;
  while (const dirent* e = readdir(d)) {
    const std::string leaf = e->d_name;
    if (leaf == "." || leaf == "..") continue;
    FsEntry row{dir.name + "/" + leaf, dir.path + "/" + leaf, {}};
    if (lstat(row.path.c_str(), &row.st) != 0) {
      rc = Fail(c, "cannot stat file: %s", row.path);
      break;
    }
    rows->push_back(row);
    if (S_ISDIR(row.st.st_mode) && (rc = Walk(c, rows, row)) != SQLITE_OK) break;
  }
  closedir(d);
  return rc;
}

int FsFilter(sqlite3_vtab_cursor* vc, int plan, const char*, int, sqlite3_value** argv) {
  auto* c = reinterpret_cast<FsCursor*>(vc);
  c->rows.clear();
  c->at = 0;
  if (plan == 0) return Fail(vc, "table function fsdir requires an argument%s", "");
  const unsigned char* path = sqlite3_value_text(argv[0]);
  if (path == nullptr) return Fail(vc, "table function fsdir requires a non-NULL argument%s", "");
  FsEntry root{reinterpret_cast<const char*>(path), reinterpret_cast<const char*>(path), {}};
  if (plan == 2) {
    const unsigned char* dir = sqlite3_value_text(argv[1]);
    if (dir != nullptr)
      root.path = std::string(reinterpret_cast<const char*>(dir)) + "/" + root.name;
  }
  if (lstat(root.path.c_str(), &root.st) != 0) return Fail(vc, "cannot stat file: %s", root.path);
  c->rows.push_back(root);
  if (S_ISDIR(root.st.st_mode)) return Walk(vc, &c->rows, root);
  return SQLITE_OK;
}

int FsNext(sqlite3_vtab_cursor* vc) {
  ++reinterpret_cast<FsCursor*>(vc)->at;
  return SQLITE_OK;
}

int FsEof(sqlite3_vtab_cursor* vc) {
  auto* c = reinterpret_cast<FsCursor*>(vc);
  return c->at >= c->rows.size();
}

int FsColumnValue(sqlite3_vtab_cursor* vc, sqlite3_context* ctx, int i) {
  auto* c = reinterpret_cast<FsCursor*>(vc);
  const FsEntry& e = c->rows[c->at];
  if (i == kName) sqlite3_result_text(ctx, e.name.c_str(), -1, SQLITE_TRANSIENT);
  if (i == kMode) sqlite3_result_int64(ctx, e.st.st_mode);
  if (i == kMtime) sqlite3_result_int64(ctx, e.st.st_mtime);
  if (i == kData) {
    if (S_ISLNK(e.st.st_mode)) {
      char buf[4096];
      const ssize_t n = readlink(e.path.c_str(), buf, sizeof buf);
      if (n >= 0) sqlite3_result_text(ctx, buf, static_cast<int>(n), SQLITE_TRANSIENT);
    } else if (!S_ISDIR(e.st.st_mode)) {
      std::string data;
      if (ReadWhole(e.path, &data)) {
        sqlite3_result_blob64(ctx, data.data(), data.size(), SQLITE_TRANSIENT);
      }
    }
  }
  return SQLITE_OK;
}

int FsRowid(sqlite3_vtab_cursor* vc, sqlite3_int64* out) {
  *out = static_cast<sqlite3_int64>(reinterpret_cast<FsCursor*>(vc)->at) + 1;
  return SQLITE_OK;
}

// Plans: 0 no usable path (the filter reports it), 1 path, 2 path and dir.
int FsBestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  int path = -1, dir = -1;
  bool path_unusable = false;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& k = info->aConstraint[i];
    if (k.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (k.iColumn != kPath && k.iColumn != kDir) continue;
    if (!k.usable) {
      if (k.iColumn == kPath) path_unusable = true;
      continue;
    }
    (k.iColumn == kPath ? path : dir) = i;
  }
  if (path < 0 && path_unusable) return SQLITE_CONSTRAINT;
  if (path < 0) {
    info->idxNum = 0;
    info->estimatedCost = 1e9;
    return SQLITE_OK;
  }
  info->aConstraintUsage[path].argvIndex = 1;
  info->aConstraintUsage[path].omit = 1;
  info->idxNum = 1;
  if (dir >= 0) {
    info->aConstraintUsage[dir].argvIndex = 2;
    info->aConstraintUsage[dir].omit = 1;
    info->idxNum = 2;
  }
  info->estimatedCost = 100.0;
  return SQLITE_OK;
}

sqlite3_module MakeFsModule() {
  sqlite3_module m{};
  m.xConnect = FsConnect;
  m.xBestIndex = FsBestIndex;
  m.xDisconnect = FsDisconnect;
  m.xOpen = FsOpen;
  m.xClose = FsClose;
  m.xFilter = FsFilter;
  m.xNext = FsNext;
  m.xEof = FsEof;
  m.xColumn = FsColumnValue;
  m.xRowid = FsRowid;
  return m;
}

const sqlite3_module kFsModule = MakeFsModule();

}  // namespace

void RegisterFileIo(sqlite3* db) {
  sqlite3_create_function(db, "readfile", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, nullptr, ReadFileFunc,
                          nullptr, nullptr);
  sqlite3_create_function(db, "writefile", -1, SQLITE_UTF8 | SQLITE_DIRECTONLY, nullptr,
                          WriteFileFunc, nullptr, nullptr);
  sqlite3_create_function(db, "lsmode", 1, SQLITE_UTF8, nullptr, LsModeFunc, nullptr, nullptr);
  sqlite3_create_module(db, "fsdir", &kFsModule, nullptr);
}

}  // namespace shell

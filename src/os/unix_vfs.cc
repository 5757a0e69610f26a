// The unix VFS: opening and deleting files, paths, time and randomness, and
// the process-wide inode table behind the lock sharing (unix_internal.h).
#include "os/unix_vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "os/unix_internal.h"

namespace basalt {
namespace unix_vfs {

namespace {
using InodeKey = std::pair<dev_t, ino_t>;
std::map<InodeKey, InodeInfo*>& InodeTable() {
  static auto* table = new std::map<InodeKey, InodeInfo*>();
  return *table;
}
}  // namespace

std::mutex& GlobalMutex() {
  static auto* mu = new std::mutex();
  return *mu;
}

Status AcquireInode(int fd, InodeInfo** out) {
  struct stat st;
  if (fstat(fd, &st) != 0) return Status(kIoErrFstat, strerror(errno));
  InodeKey key{st.st_dev, st.st_ino};
  auto& table = InodeTable();
  auto it = table.find(key);
  InodeInfo* info;
  if (it == table.end()) {
    auto owned = std::make_unique<InodeInfo>();  // freed if emplace runs out of memory
    owned->dev = st.st_dev;
    owned->ino = st.st_ino;
    table.emplace(key, owned.get());
    info = owned.release();
  } else {
    info = it->second;
  }
  ++info->refs;
  *out = info;
  return Status();
}

void ReleaseInode(InodeInfo* inode) {
  if (--inode->refs > 0) return;
  for (int fd : inode->unused_fds) CloseFd(fd);
  InodeTable().erase(InodeKey{inode->dev, inode->ino});
  delete inode;
}

int SetLock(int fd, short type, uint64_t start, uint64_t len) {
  struct flock fl;
  std::memset(&fl, 0, sizeof fl);
  fl.l_type = type;
  fl.l_whence = SEEK_SET;
  fl.l_start = off_t(start);
  fl.l_len = off_t(len);
  int rc;
  do {
    rc = fcntl(fd, F_SETLK, &fl);
  } while (rc != 0 && errno == EINTR);
  return rc == 0 ? 0 : errno;
}

int TestLock(int fd, short type, uint64_t start, uint64_t len, short* conflict) {
  struct flock fl;
  std::memset(&fl, 0, sizeof fl);
  fl.l_type = type;
  fl.l_whence = SEEK_SET;
  fl.l_start = off_t(start);
  fl.l_len = off_t(len);
  int rc;
  do {
    rc = fcntl(fd, F_GETLK, &fl);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) return errno;
  *conflict = fl.l_type;
  return 0;
}

Status LockErrno(int err, int io_code) {
  switch (err) {
    case EACCES:
    case EAGAIN:
    case ETIMEDOUT:
    case EBUSY:
    case EINTR:
    case ENOLCK:
    case EDEADLK:
      return Status(kBusy);
    case EPERM:
      return Status(kPerm);
    default:
      return Status(io_code, strerror(err));
  }
}

int OpenRetry(const char* path, int flags, int mode) {
  int fd;
  do {
    fd = open(path, flags | O_CLOEXEC, mode);
  } while (fd < 0 && errno == EINTR);
  // Descriptors 0-2 are left alone so that a stray write to stdout or
  // stderr cannot land in a database file.
  while (fd >= 0 && fd <= 2) {
    close(fd);
    fd = -1;
    if (open("/dev/null", O_RDONLY) < 0) break;
    do {
      fd = open(path, flags | O_CLOEXEC, mode);
    } while (fd < 0 && errno == EINTR);
  }
  return fd;
}

void CloseFd(int fd) {
  if (fd >= 0) close(fd);
}

int CreateMode(const std::string& path, int open_flags) {
  const int kDefault = 0644;
  if ((open_flags & (kOpenMainJournal | kOpenWal | kOpenSuperJournal)) == 0) return kDefault;
  // The database name is the path less its "-journal" / "-wal" suffix.
  size_t dash = path.rfind('-');
  size_t slash = path.rfind('/');
  if (dash == std::string::npos || (slash != std::string::npos && dash < slash)) return kDefault;
  struct stat st;
  if (stat(path.substr(0, dash).c_str(), &st) != 0) return kDefault;
  return int(st.st_mode & 0777);
}

void SyncDirectory(const std::string& path) {
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  int fd = OpenRetry(dir.c_str(), O_RDONLY, 0);
  if (fd < 0) return;
  (void)fsync(fd);
  close(fd);
}

// The directory for temporary files, as SQLite's unix VFS picks it:
// $SQLITE_TMPDIR, $TMPDIR, /var/tmp, /usr/tmp, /tmp, then ".".
std::string TempDirectory() {
  const char* dirs[] = {getenv("SQLITE_TMPDIR"), getenv("TMPDIR"), "/var/tmp", "/usr/tmp", "/tmp"};
  for (const char* d : dirs) {
    struct stat st;
    if (d == nullptr || stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    if (access(d, W_OK | X_OK) == 0) return d;
  }
  return ".";
}

}  // namespace unix_vfs

using namespace unix_vfs;

std::string UnixTempDirectory() { return TempDirectory(); }

Status UnixVfs::Open(const std::string& given, int flags, std::unique_ptr<VfsFile>* out,
                     int* out_flags) {
  std::string path = given;
  if (path.empty()) {
    // A temporary file (as xOpen with no name): a fresh name, created
    // exclusively and removed at once so that it vanishes when closed.
    uint64_t r = 0;
    Randomness(&r, sizeof r);
    path = TempDirectory() + StrFormat("/etilqs_%016llx", static_cast<unsigned long long>(r));
    flags |= kOpenCreate | kOpenExclusive | kOpenDeleteOnClose;
  }
  int oflags = (flags & kOpenReadWrite) ? O_RDWR : O_RDONLY;
  if (flags & kOpenCreate) oflags |= O_CREAT;
  if (flags & kOpenExclusive) oflags |= O_EXCL | O_NOFOLLOW;
  int fd = OpenRetry(path.c_str(), oflags, CreateMode(path, flags));
  int got = flags;
  if (fd < 0 && errno == EISDIR) return Status(kCantOpenIsDir, path);
  if (fd < 0 && (flags & kOpenReadWrite) && errno != ENOENT) {
    // Fall back to read-only (e.g. a read-only file or directory).
    fd = OpenRetry(path.c_str(), O_RDONLY, 0);
    got = (flags & ~(kOpenReadWrite | kOpenCreate)) | kOpenReadOnly;
  }
  if (fd < 0)
    return Status(kCantOpen, StrFormat("unable to open %s: %s", path.c_str(), strerror(errno)));
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    close(fd);
    return Status(kCantOpenIsDir, path);
  }
  if (flags & kOpenDeleteOnClose) unlink(path.c_str());
  if (out_flags) *out_flags = got;
  return NewUnixFile(fd, path, got, out);
}

Status UnixVfs::Delete(const std::string& path, bool sync_dir) {
  if (unlink(path.c_str()) != 0) {
    if (errno == ENOENT) return Status(kIoErrDeleteNoEnt);
    return Status(kIoErrDelete, strerror(errno));
  }
  if (sync_dir) SyncDirectory(path);
  return Status();
}

Status UnixVfs::Access(const std::string& path, AccessMode mode, bool* result) {
  if (mode == AccessMode::kExists) {
    // Like SQLite, an empty regular file counts as absent (a truncated
    // journal is no journal).
    struct stat st;
    *result = stat(path.c_str(), &st) == 0 && (!S_ISREG(st.st_mode) || st.st_size > 0);
    return Status();
  }
  *result = access(path.c_str(), mode == AccessMode::kReadWrite ? (R_OK | W_OK) : R_OK) == 0;
  return Status();
}

Status UnixVfs::FullPathname(const std::string& path, std::string* out) {
  if (path.empty()) return Status(kCantOpenFullPath);
  std::string abs;
  if (path[0] != '/') {
    char buf[PATH_MAX];
    if (getcwd(buf, sizeof buf) == nullptr) return Status(kCantOpenFullPath);
    abs = std::string(buf) + "/" + path;
  } else {
    abs = path;
  }
  // Resolve "." and ".." and duplicate slashes lexically, then symbolic
  // links of the directory part (the file itself may not exist yet).
  std::vector<std::string> parts;
  size_t i = 0;
  while (i < abs.size()) {
    size_t j = abs.find('/', i);
    if (j == std::string::npos) j = abs.size();
    std::string part = abs.substr(i, j - i);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    i = j + 1;
  }
  std::string norm;
  for (const std::string& p : parts) norm += "/" + p;
  if (norm.empty()) norm.push_back('/');
  size_t slash = norm.rfind('/');
  std::string dir = slash == 0 ? "/" : norm.substr(0, slash);
  char real[PATH_MAX];
  if (realpath(dir.c_str(), real) != nullptr) {
    std::string r(real);
    norm = (r == "/" ? "" : r) + norm.substr(slash);
  }
  *out = norm;
  return Status();
}

void UnixVfs::Randomness(void* buf, size_t n) {
  uint8_t* p = static_cast<uint8_t*>(buf);
  while (n > 0) {
    ssize_t got = getrandom(p, n, 0);
    if (got <= 0) {
      if (got < 0 && errno == EINTR) continue;
      // No entropy source: fall back to time and pid mixing.
      uint64_t x = uint64_t(time(nullptr)) * 6364136223846793005ULL + uint64_t(getpid());
      for (size_t k = 0; k < n; ++k) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        p[k] = uint8_t(x >> 56);
      }
      return;
    }
    p += got;
    n -= size_t(got);
  }
}

void UnixVfs::Sleep(int microseconds) {
  struct timespec ts;
  ts.tv_sec = microseconds / 1000000;
  ts.tv_nsec = long(microseconds % 1000000) * 1000;
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

int64_t UnixVfs::CurrentTimeJulianMs() {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return kUnixEpochJulianMs + int64_t(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

Vfs* DefaultVfs() {
  static auto* vfs = new UnixVfs();
  return vfs;
}

}  // namespace basalt

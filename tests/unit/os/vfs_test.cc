// The VFS layer: unix files and POSIX locks (including the per-process
// sharing of an inode's locks and the byte layout other processes see),
// the -shm wal-index, the in-memory VFS and the fault-injecting wrapper.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <functional>
#include <string>

#include "os/fault_vfs.h"
#include "os/mem_vfs.h"
#include "os/unix_vfs.h"
#include "os/vfs.h"

namespace basalt {
namespace {

#define ASSERT_OK(expr)                                                           \
  do {                                                                            \
    ::basalt::Status _st = (expr);                                                \
    ASSERT_TRUE(_st.ok()) << #expr << ": " << _st.code() << " " << _st.message(); \
  } while (0)

class TempDir {
 public:
  TempDir() {
    char buf[] = "/tmp/basalt_os_XXXXXX";
    path_ = mkdtemp(buf);
  }
  ~TempDir() {
    std::string cmd = "rm -rf '" + path_ + "'";
    (void)!system(cmd.c_str());
  }
  std::string File(const std::string& n) const { return path_ + "/" + n; }

 private:
  std::string path_;
};

// Runs f in a child process (another lock owner); returns its exit code.
int InChild(const std::function<int()>& f) {
  pid_t pid = fork();
  if (pid == 0) _exit(f());
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
}

// From another process: can `type` be locked on [start, start+len)?
bool OtherProcessCanLock(const std::string& path, short type, uint64_t start, uint64_t len) {
  return InChild([&] {
           int fd = open(path.c_str(), O_RDWR);
           if (fd < 0) return 2;
           struct flock fl;
           std::memset(&fl, 0, sizeof fl);
           fl.l_type = type;
           fl.l_whence = SEEK_SET;
           fl.l_start = off_t(start);
           fl.l_len = off_t(len);
           return fcntl(fd, F_SETLK, &fl) == 0 ? 0 : 1;
         }) == 0;
}

std::unique_ptr<VfsFile> OpenFile(Vfs* vfs, const std::string& path) {
  std::unique_ptr<VfsFile> f;
  Status st = vfs->Open(path, kOpenReadWrite | kOpenCreate | kOpenMainDb, &f);
  EXPECT_TRUE(st.ok()) << st.message();
  return f;
}

TEST(UnixVfs, FileIo) {
  TempDir dir;
  Vfs* vfs = DefaultVfs();
  std::string p = dir.File("f");
  auto f = OpenFile(vfs, p);
  ASSERT_TRUE(f);
  bool exists = true;
  ASSERT_OK(vfs->Access(p, AccessMode::kExists, &exists));
  EXPECT_FALSE(exists);  // empty files count as absent
  ASSERT_OK(f->Write("hello", 5, 10));
  uint64_t size = 0;
  ASSERT_OK(f->FileSize(&size));
  EXPECT_EQ(size, 15u);
  ASSERT_OK(vfs->Access(p, AccessMode::kExists, &exists));
  EXPECT_TRUE(exists);
  char buf[8];
  ASSERT_OK(f->Read(buf, 5, 10));
  EXPECT_EQ(std::string(buf, 5), "hello");
  Status st = f->Read(buf, 8, 12);
  EXPECT_EQ(st.code(), kIoErrShortRead);
  EXPECT_EQ(std::string(buf, 8), std::string("llo") + std::string(5, '\0'));
  ASSERT_OK(f->Truncate(3));
  ASSERT_OK(f->FileSize(&size));
  EXPECT_EQ(size, 3u);
  ASSERT_OK(f->Sync(kSyncNormal));
  f.reset();
  ASSERT_OK(vfs->Delete(p, true));
  EXPECT_EQ(vfs->Delete(p, false).code(), kIoErrDeleteNoEnt);
  std::string full;
  ASSERT_OK(vfs->FullPathname(dir.File("./x/../f"), &full));
  EXPECT_EQ(full.substr(full.size() - 2), "/f");
  EXPECT_EQ(full[0], '/');
}

// The lock levels between two connections, for any VFS.
void CheckLockLevels(Vfs* vfs, const std::string& path) {
  auto a = OpenFile(vfs, path);
  auto b = OpenFile(vfs, path);
  ASSERT_OK(a->Lock(LockLevel::kShared));
  ASSERT_OK(b->Lock(LockLevel::kShared));
  ASSERT_OK(a->Lock(LockLevel::kReserved));
  EXPECT_EQ(b->Lock(LockLevel::kReserved).code(), kBusy);
  bool held = false;
  ASSERT_OK(b->CheckReservedLock(&held));
  EXPECT_TRUE(held);
  EXPECT_EQ(a->Lock(LockLevel::kExclusive).code(), kBusy);
  EXPECT_EQ(a->lock_level(), LockLevel::kPending);
  auto c = OpenFile(vfs, path);
  EXPECT_EQ(c->Lock(LockLevel::kShared).code(), kBusy);  // PENDING keeps readers out
  ASSERT_OK(b->Unlock(LockLevel::kNone));
  ASSERT_OK(a->Lock(LockLevel::kExclusive));
  EXPECT_EQ(b->Lock(LockLevel::kShared).code(), kBusy);
  ASSERT_OK(a->Unlock(LockLevel::kShared));
  ASSERT_OK(b->Lock(LockLevel::kShared));
  ASSERT_OK(c->Lock(LockLevel::kShared));
  ASSERT_OK(a->Unlock(LockLevel::kNone));
  ASSERT_OK(b->Unlock(LockLevel::kNone));
  ASSERT_OK(c->Unlock(LockLevel::kNone));
  ASSERT_OK(b->CheckReservedLock(&held));
  EXPECT_FALSE(held);
}

TEST(UnixVfs, LockLevelsWithinOneProcess) {
  TempDir dir;
  CheckLockLevels(DefaultVfs(), dir.File("l.db"));
}

TEST(MemVfs, LockLevels) {
  MemVfs vfs;
  CheckLockLevels(&vfs, "/l.db");
}

TEST(UnixVfs, LockBytesSeenByOtherProcesses) {
  TempDir dir;
  std::string p = dir.File("x.db");
  auto a = OpenFile(DefaultVfs(), p);
  ASSERT_OK(a->Write("x", 1, 0));
  ASSERT_OK(a->Lock(LockLevel::kShared));
  EXPECT_TRUE(OtherProcessCanLock(p, F_RDLCK, kSharedFirst, kSharedSize));
  EXPECT_FALSE(OtherProcessCanLock(p, F_WRLCK, kSharedFirst, kSharedSize));
  EXPECT_TRUE(OtherProcessCanLock(p, F_WRLCK, kReservedByte, 1));
  ASSERT_OK(a->Lock(LockLevel::kReserved));
  EXPECT_FALSE(OtherProcessCanLock(p, F_WRLCK, kReservedByte, 1));
  EXPECT_TRUE(OtherProcessCanLock(p, F_WRLCK, kPendingByte, 1));
  ASSERT_OK(a->Lock(LockLevel::kExclusive));
  EXPECT_FALSE(OtherProcessCanLock(p, F_RDLCK, kPendingByte, 1));
  EXPECT_FALSE(OtherProcessCanLock(p, F_RDLCK, kSharedFirst, kSharedSize));
  ASSERT_OK(a->Unlock(LockLevel::kShared));
  EXPECT_TRUE(OtherProcessCanLock(p, F_WRLCK, kPendingByte, 2));
  EXPECT_FALSE(OtherProcessCanLock(p, F_WRLCK, kSharedFirst, kSharedSize));
  ASSERT_OK(a->Unlock(LockLevel::kNone));
  EXPECT_TRUE(OtherProcessCanLock(p, F_WRLCK, 0, 0));
  // Another process holding SHARED stops us at PENDING.
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(p.c_str(), O_RDWR);
    struct flock fl;
    std::memset(&fl, 0, sizeof fl);
    fl.l_type = F_RDLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = off_t(kSharedFirst);
    fl.l_len = off_t(kSharedSize);
    int ok = fcntl(fd, F_SETLK, &fl) == 0;
    char c = ok ? 'y' : 'n';
    (void)!write(fds[1], &c, 1);
    (void)!read(go[0], &c, 1);
    _exit(0);
  }
  char c = 0;
  ASSERT_EQ(read(fds[0], &c, 1), 1);
  ASSERT_EQ(c, 'y');
  ASSERT_OK(a->Lock(LockLevel::kShared));
  ASSERT_OK(a->Lock(LockLevel::kReserved));
  EXPECT_EQ(a->Lock(LockLevel::kExclusive).code(), kBusy);
  EXPECT_EQ(a->lock_level(), LockLevel::kPending);
  (void)!write(go[1], "x", 1);
  waitpid(pid, nullptr, 0);
  ASSERT_OK(a->Lock(LockLevel::kExclusive));
  ASSERT_OK(a->Unlock(LockLevel::kNone));
  close(fds[0]);
  close(fds[1]);
  close(go[0]);
  close(go[1]);
}

TEST(UnixVfs, ConnectionsOfOneProcessShareTheInodeLock) {
  TempDir dir;
  std::string p = dir.File("s.db");
  auto a = OpenFile(DefaultVfs(), p);
  auto b = OpenFile(DefaultVfs(), p);
  ASSERT_OK(a->Lock(LockLevel::kShared));
  ASSERT_OK(b->Lock(LockLevel::kShared));
  // a lets go; b's SHARED must still be visible to other processes.
  ASSERT_OK(a->Unlock(LockLevel::kNone));
  EXPECT_FALSE(OtherProcessCanLock(p, F_WRLCK, kSharedFirst, kSharedSize));
  // Closing a's descriptor would drop the process's locks: it is parked.
  a.reset();
  EXPECT_FALSE(OtherProcessCanLock(p, F_WRLCK, kSharedFirst, kSharedSize));
  ASSERT_OK(b->Unlock(LockLevel::kNone));
  EXPECT_TRUE(OtherProcessCanLock(p, F_WRLCK, kSharedFirst, kSharedSize));
}

void CheckShm(Vfs* vfs, const std::string& path) {
  auto a = OpenFile(vfs, path);
  auto b = OpenFile(vfs, path);
  std::unique_ptr<Shm> sa, sb;
  ASSERT_OK(a->OpenShm(&sa));
  ASSERT_OK(b->OpenShm(&sb));
  uint8_t* r = nullptr;
  ASSERT_OK(sa->Map(1, false, &r));
  EXPECT_EQ(r, nullptr);
  ASSERT_OK(sa->Map(1, true, &r));
  ASSERT_NE(r, nullptr);
  r[100] = 42;
  uint8_t* r2 = nullptr;
  ASSERT_OK(sb->Map(1, false, &r2));
  ASSERT_NE(r2, nullptr);
  sb->Barrier();
  EXPECT_EQ(r2[100], 42);
  // Slot semantics: shared + shared, exclusive alone.
  ASSERT_OK(sa->Lock(3, 1, ShmLockOp::kShared));
  ASSERT_OK(sb->Lock(3, 1, ShmLockOp::kShared));
  EXPECT_EQ(sb->Lock(3, 1, ShmLockOp::kExclusive).code(), kBusy);
  ASSERT_OK(sa->Lock(3, 1, ShmLockOp::kUnlockShared));
  ASSERT_OK(sb->Lock(3, 1, ShmLockOp::kUnlockShared));
  ASSERT_OK(sa->Lock(0, 2, ShmLockOp::kExclusive));
  EXPECT_EQ(sb->Lock(1, 1, ShmLockOp::kShared).code(), kBusy);
  EXPECT_EQ(sb->Lock(0, 1, ShmLockOp::kExclusive).code(), kBusy);
  ASSERT_OK(sb->Lock(4, 4, ShmLockOp::kExclusive));
  ASSERT_OK(sa->Lock(0, 2, ShmLockOp::kUnlockExclusive));
  ASSERT_OK(sb->Lock(1, 1, ShmLockOp::kShared));
  ASSERT_OK(sb->Lock(1, 1, ShmLockOp::kUnlockShared));
  ASSERT_OK(sb->Lock(4, 4, ShmLockOp::kUnlockExclusive));
}

TEST(UnixVfs, SharedMemory) {
  TempDir dir;
  std::string p = dir.File("m.db");
  CheckShm(DefaultVfs(), p);
  // Another process sees our slot locks at bytes 120.. of the -shm file.
  auto a = OpenFile(DefaultVfs(), p);
  std::unique_ptr<Shm> s;
  ASSERT_OK(a->OpenShm(&s));
  uint8_t* r;
  ASSERT_OK(s->Map(0, true, &r));
  ASSERT_OK(s->Lock(0, 1, ShmLockOp::kExclusive));
  ASSERT_OK(s->Lock(4, 1, ShmLockOp::kShared));
  EXPECT_FALSE(OtherProcessCanLock(p + "-shm", F_RDLCK, kShmLockOffset, 1));
  EXPECT_TRUE(OtherProcessCanLock(p + "-shm", F_RDLCK, kShmLockOffset + 4, 1));
  EXPECT_FALSE(OtherProcessCanLock(p + "-shm", F_WRLCK, kShmLockOffset + 4, 1));
  EXPECT_FALSE(OtherProcessCanLock(p + "-shm", F_WRLCK, kShmDmsByte, 1));
  EXPECT_TRUE(OtherProcessCanLock(p + "-shm", F_RDLCK, kShmDmsByte, 1));
  ASSERT_OK(s->Close(true));
  EXPECT_NE(access((p + "-shm").c_str(), F_OK), 0);
}

TEST(MemVfs, SharedMemory) {
  MemVfs vfs;
  CheckShm(&vfs, "/m.db");
}

TEST(MemVfs, FilesAndDelete) {
  MemVfs vfs;
  auto f = OpenFile(&vfs, "/d/f");
  ASSERT_OK(f->Write("abc", 3, 0));
  std::string s;
  ASSERT_TRUE(vfs.GetFile("/d/f", &s));
  EXPECT_EQ(s, "abc");
  ASSERT_OK(vfs.Delete("/d/f", false));
  EXPECT_FALSE(vfs.GetFile("/d/f", &s));
  // The open handle keeps the contents.
  char buf[3];
  ASSERT_OK(f->Read(buf, 3, 0));
  EXPECT_EQ(std::string(buf, 3), "abc");
  std::unique_ptr<VfsFile> g;
  EXPECT_EQ(vfs.Open("/d/f", kOpenReadWrite, &g).primary(), kCantOpen);
  auto m = NewMemoryFile();
  ASSERT_OK(m->Write("zz", 2, 4));
  uint64_t size;
  ASSERT_OK(m->FileSize(&size));
  EXPECT_EQ(size, 6u);
}

TEST(FaultVfs, InjectedErrors) {
  MemVfs mem;
  FaultVfs vfs(&mem);
  auto f = OpenFile(&vfs, "/e");
  vfs.InjectFault(FaultKind::kIoError, 2, kFaultWrite);
  ASSERT_OK(f->Write("a", 1, 0));
  EXPECT_EQ(f->Write("b", 1, 1).code(), kIoErrWrite);
  ASSERT_OK(f->Write("c", 1, 2));
  EXPECT_TRUE(vfs.fault_fired());
  vfs.InjectFault(FaultKind::kDiskFull, 1, kFaultWrite, true);
  EXPECT_EQ(f->Write("d", 1, 3).code(), kFull);
  EXPECT_EQ(f->Write("e", 1, 4).code(), kFull);
  vfs.InjectFault(FaultKind::kShortWrite, 1, kFaultWrite);
  EXPECT_EQ(f->Write("wxyz", 4, 10).code(), kFull);
  std::string s;
  ASSERT_TRUE(mem.GetFile("/e", &s));
  EXPECT_EQ(s.substr(10), "wx");
  vfs.InjectFault(FaultKind::kIoError, 1, kFaultSync);
  EXPECT_EQ(f->Sync(kSyncNormal).code(), kIoErrFsync);
  vfs.ClearFault();
  ASSERT_OK(f->Sync(kSyncNormal));
}

TEST(FaultVfs, PowerLoss) {
  MemVfs mem;
  FaultVfs vfs(&mem);
  auto f = OpenFile(&vfs, "/p");
  std::string a(1024, 'a'), b(1024, 'b');
  ASSERT_OK(f->Write(a.data(), a.size(), 0));
  ASSERT_OK(f->Sync(kSyncNormal));
  ASSERT_OK(f->Write(b.data(), b.size(), 512));  // two sectors, unsynced
  auto all = vfs.SurvivingFiles(1, FaultVfs::Survival::kAll);
  auto none = vfs.SurvivingFiles(1, FaultVfs::Survival::kNone);
  EXPECT_EQ(all["/p"], a.substr(0, 512) + b);
  EXPECT_EQ(none["/p"], a);
  // Random survival: each 512-byte sector of the write is old or new.
  bool torn = false;
  for (uint64_t seed = 0; seed < 64; ++seed) {
    std::string img = vfs.SurvivingFiles(seed, FaultVfs::Survival::kRandom)["/p"];
    ASSERT_GE(img.size(), 1024u);
    EXPECT_EQ(img.substr(0, 512), a.substr(0, 512));
    bool s1 = img.substr(512, 512) == b.substr(0, 512);
    EXPECT_TRUE(s1 || img.substr(512, 512) == a.substr(512));
    if (img.size() > 1024) {
      EXPECT_EQ(img.substr(1024), b.substr(512));
      torn |= !s1;
    }
  }
  EXPECT_TRUE(torn);
  // The crash point: the 2nd write point from now never happens.
  vfs.CrashAt(2);
  ASSERT_OK(f->Write("x", 1, 0));
  EXPECT_NE(f->Sync(kSyncNormal).code(), kOk);
  EXPECT_TRUE(vfs.crashed());
  EXPECT_NE(f->Write("y", 1, 0).code(), kOk);
  auto after = vfs.SurvivingFiles(1, FaultVfs::Survival::kNone);
  EXPECT_EQ(after["/p"], a);
}

}  // namespace
}  // namespace basalt

// Wal: one connection's use of a database's write-ahead log (the -wal file)
// and its wal-index (the -shm shared memory). The pager holds the database
// SHARED lock for as long as a Wal is open.
//
// Read/write protocol (walformat "Locking Matrix"; lock slots in
// wal_index.h):
//   1. BeginRead: read the index header (copy 1 then copy 2; if they
//      differ or fail the checksum, take WRITE and run recovery). Then pick
//      a read mark: READ(0) when every frame is already in the database
//      (mxFrame == nBackfill; the snapshot reads the database file only),
//      else the READ(i), i >= 1, whose mark is the largest <= mxFrame,
//      moving a mark up to mxFrame under its exclusive lock if none equals
//      it. Hold READ(i) shared, then re-check the header and mark: if either
//      moved, retry. The snapshot is mxFrame at that moment; frames after
//      it are ignored, frames <= nBackfill are read from the database.
//   2. BeginWrite: WRITE exclusive; refused (kBusySnapshot) if the header
//      moved since the snapshot was taken.
//   3. WriteFrames: if the reader was at READ(0) and the log is fully
//      checkpointed, reset it first (READ(1..4) exclusive: new salts,
//      mxFrame 0). Frames go after mxFrame; the first frame of a fresh log
//      also writes the WAL header. A commit frame publishes the new header
//      (copy 2, barrier, copy 1) after the sync.
//   4. Undo: a writer dropping uncommitted frames restores the header from
//      the index and forgets the hash entries after it.
//   5. EndWrite / EndRead release WRITE / READ(i).
//   6. Checkpoint (wal_checkpoint.cc) and recovery (wal_recover.cc).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "os/vfs.h"
#include "pager/pager.h"
#include "pager/wal_index.h"

namespace basalt {

class Wal {
 public:
  // Opens (creating if need be) path + "-wal" and the wal-index of `db`.
  static Status Open(Vfs* vfs, VfsFile* db, const std::string& db_path, bool read_only,
                     std::unique_ptr<Wal>* out);
  ~Wal();
  Wal(const Wal&) = delete;
  Wal& operator=(const Wal&) = delete;

  // Closes, and with `cleanup` (the caller holds the database EXCLUSIVE
  // lock, so no other connection uses the WAL) checkpoints, then deletes
  // the -wal and -shm files.
  // `keep`: the files stay even so (SQLITE_FCNTL_PERSIST_WAL).
  Status Close(bool cleanup, bool sync, uint32_t page_size, bool keep = false);

  // ---- Readers
  // *changed: the snapshot differs from the previous one (caches are stale).
  Status BeginRead(bool* changed);
  void EndRead();
  bool reading() const { return read_lock_ >= 0; }
  // The frame holding pgno in the snapshot (0: read the database file).
  Status FindFrame(Pgno pgno, uint32_t* frame);
  Status ReadFrame(uint32_t frame, uint8_t* page, uint32_t page_size);
  // Database size in pages per the snapshot; 0 when the WAL has no frames.
  Pgno db_size() const { return hdr_.max_frame > 0 ? hdr_.n_page : 0; }
  // Page size per the index header (0 before any frame was written).
  uint32_t page_size() const { return walidx::PageSizeOf(hdr_); }
  uint32_t max_frame() const { return hdr_.max_frame; }

  // ---- The writer
  Status BeginWrite();
  void EndWrite();
  bool writing() const { return write_lock_; }
  struct FramePage {
    Pgno pgno;
    const uint8_t* data;
  };
  // Appends frames for `pages` (the caller holds the write lock). commit_size != 0 makes the last
  // one a commit frame (database size commit_size). sync_commit: sync the WAL before publishing a
  // commit; sync_header: sync after writing a new WAL header.
  Status WriteFrames(const std::vector<FramePage>& pages, uint32_t page_size, Pgno commit_size,
                     bool sync_commit, bool sync_header);
  // Drops frames written since the last commit (ours, uncommitted).
  Status Undo();

  // ---- Checkpoint (wal_checkpoint.cc)
  struct CheckpointArgs {
    CheckpointMode mode = CheckpointMode::kPassive;
    std::function<bool(int)> busy;  // may be empty
    bool sync = true;               // sync the WAL before and the database after
    uint32_t page_size = 0;
  };
  // out: frames in the log and frames checkpointed (-1 if unknown).
  Status Checkpoint(const CheckpointArgs& args, int* log_frames, int* ckpt_frames);

  // The -wal file (SQLITE_FCNTL_JOURNAL_POINTER in WAL mode).
  VfsFile* file() const { return wal_.get(); }

 private:
  Wal(Vfs* vfs, VfsFile* db, std::string wal_path, std::unique_ptr<VfsFile> wal,
      std::unique_ptr<Shm> shm, bool read_only);

  Status LockShared(int slot);
  Status LockExclusive(int slot, int n);
  void UnlockShared(int slot);
  void UnlockExclusive(int slot, int n);
  Status BusyLockExclusive(const std::function<bool(int)>& busy, int slot, int n);

  // 1. of the protocol: one attempt; kRetry means try again.
  Status TryBeginRead(bool* changed, int attempt);
  // Holds a READ(i >= 1) whose mark fits the snapshot hdr_ (kRetry: again).
  Status PickReadMark();
  Status ReadIndexHeader(bool* changed);
  // wal_recover.cc: rebuilds the index from the WAL (WRITE held).
  Status Recover();
  // 3.: resets the log if it is fully checkpointed and no reader uses it.
  Status RestartLogIfPossible();
  void RestartHeader(uint32_t salt2);

  static constexpr int kRetry = -1;

  Vfs* vfs_;
  VfsFile* db_;
  std::string wal_path_;
  std::unique_ptr<VfsFile> wal_;
  std::unique_ptr<Shm> shm_;
  WalIndex index_;
  bool read_only_;
  WalIndexHdr hdr_;     // the snapshot; the writer extends it
  int read_lock_ = -1;  // READ(i) held shared, or -1
  bool write_lock_ = false;
  bool ckpt_lock_ = false;  // held by a running checkpoint
  uint32_t min_frame_ = 0;  // first frame not yet in the database at BeginRead
  uint32_t ckpt_seq_ = 0;   // checkpoint sequence number of the WAL header
  // A commit frame may be in the file but its commit was not published (an
  // I/O error): Undo() must make sure recovery never finds it.
  bool unpublished_commit_ = false;
  uint32_t unpublished_page_size_ = 0;
  std::vector<uint8_t> frame_buf_;
};

}  // namespace basalt

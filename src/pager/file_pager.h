// FilePager: a database file through the VFS, with SQLite's rollback
// journal or write-ahead log, so that Basalt and sqlite3 processes can share
// a database file and recover each other's crashes.
//
// What the connection layer calls:
//   * OpenFilePager(vfs, path, options)  ->  Btree::Open(pager)
//   * PRAGMA journal_mode    -> Pager::SetJournalMode (the B-tree's next
//     write transaction creates page 1 of an empty database; WAL mode is
//     written into page 1 then, as SQLite does)
//   * PRAGMA wal_checkpoint  -> Pager::Checkpoint
//   * busy_timeout           -> Pager::SetBusyHandler
//   * PRAGMA cache_size, synchronous, wal_autocheckpoint -> the setters
//   * BEGIN EXCLUSIVE        -> FilePager::BeginWriteExclusive
//
// Transactions map onto file locks (vfs.h) as in SQLite: a read holds
// SHARED (WAL: a read mark), BeginWrite takes RESERVED (WAL: the WRITE
// lock), and the commit takes EXCLUSIVE before the database file is touched
// (WAL: frames are appended; readers are never blocked). A lock held by
// another connection gives kBusy after the busy handler gives up; only
// BeginRead, a BeginWrite that starts from no transaction and the commit's
// EXCLUSIVE wait call it (upgrading a read to a write does not, as in SQLite,
// since waiting there could deadlock).
//
// The state machine and the commit's sync points are documented in
// file_pager_txn.cc; WAL mode in file_pager_wal.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "os/vfs.h"
#include "pager/journal.h"
#include "pager/page_cache.h"
#include "pager/pager.h"

namespace basalt {

class Wal;

struct PagerOptions {
  bool read_only = false;
  bool create = true;  // create the file when missing
  // The journal mode to use; a database whose header (or -wal file) says
  // WAL is opened in WAL mode whatever this says.
  JournalMode journal_mode = JournalMode::kDelete;
  Synchronous synchronous = Synchronous::kFull;
  int cache_size = -2000;                 // pages if > 0, KiB if < 0
  uint32_t page_size = kDefaultPageSize;  // for a new database
  int wal_autocheckpoint = 1000;          // frames; <= 0: never
  bool exclusive_locking = false;         // PRAGMA locking_mode=EXCLUSIVE
  BusyHandler busy_handler;
};

class FilePager final : public Pager {
 public:
  // Opens (or creates) the database. Runs one read transaction, so that a
  // hot journal is rolled back and page_size()/page_count() are known.
  static Result<std::unique_ptr<FilePager>> Open(Vfs* vfs, const std::string& path,
                                                 const PagerOptions& options);
  // Rolls back an open transaction; in WAL mode the last connection
  // checkpoints and removes the -wal and -shm files.
  ~FilePager() override;

  // ---- Pager
  int savepoint_count() const override { return levels_.empty() ? 0 : int(levels_.size()) - 1; }
  bool has_changes() const override { return changed_; }
  Status SetPageSize(uint32_t page_size) override;
  Status Get(Pgno pgno, PageRef* out) override;
  Status Append(PageRef* out) override;
  Status Truncate(Pgno n) override;
  Status BeginRead() override;
  Status BeginWrite() override;
  Status Commit() override;
  Status CommitPhaseOne(std::string_view super_journal) override;
  Status CommitPhaseTwo() override;
  std::string journal_path() const override { return journal_path_; }
  VfsFile* db_file() const override { return db_.get(); }
  // In WAL mode the -wal file.
  VfsFile* journal_file() const override;
  Status Rollback() override;
  Status OpenSavepoints(int n) override;
  Status ReleaseSavepoint(int i) override;
  Status RollbackToSavepoint(int i) override;

  Status SetJournalMode(JournalMode mode, JournalMode* result) override;
  Status Checkpoint(CheckpointMode mode, CheckpointResult* out) override;
  void SetBusyHandler(BusyHandler handler) override { busy_ = std::move(handler); }
  void SetCacheSize(int n) override;
  void SetSynchronous(Synchronous level) override { sync_ = level; }
  void SetWalAutoCheckpoint(int frames) override { autocheckpoint_ = frames; }
  bool read_only() const override { return read_only_; }
  bool wal_open() const override { return wal_ != nullptr; }
  Status RewriteWithPageSize(uint32_t new_size, Pgno count,
                             const std::function<Status(Pgno, uint8_t*)>& fill) override;

  // ---- FilePager only
  // BEGIN EXCLUSIVE: a write transaction holding EXCLUSIVE from the start
  // (WAL mode: the same as BeginWrite). Inside a write transaction it just
  // upgrades the lock, so Btree::BeginTransaction(true) may come first.
  Status BeginWriteExclusive();
  const std::string& path() const { return path_; }
  Synchronous synchronous() const { return sync_; }
  size_t cache_limit() const { return cache_limit_; }
  size_t cached_pages() const { return cache_.size(); }
  int64_t cache_bytes() const override {
    return static_cast<int64_t>(cache_.size() * cache_.frame_bytes());
  }
  LockLevel lock_level() const;
  // Frames in the WAL as of the current/last snapshot (0 outside WAL mode).
  uint32_t wal_frames() const;
  uint32_t wal_frame_count() const override { return wal_frames(); }
  // Statistics for tests: pages written to the database file and syncs.
  struct Stats {
    uint64_t pages_read = 0;
    uint64_t pages_written = 0;
    uint64_t spills = 0;
    uint64_t hot_rollbacks = 0;
  };
  const Stats& stats() const { return stats_; }

 private:
  // The pager's own states (file_pager_txn.cc has the transitions).
  enum class State : uint8_t {
    kOpen,            // no transaction
    kReader,          // read transaction
    kWriterLocked,    // write transaction, nothing changed yet
    kWriterCacheMod,  // changes in the cache (and the journal)
    kWriterDbMod,     // the database file may hold changes (EXCLUSIVE held)
  };
  // A savepoint level: the page images to restore (level 0, the
  // transaction itself, keeps none: the journal or the cache covers it).
  struct Level {
    uint64_t stamp = 0;
    Pgno orig_count = 0;
    std::vector<std::pair<Pgno, std::unique_ptr<uint8_t[]>>> saved;
    std::unordered_set<Pgno> saved_set;
  };

  FilePager(Vfs* vfs, std::string path, std::unique_ptr<VfsFile> db, const PagerOptions& opt,
            uint32_t page_size, bool read_only);
  Status WriteSlow(PageFrame* f) override;
  void Unpinned(PageFrame* f) override { cache_.Unpinned(static_cast<CachedPage*>(f)); }

  // file_pager.cc: pages and the cache
  Status Fetch(Pgno pgno, CachedPage** out);  // no bounds check, not pinned
  Status ReadPage(Pgno pgno, uint8_t* buf);
  Status MakeRoom(CachedPage** reuse);
  Status Spill(CachedPage* f);
  // Whether spilling f must first seal (sync) the rollback journal.
  bool SpillNeedsSeal(const CachedPage* f) const;
  Status WritePageToDb(CachedPage* f);
  void DropFrame(CachedPage* f);  // unpinned: freed; pinned: reloaded
  void ResetCache();              // every page: dropped or reloaded
  // The file's page size differs from page_size(): adopt it (before the
  // first read transaction) or refuse.
  Status AdoptPageSize(uint32_t page_size);
  void DiscardDirty();  // dirty pages: dropped or reloaded
  JournalMode RollbackMode() const;

  // file_pager_txn.cc: rollback-journal transactions
  Status WithBusy(const std::function<Status()>& attempt);
  Status TryBeginRead();
  Status TryBeginReadUnfixed();
  Status TryBeginWrite(bool exclusive);
  Status ReadFileHeader(uint8_t* hdr, uint64_t* file_size);
  Status CheckHotJournal(bool* hot);
  // Reads the header into hdr; true when it shows no commit since the last
  // read transaction measured the file (see known_size_).
  bool UnchangedSinceLastRead(uint8_t* hdr);
  Status RollbackHotJournal();
  Status SetPageCount(Pgno physical, const uint8_t* page1_header);
  Status OpenJournal();
  Status JournalPage(Pgno pgno, const uint8_t* data);
  Status FinalizeJournal();
  Status CommitRollbackMode();
  // a. - d. of the commit (file_pager_txn.cc); phase_one_done_ afterwards.
  Status WriteCommitPages(std::string_view super_journal);
  Status RollbackRollbackMode();
  // Rollback ran out of memory half way: drops the cache and ends the
  // transaction, leaving the journal (hot) for the next reader to play
  // back, as after a failed playback.
  void AbandonWrite();
  void EndTransaction();
  // Unlock to NONE, noting in lock_unknown_ whether that failed.
  void UnlockAll();
  Status WriteHeaderVersion(uint8_t version);

  // file_pager_wal.cc
  Status OpenWal();
  Status WalBeginRead();
  Status CommitWal();
  Status RollbackWal();
  Status LeaveWal(JournalMode mode);
  Status CloseWal(bool cleanup);

  // file_pager_savepoint.cc
  void PushLevel();
  Status SaveImage(CachedPage* f);
  void DropLevels();

  Vfs* vfs_;
  std::string path_;
  std::string journal_path_;
  // CommitPhaseOne has written the changes: what phase two needs.
  bool phase_one_done_ = false;
  uint64_t committed_size_ = 0;
  std::string wal_path_;
  std::unique_ptr<VfsFile> db_;
  bool read_only_;
  bool exclusive_locking_;
  Synchronous sync_;
  int autocheckpoint_;
  BusyHandler busy_;
  PageCache cache_;
  size_t cache_limit_ = 0;
  int cache_size_ = -2000;  // as last set (the limit depends on the page size)
  // Until the first read transaction succeeds the page size follows the
  // file (the header read at open may have been torn by a crashed writer).
  bool page_size_fixed_ = false;
  State state_ = State::kOpen;
  Stats stats_;

  // Rollback journal of the current write transaction.
  std::unique_ptr<VfsFile> jfd_;
  JournalWriter journal_;
  bool journal_open_ = false;
  // [pgno]: the page's original is in the journal (kUnsealed: in a segment
  // not yet sealed, so the page must not reach the database file yet).
  enum : uint8_t { kNotJournaled = 0, kUnsealed = 1, kSealed = 2 };
  std::vector<uint8_t> in_journal_;
  std::vector<Pgno> unsealed_;  // pages at kUnsealed
  Pgno orig_size_ = 0;          // page_count() when the transaction began
  uint32_t resized_from_ = 0;   // the page size before RewriteWithPageSize (0: none)
  // Bytes 24..39 of the database header when this pager last knew the file
  // (rollback mode): any other change means the cache is stale.
  uint8_t file_version_[16] = {};
  bool version_known_ = false;
  // The database file's size when the file-version bytes above were read
  // at the start of a read transaction (size_known_): while they stay the
  // same no other connection has committed, so the size and the absence of
  // a WAL are still what they were.
  uint64_t known_size_ = 0;
  bool size_known_ = false;
  // A sticky I/O error of the write transaction; only Rollback() clears it.
  Status error_;
  // An unlock to NONE failed (SQLite's UNKNOWN_LOCK): the file may still be
  // locked RESERVED or above by this very connection, so a journal found
  // at the next read is hot even though the reserved lock looks taken.
  // Cleared by the next unlock that succeeds (UnlockAll).
  bool lock_unknown_ = false;

  // WAL mode.
  std::unique_ptr<Wal> wal_;
  bool spilled_ = false;  // uncommitted frames written in this transaction
  bool leaving_wal_ = false;

  // Savepoints.
  std::vector<Level> levels_;
  uint64_t next_stamp_ = 1;
  bool changed_ = false;
};

// The factory the connection layer calls.
Result<std::unique_ptr<Pager>> OpenFilePager(Vfs* vfs, const std::string& path,
                                             const PagerOptions& options);

}  // namespace basalt

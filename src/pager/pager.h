// The pager: a cache of fixed-size pages numbered from 1, with transactions
// and nested savepoints. It is the only way the B-tree reaches storage.
//
// Contract with the B-tree layer:
//   * Get() pins a page and hands back a PageRef (move-only RAII pin). The
//     bytes stay at the same address while the pin is held, and for as long
//     as the page exists in the in-memory variant.
//   * Before changing a page's bytes the caller calls Write(ref); that is
//     where the original image is recorded for rollback (a rollback journal,
//     a statement sub-journal, or an in-memory copy). A page stays writable
//     until the current transaction or savepoint level changes.
//   * Every page buffer is followed by kPageSlack readable bytes, so that
//     decoders may read a varint that starts near the end of a page without
//     a bounds check per byte (they still must check what they decode).
//   * Pages are numbered 1..page_count(); Append() adds page_count()+1,
//     Truncate() drops pages from the end. Both are undone by rollback.
//
// Implementations: MemPager (mem_pager.h) keeps every page in memory;
// FilePager (file_pager.h) keeps a database file through the VFS, with the
// rollback journal or the WAL.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "common/status.h"

namespace basalt {

using Pgno = uint32_t;

class Pager;
class VfsFile;

// Bytes readable past the end of every page buffer (zero-filled).
inline constexpr uint32_t kPageSlack = 32;
inline constexpr uint32_t kMinPageSize = 512;
inline constexpr uint32_t kMaxPageSize = 65536;
inline constexpr uint32_t kDefaultPageSize = 4096;

// True for a power of two in [512, 65536].
inline bool IsValidPageSize(uint32_t n) {
  return n >= kMinPageSize && n <= kMaxPageSize && (n & (n - 1)) == 0;
}

// One cached page. Owned by its pager; callers see it through PageRef.
struct PageFrame {
  uint8_t* data = nullptr;  // page_size bytes + kPageSlack
  Pgno pgno = 0;
  uint32_t pins = 0;         // live PageRefs
  uint64_t write_stamp = 0;  // == Pager::write_stamp() while writable
  Pager* pager = nullptr;
  // Owned by the layer above: the B-tree caches one fact about the page's
  // bytes here (user_value), tagged with the write stamp and page number it
  // holds for. Pagers only zero-initialise these fields; the tag can only
  // match while the page stays writable at the level that set it.
  uint64_t user_tag = 0;
  Pgno user_pgno = 0;
  int32_t user_value = 0;
};

// A pin on one page. Move-only; releasing the last pin lets the pager evict
// the page (the in-memory pager never does).
class PageRef {
 public:
  PageRef() = default;
  explicit PageRef(PageFrame* f) : f_(f) { ++f->pins; }
  PageRef(const PageRef&) = delete;
  PageRef& operator=(const PageRef&) = delete;
  PageRef(PageRef&& o) noexcept : f_(std::exchange(o.f_, nullptr)) {}
  PageRef& operator=(PageRef&& o) noexcept {
    if (this != &o) {
      Reset();
      f_ = std::exchange(o.f_, nullptr);
    }
    return *this;
  }
  ~PageRef() { Reset(); }

  inline void Reset();
  explicit operator bool() const { return f_ != nullptr; }
  Pgno pgno() const { return f_->pgno; }
  // The page bytes. Modify them only after Pager::Write() succeeded.
  uint8_t* data() const { return f_->data; }
  inline bool writable() const;
  PageFrame* frame() const { return f_; }

 private:
  PageFrame* f_ = nullptr;
};

enum class PagerTxn : uint8_t { kNone, kRead, kWrite };

// How a write transaction keeps what it needs for rollback. The in-memory
// pager supports kMemory (copies of original pages) and kOff (no rollback;
// for ephemeral trees).
enum class JournalMode : uint8_t { kDelete, kTruncate, kPersist, kMemory, kWal, kOff };

// PRAGMA synchronous: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA.
enum class Synchronous : uint8_t { kOff = 0, kNormal = 1, kFull = 2, kExtra = 3 };

// PRAGMA wal_checkpoint(mode) / sqlite3_wal_checkpoint_v2.
enum class CheckpointMode : uint8_t { kPassive, kFull, kRestart, kTruncate };

// What PRAGMA wal_checkpoint reports: busy (0 or 1), frames in the WAL and
// frames checkpointed (-1 and -1 when the database is not in WAL mode).
struct CheckpointResult {
  int busy = 0;
  int log_frames = -1;
  int checkpointed_frames = -1;
};

// Called when a lock is busy, with the number of calls so far for this
// wait; returns true to try again (busy_timeout sleeps, then says true).
using BusyHandler = std::function<bool(int attempts)>;

class Pager {
 public:
  virtual ~Pager() = default;
  Pager(const Pager&) = delete;
  Pager& operator=(const Pager&) = delete;

  uint32_t page_size() const { return page_size_; }
  // Pages in the database as seen by the current transaction.
  Pgno page_count() const { return page_count_; }
  PagerTxn txn() const { return txn_; }
  JournalMode journal_mode() const { return journal_mode_; }
  // Open savepoints (not counting the transaction itself).
  virtual int savepoint_count() const = 0;
  // True once the current write transaction has changed any page.
  virtual bool has_changes() const = 0;

  // Changes the page size; only while the database has no pages and no
  // transaction is open.
  virtual Status SetPageSize(uint32_t page_size) = 0;

  // Pins page `pgno` (1..page_count()). SQLITE_CORRUPT for a page number
  // out of range.
  virtual Status Get(Pgno pgno, PageRef* out) = 0;

  // Makes the pinned page writable in the current transaction/savepoint.
  Status Write(const PageRef& ref) {
    if (ref.frame()->write_stamp == write_stamp_) return Status();
    return WriteSlow(ref.frame());
  }
  // Adds page page_count()+1, zero-filled and writable, and pins it.
  virtual Status Append(PageRef* out) = 0;
  // Drops pages n+1..page_count() (none may be pinned).
  virtual Status Truncate(Pgno n) = 0;

  // Transactions. The state machine is documented in each implementation.
  virtual Status BeginRead() = 0;
  virtual Status BeginWrite() = 0;
  // Ends the transaction (read or write), keeping all changes.
  virtual Status Commit() = 0;
  // Commit in two phases, for a transaction over several databases
  // (atomiccommit section 5): phase one makes the changes durable in the
  // database file but keeps the journal (which names `super_journal`, when
  // not empty); phase two removes the journal (the commit point of this
  // database) and ends the transaction. Commit() is phase one then two.
  // Pagers without a rollback journal commit in phase two.
  virtual Status CommitPhaseOne(std::string_view super_journal) {
    (void)super_journal;
    return Status();
  }
  virtual Status CommitPhaseTwo() { return Commit(); }
  // The rollback journal's path ("" when there is no journal file).
  virtual std::string journal_path() const { return std::string(); }
  // The database file and the open rollback journal or WAL (null when
  // none), for sqlite3_file_control.
  virtual VfsFile* db_file() const { return nullptr; }
  virtual VfsFile* journal_file() const { return nullptr; }
  // Ends the transaction, undoing all changes of a write transaction.
  virtual Status Rollback() = 0;

  // Savepoints nest inside a write transaction; index 0 is the outermost.
  // Opens new savepoints until savepoint_count() == n.
  virtual Status OpenSavepoints(int n) = 0;
  // Releases savepoint i and all newer ones, keeping their changes
  // (savepoint_count() becomes i).
  virtual Status ReleaseSavepoint(int i) = 0;
  // Undoes every change made since savepoint i was opened; savepoint i stays
  // open, newer ones are discarded (savepoint_count() becomes i + 1).
  virtual Status RollbackToSavepoint(int i) = 0;

  uint64_t write_stamp() const { return write_stamp_; }
  // Grows whenever the pager drops its cached pages because the file may
  // hold changes it did not make (another connection committed) or after a
  // rollback. While it stays the same, nothing read earlier can be stale.
  uint64_t cache_epoch() const { return cache_epoch_; }
  // PRAGMA data_version: starts at 1 and grows each time a transaction
  // begins on a file another connection has committed to since this pager
  // last read it (not for this pager's own commits and rollbacks), and
  // when the page size of an empty database changes.
  uint64_t data_version() const { return data_version_; }
  // SQLITE_FCNTL_DATA_VERSION: data_version() counting this pager's own
  // write commits too, as SQLite's pager counter does.
  uint64_t file_data_version() const { return data_version_ + commits_; }
  // Set around the read transaction that opening a database runs (Btree::
  // Open): SQLite reads nothing when it opens, so a WAL change that read
  // sees is counted at the next read transaction instead.
  void set_opening(bool on) { opening_ = on; }
  // Page-cache counters for sqlite3_db_status (CACHE_HIT, CACHE_MISS,
  // CACHE_WRITE, CACHE_SPILL); the API reads and resets them.
  struct CacheCounters {
    uint64_t hits = 0;    // pages found in the cache
    uint64_t misses = 0;  // pages read from the file
    uint64_t writes = 0;  // pages written to the file or the WAL
    uint64_t spills = 0;  // dirty pages written early to make room
  };
  CacheCounters& cache_counters() { return counters_; }
  // Bytes of memory the pager's cached pages take (SQLITE_DBSTATUS_CACHE_USED).
  virtual int64_t cache_bytes() const { return 0; }
  // SQLITE_FCNTL_PERSIST_WAL: the -wal and -shm files stay after the last
  // connection closes (the WAL is still checkpointed).
  bool persist_wal() const { return persist_wal_; }
  void set_persist_wal(bool on) { persist_wal_ = on; }

  // ---- Controls for the connection layer (PRAGMAs). The defaults are
  // what a database without a file answers.
  // PRAGMA journal_mode=<mode>: *result is the mode in effect afterwards.
  virtual Status SetJournalMode(JournalMode mode, JournalMode* result) {
    (void)mode;
    *result = journal_mode_;
    return Status();
  }
  // PRAGMA wal_checkpoint(<mode>).
  virtual Status Checkpoint(CheckpointMode mode, CheckpointResult* out) {
    (void)mode;
    *out = CheckpointResult();
    return Status();
  }
  virtual void SetBusyHandler(BusyHandler handler) { (void)handler; }
  // PRAGMA cache_size: n > 0 pages, n < 0 kibibytes.
  virtual void SetCacheSize(int n) { (void)n; }
  virtual void SetSynchronous(Synchronous level) { (void)level; }
  // PRAGMA wal_autocheckpoint: frames, <= 0 disables.
  virtual void SetWalAutoCheckpoint(int frames) { (void)frames; }
  // PRAGMA max_page_count: Append fails with SQLITE_FULL past n pages.
  void SetMaxPageCount(Pgno n) { max_page_count_ = n; }
  virtual bool read_only() const { return false; }
  // True while the pager reads and writes through a WAL.
  virtual bool wal_open() const { return false; }
  // Frames in the WAL as of the current or last snapshot (0 without one).
  virtual uint32_t wal_frame_count() const { return 0; }
  // VACUUM with a new page size: inside the write transaction, replaces the
  // whole database by `count` pages of `new_size` bytes that fill(pgno,
  // buf) writes into a zeroed buffer; afterwards page_size() is new_size.
  // Commit keeps it, Rollback restores the old pages and page size. Only
  // the file pager in a rollback-journal mode can (file_pager_resize.cc).
  virtual Status RewriteWithPageSize(uint32_t new_size, Pgno count,
                                     const std::function<Status(Pgno, uint8_t*)>& fill) {
    (void)new_size;
    (void)count;
    (void)fill;
    return Status(kMisuse, "the page size of this database cannot change");
  }

 protected:
  Pager(uint32_t page_size, JournalMode mode) : page_size_(page_size), journal_mode_(mode) {}
  virtual Status WriteSlow(PageFrame* f) = 0;
  // Called when the last pin on a page goes away.
  virtual void Unpinned(PageFrame*) {}

  uint32_t page_size_;
  Pgno page_count_ = 0;
  PagerTxn txn_ = PagerTxn::kNone;
  JournalMode journal_mode_;
  // Identifies the current transaction/savepoint level; a frame whose stamp
  // matches is writable. Stamps are never reused; frames start at 0 and
  // kNoWriteStamp (no write transaction) matches no frame.
  static constexpr uint64_t kNoWriteStamp = ~uint64_t{0};
  uint64_t write_stamp_ = kNoWriteStamp;
  uint64_t cache_epoch_ = 0;
  uint64_t data_version_ = 1;
  uint64_t commits_ = 0;           // write transactions committed (file_data_version)
  bool opening_ = false;           // see set_opening
  bool count_deferred_ = false;    // a change seen while opening, not yet counted
  bool wal_open_counted_ = false;  // the WAL's first read was counted already
  CacheCounters counters_;
  bool persist_wal_ = false;
  Pgno max_page_count_ = 0xfffffffeu;

  friend class PageRef;
};

inline void PageRef::Reset() {
  if (f_ != nullptr) {
    if (--f_->pins == 0) f_->pager->Unpinned(f_);
    f_ = nullptr;
  }
}

inline bool PageRef::writable() const { return f_->write_stamp == f_->pager->write_stamp(); }

}  // namespace basalt

// Checkpoints: copying WAL frames back into the database file (fileformat2
// "Checkpoint Algorithm", walformat "Run a checkpoint").
//
//   1. CKPT exclusive (kBusy at once if another checkpoint runs). FULL,
//      RESTART and TRUNCATE also take WRITE, waiting through the busy
//      handler; if it stays busy they run as PASSIVE and report kBusy.
//   2. Read the index header (recovering if need be). mxSafe starts at
//      mxFrame; for each READ(i), i >= 1, whose mark is below mxSafe: take it
//      exclusively and move its mark (to mxSafe for READ(1), unused for the
//      others), or, if a reader holds it, lower mxSafe to its mark.
//   3. With READ(0) exclusive (no reader relies on the database file alone):
//      sync the WAL, write the newest frame <= mxSafe of every page (not
//      beyond the database size), truncate the database when mxSafe is the
//      end of the log, sync it, and set nBackfill = mxSafe.
//   4. RESTART / TRUNCATE: once everything is backfilled, wait for READ(1..4)
//      so the next writer can reset the log; TRUNCATE resets it at once and
//      truncates the -wal file to zero bytes.
#include <algorithm>
#include <cstring>
#include <vector>

#include "pager/wal.h"

namespace basalt {

using namespace walidx;

Status Wal::Checkpoint(const CheckpointArgs& args, int* log_frames, int* ckpt_frames) {
  *log_frames = *ckpt_frames = -1;
  if (read_only_) return Status(kReadOnly);
  // 1.
  TRY(LockExclusive(kCkptLock, 1));
  ckpt_lock_ = true;
  CheckpointMode mode = args.mode;
  std::function<bool(int)> busy = mode == CheckpointMode::kPassive ? nullptr : args.busy;
  bool took_write = false;
  Status st;
  if (mode != CheckpointMode::kPassive) {
    st = BusyLockExclusive(busy, kWriteLock, 1);
    if (st.ok()) {
      took_write = !write_lock_;
      write_lock_ = true;
    } else if (st.code() == kBusy) {
      mode = CheckpointMode::kPassive;
      busy = nullptr;
      st = Status();
    }
  }
  bool changed = false;
  if (st.ok()) st = ReadIndexHeader(&changed);
  uint32_t page_size = PageSizeOf(hdr_);
  if (st.ok() && hdr_.max_frame > 0 && page_size != args.page_size) st = CORRUPT();

  // 2. and 3.
  if (st.ok() && index_.backfill() < hdr_.max_frame) {
    uint32_t mx_safe = hdr_.max_frame;
    for (int i = 1; i < kReaders && st.ok(); ++i) {
      uint32_t mark = index_.read_mark(i);
      if (mx_safe <= mark) continue;
      Status l = BusyLockExclusive(busy, ReadLock(i), 1);
      if (l.ok()) {
        index_.set_read_mark(i, i == 1 ? mx_safe : kReadMarkUnused);
        UnlockExclusive(ReadLock(i), 1);
      } else if (l.code() == kBusy) {
        mx_safe = mark;
        busy = nullptr;
      } else {
        st = l;
      }
    }
    uint32_t from = index_.backfill();
    if (st.ok() && from < mx_safe) {
      // The newest frame <= mx_safe of each page, in page order.
      std::vector<std::pair<Pgno, uint32_t>> latest;
      latest.reserve(mx_safe - from);
      for (uint32_t f = from + 1; f <= mx_safe && st.ok(); ++f) {
        Pgno pgno = 0;
        st = index_.PageOf(f, &pgno);
        if (st.ok() && pgno <= hdr_.n_page) latest.emplace_back(pgno, f);
      }
      std::stable_sort(latest.begin(), latest.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      Status l = st.ok() ? BusyLockExclusive(busy, ReadLock(0), 1) : st;
      if (l.ok()) {
        index_.Store(kBackfillAttempted, mx_safe);
        if (args.sync) st = wal_->Sync(kSyncNormal);
        std::vector<uint8_t> page(page_size);
        for (size_t k = 0; k < latest.size() && st.ok(); ++k) {
          if (k + 1 < latest.size() && latest[k + 1].first == latest[k].first) continue;
          st = ReadFrame(latest[k].second, page.data(), page_size);
          if (st.ok()) {
            st = db_->Write(page.data(), page_size, uint64_t(latest[k].first - 1) * page_size);
          }
        }
        if (st.ok()) {
          WalIndexHdr now;
          index_.ReadHeaderCopy1(&now);
          if (mx_safe == now.max_frame) {
            st = db_->Truncate(uint64_t(hdr_.n_page) * page_size);
          }
          if (st.ok() && args.sync) st = db_->Sync(kSyncNormal);
        }
        if (st.ok()) index_.Store(kBackfill, mx_safe);
        UnlockExclusive(ReadLock(0), 1);
      } else if (l.code() != kBusy) {
        st = l;
      }
    }
  }

  // 4.
  if (st.ok() && mode != CheckpointMode::kPassive) {
    if (index_.backfill() < hdr_.max_frame) {
      st = Status(kBusy);
    } else if (mode >= CheckpointMode::kRestart) {
      uint32_t salt2;
      vfs_->Randomness(&salt2, sizeof salt2);
      st = BusyLockExclusive(busy, ReadLock(1), kReaders - 1);
      if (st.ok()) {
        if (mode == CheckpointMode::kTruncate) {
          RestartHeader(salt2);
          st = wal_->Truncate(0);
        }
        UnlockExclusive(ReadLock(1), kReaders - 1);
      }
    }
  }

  *log_frames = int(hdr_.max_frame);
  *ckpt_frames = int(index_.backfill());
  if (took_write) {
    UnlockExclusive(kWriteLock, 1);
    write_lock_ = false;
  }
  UnlockExclusive(kCkptLock, 1);
  ckpt_lock_ = false;
  // The caller is between transactions; make the next BeginRead see a change.
  if (changed) hdr_ = WalIndexHdr();
  if (st.ok() && mode != args.mode) st = Status(kBusy);
  return st;
}

}  // namespace basalt

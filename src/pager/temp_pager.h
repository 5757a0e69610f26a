// TempPager: the pager of an ephemeral B-tree (the temporary tables behind
// DISTINCT, compound SELECTs, IN lists, materialized views and CTEs). Pages
// live in memory up to a budget of frames; past it the least recently used
// unpinned pages go to a temporary file opened through the VFS (deleted when
// closed), as SQLite's temporary databases spill. No rollback journal:
// nothing written is ever undone (JournalMode::kOff), so savepoints only
// count levels.
//
// Invariants:
//   T1. frames_[pgno - 1] is the frame holding page pgno, or null when the
//       page is not in memory; then its bytes are in the file at offset
//       (pgno - 1) * page_size (every page leaves memory only through
//       Evict, which writes it first when it is dirty).
//   T2. pool_ holds every frame this pager owns, in memory or spare (pgno 0).
//       Frames are only added (up to the budget, more only while every
//       frame is pinned) and reused in place; the clock hand walks pool_.
//   T3. A frame's `dirty` is set by WriteSlow and cleared when the page is
//       written to the file; a frame read back from the file starts clean
//       with write_stamp 0, so the next Pager::Write reaches WriteSlow.
//   T4. The whole write transaction uses one stamp: nothing is saved for
//       rollback, so a page once writable stays writable until Commit.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "os/vfs.h"
#include "pager/pager.h"

namespace basalt {

class TempPager final : public Pager {
 public:
  // max_frames: pages kept in memory before spilling (at least a few are
  // kept whatever is asked). vfs: where the temporary file is opened.
  static Result<std::unique_ptr<TempPager>> Create(uint32_t page_size, Vfs* vfs, size_t max_frames);
  ~TempPager() override;

  int savepoint_count() const override { return savepoints_; }
  bool has_changes() const override { return changed_; }
  Status SetPageSize(uint32_t page_size) override;
  Status Get(Pgno pgno, PageRef* out) override;
  Status Append(PageRef* out) override;
  Status Truncate(Pgno n) override;
  Status BeginRead() override;
  Status BeginWrite() override;
  Status Commit() override;
  Status Rollback() override;
  Status OpenSavepoints(int n) override;
  Status ReleaseSavepoint(int i) override;
  Status RollbackToSavepoint(int i) override;

  // For tests: frames in memory and pages written to the file so far.
  size_t frame_count() const { return pool_.size(); }
  uint64_t pages_spilled() const { return pages_spilled_; }

 private:
  struct Frame : PageFrame {
    bool dirty = false;
    bool referenced = false;  // clock bit: used since the hand last passed
  };

  TempPager(uint32_t page_size, Vfs* vfs, size_t max_frames)
      : Pager(page_size, JournalMode::kOff), vfs_(vfs), max_frames_(max_frames) {}
  Status WriteSlow(PageFrame* f) override;
  // A frame for page pgno (not in memory), its bytes unspecified; evicts
  // an unpinned page when the pool is at its budget.
  Status TakeFrame(Pgno pgno, Frame** out);
  // Writes f's page to the file if dirty and takes it out of frames_.
  Status Evict(Frame* f);
  Frame* NewFrame();
  void FreeFrames();

  Vfs* vfs_;
  size_t max_frames_;
  std::unique_ptr<VfsFile> file_;  // opened at the first spill
  std::vector<Frame*> frames_;     // T1
  std::vector<Frame*> pool_;       // T2
  size_t hand_ = 0;                // the clock's position in pool_
  uint64_t pages_spilled_ = 0;
  uint64_t next_stamp_ = 1;
  int savepoints_ = 0;
  bool changed_ = false;
};

}  // namespace basalt

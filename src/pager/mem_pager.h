// MemPager: every page lives in memory. Used for ":memory:" databases and
// for the engine's temporary and ephemeral B-trees. Rollback keeps a copy of
// each page's image the first time it is written in a transaction or
// savepoint level (see the state machine in mem_pager.cc).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pager/pager.h"

namespace basalt {

class MemPager final : public Pager {
 public:
  // mode: JournalMode::kMemory (rollback supported) or kOff (no rollback:
  // cheapest, for ephemeral trees).
  static Result<std::unique_ptr<MemPager>> Create(uint32_t page_size = kDefaultPageSize,
                                                  JournalMode mode = JournalMode::kMemory);
  // A pager holding a copy of a database image (e.g. a file written by
  // sqlite3). A trailing partial page is zero-filled.
  static Result<std::unique_ptr<MemPager>> FromImage(std::string_view bytes, uint32_t page_size,
                                                     JournalMode mode = JournalMode::kMemory);
  ~MemPager() override;

  // Appends pages 1..page_count() to *out (a debug/compat helper: the bytes
  // are exactly what a database file with these pages contains).
  void CopyImage(std::string* out) const;

  int savepoint_count() const override { return levels_.empty() ? 0 : int(levels_.size()) - 1; }
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
  // PRAGMA journal_mode: an in-memory database takes MEMORY or OFF (as in
  // SQLite), outside a write transaction; other modes are ignored.
  Status SetJournalMode(JournalMode mode, JournalMode* result) override;

  // Page images currently held for rollback (for tests of cheap rollback).
  size_t saved_image_count() const;
  int64_t cache_bytes() const override;

 private:
  struct Frame : PageFrame {
    // Bit j set: levels_[j].saved holds this page's image (j < kMaskLevels).
    uint64_t saved_mask = 0;
  };
  struct Saved {
    Frame* frame;
    uint8_t* image;
  };
  // The write transaction is level 0; savepoint i is level i + 1.
  struct Level {
    uint64_t stamp;
    Pgno orig_count;  // page_count() when the level opened
    std::vector<Saved> saved;
  };
  static constexpr size_t kMaskLevels = 63;

  MemPager(uint32_t page_size, JournalMode mode) : Pager(page_size, mode) {}
  Status WriteSlow(PageFrame* f) override;
  Frame* NewFrame(Pgno pgno);
  // Frames are one block from the library heap: the Frame, padded to 16
  // bytes, then the page and its slack.
  static constexpr size_t kFrameHead = (sizeof(Frame) + 15) & ~size_t{15};
  size_t FrameBytes() const { return kFrameHead + page_size_ + kPageSlack; }
  void FreeFrame(Frame* f);

  uint8_t* TakeImage();
  void GiveImage(uint8_t* image);
  void PushLevel();
  // Restores every image saved at levels >= k and pops the levels above k.
  void UndoTo(size_t k);
  // Drops the saved images of every level and closes the transaction.
  void DiscardLevels();

  std::vector<Frame*> frames_;  // frames_[pgno - 1]; may run past page_count_
  std::vector<Level> levels_;
  std::vector<uint8_t*> image_pool_;
  uint64_t next_stamp_ = 1;
  bool changed_ = false;
};

}  // namespace basalt

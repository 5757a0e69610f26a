// Runs of a spilling sorter (sorter.h): sorted batches of records written to
// one temporary file and read back through small buffers for the merge.
//
// Run format: records one after another, each as
//   varint  n      the record's length in bytes
//   n bytes        the record
// with no header or trailer; a run is the byte range [begin, end) of the
// file, and the runs of one sorter follow each other in the file.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/status.h"
#include "os/vfs.h"

namespace basalt {

struct SortRun {
  uint64_t begin = 0;
  uint64_t end = 0;
};

// Appends records to a file from `offset` on, through a buffer.
class RunWriter {
 public:
  RunWriter(VfsFile* file, uint64_t offset);
  Status Put(const uint8_t* rec, uint32_t n);
  // Writes what is buffered; offset() is then the end of the run.
  Status Flush();
  uint64_t offset() const { return offset_ + used_; }

 private:
  VfsFile* file_;
  uint64_t offset_;  // file offset of buf_[0]
  size_t used_ = 0;
  std::unique_ptr<uint8_t[]> buf_;
};

// Reads the records of one run in order.
// Invariant: rec() stays valid until the next call of Next().
class RunReader {
 public:
  // buffer: bytes read from the file at a time (more for a longer record).
  RunReader(VfsFile* file, SortRun run, size_t buffer);
  RunReader(RunReader&&) = default;
  // Moves to the next record; *more is false past the last one.
  Status Next(bool* more);
  const uint8_t* rec() const { return rec_; }
  uint32_t size() const { return size_; }

 private:
  // Makes n bytes from pos_ on available in buf_ (fewer at the end of the
  // run; *got says how many).
  Status Fill(size_t n, size_t* got);
  VfsFile* file_;
  uint64_t next_;  // file offset of the first byte not yet in buf_
  uint64_t end_;
  std::vector<uint8_t> buf_;
  size_t pos_ = 0, len_ = 0;  // unread bytes are buf_[pos_, len_)
  const uint8_t* rec_ = nullptr;
  uint32_t size_ = 0;
};

// Opens a temporary file for a sorter's runs through `vfs` (deleted when
// closed).
Status OpenSorterTempFile(Vfs* vfs, std::unique_ptr<VfsFile>* out);

}  // namespace basalt

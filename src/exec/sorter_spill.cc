#include "exec/sorter_spill.h"

#include <algorithm>
#include <cstring>

#include "common/coding.h"

namespace basalt {

namespace {
constexpr size_t kWriteBuffer = 64 * 1024;
}  // namespace

RunWriter::RunWriter(VfsFile* file, uint64_t offset)
    : file_(file), offset_(offset), buf_(new uint8_t[kWriteBuffer]) {}

Status RunWriter::Put(const uint8_t* rec, uint32_t n) {
  if (used_ + 9 + n > kWriteBuffer) {
    TRY(Flush());
    if (9 + size_t{n} > kWriteBuffer) {
      // A record larger than the buffer goes straight to the file.
      uint8_t len[9];
      int k = PutVarint(len, n);
      TRY(file_->Write(len, static_cast<size_t>(k), offset_));
      TRY(file_->Write(rec, n, offset_ + static_cast<uint64_t>(k)));
      offset_ += static_cast<uint64_t>(k) + n;
      return Status();
    }
  }
  used_ += static_cast<size_t>(PutVarint(buf_.get() + used_, n));
  if (n) std::memcpy(buf_.get() + used_, rec, n);
  used_ += n;
  return Status();
}

Status RunWriter::Flush() {
  if (used_ == 0) return Status();
  TRY(file_->Write(buf_.get(), used_, offset_));
  offset_ += used_;
  used_ = 0;
  return Status();
}

RunReader::RunReader(VfsFile* file, SortRun run, size_t buffer)
    : file_(file), next_(run.begin), end_(run.end), buf_(buffer) {}

Status RunReader::Fill(size_t n, size_t* got) {
  size_t have = len_ - pos_;
  if (have < n && next_ < end_) {
    if (pos_ > 0) {
      std::memmove(buf_.data(), buf_.data() + pos_, have);
      pos_ = 0;
      len_ = have;
    }
    if (buf_.size() < n) buf_.resize(n);
    size_t want = static_cast<size_t>(std::min<uint64_t>(buf_.size() - len_, end_ - next_));
    TRY(file_->Read(buf_.data() + len_, want, next_));
    next_ += want;
    len_ += want;
    have = len_ - pos_;
  }
  *got = have;
  return Status();
}

Status RunReader::Next(bool* more) {
  size_t got = 0;
  TRY(Fill(9, &got));
  if (got == 0) {
    *more = false;
    rec_ = nullptr;
    size_ = 0;
    return Status();
  }
  uint8_t len[9] = {};
  std::memcpy(len, buf_.data() + pos_, std::min<size_t>(got, 9));
  uint32_t n;
  size_t k = static_cast<size_t>(GetVarint32(len, &n));
  if (k > got) return CORRUPT();
  TRY(Fill(k + n, &got));
  if (got < k + n) return CORRUPT();  // the run ends inside a record
  rec_ = buf_.data() + pos_ + k;
  size_ = n;
  pos_ += k + n;
  *more = true;
  return Status();
}

Status OpenSorterTempFile(Vfs* vfs, std::unique_ptr<VfsFile>* out) {
  // An empty name asks the VFS for a fresh temporary file.
  constexpr int kFlags =
      kOpenReadWrite | kOpenCreate | kOpenExclusive | kOpenDeleteOnClose | kOpenTempJournal;
  return vfs->Open(std::string(), kFlags, out);
}

}  // namespace basalt

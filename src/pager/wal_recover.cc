// WAL recovery: rebuilding the wal-index from the -wal file, after the last
// user of a WAL went away (a crash, or a clean close that left the WAL), or
// when the index header is found damaged (walformat "Recovery").
//
// With WRITE held (by the caller), CKPT and RECOVER are taken exclusively;
// the WAL is read from the start, frame by frame, and each frame whose salts
// match the header's and whose cumulative checksum is right is indexed. The
// last valid commit frame becomes mxFrame; nBackfill restarts at 0 (nothing
// says how much the database already has, and copying a frame twice is
// harmless). READ(1..4) are taken one at a time to reset their marks.
#include <cstring>
#include <vector>

#include "common/coding.h"
#include "pager/wal.h"
#include "pager/wal_format.h"

namespace basalt {

using namespace walidx;

Status Wal::Recover() {
  int first_lock = ckpt_lock_ ? kRecoverLock : kCkptLock;
  int nlocks = ReadLock(0) - first_lock;
  TRY(LockExclusive(first_lock, nlocks));
  WalIndexHdr h;
  Status st = [&]() -> Status {
    uint64_t size = 0;
    TRY(wal_->FileSize(&size));
    if (size <= walfmt::kHeaderSize) return Status();
    uint8_t wh[walfmt::kHeaderSize];
    TRY(wal_->Read(wh, sizeof wh, 0));
    uint32_t magic = Get32(wh + walfmt::kHdrMagic);
    uint32_t page_size = Get32(wh + walfmt::kHdrPageSize);
    if ((magic & ~1u) != walfmt::kMagic || !IsValidPageSize(page_size)) return Status();
    bool big = (magic & 1) != 0;
    uint32_t sum[2] = {0, 0};
    walfmt::Checksum(big, wh, 24, sum);
    if (sum[0] != Get32(wh + walfmt::kHdrCksum1) || sum[1] != Get32(wh + walfmt::kHdrCksum2)) {
      return Status();
    }
    if (Get32(wh + walfmt::kHdrVersion) != walfmt::kVersion) {
      return Status(kCantOpen, "unsupported WAL format version");
    }
    h.big_end_cksum = big ? 1 : 0;
    h.page_size = EncodePageSize(page_size);
    std::memcpy(h.salt, wh + walfmt::kHdrSalt1, 8);
    h.frame_cksum[0] = sum[0];
    h.frame_cksum[1] = sum[1];
    ckpt_seq_ = Get32(wh + walfmt::kHdrCkptSeq);
    std::vector<uint8_t> buf(walfmt::kFrameHeaderSize + page_size);
    for (uint32_t frame = 1;; ++frame) {
      uint64_t off = walfmt::FrameOffset(frame, page_size);
      if (off + buf.size() > size) break;
      TRY(wal_->Read(buf.data(), buf.size(), off));
      Pgno pgno = Get32(buf.data() + walfmt::kFrPgno);
      if (pgno == 0 || std::memcmp(buf.data() + walfmt::kFrSalt1, h.salt, 8) != 0) break;
      uint32_t next[2] = {sum[0], sum[1]};
      walfmt::Checksum(big, buf.data(), 8, next);
      walfmt::Checksum(big, buf.data() + walfmt::kFrameHeaderSize, page_size, next);
      if (next[0] != Get32(buf.data() + walfmt::kFrCksum1) ||
          next[1] != Get32(buf.data() + walfmt::kFrCksum2)) {
        break;
      }
      sum[0] = next[0];
      sum[1] = next[1];
      TRY(index_.Append(frame, pgno));
      uint32_t commit = Get32(buf.data() + walfmt::kFrCommitSize);
      if (commit != 0) {
        h.max_frame = frame;
        h.n_page = commit;
        h.frame_cksum[0] = sum[0];
        h.frame_cksum[1] = sum[1];
      }
    }
    return Status();
  }();
  if (st.ok()) st = index_.Forget(h.max_frame);
  if (st.ok()) {
    hdr_ = h;
    index_.WriteHeader(&hdr_);
    index_.Store(kBackfill, 0);
    index_.Store(kBackfillAttempted, hdr_.max_frame);
    index_.set_read_mark(0, 0);
    for (int i = 1; i < kReaders; ++i) {
      Status l = LockExclusive(ReadLock(i), 1);
      if (l.ok()) {
        index_.set_read_mark(i, i == 1 && hdr_.max_frame ? hdr_.max_frame : kReadMarkUnused);
        UnlockExclusive(ReadLock(i), 1);
      } else if (l.code() != kBusy) {
        st = l;
        break;
      }
    }
  }
  UnlockExclusive(first_lock, nlocks);
  return st;
}

}  // namespace basalt

// The wal-index: the shared memory (-shm) that lets connections find frames
// in the WAL without reading it, and coordinates readers, the writer and
// checkpointers (walformat "The WAL-Index File Format"). Native byte order;
// the layout must match SQLite's exactly, since sqlite3 processes map the
// same file.
//
// Region 0 begins with a 136-byte header:
//   offset size field
//        0   48 WalIndexHdr, copy 1 (written second, read first)
//       48   48 WalIndexHdr, copy 2
//       96    4 nBackfill: frames already copied into the database
//      100   20 read-mark[0..4]
//      120    8 the 8 lock slots (never read or written as data)
//      128    4 nBackfillAttempted
//      132    4 unused
// WalIndexHdr:
//        0    4 version 3007000
//        4    4 unused
//        8    4 change counter, +1 per commit
//       12    1 isInit
//       13    1 bigEndCksum: the WAL's checksum word order
//       14    2 page size (1 for 65536)
//       16    4 mxFrame: last valid commit frame
//       20    4 nPage: database size in pages after it
//       24    8 checksum of frame mxFrame
//       32    8 the WAL header's salts (in WAL byte order)
//       40    8 checksum of bytes 0..39 (native words)
//
// Hash tables: every 32 KiB region holds u32 aPgno[] then u16 aHash[8192]
// at byte 16384. Region 0's aPgno starts after the header (4062 entries),
// the others hold 4096. Frame f lives in region r with first frame
// iZero(r) + 1; aPgno[f - iZero - 1] is its page, and some aHash slot,
// found by linear probing from (page * 383) % 8192, holds f - iZero.
// Empty slots are 0.
//
// Lock slots (Shm::Lock): 0 WRITE, 1 CKPT, 2 RECOVER, 3 + i READ(i).
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "os/vfs.h"
#include "pager/pager.h"

namespace basalt {

struct WalIndexHdr {
  uint32_t version = 0;
  uint32_t unused = 0;
  uint32_t change = 0;
  uint8_t is_init = 0;
  uint8_t big_end_cksum = 0;
  uint16_t page_size = 0;  // 1 means 65536
  uint32_t max_frame = 0;
  uint32_t n_page = 0;
  uint32_t frame_cksum[2] = {0, 0};
  uint32_t salt[2] = {0, 0};
  uint32_t cksum[2] = {0, 0};
};
static_assert(sizeof(WalIndexHdr) == 48, "WalIndexHdr must match the shm layout");

namespace walidx {
inline constexpr uint32_t kVersion = 3007000;
inline constexpr size_t kHdrCopy1 = 0;
inline constexpr size_t kHdrCopy2 = 48;
inline constexpr size_t kBackfill = 96;
inline constexpr size_t kReadMarks = 100;
inline constexpr size_t kBackfillAttempted = 128;
inline constexpr size_t kHeaderBytes = 136;
inline constexpr uint32_t kReadMarkUnused = 0xffffffffu;
inline constexpr int kReaders = 5;
inline constexpr int kWriteLock = 0;
inline constexpr int kCkptLock = 1;
inline constexpr int kRecoverLock = 2;
inline constexpr int ReadLock(int i) { return 3 + i; }
inline constexpr uint32_t kRegionPages = 4096;
inline constexpr uint32_t kFirstRegionPages = 4096 - kHeaderBytes / 4;  // 4062
inline constexpr uint32_t kHashSlots = 8192;
inline constexpr uint32_t kHashMultiplier = 383;
inline constexpr size_t kHashOffset = kRegionPages * 4;

inline int RegionOf(uint32_t frame) {
  return int((frame + kRegionPages - kFirstRegionPages - 1) / kRegionPages);
}
inline uint32_t RegionZero(int region) {
  return region == 0 ? 0 : kFirstRegionPages + uint32_t(region - 1) * kRegionPages;
}
inline uint32_t PageSizeOf(const WalIndexHdr& h) { return h.page_size == 1 ? 65536u : h.page_size; }
inline uint16_t EncodePageSize(uint32_t page_size) {
  return uint16_t((page_size & 0xff00) | (page_size >> 16));
}
}  // namespace walidx

class WalIndex {
 public:
  explicit WalIndex(Shm* shm) : shm_(shm) {}

  // Region i, mapped (and created when extend is set). *out is null when
  // the region does not exist and extend is false.
  Status Region(int i, bool extend, uint8_t** out);
  uint8_t* header() const { return regions_.empty() ? nullptr : regions_[0]; }

  // Reads both header copies; false when they differ, are not initialised
  // or fail their checksum (recovery or a retry is needed).
  bool TryReadHeader(WalIndexHdr* out) const;
  // Sets version, isInit and the checksum in *h, then writes copy 2, a
  // barrier, copy 1.
  void WriteHeader(WalIndexHdr* h);
  // True when header copy 1 equals h.
  bool HeaderIs(const WalIndexHdr& h) const;
  // The first header copy as it is now (another connection may be writing
  // it: the words are read atomically, the caller judges what it got).
  void ReadHeaderCopy1(WalIndexHdr* out) const;

  uint32_t Load(size_t offset) const {
    return __atomic_load_n(reinterpret_cast<uint32_t*>(regions_[0] + offset), __ATOMIC_ACQUIRE);
  }
  void Store(size_t offset, uint32_t v) {
    __atomic_store_n(reinterpret_cast<uint32_t*>(regions_[0] + offset), v, __ATOMIC_RELEASE);
  }
  uint32_t backfill() const { return Load(walidx::kBackfill); }
  uint32_t read_mark(int i) const { return Load(walidx::kReadMarks + 4 * size_t(i)); }
  void set_read_mark(int i, uint32_t v) { Store(walidx::kReadMarks + 4 * size_t(i), v); }

  // Records that `frame` holds `pgno` (frames are appended in order).
  Status Append(uint32_t frame, Pgno pgno);
  // The last frame in [min_frame, max_frame] holding pgno, or 0.
  Status Find(Pgno pgno, uint32_t min_frame, uint32_t max_frame, uint32_t* frame);
  // Forgets the entries of frames after max_frame (in its region).
  Status Forget(uint32_t max_frame);
  // The page held by `frame` (which must be indexed).
  Status PageOf(uint32_t frame, Pgno* pgno);

  void Barrier() { shm_->Barrier(); }
  Shm* shm() const { return shm_; }

 private:
  Shm* shm_;
  std::vector<uint8_t*> regions_;
};

// The wal-index header checksum (native-order words over bytes 0..39).
void WalIndexHeaderChecksum(const WalIndexHdr& h, uint32_t out[2]);

}  // namespace basalt

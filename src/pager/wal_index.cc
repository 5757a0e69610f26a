// The wal-index hash tables and header copies (see wal_index.h).
#include "pager/wal_index.h"

#include <cstring>
#include <iterator>

#include "pager/wal_format.h"

namespace basalt {

using namespace walidx;

namespace {
// The aPgno array of region r (entry 0 is the region's first frame).
uint32_t* PgnoArray(uint8_t* region, int r) {
  return reinterpret_cast<uint32_t*>(region + (r == 0 ? kHeaderBytes : 0));
}
uint16_t* HashArray(uint8_t* region) { return reinterpret_cast<uint16_t*>(region + kHashOffset); }
uint32_t RegionCapacity(int r) { return r == 0 ? kFirstRegionPages : kRegionPages; }
uint32_t HashOf(Pgno pgno) { return (pgno * kHashMultiplier) & (kHashSlots - 1); }

// The header copies are read while another connection may be writing them;
// the protocol (two copies, a checksum, barriers) detects a torn read. The
// copying goes word by word with relaxed atomic accesses, so that it is no
// data race (ThreadSanitizer) yet costs what a memcpy does.
static_assert(sizeof(WalIndexHdr) % 4 == 0 && kHdrCopy2 % 4 == 0);
void LoadHeader(const uint8_t* shm, WalIndexHdr* out) {
  uint32_t words[sizeof(WalIndexHdr) / 4];
  const auto* from = reinterpret_cast<const uint32_t*>(shm);
  for (size_t i = 0; i < std::size(words); ++i)
    words[i] = __atomic_load_n(&from[i], __ATOMIC_RELAXED);
  std::memcpy(out, words, sizeof words);
}
void StoreHeader(const WalIndexHdr& h, uint8_t* shm) {
  uint32_t words[sizeof(WalIndexHdr) / 4];
  std::memcpy(words, &h, sizeof words);
  auto* to = reinterpret_cast<uint32_t*>(shm);
  for (size_t i = 0; i < std::size(words); ++i)
    __atomic_store_n(&to[i], words[i], __ATOMIC_RELAXED);
}
}  // namespace

void WalIndexHeaderChecksum(const WalIndexHdr& h, uint32_t out[2]) {
  out[0] = out[1] = 0;
  walfmt::Checksum(walfmt::HostIsBigEndian(), reinterpret_cast<const uint8_t*>(&h),
                   offsetof(WalIndexHdr, cksum), out);
}

Status WalIndex::Region(int i, bool extend, uint8_t** out) {
  if (size_t(i) < regions_.size() && regions_[size_t(i)] != nullptr) {
    *out = regions_[size_t(i)];
    return Status();
  }
  uint8_t* p = nullptr;
  TRY(shm_->Map(i, extend, &p));
  if (p != nullptr) {
    if (regions_.size() <= size_t(i)) regions_.resize(size_t(i) + 1, nullptr);
    regions_[size_t(i)] = p;
  }
  *out = p;
  return Status();
}

bool WalIndex::TryReadHeader(WalIndexHdr* out) const {
  WalIndexHdr h1, h2;
  LoadHeader(regions_[0] + kHdrCopy1, &h1);
  shm_->Barrier();
  LoadHeader(regions_[0] + kHdrCopy2, &h2);
  if (std::memcmp(&h1, &h2, sizeof h1) != 0) return false;
  if (h1.is_init == 0) return false;
  uint32_t sum[2];
  WalIndexHeaderChecksum(h1, sum);
  if (sum[0] != h1.cksum[0] || sum[1] != h1.cksum[1]) return false;
  *out = h1;
  return true;
}

void WalIndex::WriteHeader(WalIndexHdr* h) {
  h->is_init = 1;
  h->version = kVersion;
  WalIndexHeaderChecksum(*h, h->cksum);
  StoreHeader(*h, regions_[0] + kHdrCopy2);
  shm_->Barrier();
  StoreHeader(*h, regions_[0] + kHdrCopy1);
}

bool WalIndex::HeaderIs(const WalIndexHdr& h) const {
  WalIndexHdr cur;
  LoadHeader(regions_[0] + kHdrCopy1, &cur);
  return std::memcmp(&cur, &h, sizeof cur) == 0;
}

void WalIndex::ReadHeaderCopy1(WalIndexHdr* out) const { LoadHeader(regions_[0] + kHdrCopy1, out); }

Status WalIndex::Append(uint32_t frame, Pgno pgno) {
  int r = RegionOf(frame);
  uint8_t* region;
  TRY(Region(r, true, &region));
  uint32_t* pgnos = PgnoArray(region, r);
  uint16_t* hash = HashArray(region);
  uint32_t idx = frame - RegionZero(r);
  if (idx == 1) {
    // First frame of the region: whatever it held is from an older WAL.
    std::memset(pgnos, 0,
                reinterpret_cast<uint8_t*>(hash + kHashSlots) - reinterpret_cast<uint8_t*>(pgnos));
  }
  // Entries left by a writer that rolled back are forgotten first.
  if (pgnos[idx - 1] != 0) TRY(Forget(frame - 1));
  uint32_t slot = HashOf(pgno);
  for (uint32_t probes = 0; hash[slot] != 0; slot = (slot + 1) & (kHashSlots - 1)) {
    if (++probes > idx) return CORRUPT();
  }
  pgnos[idx - 1] = pgno;
  // Readers of other connections probe the hash concurrently (with atomic
  // loads, see Find): the slot is stored atomically too.
  __atomic_store_n(&hash[slot], uint16_t(idx), __ATOMIC_RELAXED);
  return Status();
}

Status WalIndex::Find(Pgno pgno, uint32_t min_frame, uint32_t max_frame, uint32_t* frame) {
  *frame = 0;
  if (max_frame == 0 || min_frame > max_frame) return Status();
  if (min_frame == 0) min_frame = 1;
  for (int r = RegionOf(max_frame); r >= RegionOf(min_frame); --r) {
    uint8_t* region;
    TRY(Region(r, false, &region));
    if (region == nullptr) return CORRUPT();
    const uint32_t* pgnos = PgnoArray(region, r);
    const uint16_t* hash = HashArray(region);
    uint32_t zero = RegionZero(r);
    uint32_t best = 0;
    uint32_t slot = HashOf(pgno);
    for (uint32_t probes = 0;; slot = (slot + 1) & (kHashSlots - 1)) {
      uint16_t idx = __atomic_load_n(&hash[slot], __ATOMIC_RELAXED);
      if (idx == 0) break;
      if (++probes > kHashSlots) return CORRUPT();
      if (idx > RegionCapacity(r)) return CORRUPT();
      uint32_t f = zero + idx;
      if (f >= min_frame && f <= max_frame && f > best && pgnos[idx - 1] == pgno) best = f;
    }
    if (best != 0) {
      *frame = best;
      return Status();
    }
  }
  return Status();
}

Status WalIndex::Forget(uint32_t max_frame) {
  int r = RegionOf(max_frame);
  uint8_t* region;
  TRY(Region(r, false, &region));
  if (region == nullptr) return Status();
  uint32_t* pgnos = PgnoArray(region, r);
  uint16_t* hash = HashArray(region);
  uint32_t limit = max_frame - RegionZero(r);
  for (uint32_t i = 0; i < kHashSlots; ++i) {
    if (hash[i] > limit) __atomic_store_n(&hash[i], uint16_t{0}, __ATOMIC_RELAXED);  // as in Append
  }
  std::memset(pgnos + limit, 0,
              reinterpret_cast<uint8_t*>(hash) - reinterpret_cast<uint8_t*>(pgnos + limit));
  return Status();
}

Status WalIndex::PageOf(uint32_t frame, Pgno* pgno) {
  int r = RegionOf(frame);
  uint8_t* region;
  TRY(Region(r, false, &region));
  if (region == nullptr) return CORRUPT();
  *pgno = PgnoArray(region, r)[frame - RegionZero(r) - 1];
  return Status();
}

}  // namespace basalt

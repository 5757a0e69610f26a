// The rollback journal (fileformat2 section 4, atomiccommit).
//
// Journal header, at offset 0 and again at the start of every later
// segment, each on a sector boundary and padded with zeros to a full sector:
//
//   offset size  field
//        0    8  magic d9 d5 05 f9 20 a1 63 d7 (zeros until the segment is
//                sealed, when the writer syncs)
//        8    4  records in this segment; 0xffffffff = up to the end of file
//       12    4  checksum nonce (random per transaction)
//       16    4  database size in pages when the transaction began
//       20    4  sector size assumed by the writer
//       24    4  page size
//
// Page record, repeated after the header:
//
//   offset   size  field
//        0      4  page number
//        4      N  the page as it was when the transaction began
//      N+4      4  checksum: nonce + page[N-200] + page[N-400] + ... (bytes,
//                  for every offset > 0 that steps of 200 reach)
//
// A journal that names a super-journal ends with: the lock-byte page number
// (4), the super-journal name (L bytes), L (4), the name's byte sum (4) and
// the magic (8); it is written last, so the journal ends with it.
//
// Segments: a writer that must write database pages before commit (a cache
// spill) first seals the current segment (count and magic written, synced),
// then starts a new one after it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "os/vfs.h"
#include "pager/pager.h"

namespace basalt {

namespace jrnl {
inline constexpr uint8_t kMagic[8] = {0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7};
inline constexpr int kHdrMagic = 0;
inline constexpr int kHdrRecords = 8;
inline constexpr int kHdrNonce = 12;
inline constexpr int kHdrOrigSize = 16;
inline constexpr int kHdrSectorSize = 20;
inline constexpr int kHdrPageSize = 24;
inline constexpr uint32_t kHdrFields = 28;
inline constexpr uint32_t kAllRecords = 0xffffffffu;
// The sector size Basalt writes: unix files promise powersafe overwrite, so
// SQLite uses 512 there too.
inline constexpr uint32_t kSectorSize = 512;

inline uint32_t RecordSize(uint32_t page_size) { return page_size + 8; }
uint32_t PageChecksum(uint32_t nonce, const uint8_t* page, uint32_t page_size);
}  // namespace jrnl

// Writes one transaction's journal.
class JournalWriter {
 public:
  // Starts a journal in `file` at offset 0 (overwriting what is there).
  // synced: the transaction syncs the journal before writing the database,
  // so segments start unsealed (magic zero); otherwise the header carries
  // the magic and the "to end of file" count from the start.
  Status Begin(VfsFile* file, uint32_t nonce, Pgno orig_size, uint32_t page_size, bool synced);
  Status Append(Pgno pgno, const uint8_t* page);
  // Makes every record so far durable before database pages are written:
  // (full_sync: sync), write the count and magic, sync. Records appended
  // later go to a new segment (its header is written now with new_segment,
  // else by the next Append). Nothing to do when nothing changed since the
  // last Seal, or when the journal is not synced at all.
  Status Seal(bool full_sync, bool new_segment);
  // Appends the super-journal record (format above) after the records and
  // makes it the end of the file. Before Seal, once, for a transaction over
  // several databases.
  Status WriteSuperJournalName(std::string_view name);
  bool synced() const { return synced_; }
  bool sealed_once() const { return sealed_once_; }
  uint32_t records_in_segment() const { return records_; }
  uint64_t size() const { return off_; }
  VfsFile* file() const { return file_; }

 private:
  Status WriteHeader();

  VfsFile* file_ = nullptr;
  uint32_t nonce_ = 0;
  Pgno orig_size_ = 0;
  uint32_t page_size_ = 0;
  bool synced_ = false;
  bool sealed_once_ = false;
  bool segment_closed_ = false;  // sealed; the next record needs a new header
  uint64_t header_off_ = 0;      // current segment's header
  uint64_t off_ = 0;             // where the next record goes
  uint32_t records_ = 0;         // in the current segment
  std::vector<uint8_t> rec_;     // one record being written
};

// Playback replays the sealed segments (and, in a journal written without
// syncs, everything up to the end of the file). An unsealed segment holds
// records of pages that never reached the database file, so a writer rolling
// back its own transaction replays the journal and drops its dirty pages.
struct PlaybackOptions {
  bool sync = true;  // sync the database after writing it back
  // Used to check whether a named super-journal still exists.
  Vfs* vfs = nullptr;
};

struct PlaybackResult {
  uint32_t pages_restored = 0;
  uint32_t page_size = 0;  // from the first header (0: no valid header)
  Pgno orig_size = 0;
  bool skipped_committed = false;  // the super-journal was gone: nothing replayed
};

// Writes the journaled pages back into `db` and truncates it to its size
// when the transaction began. Stops quietly at the first invalid header or
// record (that is where a crashed writer stopped). I/O errors are returned.
Status PlaybackJournal(VfsFile* journal, VfsFile* db, const PlaybackOptions& opt,
                       PlaybackResult* out);

// The super-journal name recorded at the end of a journal ("" if none).
Status ReadSuperJournalName(VfsFile* journal, std::string* name);

}  // namespace basalt

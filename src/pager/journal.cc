// The rollback journal: writing records and segment headers, and playing a
// journal back (journal.h has the format).
#include "pager/journal.h"

#include <cstring>
#include <vector>

#include "common/coding.h"

namespace basalt {

namespace jrnl {
uint32_t PageChecksum(uint32_t nonce, const uint8_t* page, uint32_t page_size) {
  uint32_t sum = nonce;
  for (int64_t i = int64_t(page_size) - 200; i > 0; i -= 200) sum += page[i];
  return sum;
}
}  // namespace jrnl

namespace {
uint64_t RoundUp(uint64_t off, uint64_t sector) { return (off + sector - 1) / sector * sector; }
bool IsPowerOfTwo(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }
}  // namespace

Status JournalWriter::Begin(VfsFile* file, uint32_t nonce, Pgno orig_size, uint32_t page_size,
                            bool synced) {
  file_ = file;
  nonce_ = nonce;
  orig_size_ = orig_size;
  page_size_ = page_size;
  synced_ = synced;
  sealed_once_ = false;
  segment_closed_ = false;
  header_off_ = 0;
  off_ = 0;
  return WriteHeader();
}

Status JournalWriter::WriteHeader() {
  std::vector<uint8_t> hdr(jrnl::kSectorSize, 0);
  if (!synced_) {
    std::memcpy(hdr.data() + jrnl::kHdrMagic, jrnl::kMagic, 8);
    Put32(hdr.data() + jrnl::kHdrRecords, jrnl::kAllRecords);
  }
  Put32(hdr.data() + jrnl::kHdrNonce, nonce_);
  Put32(hdr.data() + jrnl::kHdrOrigSize, orig_size_);
  Put32(hdr.data() + jrnl::kHdrSectorSize, jrnl::kSectorSize);
  Put32(hdr.data() + jrnl::kHdrPageSize, page_size_);
  header_off_ = RoundUp(off_, jrnl::kSectorSize);
  TRY(file_->Write(hdr.data(), hdr.size(), header_off_));
  off_ = header_off_ + jrnl::kSectorSize;
  records_ = 0;
  return Status();
}

Status JournalWriter::Append(Pgno pgno, const uint8_t* page) {
  if (segment_closed_) {
    TRY(WriteHeader());
    segment_closed_ = false;
  }
  rec_.resize(jrnl::RecordSize(page_size_));
  Put32(rec_.data(), pgno);
  std::memcpy(rec_.data() + 4, page, page_size_);
  Put32(rec_.data() + 4 + page_size_, jrnl::PageChecksum(nonce_, page, page_size_));
  TRY(file_->Write(rec_.data(), rec_.size(), off_));
  off_ += rec_.size();
  ++records_;
  return Status();
}

Status JournalWriter::Seal(bool full_sync, bool new_segment) {
  if (!synced_ || segment_closed_) return Status();
  if (sealed_once_ && records_ == 0) return Status();
  // A stale header left where the next segment would start (a persisted
  // journal of an earlier transaction) must not be taken for ours.
  uint64_t next = RoundUp(off_, jrnl::kSectorSize);
  uint8_t magic[8];
  Status st = file_->Read(magic, 8, next);
  if (st.ok() && std::memcmp(magic, jrnl::kMagic, 8) == 0) {
    uint8_t zero = 0;
    TRY(file_->Write(&zero, 1, next));
  } else if (!st.ok() && st.code() != kIoErrShortRead) {
    return st;
  }
  if (full_sync) TRY(file_->Sync(kSyncNormal));
  uint8_t head[12];
  std::memcpy(head, jrnl::kMagic, 8);
  Put32(head + 8, records_);
  TRY(file_->Write(head, sizeof head, header_off_));
  TRY(file_->Sync(kSyncNormal));
  sealed_once_ = true;
  segment_closed_ = true;
  if (new_segment) {
    TRY(WriteHeader());
    segment_closed_ = false;
  }
  return Status();
}

Status JournalWriter::WriteSuperJournalName(std::string_view name) {
  if (segment_closed_) {
    TRY(WriteHeader());
    segment_closed_ = false;
  }
  std::vector<uint8_t> rec(name.size() + 20);
  // The lock-byte page number marks the record (no page can have it).
  Put32(rec.data(), static_cast<uint32_t>(0x40000000u / page_size_ + 1));
  std::memcpy(rec.data() + 4, name.data(), name.size());
  uint32_t sum = 0;
  for (char c : name) sum += static_cast<uint8_t>(c);
  Put32(rec.data() + 4 + name.size(), static_cast<uint32_t>(name.size()));
  Put32(rec.data() + 8 + name.size(), sum);
  std::memcpy(rec.data() + 12 + name.size(), jrnl::kMagic, 8);
  TRY(file_->Write(rec.data(), rec.size(), off_));
  off_ += rec.size();
  // A persisted journal may be longer: the record must end the file.
  uint64_t size = 0;
  TRY(file_->FileSize(&size));
  if (size > off_) TRY(file_->Truncate(off_));
  return Status();
}

Status ReadSuperJournalName(VfsFile* journal, std::string* name) {
  name->clear();
  uint64_t size = 0;
  TRY(journal->FileSize(&size));
  if (size < 16) return Status();
  uint8_t tail[16];
  TRY(journal->Read(tail, 16, size - 16));
  if (std::memcmp(tail + 8, jrnl::kMagic, 8) != 0) return Status();
  uint32_t len = Get32(tail);
  uint32_t sum = Get32(tail + 4);
  if (len == 0 || uint64_t(len) + 20 > size) return Status();
  std::string buf(len, '\0');
  TRY(journal->Read(buf.data(), len, size - 16 - len));
  uint32_t got = 0;
  for (char c : buf) got += uint8_t(c);
  if (got != sum) return Status();
  // The name ends at its first NUL, if any.
  size_t nul = buf.find('\0');
  if (nul != std::string::npos) buf.resize(nul);
  *name = buf;
  return Status();
}

namespace {
Status SetDbSize(VfsFile* db, uint64_t size, uint32_t page_size) {
  uint64_t cur = 0;
  TRY(db->FileSize(&cur));
  if (cur > size) return db->Truncate(size);
  if (cur + page_size <= size) {
    std::vector<uint8_t> zero(page_size, 0);
    return db->Write(zero.data(), page_size, size - page_size);
  }
  return Status();
}
}  // namespace

Status PlaybackJournal(VfsFile* journal, VfsFile* db, const PlaybackOptions& opt,
                       PlaybackResult* out) {
  *out = PlaybackResult();
  uint64_t size = 0;
  TRY(journal->FileSize(&size));
  if (opt.vfs != nullptr) {
    std::string super;
    TRY(ReadSuperJournalName(journal, &super));
    if (!super.empty()) {
      bool exists = false;
      TRY(opt.vfs->Access(super, AccessMode::kExists, &exists));
      if (!exists) {
        // The multi-database commit completed: this journal is stale.
        out->skipped_committed = true;
        return Status();
      }
    }
  }
  uint32_t page_size = 0, sector = 0;
  std::vector<bool> done;
  std::vector<uint8_t> rec;
  uint64_t off = 0;
  bool first = true;
  for (;;) {
    uint64_t hdr_off = first ? 0 : RoundUp(off, sector);
    if (hdr_off + jrnl::kHdrFields > size) break;
    uint8_t hdr[jrnl::kHdrFields];
    TRY(journal->Read(hdr, sizeof hdr, hdr_off));
    if (std::memcmp(hdr, jrnl::kMagic, 8) != 0) break;
    uint32_t nrec = Get32(hdr + jrnl::kHdrRecords);
    uint32_t nonce = Get32(hdr + jrnl::kHdrNonce);
    Pgno orig = Get32(hdr + jrnl::kHdrOrigSize);
    if (first) {
      sector = Get32(hdr + jrnl::kHdrSectorSize);
      page_size = Get32(hdr + jrnl::kHdrPageSize);
      if (!IsValidPageSize(page_size) || sector < 32 || sector > 65536 || !IsPowerOfTwo(sector)) {
        break;
      }
      out->page_size = page_size;
      out->orig_size = orig;
      done.assign(size_t(orig) + 1, false);
      rec.resize(jrnl::RecordSize(page_size));
      TRY(SetDbSize(db, uint64_t(orig) * page_size, page_size));
    }
    uint64_t body = hdr_off + sector;
    uint64_t room = size > body ? (size - body) / jrnl::RecordSize(page_size) : 0;
    if (nrec == jrnl::kAllRecords) nrec = uint32_t(room);
    first = false;
    bool stop = false;
    uint32_t i = 0;
    for (; i < nrec; ++i) {
      uint64_t roff = body + uint64_t(i) * rec.size();
      if (roff + rec.size() > size) {
        stop = true;
        break;
      }
      TRY(journal->Read(rec.data(), rec.size(), roff));
      Pgno pgno = Get32(rec.data());
      const uint8_t* page = rec.data() + 4;
      if (pgno == 0 ||
          Get32(rec.data() + 4 + page_size) != jrnl::PageChecksum(nonce, page, page_size)) {
        stop = true;
        break;
      }
      if (pgno > out->orig_size || done[pgno]) continue;
      TRY(db->Write(page, page_size, uint64_t(pgno - 1) * page_size));
      done[pgno] = true;
      ++out->pages_restored;
    }
    if (stop) break;
    off = body + uint64_t(i) * rec.size();
    if (nrec == 0) off = body;
  }
  if (out->page_size != 0 && opt.sync) TRY(db->Sync(kSyncNormal));
  return Status();
}

}  // namespace basalt

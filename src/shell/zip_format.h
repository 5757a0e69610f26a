// The ZIP archive format as the shell's zipfile extension reads and writes
// it (PKWARE APPNOTE; only what sqlite3 3.40.1's zipfile handles: one disk,
// no ZIP64, methods 0 "stored" and 8 "deflate", no encryption).
//
// Records, all integers little-endian:
//   local file header (30 bytes + name + extra), then the member's bytes
//     0 signature 0x04034b50   4 version to extract   6 flags   8 method
//    10 DOS time  12 DOS date  14 crc32  18 compressed size  22 size
//    26 name length  28 extra length
//   central directory entry (46 bytes + name + extra + comment)
//     0 signature 0x02014b50   4 version made by   6 version to extract
//     8 flags  10 method  12 DOS time  14 DOS date  16 crc32  20 compressed
//    24 size  28 name length  30 extra length  32 comment length
//    34 disk number  36 internal attributes  38 external attributes
//    42 offset of the local header
//   end of central directory (22 bytes + comment)
//     0 signature 0x06054b50   4 disk   6 disk of directory   8 entries here
//    10 entries   12 directory size   16 directory offset   20 comment length
// Members written here carry the extended-timestamp extra field
// (id 0x5455, 5 bytes: flags 1, then the 32-bit Unix mtime), version made
// by 0x031E (Unix, 3.0), flags 0x0800 (UTF-8 names) and mode << 16 as the
// external attributes.
#ifndef BASALT_SHELL_ZIP_FORMAT_H_
#define BASALT_SHELL_ZIP_FORMAT_H_

#include <cstdint>
#include <string>
#include <vector>

namespace shell::zip {

constexpr uint32_t kLocalSig = 0x04034b50;
constexpr uint32_t kCentralSig = 0x02014b50;
constexpr uint32_t kEndSig = 0x06054b50;
constexpr int kLocalSize = 30;
constexpr int kCentralSize = 46;
constexpr int kEndSize = 22;
constexpr uint16_t kTimestampExtra = 0x5455;

// One member: its central-directory fields and, for members not yet in a
// file (or built in memory), the stored bytes.
struct Entry {
  uint16_t made_by = 0x031E;
  uint16_t extract = 20;
  uint16_t flags = 0x0800;
  uint16_t method = 0;
  uint16_t dos_time = 0;
  uint16_t dos_date = 0;
  uint32_t crc = 0;
  uint32_t csize = 0;
  uint32_t usize = 0;
  uint16_t disk = 0;
  uint16_t internal = 0;
  uint32_t external = 0;
  uint32_t offset = 0;
  std::string name;
  std::string extra;    // the central extra field, verbatim
  std::string comment;  // the central comment, verbatim
  uint32_t mtime = 0;   // from the timestamp extra, else from the DOS fields
  long long key = 0;    // the rowid the zipfile table gives the member
  bool has_raw = false;
  std::string raw;  // the stored (possibly compressed) bytes when has_raw
};

// Reads the central directory of an archive held in memory. On failure
// returns false with *err set to the reference's message.
bool ParseArchive(const std::string& bytes, std::vector<Entry>* out, std::string* err);

// The stored bytes of e: e.raw, or the bytes after its local header in
// archive. False if the archive is too short.
bool RawData(const std::string& archive, const Entry& e, std::string* out);

// Unix mode as zipfile reports it (Unix hosts: the high attribute half;
// others: a directory or regular file from the DOS attribute bits).
uint32_t Mode(const Entry& e);

// Fills the DOS time and date fields from a Unix time (zero before 1980).
void SetDosTime(Entry* e, uint32_t mtime);

// A new member: name, mode, mtime and (unless data is null) the content,
// compressed by method (-1: deflate only if that is smaller). Returns false
// if deflating fails.
bool MakeEntry(const std::string& name, uint32_t mode, uint32_t mtime, const std::string* data,
               int method, Entry* out);

// Raw deflate (method 8) and inflate of exactly usize bytes.
bool Deflate(const std::string& in, std::string* out);
bool Inflate(const std::string& in, uint32_t usize, std::string* out);

// Record bytes: the local header plus data of a new member at e.offset, a
// central-directory entry, the end record.
std::string LocalRecord(const Entry& e);
std::string CentralRecord(const Entry& e);
std::string EndRecord(uint32_t count, uint32_t dir_size, uint32_t dir_offset);

// zipfile_cds(): the central-directory fields as JSON text.
std::string CdsJson(const Entry& e);

// The mode given as zipfile's mode column accepts it: NULL (null_mode),
// a number, or "drwxr-xr-x"-style text. Returns false on a parse error.
bool ParseMode(const char* text, bool is_null, int number, uint32_t null_mode, uint32_t* mode);

}  // namespace shell::zip

#endif  // BASALT_SHELL_ZIP_FORMAT_H_

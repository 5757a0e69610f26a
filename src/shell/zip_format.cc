// ZIP records: parsing a central directory, building new members and the
// records that hold them (layouts in zip_format.h).
#include "shell/zip_format.h"

#include <zlib.h>

#include <cstdio>
#include <cstring>

namespace shell::zip {
namespace {

uint16_t Get16(const std::string& b, size_t at) {
  return static_cast<uint16_t>(static_cast<unsigned char>(b[at]) |
                               (static_cast<unsigned char>(b[at + 1]) << 8));
}

uint32_t Get32(const std::string& b, size_t at) {
  return static_cast<uint32_t>(Get16(b, at)) | (static_cast<uint32_t>(Get16(b, at + 2)) << 16);
}

void Put16(std::string* b, uint32_t v) {
  b->push_back(static_cast<char>(v & 0xff));
  b->push_back(static_cast<char>((v >> 8) & 0xff));
}

void Put32(std::string* b, uint32_t v) {
  Put16(b, v & 0xffff);
  Put16(b, v >> 16);
}

// Unix time of a DOS date and time, by the Julian-day formula the reference
// uses (so out-of-range fields give its values too).
uint32_t DosToUnix(uint16_t date, uint16_t time) {
  long long y = 1980 + ((date >> 9) & 0x7f);
  long long m = (date >> 5) & 0x0f;
  const long long d = date & 0x1f;
  const long long sec = (time & 0x1f) * 2;
  const long long min = (time >> 5) & 0x3f;
  const long long hr = (time >> 11) & 0x1f;
  if (m <= 2) {
    --y;
    m += 12;
  }
  const long long x1 = 36525 * (y + 4716) / 100;
  const long long x2 = 306001 * (m + 1) / 10000;
  const long long a = y / 100;
  const long long b = 2 - a + (a / 4);
  // Julian day minus (1524.5 + 2440587.5): days since 1970-01-01.
  const long long days = x1 + x2 + d + b - 2442112;
  return static_cast<uint32_t>(days * 86400 + sec + min * 60 + hr * 3600);
}

// The mtime a central extra field carries, if it has a timestamp with one.
bool ExtraMtime(const std::string& extra, uint32_t* mtime) {
  size_t at = 0;
  while (at + 4 <= extra.size()) {
    const uint16_t id = Get16(extra, at), n = Get16(extra, at + 2);
    at += 4;
    if (at + n > extra.size()) return false;
    if (id == kTimestampExtra && n >= 5 && (extra[at] & 1)) {
      *mtime = Get32(extra, at + 1);
      return true;
    }
    at += n;
  }
  return false;
}

}  // namespace

bool ParseArchive(const std::string& bytes, std::vector<Entry>* out, std::string* err) {
  out->clear();
  const char* kNoEnd = "cannot find end of central directory record";
  // The end record is the last signature within the final 64 KiB.
  const size_t n = bytes.size();
  const size_t lowest = n > 65536 ? n - 65536 : 0;
  size_t end = std::string::npos;
  for (size_t at = n >= kEndSize ? n - kEndSize + 1 : 0; at-- > lowest;) {
    if (Get32(bytes, at) == kEndSig) {
      end = at;
      break;
    }
  }
  if (end == std::string::npos) {
    *err = kNoEnd;
    return false;
  }
  const uint16_t count = Get16(bytes, end + 10);
  size_t at = Get32(bytes, end + 16);
  for (uint16_t i = 0; i < count; ++i) {
    if (at + kCentralSize > n || Get32(bytes, at) != kCentralSig) {
      *err = "failed to read CDS at offset " + std::to_string(at);
      return false;
    }
    Entry e;
    e.made_by = Get16(bytes, at + 4);
    e.extract = Get16(bytes, at + 6);
    e.flags = Get16(bytes, at + 8);
    e.method = Get16(bytes, at + 10);
    e.dos_time = Get16(bytes, at + 12);
    e.dos_date = Get16(bytes, at + 14);
    e.crc = Get32(bytes, at + 16);
    e.csize = Get32(bytes, at + 20);
    e.usize = Get32(bytes, at + 24);
    const size_t name_len = Get16(bytes, at + 28), extra_len = Get16(bytes, at + 30),
                 comment_len = Get16(bytes, at + 32);
    e.disk = Get16(bytes, at + 34);
    e.internal = Get16(bytes, at + 36);
    e.external = Get32(bytes, at + 38);
    e.offset = Get32(bytes, at + 42);
    at += kCentralSize;
    if (at + name_len + extra_len + comment_len > n) {
      *err = "failed to read CDS at offset " + std::to_string(at - kCentralSize);
      return false;
    }
    e.name = bytes.substr(at, name_len);
    e.extra = bytes.substr(at + name_len, extra_len);
    e.comment = bytes.substr(at + name_len + extra_len, comment_len);
    at += name_len + extra_len + comment_len;
    if (!ExtraMtime(e.extra, &e.mtime)) e.mtime = DosToUnix(e.dos_date, e.dos_time);
    out->push_back(std::move(e));
  }
  return true;
}

bool RawData(const std::string& archive, const Entry& e, std::string* out) {
  if (e.has_raw) {
    *out = e.raw;
    return true;
  }
  const size_t at = e.offset;
  if (at + kLocalSize > archive.size()) return false;
  const size_t start = at + kLocalSize + Get16(archive, at + 26) + Get16(archive, at + 28);
  if (start + e.csize > archive.size()) return false;
  *out = archive.substr(start, e.csize);
  return true;
}

uint32_t Mode(const Entry& e) {
  if ((e.made_by >> 8) == 3) return e.external >> 16;
  uint32_t mode = (e.external & 0x10) ? (0040000 | 0755) : (0100000 | 0644);
  if (e.external & 0x01) mode &= ~0222u;  // DOS read-only
  return mode;
}

void SetDosTime(Entry* e, uint32_t mtime) {
  e->mtime = mtime;
  e->dos_time = e->dos_date = 0;
  if (mtime < 315532800) return;  // before 1980-01-01, DOS's epoch
  long long days = mtime / 86400;
  const long long secs = mtime % 86400;
  // Walk years, then months, from 1970 (at most 137 years: mtime is 32-bit).
  long long year = 1970;
  auto leap = [](long long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; };
  while (days >= (leap(year) ? 366 : 365)) days -= leap(year++) ? 366 : 365;
  static const int kMonthDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  long long month = 1;
  for (int len : kMonthDays) {
    const int n = len + (month == 2 && leap(year) ? 1 : 0);
    if (days < n) break;
    days -= n;
    ++month;
  }
  const long long day = days + 1;
  e->dos_time =
      static_cast<uint16_t>((secs % 60) / 2 + (((secs / 60) % 60) << 5) + ((secs / 3600) << 11));
  e->dos_date = static_cast<uint16_t>(day + (month << 5) + ((year - 1980) << 9));
}

bool Deflate(const std::string& in, std::string* out) {
  z_stream zs;
  std::memset(&zs, 0, sizeof zs);
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return false;
  }
  out->resize(deflateBound(&zs, in.size()));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out->data());
  zs.avail_out = static_cast<uInt>(out->size());
  const int rc = deflate(&zs, Z_FINISH);
  out->resize(zs.total_out);
  deflateEnd(&zs);
  return rc == Z_STREAM_END;
}

bool Inflate(const std::string& in, uint32_t usize, std::string* out) {
  z_stream zs;
  std::memset(&zs, 0, sizeof zs);
  if (inflateInit2(&zs, -15) != Z_OK) return false;
  out->assign(usize, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out->data());
  zs.avail_out = usize;
  const int rc = inflate(&zs, Z_NO_FLUSH);
  inflateEnd(&zs);
  return rc == Z_STREAM_END || (rc == Z_OK && zs.avail_out == 0);
}

bool MakeEntry(const std::string& name, uint32_t mode, uint32_t mtime, const std::string* data,
               int method, Entry* out) {
  Entry e;
  e.name = name;
  e.external = mode << 16;
  SetDosTime(&e, mtime);
  e.extra.assign("\x55\x54\x05\x00\x01", 5);
  Put32(&e.extra, mtime);
  e.has_raw = true;
  if (data != nullptr) {
    e.usize = static_cast<uint32_t>(data->size());
    e.crc = static_cast<uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(data->data()), static_cast<uInt>(data->size())));
    std::string packed;
    if (method != 0) {
      if (!Deflate(*data, &packed)) return false;
    }
    if (method == 8 || (method < 0 && packed.size() < data->size())) {
      e.method = 8;
      e.raw = std::move(packed);
    } else {
      e.raw = *data;
    }
    e.csize = static_cast<uint32_t>(e.raw.size());
  }
  *out = std::move(e);
  return true;
}

std::string LocalRecord(const Entry& e) {
  std::string b;
  Put32(&b, kLocalSig);
  Put16(&b, e.extract);
  Put16(&b, e.flags);
  Put16(&b, e.method);
  Put16(&b, e.dos_time);
  Put16(&b, e.dos_date);
  Put32(&b, e.crc);
  Put32(&b, e.csize);
  Put32(&b, e.usize);
  Put16(&b, static_cast<uint32_t>(e.name.size()));
  Put16(&b, 9);
  b += e.name;
  b.append("\x55\x54\x05\x00\x01", 5);
  Put32(&b, e.mtime);
  b += e.raw;
  return b;
}

std::string CentralRecord(const Entry& e) {
  std::string b;
  Put32(&b, kCentralSig);
  Put16(&b, e.made_by);
  Put16(&b, e.extract);
  Put16(&b, e.flags);
  Put16(&b, e.method);
  Put16(&b, e.dos_time);
  Put16(&b, e.dos_date);
  Put32(&b, e.crc);
  Put32(&b, e.csize);
  Put32(&b, e.usize);
  Put16(&b, static_cast<uint32_t>(e.name.size()));
  Put16(&b, static_cast<uint32_t>(e.extra.size()));
  Put16(&b, static_cast<uint32_t>(e.comment.size()));
  Put16(&b, e.disk);
  Put16(&b, e.internal);
  Put32(&b, e.external);
  Put32(&b, e.offset);
  b += e.name;
  b += e.extra;
  b += e.comment;
  return b;
}

std::string EndRecord(uint32_t count, uint32_t dir_size, uint32_t dir_offset) {
  std::string b;
  Put32(&b, kEndSig);
  Put16(&b, 0);
  Put16(&b, 0);
  Put16(&b, count);
  Put16(&b, count);
  Put32(&b, dir_size);
  Put32(&b, dir_offset);
  Put16(&b, 0);
  return b;
}

std::string CdsJson(const Entry& e) {
  char buf[768];
  std::snprintf(buf, sizeof buf,
                "{\"version-made-by\" : %u, \"version-to-extract\" : %u, \"flags\" : %u, "
                "\"compression\" : %u, \"time\" : %u, \"date\" : %u, \"crc32\" : %u, "
                "\"compressed-size\" : %u, \"uncompressed-size\" : %u, "
                "\"file-name-length\" : %u, \"extra-field-length\" : %u, "
                "\"file-comment-length\" : %u, \"disk-number-start\" : %u, "
                "\"internal-attr\" : %u, \"external-attr\" : %u, \"offset\" : %u }",
                e.made_by, e.extract, e.flags, e.method, e.dos_time, e.dos_date, e.crc, e.csize,
                e.usize, static_cast<unsigned>(e.name.size()),
                static_cast<unsigned>(e.extra.size()), static_cast<unsigned>(e.comment.size()),
                e.disk, e.internal, e.external, e.offset);
  return buf;
}

bool ParseMode(const char* text, bool is_null, int number, uint32_t null_mode, uint32_t* mode) {
  if (is_null || text == nullptr) {
    *mode = null_mode;
    return true;
  }
  if (text[0] >= '0' && text[0] <= '9') {
    *mode = static_cast<uint32_t>(number);
    return true;
  }
  if (std::strlen(text) != 10) return false;
  uint32_t m = 0;
  switch (text[0]) {
    case '-':
      m = 0100000;
      break;
    case 'd':
      m = 0040000;
      break;
    case 'l':
      m = 0120000;
      break;
    default:
      return false;
  }
  static const char kLetters[] = "rwxrwxrwx";
  for (int i = 0; i < 9; ++i) {
    if (text[i + 1] == kLetters[i]) {
      m |= 1u << (8 - i);
    } else if (text[i + 1] != '-') {
      return false;
    }
  }
  *mode = m;
  return true;
}

}  // namespace shell::zip

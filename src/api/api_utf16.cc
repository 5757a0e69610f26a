// The UTF-16 forms of the C API: open16, prepare16 (v2, v3), errmsg16,
// bind_text16, column_*16, value_text16 (le, be) / value_bytes16,
// value_encoding and create_function16. Basalt keeps text as UTF-8; these
// convert at the boundary. Where a pointer is handed out, the UTF-16 copy
// is kept: per statement column until the next step (as SQLite documents
// for column_text16), per statement for column names, per connection for
// errmsg16, and per value (keyed by its address, on the calling thread)
// for value_text16 -- that last store is cleared when it holds 4096 values,
// after which older pointers must not be used (SQLite keeps the copy in the
// value itself).
#include <cstring>
#include <string>
#include <unordered_map>

#include "api/guard.h"
#include "api/handles.h"
#include "common/utf.h"
#include "record/value_ops.h"

using basalt::Value;
using basalt::api::AsValue;
using basalt::api::Guard;

namespace {

bool NativeBigEndian() {
  const uint16_t one = 1;
  unsigned char b;
  std::memcpy(&b, &one, 1);
  return b == 0;
}

size_t Units16(const void* z) {
  size_t n = 0;
  while (static_cast<const char16_t*>(z)[n] != 0) ++n;
  return n;
}

std::string ToUtf8(const void* z, size_t units) {
  return basalt::Utf16ToUtf8(z, units * 2, NativeBigEndian());
}

// UTF-16 in the given byte order (native for the plain forms).
std::u16string ToUtf16(std::string_view s, bool big_endian) {
  std::u16string u = basalt::Utf8ToUtf16(s);
  if (big_endian != NativeBigEndian()) {
    for (char16_t& c : u) c = static_cast<char16_t>((c >> 8) | (c << 8));
  }
  return u;
}

// UTF-16 units of the first `bytes` bytes of UTF-8 text s (for tails).
size_t UnitsOfPrefix(const char* s, size_t bytes) {
  size_t units = 0;
  for (size_t i = 0; i < bytes;) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t len = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    units += len == 4 ? 2 : 1;
    i += len;
  }
  return units;
}

int Prepare16(sqlite3* db, const void* sql, int nbytes, unsigned flags, sqlite3_stmt** out,
              const void** tail) {
  if (out != nullptr) *out = nullptr;
  if (sql == nullptr) return SQLITE_MISUSE;
  size_t units = Units16(sql);
  if (nbytes >= 0 && static_cast<size_t>(nbytes) / 2 < units)
    units = static_cast<size_t>(nbytes) / 2;
  std::string utf8;
  if (Guard(nullptr, SQLITE_NOMEM, [&] {
        utf8 = ToUtf8(sql, units);
        return SQLITE_OK;
      }) != SQLITE_OK) {
    return SQLITE_NOMEM;
  }
  const char* tail8 = nullptr;
  int rc = sqlite3_prepare_v3(db, utf8.c_str(), static_cast<int>(utf8.size()), flags, out, &tail8);
  if (tail != nullptr) {
    size_t used = tail8 != nullptr ? static_cast<size_t>(tail8 - utf8.c_str()) : 0;
    *tail = static_cast<const char16_t*>(sql) + UnitsOfPrefix(utf8.c_str(), used);
  }
  return rc;
}

const void* Name16(sqlite3_stmt* s, int kind, int i, const char* name) {
  if (name == nullptr) return nullptr;
  std::u16string& slot = s->names16[(kind << 16) | (i & 0xffff)];
  slot = ToUtf16(name, NativeBigEndian());
  return slot.c_str();
}

// A value's UTF-16 form and its byte order (SQLITE_UTF16LE / BE), which
// sqlite3_value_encoding reports afterwards, as SQLite reports the
// encoding of the value's latest conversion.
struct Form16 {
  std::u16string text;
  int enc = SQLITE_UTF8;
};
thread_local std::unordered_map<const Value*, Form16>* value16 = nullptr;

const void* ValueText16Impl(sqlite3_value* v, bool big_endian) {
  if (v == nullptr) return nullptr;
  const unsigned char* z = sqlite3_value_text(v);
  if (z == nullptr) return nullptr;
  int n = sqlite3_value_bytes(v);
  if (value16 == nullptr) value16 = new std::unordered_map<const Value*, Form16>();
  if (value16->size() >= 4096) value16->clear();
  Form16& slot = (*value16)[AsValue(v)];
  slot.text = ToUtf16(std::string_view(reinterpret_cast<const char*>(z), static_cast<size_t>(n)),
                      big_endian);
  slot.enc = big_endian ? SQLITE_UTF16BE : SQLITE_UTF16LE;
  return slot.text.c_str();
}

const void* ValueText16(sqlite3_value* v, bool big_endian) {
  return Guard(nullptr, static_cast<const void*>(nullptr),
               [&] { return ValueText16Impl(v, big_endian); });
}

}  // namespace

extern "C" {

int sqlite3_open16(const void* filename, sqlite3** out) {
  if (out == nullptr) return SQLITE_MISUSE;
  if (filename == nullptr) filename = u"";
  std::string name;
  if (Guard(nullptr, SQLITE_NOMEM, [&] {
        name = ToUtf8(filename, Units16(filename));
        return SQLITE_OK;
      }) != SQLITE_OK) {
    *out = nullptr;
    return SQLITE_NOMEM;
  }
  int rc = sqlite3_open_v2(name.c_str(), out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  // A database created through open16 uses UTF-16 (native order); the
  // pragma changes nothing for a database that already exists.
  if (rc == SQLITE_OK) sqlite3_exec(*out, "PRAGMA encoding = 'UTF-16'", nullptr, nullptr, nullptr);
  return rc;
}

int sqlite3_prepare16(sqlite3* db, const void* sql, int n, sqlite3_stmt** out, const void** tail) {
  return Prepare16(db, sql, n, 0, out, tail);
}
int sqlite3_prepare16_v2(sqlite3* db, const void* sql, int n, sqlite3_stmt** out,
                         const void** tail) {
  return Prepare16(db, sql, n, 0, out, tail);
}
int sqlite3_prepare16_v3(sqlite3* db, const void* sql, int n, unsigned int flags,
                         sqlite3_stmt** out, const void** tail) {
  return Prepare16(db, sql, n, flags, out, tail);
}

const void* sqlite3_errmsg16(sqlite3* db) {
  const char* m = sqlite3_errmsg(db);
  if (db == nullptr || db->state.load() == basalt::api::DbState::kClosed) {
    static const std::u16string kOom = u"out of memory";
    static const std::u16string kMisuse = u"bad parameter or other API misuse";
    return db == nullptr ? kOom.c_str() : kMisuse.c_str();
  }
  return Guard(db, static_cast<const void*>(nullptr), [&]() -> const void* {
    db->scratch.err_msg16 = ToUtf16(m, NativeBigEndian());
    return db->scratch.err_msg16.c_str();
  });
}

int sqlite3_bind_text16(sqlite3_stmt* s, int i, const void* z, int n, void (*del)(void*)) {
  int rc;
  if (z == nullptr) {
    rc = sqlite3_bind_null(s, i);
  } else {
    size_t units = n < 0 ? Units16(z) : static_cast<size_t>(n) / 2;
    rc = Guard(nullptr, SQLITE_NOMEM, [&] {
      std::string utf8 = ToUtf8(z, units);
      return sqlite3_bind_text(s, i, utf8.data(), static_cast<int>(utf8.size()), SQLITE_TRANSIENT);
    });
  }
  if (del != SQLITE_STATIC && del != SQLITE_TRANSIENT && del != nullptr) del(const_cast<void*>(z));
  return rc;
}

const void* sqlite3_column_text16(sqlite3_stmt* s, int i) {
  const unsigned char* z = sqlite3_column_text(s, i);
  if (z == nullptr) return nullptr;
  int n = sqlite3_column_bytes(s, i);
  return Guard(s->db, static_cast<const void*>(nullptr), [&]() -> const void* {
    if (s->text16.size() <= static_cast<size_t>(i)) s->text16.resize(static_cast<size_t>(i) + 1);
    std::u16string& slot = s->text16[static_cast<size_t>(i)];
    slot = ToUtf16(std::string_view(reinterpret_cast<const char*>(z), static_cast<size_t>(n)),
                   NativeBigEndian());
    return slot.c_str();
  });
}

int sqlite3_column_bytes16(sqlite3_stmt* s, int i) {
  const void* z = sqlite3_column_text16(s, i);
  return z != nullptr ? static_cast<int>(Units16(z) * 2) : 0;
}

#define BASALT_NAME16(fn, kind)                                              \
  const void* fn##16(sqlite3_stmt * s, int i) {                              \
    const char* name = fn(s, i);                                             \
    if (name == nullptr) return nullptr;                                     \
    return Guard(s->db, static_cast<const void*>(nullptr),                   \
                 [&]() -> const void* { return Name16(s, kind, i, name); }); \
  }
BASALT_NAME16(sqlite3_column_name, 0)
BASALT_NAME16(sqlite3_column_decltype, 1)
BASALT_NAME16(sqlite3_column_database_name, 2)
BASALT_NAME16(sqlite3_column_table_name, 3)
BASALT_NAME16(sqlite3_column_origin_name, 4)
#undef BASALT_NAME16

const void* sqlite3_value_text16(sqlite3_value* v) { return ValueText16(v, NativeBigEndian()); }
const void* sqlite3_value_text16le(sqlite3_value* v) { return ValueText16(v, false); }
const void* sqlite3_value_text16be(sqlite3_value* v) { return ValueText16(v, true); }

int sqlite3_value_bytes16(sqlite3_value* v) {
  const void* z = ValueText16(v, NativeBigEndian());
  return z != nullptr ? static_cast<int>(Units16(z) * 2) : 0;
}

// Basalt holds text as UTF-8 whatever the database encoding; a value whose
// UTF-16 form was asked for reports that form's byte order.
int sqlite3_value_encoding(sqlite3_value* v) {
  if (v != nullptr && value16 != nullptr) {
    auto it = value16->find(AsValue(v));
    if (it != value16->end()) return it->second.enc;
  }
  return SQLITE_UTF8;
}

int sqlite3_create_function16(sqlite3* db, const void* name, int nargs, int rep, void* user,
                              void (*fn)(sqlite3_context*, int, sqlite3_value**),
                              void (*step)(sqlite3_context*, int, sqlite3_value**),
                              void (*final)(sqlite3_context*)) {
  if (name == nullptr) return SQLITE_MISUSE;
  return Guard(nullptr, SQLITE_NOMEM, [&] {
    std::string utf8 = ToUtf8(name, Units16(name));
    return sqlite3_create_function_v2(db, utf8.c_str(), nargs, rep, user, fn, step, final, nullptr);
  });
}

}  // extern "C"

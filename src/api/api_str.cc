// String helpers of the C API: the sqlite3_str dynamic string object,
// sqlite3_strglob / sqlite3_strlike, the keyword list (sqlite3_keyword_*),
// sqlite3_randomness, sqlite3_complete16 and sqlite3_compileoption_*.
//
// sqlite3_str invariants:
//   S1. err is SQLITE_OK, SQLITE_NOMEM or SQLITE_TOOBIG; once set, appends
//       do nothing, and a TOOBIG has emptied the text (as SQLite resets it).
//   S2. text.size() <= limit - 1 while err is OK (limit: the connection's
//       SQLITE_LIMIT_LENGTH, or SQLITE_MAX_LENGTH without a connection).
#include <cstdarg>
#include <cstring>
#include <mutex>
#include <random>
#include <string>

#include "api/guard.h"
#include "api/handles.h"
#include "common/printf.h"
#include "common/utf.h"
#include "func/builtins.h"
#include "parser/parser.h"
#include "parser/token.h"

struct sqlite3_str {
  std::string text;
  int err = SQLITE_OK;  // S1
  size_t limit = basalt::kPrintfMaxLength;
};

namespace {

// Returned by sqlite3_str_new when no object can be allocated: permanently
// in the SQLITE_NOMEM state, never freed.
sqlite3_str* OomStr() {
  static auto* s = [] {
    auto* x = new sqlite3_str();
    x->err = SQLITE_NOMEM;
    return x;
  }();
  return s;
}

// Appends n bytes, enforcing S2.
void Append(sqlite3_str* p, const char* z, size_t n) {
  if (p == nullptr || p->err != SQLITE_OK || n == 0) return;
  if (p->text.size() + n >= p->limit) {
    p->err = SQLITE_TOOBIG;
    std::string().swap(p->text);
    return;
  }
  try {
    p->text.append(z, n);
  } catch (...) {
    p->err = SQLITE_NOMEM;
  }
}

std::mutex& RandomMutex() {
  static std::mutex mu;
  return mu;
}
std::mt19937_64& Prng() {
  static std::mt19937_64 g{std::random_device{}()};
  return g;
}

}  // namespace

extern "C" {

sqlite3_str* sqlite3_str_new(sqlite3* db) {
  auto* p = new (std::nothrow) sqlite3_str();
  if (p == nullptr) return OomStr();
  if (basalt::api::HasConnection(db)) {
    p->limit = static_cast<size_t>(basalt::api::Guard(
        db, 0, [&] { return db->conn->limits().get(basalt::LimitId::kLength); }));
  }
  return p;
}

char* sqlite3_str_finish(sqlite3_str* p) {
  if (p == nullptr || p == OomStr()) return nullptr;
  char* out = nullptr;
  if (p->err == SQLITE_OK && !p->text.empty()) {
    out = static_cast<char*>(sqlite3_malloc64(p->text.size() + 1));
    if (out != nullptr) std::memcpy(out, p->text.c_str(), p->text.size() + 1);
  }
  delete p;
  return out;
}

void sqlite3_str_append(sqlite3_str* p, const char* z, int n) {
  if (z != nullptr && n > 0) Append(p, z, static_cast<size_t>(n));
}

void sqlite3_str_appendall(sqlite3_str* p, const char* z) {
  if (z != nullptr) Append(p, z, std::strlen(z));
}

void sqlite3_str_appendchar(sqlite3_str* p, int n, char c) {
  if (p == nullptr || n <= 0 || p->err != SQLITE_OK) return;
  if (p->text.size() + static_cast<size_t>(n) >= p->limit) {
    p->err = SQLITE_TOOBIG;
    std::string().swap(p->text);
    return;
  }
  try {
    p->text.append(static_cast<size_t>(n), c);
  } catch (...) {
    p->err = SQLITE_NOMEM;
  }
}

void sqlite3_str_vappendf(sqlite3_str* p, const char* fmt, va_list ap) {
  if (p == nullptr || p->err != SQLITE_OK || fmt == nullptr) return;
  std::string piece;
  va_list copy;
  va_copy(copy, ap);
  bool ok = false;
  try {
    ok = basalt::SqlVAppendf(&piece, basalt::kPrintfMaxLength, fmt, copy);
  } catch (...) {
    p->err = SQLITE_NOMEM;
  }
  va_end(copy);
  if (p->err != SQLITE_OK) return;
  if (!ok) {
    p->err = SQLITE_TOOBIG;
    std::string().swap(p->text);
    return;
  }
  Append(p, piece.data(), piece.size());
}

void sqlite3_str_appendf(sqlite3_str* p, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sqlite3_str_vappendf(p, fmt, ap);
  va_end(ap);
}

void sqlite3_str_reset(sqlite3_str* p) {
  if (p == nullptr || p == OomStr()) return;
  std::string().swap(p->text);
}

int sqlite3_str_errcode(sqlite3_str* p) { return p != nullptr ? p->err : SQLITE_NOMEM; }

int sqlite3_str_length(sqlite3_str* p) {
  return p != nullptr ? static_cast<int>(p->text.size()) : 0;
}

char* sqlite3_str_value(sqlite3_str* p) {
  if (p == nullptr || p->text.empty()) return nullptr;
  return p->text.data();
}

int sqlite3_strglob(const char* pattern, const char* str) {
  if (pattern == nullptr) return str == nullptr ? 0 : 1;
  if (str == nullptr) return 1;
  return basalt::StrGlob(pattern, str);
}

int sqlite3_strlike(const char* pattern, const char* str, unsigned int escape) {
  if (pattern == nullptr) return str == nullptr ? 0 : 1;
  if (str == nullptr) return 1;
  return basalt::StrLike(pattern, str, escape);
}

int sqlite3_keyword_count(void) { return basalt::parser::KeywordCount(); }

int sqlite3_keyword_name(int i, const char** name, int* len) {
  std::string_view k = basalt::parser::KeywordAt(i);
  if (k.empty()) return SQLITE_ERROR;
  if (name != nullptr) *name = k.data();
  if (len != nullptr) *len = static_cast<int>(k.size());
  return SQLITE_OK;
}

int sqlite3_keyword_check(const char* z, int n) {
  if (z == nullptr || n <= 0) return 0;
  for (int i = 0; i < n; ++i) {
    char c = z[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')) return 0;
  }
  return basalt::parser::LookupKeyword(z, static_cast<size_t>(n)) != basalt::parser::Tk::kId;
}

// N <= 0 or a null buffer reseeds the generator, as SQLite resets its own.
void sqlite3_randomness(int n, void* out) {
  std::lock_guard<std::mutex> g(RandomMutex());
  if (n <= 0 || out == nullptr) {
    Prng().seed(std::random_device{}());
    return;
  }
  auto* p = static_cast<unsigned char*>(out);
  for (int i = 0; i < n; i += 8) {
    uint64_t r = Prng()();
    for (int k = 0; k < 8 && i + k < n; ++k) p[i + k] = static_cast<unsigned char>(r >> (8 * k));
  }
}

int sqlite3_complete16(const void* sql) {
  if (sql == nullptr) return 0;
  size_t n = 0;
  while (static_cast<const char16_t*>(sql)[n] != 0) ++n;
  const uint16_t one = 1;
  unsigned char first;
  std::memcpy(&first, &one, 1);
  return basalt::api::Guard(nullptr, 0, [&] {
    std::string utf8 = basalt::Utf16ToUtf8(sql, n * 2, first == 0);
    return sqlite3_complete(utf8.c_str());
  });
}

const char* sqlite3_compileoption_get(int n) {
  auto list = basalt::CompileOptionList();
  return n >= 0 && static_cast<size_t>(n) < list.size() ? list[static_cast<size_t>(n)] : nullptr;
}

int sqlite3_compileoption_used(const char* name) {
  return name != nullptr && basalt::CompileOptionUsed(name) ? 1 : 0;
}

}  // extern "C"

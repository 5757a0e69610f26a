// Database file names as SQLite hands them to VFSes and applications:
// sqlite3_db_filename's result, sqlite3_create_filename / free_filename,
// sqlite3_filename_database / journal / wal and sqlite3_uri_parameter /
// boolean / int64 / key.
//
// Layout of a sqlite3_filename (what the functions below walk):
//   4 zero bytes, the database path, NUL, then for each URI query
//   parameter its key, NUL, value, NUL; an empty key (one NUL) ends them;
//   then the journal path, NUL, the WAL path, NUL, and two more NULs.
// The pointer handed out points at the database path (after the 4 zeros),
// so it reads as a plain C string, and filename_database can walk back
// from the journal or WAL name to the 4 zeros.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "api/filename.h"
#include "api/guard.h"
#include "api/handles.h"

namespace {

std::string BuildLayout(const std::string& db, const std::vector<std::string>& params,
                        const std::string& journal, const std::string& wal) {
  std::string out(4, '\0');
  out += db;
  out.push_back('\0');
  for (const std::string& p : params) {
    out += p;
    out.push_back('\0');
  }
  out.push_back('\0');
  out += journal;
  out.push_back('\0');
  out += wal;
  out.push_back('\0');
  out.append(2, '\0');
  return out;
}

int Hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string Unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && Hex(s[i + 1]) >= 0 && Hex(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(Hex(s[i + 1]) * 16 + Hex(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// The query parameters of a "file:" URI, as key, value, key, value ...
std::vector<std::string> UriParams(const std::string& name) {
  std::vector<std::string> out;
  if (name.compare(0, 5, "file:") != 0) return out;
  size_t q = name.find('?');
  if (q == std::string::npos) return out;
  std::string_view rest(name);
  rest = rest.substr(q + 1);
  size_t hash = rest.find('#');
  if (hash != std::string_view::npos) rest = rest.substr(0, hash);
  while (!rest.empty()) {
    size_t amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    size_t eq = pair.find('=');
    std::string key = Unescape(pair.substr(0, eq));
    std::string value = eq == std::string_view::npos ? "" : Unescape(pair.substr(eq + 1));
    if (!key.empty()) {
      out.push_back(key);
      out.push_back(value);
    }
    if (amp == std::string_view::npos) break;
    rest = rest.substr(amp + 1);
  }
  return out;
}

// Skips one NUL-terminated string.
const char* Skip(const char* z) { return z + std::strlen(z) + 1; }

bool IsTrue(const char* z) {
  return sqlite3_stricmp(z, "yes") == 0 || sqlite3_stricmp(z, "on") == 0 ||
         sqlite3_stricmp(z, "true") == 0 || std::atoi(z) != 0;
}

}  // namespace

namespace basalt::api {

// sqlite3_db_filename's answer for database `d` of db (kept on the handle).
// The string is rebuilt only when it changes (another database attached
// under the same name), so earlier answers stay valid meanwhile.
const char* FilenameOf(sqlite3* db, const basalt::Database* d) {
  std::string& slot = db->scratch.filenames[d->name];
  std::string journal = d->path.empty() ? "" : d->path + "-journal";
  std::string wal = d->path.empty() ? "" : d->path + "-wal";
  std::string layout = BuildLayout(d->path, UriParams(d->filename), journal, wal);
  if (layout != slot) slot = std::move(layout);
  return slot.c_str() + 4;
}

}  // namespace basalt::api

extern "C" {

sqlite3_filename sqlite3_create_filename(const char* db, const char* journal, const char* wal,
                                         int n, const char** params) {
  return basalt::api::Guard(
      nullptr, static_cast<sqlite3_filename>(nullptr), [&]() -> sqlite3_filename {
        std::vector<std::string> p;
        for (int i = 0; i < 2 * n; ++i) p.emplace_back(params[i] != nullptr ? params[i] : "");
        std::string layout =
            BuildLayout(db != nullptr ? db : "", p, journal != nullptr ? journal : "",
                        wal != nullptr ? wal : "");
        char* out = static_cast<char*>(sqlite3_malloc64(layout.size()));
        if (out == nullptr) return nullptr;
        std::memcpy(out, layout.data(), layout.size());
        return out + 4;
      });
}

void sqlite3_free_filename(sqlite3_filename name) {
  if (name != nullptr) sqlite3_free(const_cast<char*>(name) - 4);
}

const char* sqlite3_filename_database(sqlite3_filename name) {
  if (name == nullptr) return nullptr;
  const char* z = name;
  while (z[-1] != 0 || z[-2] != 0 || z[-3] != 0 || z[-4] != 0) --z;
  return z;
}

const char* sqlite3_filename_journal(sqlite3_filename name) {
  if (name == nullptr) return nullptr;
  const char* z = Skip(sqlite3_filename_database(name));
  while (*z != 0) z = Skip(Skip(z));  // the parameters
  return z + 1;
}

const char* sqlite3_filename_wal(sqlite3_filename name) {
  const char* j = sqlite3_filename_journal(name);
  return j != nullptr ? Skip(j) : nullptr;
}

const char* sqlite3_uri_parameter(sqlite3_filename name, const char* key) {
  if (name == nullptr || key == nullptr) return nullptr;
  const char* z = Skip(sqlite3_filename_database(name));
  while (*z != 0) {
    const char* value = Skip(z);
    if (std::strcmp(z, key) == 0) return value;
    z = Skip(value);
  }
  return nullptr;
}

const char* sqlite3_uri_key(sqlite3_filename name, int n) {
  if (name == nullptr || n < 0) return nullptr;
  const char* z = Skip(sqlite3_filename_database(name));
  while (*z != 0 && n-- > 0) z = Skip(Skip(z));
  return *z != 0 ? z : nullptr;
}

int sqlite3_uri_boolean(sqlite3_filename name, const char* key, int dflt) {
  const char* v = sqlite3_uri_parameter(name, key);
  if (v == nullptr) return dflt != 0;
  if (sqlite3_stricmp(v, "no") == 0 || sqlite3_stricmp(v, "off") == 0 ||
      sqlite3_stricmp(v, "false") == 0) {
    return 0;
  }
  return IsTrue(v) ? 1 : (dflt != 0);
}

sqlite3_int64 sqlite3_uri_int64(sqlite3_filename name, const char* key, sqlite3_int64 dflt) {
  const char* v = sqlite3_uri_parameter(name, key);
  if (v == nullptr) return dflt;
  char* end = nullptr;
  long long x = std::strtoll(v, &end, 10);
  return end != v && *end == '\0' ? x : dflt;
}

// Basalt's OS layer needs no set-up beyond what sqlite3_initialize does.
int sqlite3_os_init(void) { return SQLITE_OK; }
int sqlite3_os_end(void) { return SQLITE_OK; }

}  // extern "C"

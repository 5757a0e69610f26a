// Writing through the zipfile virtual table: Begin, Update, Commit (the
// protocol is described at the top of ext_zipfile.cc).
//
// How an UPDATE or DELETE names its row: the library passes the primary
// key (the name, TEXT) of this WITHOUT ROWID table; an INTEGER key (the
// rowid xRowid gives, numbering the members from Begin on) is accepted
// too. Unchanged sz and rawdata come as "no change" NULLs (xColumn leaves
// them unset under sqlite3_vtab_nochange); data and method are re-encoded
// either way, which gives the reference's result (it re-encodes unchanged
// data too).
#include <cstdio>
#include <ctime>
#include <string>

#include "shell/zipfile_table.h"

namespace shell {
namespace {

constexpr uint32_t kDirBit = 0040000;

std::string Text(sqlite3_value* v) {
  const unsigned char* z = sqlite3_value_text(v);
  return z == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(z));
}

std::string Bytes(sqlite3_value* v) {
  const char* p = static_cast<const char*>(sqlite3_value_blob(v));
  const int n = sqlite3_value_bytes(v);
  return p == nullptr ? std::string() : std::string(p, static_cast<size_t>(n));
}

int Append(ZipTable* t, zip::Entry* e) {
  e->offset = static_cast<uint32_t>(t->wsize);
  const std::string rec = zip::LocalRecord(*e);
  if (std::fwrite(rec.data(), 1, rec.size(), t->wfd) != rec.size()) {
    return ZipSetError(&t->base, SQLITE_ERROR, "error in fwrite()");
  }
  t->wsize += static_cast<long long>(rec.size());
  return SQLITE_OK;
}

// The member an INSERT or UPDATE describes; `old` (or null) is the member an
// UPDATE replaces; *replaced is set to the index of a member of the same
// name that REPLACE drops.
int BuildEntry(ZipTable* t, sqlite3_value** argv, const zip::Entry* old, zip::Entry* out,
               long* replaced) {
  sqlite3_vtab* vt = &t->base;
  if (sqlite3_value_type(argv[2 + kRawdata]) != SQLITE_NULL) {
    return ZipSetError(vt, SQLITE_CONSTRAINT, "rawdata must be NULL");
  }
  if (sqlite3_value_type(argv[2 + kSz]) != SQLITE_NULL) {
    return ZipSetError(vt, SQLITE_CONSTRAINT, "sz must be NULL");
  }
  sqlite3_value* data = argv[2 + kData];
  const bool is_dir = sqlite3_value_type(data) == SQLITE_NULL;
  sqlite3_value* mode_value = argv[2 + kMode];
  const std::string mode_text = Text(mode_value);
  uint32_t mode = 0;
  if (!zip::ParseMode(mode_text.c_str(), sqlite3_value_type(mode_value) == SQLITE_NULL,
                      sqlite3_value_int(mode_value), is_dir ? (kDirBit | 0755) : 0100644, &mode)) {
    return ZipSetError(vt, SQLITE_ERROR, "zipfile: parse error in mode: " + mode_text);
  }
  if (((mode & kDirBit) != 0) != is_dir) {
    return ZipSetError(vt, SQLITE_CONSTRAINT, "zipfile: mode does not match data");
  }
  int method = -1;
  if (sqlite3_value_type(argv[2 + kMethod]) != SQLITE_NULL) {
    method = sqlite3_value_int(argv[2 + kMethod]);
    if (method != 0 && method != 8) {
      return ZipSetError(vt, SQLITE_CONSTRAINT,
                         "unknown compression method: " + std::to_string(method));
    }
  }
  std::string name = Text(argv[2 + kName]);
  if (is_dir && (name.empty() || name.back() != '/')) name += '/';
  // A member of the same name: an error, or under REPLACE dropped (the new
  // member then goes last).
  for (size_t i = 0; i < t->entries.size(); ++i) {
    const zip::Entry& e = t->entries[i];
    if (&e == old || e.name != name) continue;
    if (sqlite3_vtab_on_conflict(t->db) != SQLITE_REPLACE) {
      return ZipSetError(vt, SQLITE_CONSTRAINT, "duplicate name: \"" + name + "\"");
    }
    *replaced = static_cast<long>(i);
  }
  sqlite3_value* mtime_value = argv[2 + kMtime];
  const uint32_t mtime = static_cast<uint32_t>(sqlite3_value_type(mtime_value) == SQLITE_NULL
                                                   ? std::time(nullptr)
                                                   : sqlite3_value_int64(mtime_value));
  const std::string bytes = is_dir ? std::string() : Bytes(data);
  if (!zip::MakeEntry(name, mode, mtime, is_dir ? nullptr : &bytes, method, out)) {
    return ZipSetError(vt, SQLITE_ERROR, "zipfile: deflate() error");
  }
  return SQLITE_OK;
}

}  // namespace

int ZipBegin(sqlite3_vtab* vt) {
  // A table created inside the transaction is not begun by SQLite (it joins
  // the transaction at creation): its file opens at the first change.
  if (reinterpret_cast<ZipTable*>(vt)->created_in_txn) return SQLITE_OK;
  return ZipOpenForWrite(vt);
}

int ZipOpenForWrite(sqlite3_vtab* vt) {
  auto* t = reinterpret_cast<ZipTable*>(vt);
  if (t->wfd != nullptr) return SQLITE_OK;
  if (t->file.empty()) return ZipSetError(vt, SQLITE_ERROR, "zipfile: missing filename");
  FILE* f = std::fopen(t->file.c_str(), "ab+");
  if (f == nullptr) {
    return ZipSetError(vt, SQLITE_ERROR,
                       "zipfile: failed to open file " + t->file + " for writing");
  }
  std::string bytes;
  std::fseek(f, 0, SEEK_SET);
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.append(buf, n);
  t->entries.clear();
  t->next_key = 1;
  if (!bytes.empty()) {
    std::string err;
    if (!zip::ParseArchive(bytes, &t->entries, &err)) {
      std::fclose(f);
      t->entries.clear();
      return ZipSetError(vt, SQLITE_ERROR, err);
    }
  }
  for (zip::Entry& e : t->entries) e.key = t->next_key++;
  t->wfd = f;
  t->wsize = static_cast<long long>(bytes.size());
  t->loaded = std::move(bytes);
  return SQLITE_OK;
}

int ZipCommit(sqlite3_vtab* vt) {
  auto* t = reinterpret_cast<ZipTable*>(vt);
  t->created_in_txn = false;
  if (t->wfd == nullptr) return SQLITE_OK;
  std::string dir;
  for (const zip::Entry& e : t->entries) dir += zip::CentralRecord(e);
  dir += zip::EndRecord(static_cast<uint32_t>(t->entries.size()), static_cast<uint32_t>(dir.size()),
                        static_cast<uint32_t>(t->wsize));
  const bool ok = std::fwrite(dir.data(), 1, dir.size(), t->wfd) == dir.size();
  const bool closed = std::fclose(t->wfd) == 0;
  t->wfd = nullptr;
  t->entries.clear();
  t->loaded.clear();
  return ok && closed ? SQLITE_OK : ZipSetError(vt, SQLITE_ERROR, "error in fwrite()");
}

int ZipUpdate(sqlite3_vtab* vt, int argc, sqlite3_value** argv, sqlite3_int64*) {
  auto* t = reinterpret_cast<ZipTable*>(vt);
  int rc = ZipOpenForWrite(vt);
  if (rc != SQLITE_OK) return rc;
  long old = -1;
  if (sqlite3_value_type(argv[0]) == SQLITE_INTEGER) {
    const sqlite3_int64 key = sqlite3_value_int64(argv[0]);
    for (size_t i = 0; i < t->entries.size(); ++i) {
      if (t->entries[i].key == key) old = static_cast<long>(i);
    }
  } else if (sqlite3_value_type(argv[0]) != SQLITE_NULL) {
    const std::string name = Text(argv[0]);
    for (size_t i = 0; i < t->entries.size(); ++i) {
      if (t->entries[i].name == name) old = static_cast<long>(i);
    }
  }
  if (sqlite3_value_type(argv[0]) != SQLITE_NULL) {
    if (argc == 1) {
      if (old >= 0) t->entries.erase(t->entries.begin() + old);
      return SQLITE_OK;
    }
  }
  zip::Entry e;
  long replaced = -1;
  rc = BuildEntry(t, argv, old >= 0 ? &t->entries[static_cast<size_t>(old)] : nullptr, &e,
                  &replaced);
  if (rc == SQLITE_OK) rc = Append(t, &e);
  if (rc != SQLITE_OK) return rc;
  if (replaced >= 0) {
    t->entries.erase(t->entries.begin() + replaced);
    if (old > replaced) --old;
  }
  e.has_raw = true;
  e.key = t->next_key++;
  if (old >= 0) {
    t->entries[static_cast<size_t>(old)] = std::move(e);
  } else {
    t->entries.push_back(std::move(e));
  }
  return SQLITE_OK;
}

}  // namespace shell

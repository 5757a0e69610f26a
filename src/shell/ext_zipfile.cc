// The zipfile virtual table of sqlite3 3.40.1's shell, and zipfile_cds().
//
// Columns: name (the primary key; WITHOUT ROWID), mode, mtime, sz, rawdata,
// data, method, and the hidden z: the archive (a file name or a blob) as an
// argument, the cursor's id as a value.
//   SELECT ... FROM zipfile(Z)     reads the archive Z (eponymous table);
//   CREATE VIRTUAL TABLE t USING zipfile(FILE)   reads FILE and writes it.
// Writing, as the reference does it (so the files are byte-identical):
//   1. the first change of a transaction opens FILE for appending and loads
//      its central directory into `entries` (Begin);
//   2. every INSERT (and the insert half of an UPDATE) appends the member's
//      local record to the end of FILE at once; DELETE only drops it from
//      `entries`; an UPDATE puts the new member where the old one was;
//   3. commit, and rollback too, append a new central directory listing
//      `entries` and an end record, and close FILE.
// zipfile_cds(z): SQLite reaches it through xFindFunction, which Basalt's
// library lacks; here it is an ordinary function finding the cursor by the
// id the z column gives (the tables of each connection are listed).
#include <cstdio>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "shell/shell_ext.h"
#include "shell/zip_format.h"
#include "shell/zipfile_table.h"

namespace shell {

int ZipSetError(sqlite3_vtab* vt, int rc, const std::string& msg) {
  sqlite3_free(vt->zErrMsg);
  vt->zErrMsg = sqlite3_mprintf("%s", msg.c_str());
  return rc;
}

namespace {

// Every zipfile table open on any connection, for zipfile_cds().
std::vector<ZipTable*>& AllTables() {
  static std::vector<ZipTable*> tables;
  return tables;
}

bool ReadFile(const std::string& path, std::string* out) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out->append(buf, n);
  std::fclose(f);
  return true;
}

int ZipCreate(sqlite3* db, void*, int argc, const char* const* argv, sqlite3_vtab** out,
              char** err) {
  const bool eponymous = argc == 3 && std::string(argv[0]) == argv[2];
  if (!eponymous && argc != 4) {
    *err = sqlite3_mprintf("zipfile constructor requires one argument");
    return SQLITE_ERROR;
  }
  const int rc = sqlite3_declare_vtab(db,
                                      "CREATE TABLE y(name PRIMARY KEY,mode,mtime,sz,rawdata,"
                                      "data,method,z HIDDEN) WITHOUT ROWID;");
  if (rc != SQLITE_OK) return rc;
  auto* t = new ZipTable();
  t->db = db;
  // xCreate must be xConnect for the eponymous table, so a table connected
  // (not created) inside a transaction counts as created there too.
  t->created_in_txn = !sqlite3_get_autocommit(db);
  if (!eponymous) {
    // The argument is SQL text: a quoted string loses its quotes.
    std::string f = argv[3];
    const char open = f.empty() ? 0 : f[0];
    const char close = open == '[' ? ']' : open;
    if (f.size() >= 2 && (open == '\'' || open == '"' || open == '`' || open == '[') &&
        f.back() == close) {
      std::string u;
      for (size_t i = 1; i + 1 < f.size(); ++i) {
        u += f[i];
        if (f[i] == close && f[i + 1] == close) ++i;
      }
      f = u;
    }
    t->file = f;
  }
  AllTables().push_back(t);
  *out = &t->base;
  return SQLITE_OK;
}

int ZipDisconnect(sqlite3_vtab* vt) {
  auto* t = reinterpret_cast<ZipTable*>(vt);
  if (t->wfd != nullptr) std::fclose(t->wfd);
  auto& all = AllTables();
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i] == t) all.erase(all.begin() + static_cast<long>(i));
  }
  sqlite3_free(vt->zErrMsg);
  delete t;
  return SQLITE_OK;
}

int ZipOpen(sqlite3_vtab* vt, sqlite3_vtab_cursor** out) {
  auto* t = reinterpret_cast<ZipTable*>(vt);
  auto* c = new ZipCursor();
  c->id = t->next_id++;
  t->cursors.push_back(c);
  *out = &c->base;
  return SQLITE_OK;
}

int ZipClose(sqlite3_vtab_cursor* vc) {
  auto* c = reinterpret_cast<ZipCursor*>(vc);
  auto& list = reinterpret_cast<ZipTable*>(vc->pVtab)->cursors;
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i] == c) list.erase(list.begin() + static_cast<long>(i));
  }
  delete c;
  return SQLITE_OK;
}

// Loads the members of an archive file (an empty file has none).
int LoadFile(sqlite3_vtab* vt, const std::string& path, std::string* bytes,
             std::vector<zip::Entry>* entries) {
  bytes->clear();
  if (!ReadFile(path, bytes)) return ZipSetError(vt, SQLITE_ERROR, "cannot open file: " + path);
  if (bytes->empty()) {
    entries->clear();
    return SQLITE_OK;
  }
  std::string err;
  if (!zip::ParseArchive(*bytes, entries, &err)) return ZipSetError(vt, SQLITE_ERROR, err);
  return SQLITE_OK;
}

int ZipFilter(sqlite3_vtab_cursor* vc, int idx_num, const char*, int argc, sqlite3_value** argv) {
  auto* c = reinterpret_cast<ZipCursor*>(vc);
  auto* t = reinterpret_cast<ZipTable*>(vc->pVtab);
  c->at = 0;
  c->entries.clear();
  std::string* bytes = &c->archive;
  bytes->clear();
  // A created table reads its own file whatever the z argument says.
  if (idx_num == 0 || argc == 0 || !t->file.empty()) {
    if (t->file.empty()) {
      return ZipSetError(vc->pVtab, SQLITE_ERROR, "zipfile() function requires an argument");
    }
    if (t->wfd != nullptr) {
      *bytes = t->loaded;
      c->entries = t->entries;
    } else {
      const int rc = LoadFile(vc->pVtab, t->file, bytes, &c->entries);
      if (rc != SQLITE_OK) return rc;
      // The rowids ZipOpenForWrite will give the same members (a DELETE's
      // scan can run before the file is opened for writing).
      long long key = 1;
      for (zip::Entry& e : c->entries) e.key = key++;
    }
  } else if (sqlite3_value_type(argv[0]) == SQLITE_BLOB) {
    const char* p = static_cast<const char*>(sqlite3_value_blob(argv[0]));
    bytes->assign(p == nullptr ? "" : p, static_cast<size_t>(sqlite3_value_bytes(argv[0])));
    std::string err;
    if (!zip::ParseArchive(*bytes, &c->entries, &err)) {
      return ZipSetError(vc->pVtab, SQLITE_ERROR, err);
    }
  } else {
    const unsigned char* z = sqlite3_value_text(argv[0]);
    const std::string path = z == nullptr ? "" : reinterpret_cast<const char*>(z);
    const int rc = LoadFile(vc->pVtab, path, bytes, &c->entries);
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

int ZipNext(sqlite3_vtab_cursor* vc) {
  ++reinterpret_cast<ZipCursor*>(vc)->at;
  return SQLITE_OK;
}

int ZipEof(sqlite3_vtab_cursor* vc) {
  auto* c = reinterpret_cast<ZipCursor*>(vc);
  return c->at >= c->entries.size();
}

// rawdata and data: a directory (by mode or a trailing '/') with no bytes
// is NULL, an empty file an empty blob.
int DataColumn(ZipCursor* c, sqlite3_context* ctx, bool raw) {
  const zip::Entry& e = c->entries[c->at];
  if (!raw && e.method != 0 && e.method != 8) return SQLITE_OK;
  if (e.usize == 0) {
    const bool dir = (zip::Mode(e) & 0040000) || (!e.name.empty() && e.name.back() == '/');
    if (!dir) sqlite3_result_blob(ctx, "", 0, SQLITE_STATIC);
    return SQLITE_OK;
  }
  std::string bytes;
  if (!zip::RawData(c->archive, e, &bytes)) {
    sqlite3_result_error(ctx, "error reading data", -1);
    return SQLITE_ERROR;
  }
  if (!raw && e.method == 8) {
    std::string out;
    if (!zip::Inflate(bytes, e.usize, &out)) {
      sqlite3_result_error(ctx, "inflate() failed", -1);
      return SQLITE_ERROR;
    }
    bytes.swap(out);
  }
  sqlite3_result_blob64(ctx, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
  return SQLITE_OK;
}

int ZipColumnValue(sqlite3_vtab_cursor* vc, sqlite3_context* ctx, int i) {
  auto* c = reinterpret_cast<ZipCursor*>(vc);
  const zip::Entry& e = c->entries[c->at];
  switch (i) {
    case kName:
      sqlite3_result_text(ctx, e.name.data(), static_cast<int>(e.name.size()), SQLITE_TRANSIENT);
      break;
    case kMode:
      sqlite3_result_int64(ctx, zip::Mode(e));
      break;
    case kMtime:
      sqlite3_result_int64(ctx, e.mtime);
      break;
    case kSz:
      if (!sqlite3_vtab_nochange(ctx)) sqlite3_result_int64(ctx, e.usize);
      break;
    case kRawdata:
      // An UPDATE leaving rawdata alone passes it as "no change" (NULL).
      if (sqlite3_vtab_nochange(ctx)) break;
      return DataColumn(c, ctx, true);
    case kData:
      return DataColumn(c, ctx, false);
    case kMethod:
      sqlite3_result_int(ctx, e.method);
      break;
    default:
      sqlite3_result_int64(ctx, c->id);
      break;
  }
  return SQLITE_OK;
}

int ZipRowid(sqlite3_vtab_cursor* vc, sqlite3_int64* out) {
  auto* c = reinterpret_cast<ZipCursor*>(vc);
  *out = c->entries[c->at].key;
  return SQLITE_OK;
}

// Plans: idxNum 1 when z = ? is usable (the archive comes from the
// argument), 0 otherwise; an unusable z constraint makes this plan invalid.
int ZipBestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  int z = -1;
  bool unusable = false;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& k = info->aConstraint[i];
    if (k.iColumn != kZ || k.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (k.usable) {
      z = i;
    } else {
      unusable = true;
    }
  }
  if (z >= 0) {
    info->aConstraintUsage[z].argvIndex = 1;
    info->aConstraintUsage[z].omit = 1;
    info->estimatedCost = 1000.0;
    info->idxNum = 1;
  } else if (unusable) {
    return SQLITE_CONSTRAINT;
  } else {
    info->estimatedCost = 1e15;
    info->idxNum = 0;
  }
  return SQLITE_OK;
}

void CdsFunc(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc < 1 || sqlite3_value_type(argv[0]) != SQLITE_INTEGER) return;
  const sqlite3_int64 id = sqlite3_value_int64(argv[0]);
  sqlite3* db = sqlite3_context_db_handle(ctx);
  for (ZipTable* t : AllTables()) {
    if (t->db != db) continue;
    for (ZipCursor* c : t->cursors) {
      if (c->id != id || c->at >= c->entries.size()) continue;
      const std::string json = zip::CdsJson(c->entries[c->at]);
      sqlite3_result_text(ctx, json.c_str(), -1, SQLITE_TRANSIENT);
      return;
    }
  }
}

sqlite3_module MakeZipModule() {
  sqlite3_module m{};
  m.iVersion = 1;
  m.xCreate = ZipCreate;
  m.xConnect = ZipCreate;
  m.xBestIndex = ZipBestIndex;
  m.xDisconnect = ZipDisconnect;
  m.xDestroy = ZipDisconnect;
  m.xOpen = ZipOpen;
  m.xClose = ZipClose;
  m.xFilter = ZipFilter;
  m.xNext = ZipNext;
  m.xEof = ZipEof;
  m.xColumn = ZipColumnValue;
  m.xRowid = ZipRowid;
  m.xUpdate = ZipUpdate;
  m.xBegin = ZipBegin;
  m.xCommit = ZipCommit;
  m.xRollback = ZipCommit;  // as the reference: rolling back still commits
  return m;
}

}  // namespace

void RegisterZipfile(sqlite3* db) {
  static const sqlite3_module kModule = MakeZipModule();
  sqlite3_create_module(db, "zipfile", &kModule, nullptr);
  sqlite3_create_function(db, "zipfile_cds", -1, SQLITE_UTF8, nullptr, CdsFunc, nullptr, nullptr);
}

}  // namespace shell

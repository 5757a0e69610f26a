// The zipfile virtual table's state, shared by its reading half
// (ext_zipfile.cc) and its writing half (ext_zipfile_write.cc).
#ifndef BASALT_SHELL_ZIPFILE_TABLE_H_
#define BASALT_SHELL_ZIPFILE_TABLE_H_

#include <cstdio>
#include <string>
#include <vector>

#include "shell/zip_format.h"
#include "sqlite3.h"

namespace shell {

enum ZipColumn { kName, kMode, kMtime, kSz, kRawdata, kData, kMethod, kZ };

struct ZipCursor;

struct ZipTable {
  sqlite3_vtab base;
  sqlite3* db = nullptr;
  std::string file;                 // empty: the eponymous table (archive given per query)
  FILE* wfd = nullptr;              // open between Begin and Commit
  bool created_in_txn = false;      // created inside an open transaction
  long long wsize = 0;              // bytes in FILE (where the next record goes)
  std::vector<zip::Entry> entries;  // the members while wfd is open
  std::string loaded;               // FILE's bytes as Begin read them
  sqlite3_int64 next_id = 1;
  long long next_key = 1;  // rowids for members (see ext_zipfile_write.cc)
  std::vector<ZipCursor*> cursors;
};

struct ZipCursor {
  sqlite3_vtab_cursor base;
  sqlite3_int64 id = 0;
  std::string archive;  // the bytes of members without their own raw bytes
  std::vector<zip::Entry> entries;
  size_t at = 0;
};

int ZipBegin(sqlite3_vtab* vt);         // xBegin
int ZipOpenForWrite(sqlite3_vtab* vt);  // opens FILE and loads its directory
int ZipCommit(sqlite3_vtab* vt);
int ZipUpdate(sqlite3_vtab* vt, int argc, sqlite3_value** argv, sqlite3_int64* rowid);
int ZipSetError(sqlite3_vtab* vt, int rc, const std::string& msg);

}  // namespace shell

#endif  // BASALT_SHELL_ZIPFILE_TABLE_H_

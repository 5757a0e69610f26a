// The SQL functions, collations and virtual tables Debian's sqlite3 shell
// registers on every database it opens (they are not in the library).
// Each Register* installs one family on a connection; RegisterShellExtensions
// installs them all and is called where the shell opens a database.
#ifndef BASALT_SHELL_SHELL_EXT_H_
#define BASALT_SHELL_SHELL_EXT_H_

#include "sqlite3.h"

namespace shell {

struct Shell;

void RegisterSeries(sqlite3* db);      // generate_series (ext_series.cc)
void RegisterRegexp(sqlite3* db);      // regexp(), regexpi() (ext_regexp.cc)
void RegisterDecimal(sqlite3* db);     // decimal*(), collations decimal, uint (ext_decimal.cc)
void RegisterIeee754(sqlite3* db);     // ieee754*() (ext_ieee754.cc)
void RegisterFileIo(sqlite3* db);      // readfile, writefile, lsmode, fsdir (ext_fileio.cc)
void RegisterSqlar(sqlite3* db);       // sqlar_compress, sqlar_uncompress, zipfile() (ext_sqlar.cc)
void RegisterZipfile(sqlite3* db);     // the zipfile table, zipfile_cds (ext_zipfile*.cc)
void RegisterCompletion(sqlite3* db);  // the completion table (ext_completion.cc)
void RegisterDbdata(sqlite3* db);      // sqlite_dbdata, sqlite_dbptr (ext_dbdata.cc)
// shell_*(), usleep, edit and the -safe authorizer (ext_helpers.cc)
void RegisterShellHelpers(sqlite3* db, Shell* sh);

void RegisterShellExtensions(sqlite3* db, Shell* sh);
void RegisterAppendVfs();  // the "apndvfs" VFS, once per process (vfs_append.cc)

}  // namespace shell

#endif  // BASALT_SHELL_SHELL_EXT_H_

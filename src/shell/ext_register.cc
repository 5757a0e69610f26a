// Installs every function, collation and module of the shell_ext.h families
// on a connection the shell has just opened.
#include "shell/shell_ext.h"

namespace shell {

void RegisterShellExtensions(sqlite3* db, Shell* sh) {
  RegisterSeries(db);
  RegisterRegexp(db);
  RegisterDecimal(db);
  RegisterIeee754(db);
  RegisterFileIo(db);
  RegisterSqlar(db);
  RegisterZipfile(db);
  RegisterCompletion(db);
  RegisterDbdata(db);
  RegisterShellHelpers(db, sh);
}

}  // namespace shell

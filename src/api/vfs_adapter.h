// A program's sqlite3_vfs seen as a basalt::Vfs, so that databases opened
// through a registered VFS (sqlite3_open_v2's zVfs, a URI's vfs=, or a VFS
// registered as the default) do all their file I/O, locking and
// wal-index shared memory through the program's methods.
#pragma once

#include <memory>

#include "os/vfs.h"
#include "sqlite3.h"

namespace basalt::api {

// The adapter for `vfs`, made once per sqlite3_vfs object and kept for the
// life of the process (a connection may outlive sqlite3_vfs_unregister, as
// in SQLite, where unregistering does not close open files).
basalt::Vfs* AdaptVfs(sqlite3_vfs* vfs);

}  // namespace basalt::api

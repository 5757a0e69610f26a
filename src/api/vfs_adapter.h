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

// The sqlite3_file_control operations SQLite's unix VFS answers, answered
// for one of Basalt's own files (api_vfs.cc): LOCKSTATE, LAST_ERRNO,
// SIZE_HINT, CHUNK_SIZE, PERSIST_WAL (*persist_wal), POWERSAFE_OVERWRITE
// (*psow), VFSNAME, TEMPFILENAME, MMAP_SIZE, HAS_MOVED, EXTERNAL_READER;
// SQLITE_NOTFOUND for any other.
int UnixFileControl(basalt::VfsFile* f, int op, void* arg, bool* persist_wal, bool* psow);

// A sqlite3_file whose methods are the "unix" VFS's, over one of Basalt's
// own open files (not owning it; made once per file and kept), for
// SQLITE_FCNTL_FILE_POINTER.
sqlite3_file* NativeFileView(basalt::VfsFile* f);

}  // namespace basalt::api

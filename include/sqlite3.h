/*
** Basalt: the public C interface.
**
** Basalt is a database engine written from scratch that implements the
** interface of SQLite 3.40. This header declares that interface: every type,
** function and constant below has the name, signature and value that the
** SQLite 3.40.1 library documents, so a program compiled against either
** header runs against either library. The text of this file is Basalt's own.
**
** Layout of this file:
**    1. decoration macros, version, integer types
**    2. result codes (primary, then extended)
**    3. open flags, device capabilities, lock levels, sync flags
**    4. the operating-system layer: sqlite3_file, sqlite3_io_methods,
**       file-control opcodes, sqlite3_vfs, access and shared-memory flags
**    5. library set-up: initialize/shutdown/config, allocator hooks,
**       connection configuration
**    6. connections: open/close, errors, limits, hooks, metadata
**    7. statements: prepare, bind, step, columns, status
**    8. values, user functions, collations
**    9. virtual tables
**   10. incremental blob I/O, VFS registry, mutexes
**   11. test control, keywords, dynamic strings, status counters
**   12. page cache plug-ins, backup, unlock notification, string helpers
**   13. write-ahead log, virtual-table configuration, scan status
**   14. snapshots, serialization
**   15. R*Tree geometry callbacks
**
** Everything is plain C (C89-compatible declarations) so the file compiles as
** C and as C++; in C++ the declarations get C linkage.
*/
#ifndef SQLITE3_H
#define SQLITE3_H

#include <stdarg.h> /* va_list, for the v*printf family */

#ifdef __cplusplus
extern "C" {
#endif

/* ===================================================================== */
/* 1. Decoration macros, version, integer types                          */
/* ===================================================================== */

/* Hooks that builds may predefine to add export or calling-convention
** attributes. On the platforms Basalt supports they are all empty. */
#ifndef SQLITE_EXTERN
#define SQLITE_EXTERN extern
#endif
#ifndef SQLITE_API
#define SQLITE_API
#endif
#ifndef SQLITE_CDECL
#define SQLITE_CDECL
#endif
#ifndef SQLITE_APICALL
#define SQLITE_APICALL
#endif
#ifndef SQLITE_STDCALL
#define SQLITE_STDCALL SQLITE_APICALL
#endif
#ifndef SQLITE_CALLBACK
#define SQLITE_CALLBACK
#endif
#ifndef SQLITE_SYSAPI
#define SQLITE_SYSAPI
#endif

/* Markers on interfaces that are kept for old programs or still evolving. */
#define SQLITE_DEPRECATED
#define SQLITE_EXPERIMENTAL

/* The interface version this library implements. */
#ifdef SQLITE_VERSION
#undef SQLITE_VERSION
#endif
#ifdef SQLITE_VERSION_NUMBER
#undef SQLITE_VERSION_NUMBER
#endif
#define SQLITE_VERSION "3.40.1"
#define SQLITE_VERSION_NUMBER 3040001
#define SQLITE_SOURCE_ID \
  "2022-12-28 14:03:47 df5c253c0b3dd24916e4ec7cf77d3db5294cc9fd45ae7b9c5e82ad8197f3alt1"

/* Run-time copies of the above: the library, not the header, answers. */
SQLITE_API SQLITE_EXTERN const char sqlite3_version[];
SQLITE_API const char* sqlite3_libversion(void);
SQLITE_API const char* sqlite3_sourceid(void);
SQLITE_API int sqlite3_libversion_number(void);

/* Compile-time option queries. */
#ifndef SQLITE_OMIT_COMPILEOPTION_DIAGS
SQLITE_API int sqlite3_compileoption_used(const char* option_name);
SQLITE_API const char* sqlite3_compileoption_get(int n);
#else
#define sqlite3_compileoption_used(X) 0
#define sqlite3_compileoption_get(X) ((void*)0)
#endif

/* 0 when the library was built without any mutexes, else 1 or 2. */
SQLITE_API int sqlite3_threadsafe(void);

/* A database connection (opaque). */
typedef struct sqlite3 sqlite3;

/* 64-bit integers, signed and unsigned. A build may choose the types. */
#ifdef SQLITE_INT64_TYPE
typedef SQLITE_INT64_TYPE sqlite_int64;
#ifdef SQLITE_UINT64_TYPE
typedef SQLITE_UINT64_TYPE sqlite_uint64;
#else
typedef unsigned SQLITE_INT64_TYPE sqlite_uint64;
#endif
#elif defined(_MSC_VER) || defined(__BORLANDC__)
typedef __int64 sqlite_int64;
typedef unsigned __int64 sqlite_uint64;
#else
typedef long long int sqlite_int64;
typedef unsigned long long int sqlite_uint64;
#endif
typedef sqlite_int64 sqlite3_int64;
typedef sqlite_uint64 sqlite3_uint64;

/* Builds without floating point replace every double by a 64-bit integer. */
#ifdef SQLITE_OMIT_FLOATING_POINT
#define double sqlite3_int64
#endif

/* Closing a connection. The _v2 form defers the close until the last
** statement, blob handle or backup on the connection is gone. */
SQLITE_API int sqlite3_close(sqlite3*);
SQLITE_API int sqlite3_close_v2(sqlite3*);

/* Row callback of sqlite3_exec: (context, column count, values, names). */
typedef int (*sqlite3_callback)(void*, int, char**, char**);

/* Runs every statement of a text; the callback sees each result row. */
SQLITE_API int sqlite3_exec(sqlite3* db, const char* sql,
                            int (*callback)(void*, int, char**, char**), void* callback_arg,
                            char** errmsg);

/* ===================================================================== */
/* 2. Result codes                                                       */
/* ===================================================================== */

/* Primary result codes: the low byte of every result code. */
#define SQLITE_OK 0          /* success */
#define SQLITE_ERROR 1       /* generic error (SQL error, missing database) */
#define SQLITE_INTERNAL 2    /* internal logic error */
#define SQLITE_PERM 3        /* access permission denied */
#define SQLITE_ABORT 4       /* a callback asked for an abort */
#define SQLITE_BUSY 5        /* the database file is locked */
#define SQLITE_LOCKED 6      /* a table in the database is locked */
#define SQLITE_NOMEM 7       /* a memory allocation failed */
#define SQLITE_READONLY 8    /* attempt to write a read-only database */
#define SQLITE_INTERRUPT 9   /* stopped by sqlite3_interrupt() */
#define SQLITE_IOERR 10      /* disk I/O error */
#define SQLITE_CORRUPT 11    /* the database image is malformed */
#define SQLITE_NOTFOUND 12   /* unknown file-control opcode */
#define SQLITE_FULL 13       /* the disk or the database is full */
#define SQLITE_CANTOPEN 14   /* the database file cannot be opened */
#define SQLITE_PROTOCOL 15   /* locking protocol error */
#define SQLITE_EMPTY 16      /* internal use only */
#define SQLITE_SCHEMA 17     /* the schema changed */
#define SQLITE_TOOBIG 18     /* string or blob over the size limit */
#define SQLITE_CONSTRAINT 19 /* constraint violation */
#define SQLITE_MISMATCH 20   /* data type mismatch */
#define SQLITE_MISUSE 21     /* interface used incorrectly */
#define SQLITE_NOLFS 22      /* large files unsupported by the OS */
#define SQLITE_AUTH 23       /* authorization denied */
#define SQLITE_FORMAT 24     /* not used */
#define SQLITE_RANGE 25      /* bind parameter index out of range */
#define SQLITE_NOTADB 26     /* the file is not a database */
#define SQLITE_NOTICE 27     /* notification passed to sqlite3_log() */
#define SQLITE_WARNING 28    /* warning passed to sqlite3_log() */
#define SQLITE_ROW 100       /* sqlite3_step() has a row ready */
#define SQLITE_DONE 101      /* sqlite3_step() has finished */

/* Extended result codes: a primary code in the low byte, a refinement
** number in the bits above it. */
#define SQLITE_ERROR_MISSING_COLLSEQ (SQLITE_ERROR | (1 << 8))
#define SQLITE_ERROR_RETRY (SQLITE_ERROR | (2 << 8))
#define SQLITE_ERROR_SNAPSHOT (SQLITE_ERROR | (3 << 8))

#define SQLITE_IOERR_READ (SQLITE_IOERR | (1 << 8))
#define SQLITE_IOERR_SHORT_READ (SQLITE_IOERR | (2 << 8))
#define SQLITE_IOERR_WRITE (SQLITE_IOERR | (3 << 8))
#define SQLITE_IOERR_FSYNC (SQLITE_IOERR | (4 << 8))
#define SQLITE_IOERR_DIR_FSYNC (SQLITE_IOERR | (5 << 8))
#define SQLITE_IOERR_TRUNCATE (SQLITE_IOERR | (6 << 8))
#define SQLITE_IOERR_FSTAT (SQLITE_IOERR | (7 << 8))
#define SQLITE_IOERR_UNLOCK (SQLITE_IOERR | (8 << 8))
#define SQLITE_IOERR_RDLOCK (SQLITE_IOERR | (9 << 8))
#define SQLITE_IOERR_DELETE (SQLITE_IOERR | (10 << 8))
#define SQLITE_IOERR_BLOCKED (SQLITE_IOERR | (11 << 8))
#define SQLITE_IOERR_NOMEM (SQLITE_IOERR | (12 << 8))
#define SQLITE_IOERR_ACCESS (SQLITE_IOERR | (13 << 8))
#define SQLITE_IOERR_CHECKRESERVEDLOCK (SQLITE_IOERR | (14 << 8))
#define SQLITE_IOERR_LOCK (SQLITE_IOERR | (15 << 8))
#define SQLITE_IOERR_CLOSE (SQLITE_IOERR | (16 << 8))
#define SQLITE_IOERR_DIR_CLOSE (SQLITE_IOERR | (17 << 8))
#define SQLITE_IOERR_SHMOPEN (SQLITE_IOERR | (18 << 8))
#define SQLITE_IOERR_SHMSIZE (SQLITE_IOERR | (19 << 8))
#define SQLITE_IOERR_SHMLOCK (SQLITE_IOERR | (20 << 8))
#define SQLITE_IOERR_SHMMAP (SQLITE_IOERR | (21 << 8))
#define SQLITE_IOERR_SEEK (SQLITE_IOERR | (22 << 8))
#define SQLITE_IOERR_DELETE_NOENT (SQLITE_IOERR | (23 << 8))
#define SQLITE_IOERR_MMAP (SQLITE_IOERR | (24 << 8))
#define SQLITE_IOERR_GETTEMPPATH (SQLITE_IOERR | (25 << 8))
#define SQLITE_IOERR_CONVPATH (SQLITE_IOERR | (26 << 8))
#define SQLITE_IOERR_VNODE (SQLITE_IOERR | (27 << 8))
#define SQLITE_IOERR_AUTH (SQLITE_IOERR | (28 << 8))
#define SQLITE_IOERR_BEGIN_ATOMIC (SQLITE_IOERR | (29 << 8))
#define SQLITE_IOERR_COMMIT_ATOMIC (SQLITE_IOERR | (30 << 8))
#define SQLITE_IOERR_ROLLBACK_ATOMIC (SQLITE_IOERR | (31 << 8))
#define SQLITE_IOERR_DATA (SQLITE_IOERR | (32 << 8))
#define SQLITE_IOERR_CORRUPTFS (SQLITE_IOERR | (33 << 8))

#define SQLITE_LOCKED_SHAREDCACHE (SQLITE_LOCKED | (1 << 8))
#define SQLITE_LOCKED_VTAB (SQLITE_LOCKED | (2 << 8))

#define SQLITE_BUSY_RECOVERY (SQLITE_BUSY | (1 << 8))
#define SQLITE_BUSY_SNAPSHOT (SQLITE_BUSY | (2 << 8))
#define SQLITE_BUSY_TIMEOUT (SQLITE_BUSY | (3 << 8))

#define SQLITE_CANTOPEN_NOTEMPDIR (SQLITE_CANTOPEN | (1 << 8))
#define SQLITE_CANTOPEN_ISDIR (SQLITE_CANTOPEN | (2 << 8))
#define SQLITE_CANTOPEN_FULLPATH (SQLITE_CANTOPEN | (3 << 8))
#define SQLITE_CANTOPEN_CONVPATH (SQLITE_CANTOPEN | (4 << 8))
#define SQLITE_CANTOPEN_DIRTYWAL (SQLITE_CANTOPEN | (5 << 8)) /* unused */
#define SQLITE_CANTOPEN_SYMLINK (SQLITE_CANTOPEN | (6 << 8))

#define SQLITE_CORRUPT_VTAB (SQLITE_CORRUPT | (1 << 8))
#define SQLITE_CORRUPT_SEQUENCE (SQLITE_CORRUPT | (2 << 8))
#define SQLITE_CORRUPT_INDEX (SQLITE_CORRUPT | (3 << 8))

#define SQLITE_READONLY_RECOVERY (SQLITE_READONLY | (1 << 8))
#define SQLITE_READONLY_CANTLOCK (SQLITE_READONLY | (2 << 8))
#define SQLITE_READONLY_ROLLBACK (SQLITE_READONLY | (3 << 8))
#define SQLITE_READONLY_DBMOVED (SQLITE_READONLY | (4 << 8))
#define SQLITE_READONLY_CANTINIT (SQLITE_READONLY | (5 << 8))
#define SQLITE_READONLY_DIRECTORY (SQLITE_READONLY | (6 << 8))

#define SQLITE_ABORT_ROLLBACK (SQLITE_ABORT | (2 << 8))

#define SQLITE_CONSTRAINT_CHECK (SQLITE_CONSTRAINT | (1 << 8))
#define SQLITE_CONSTRAINT_COMMITHOOK (SQLITE_CONSTRAINT | (2 << 8))
#define SQLITE_CONSTRAINT_FOREIGNKEY (SQLITE_CONSTRAINT | (3 << 8))
#define SQLITE_CONSTRAINT_FUNCTION (SQLITE_CONSTRAINT | (4 << 8))
#define SQLITE_CONSTRAINT_NOTNULL (SQLITE_CONSTRAINT | (5 << 8))
#define SQLITE_CONSTRAINT_PRIMARYKEY (SQLITE_CONSTRAINT | (6 << 8))
#define SQLITE_CONSTRAINT_TRIGGER (SQLITE_CONSTRAINT | (7 << 8))
#define SQLITE_CONSTRAINT_UNIQUE (SQLITE_CONSTRAINT | (8 << 8))
#define SQLITE_CONSTRAINT_VTAB (SQLITE_CONSTRAINT | (9 << 8))
#define SQLITE_CONSTRAINT_ROWID (SQLITE_CONSTRAINT | (10 << 8))
#define SQLITE_CONSTRAINT_PINNED (SQLITE_CONSTRAINT | (11 << 8))
#define SQLITE_CONSTRAINT_DATATYPE (SQLITE_CONSTRAINT | (12 << 8))

#define SQLITE_NOTICE_RECOVER_WAL (SQLITE_NOTICE | (1 << 8))
#define SQLITE_NOTICE_RECOVER_ROLLBACK (SQLITE_NOTICE | (2 << 8))

#define SQLITE_WARNING_AUTOINDEX (SQLITE_WARNING | (1 << 8))

#define SQLITE_AUTH_USER (SQLITE_AUTH | (1 << 8))

#define SQLITE_OK_LOAD_PERMANENTLY (SQLITE_OK | (1 << 8))
#define SQLITE_OK_SYMLINK (SQLITE_OK | (2 << 8))

/* ===================================================================== */
/* 3. Open flags, device capabilities, lock levels, sync flags           */
/* ===================================================================== */

/* Flags of sqlite3_open_v2() (the first group) and of sqlite3_vfs.xOpen
** (all of them: the MAIN_DB..SUPER_JOURNAL bits say what a file is for). */
#define SQLITE_OPEN_READONLY 0x00000001
#define SQLITE_OPEN_READWRITE 0x00000002
#define SQLITE_OPEN_CREATE 0x00000004
#define SQLITE_OPEN_DELETEONCLOSE 0x00000008 /* VFS only */
#define SQLITE_OPEN_EXCLUSIVE 0x00000010     /* VFS only */
#define SQLITE_OPEN_AUTOPROXY 0x00000020     /* VFS only */
#define SQLITE_OPEN_URI 0x00000040
#define SQLITE_OPEN_MEMORY 0x00000080
#define SQLITE_OPEN_MAIN_DB 0x00000100
#define SQLITE_OPEN_TEMP_DB 0x00000200
#define SQLITE_OPEN_TRANSIENT_DB 0x00000400
#define SQLITE_OPEN_MAIN_JOURNAL 0x00000800
#define SQLITE_OPEN_TEMP_JOURNAL 0x00001000
#define SQLITE_OPEN_SUBJOURNAL 0x00002000
#define SQLITE_OPEN_SUPER_JOURNAL 0x00004000
#define SQLITE_OPEN_NOMUTEX 0x00008000
#define SQLITE_OPEN_FULLMUTEX 0x00010000
#define SQLITE_OPEN_SHAREDCACHE 0x00020000
#define SQLITE_OPEN_PRIVATECACHE 0x00040000
#define SQLITE_OPEN_WAL 0x00080000
#define SQLITE_OPEN_NOFOLLOW 0x01000000
#define SQLITE_OPEN_EXRESCODE 0x02000000
/* Former name of SQLITE_OPEN_SUPER_JOURNAL. */
#define SQLITE_OPEN_MASTER_JOURNAL 0x00004000

/* What a file's device guarantees (sqlite3_io_methods.xDeviceCharacteristics). */
#define SQLITE_IOCAP_ATOMIC 0x00000001
#define SQLITE_IOCAP_ATOMIC512 0x00000002
#define SQLITE_IOCAP_ATOMIC1K 0x00000004
#define SQLITE_IOCAP_ATOMIC2K 0x00000008
#define SQLITE_IOCAP_ATOMIC4K 0x00000010
#define SQLITE_IOCAP_ATOMIC8K 0x00000020
#define SQLITE_IOCAP_ATOMIC16K 0x00000040
#define SQLITE_IOCAP_ATOMIC32K 0x00000080
#define SQLITE_IOCAP_ATOMIC64K 0x00000100
#define SQLITE_IOCAP_SAFE_APPEND 0x00000200
#define SQLITE_IOCAP_SEQUENTIAL 0x00000400
#define SQLITE_IOCAP_UNDELETABLE_WHEN_OPEN 0x00000800
#define SQLITE_IOCAP_POWERSAFE_OVERWRITE 0x00001000
#define SQLITE_IOCAP_IMMUTABLE 0x00002000
#define SQLITE_IOCAP_BATCH_ATOMIC 0x00004000

/* File lock levels, weakest first (xLock / xUnlock arguments). */
#define SQLITE_LOCK_NONE 0
#define SQLITE_LOCK_SHARED 1
#define SQLITE_LOCK_RESERVED 2
#define SQLITE_LOCK_PENDING 3
#define SQLITE_LOCK_EXCLUSIVE 4

/* xSync flags. */
#define SQLITE_SYNC_NORMAL 0x00002
#define SQLITE_SYNC_FULL 0x00003
#define SQLITE_SYNC_DATAONLY 0x00010

/* ===================================================================== */
/* 4. The operating-system layer                                         */
/* ===================================================================== */

/* An open file. A VFS allocates sqlite3_vfs.szOsFile bytes and lets its
** own structure begin with this one. */
typedef struct sqlite3_file sqlite3_file;
struct sqlite3_file {
  const struct sqlite3_io_methods* pMethods; /* null when the open failed */
};

/* The operations on an open file. Version 1 ends at xDeviceCharacteristics,
** version 2 adds shared memory, version 3 adds memory-mapped fetch. */
typedef struct sqlite3_io_methods sqlite3_io_methods;
struct sqlite3_io_methods {
  int iVersion;
  int (*xClose)(sqlite3_file*);
  int (*xRead)(sqlite3_file*, void* buf, int amount, sqlite3_int64 offset);
  int (*xWrite)(sqlite3_file*, const void* buf, int amount, sqlite3_int64 offset);
  int (*xTruncate)(sqlite3_file*, sqlite3_int64 size);
  int (*xSync)(sqlite3_file*, int flags);
  int (*xFileSize)(sqlite3_file*, sqlite3_int64* size_out);
  int (*xLock)(sqlite3_file*, int level);
  int (*xUnlock)(sqlite3_file*, int level);
  int (*xCheckReservedLock)(sqlite3_file*, int* result_out);
  int (*xFileControl)(sqlite3_file*, int op, void* arg);
  int (*xSectorSize)(sqlite3_file*);
  int (*xDeviceCharacteristics)(sqlite3_file*);
  /* version 2 */
  int (*xShmMap)(sqlite3_file*, int region, int region_size, int extend, void volatile** mapping);
  int (*xShmLock)(sqlite3_file*, int offset, int n, int flags);
  void (*xShmBarrier)(sqlite3_file*);
  int (*xShmUnmap)(sqlite3_file*, int delete_flag);
  /* version 3 */
  int (*xFetch)(sqlite3_file*, sqlite3_int64 offset, int amount, void** pp);
  int (*xUnfetch)(sqlite3_file*, sqlite3_int64 offset, void* p);
};

/* Opcodes of xFileControl and sqlite3_file_control(). */
#define SQLITE_FCNTL_LOCKSTATE 1
#define SQLITE_FCNTL_GET_LOCKPROXYFILE 2
#define SQLITE_FCNTL_SET_LOCKPROXYFILE 3
#define SQLITE_FCNTL_LAST_ERRNO 4
#define SQLITE_FCNTL_SIZE_HINT 5
#define SQLITE_FCNTL_CHUNK_SIZE 6
#define SQLITE_FCNTL_FILE_POINTER 7
#define SQLITE_FCNTL_SYNC_OMITTED 8
#define SQLITE_FCNTL_WIN32_AV_RETRY 9
#define SQLITE_FCNTL_PERSIST_WAL 10
#define SQLITE_FCNTL_OVERWRITE 11
#define SQLITE_FCNTL_VFSNAME 12
#define SQLITE_FCNTL_POWERSAFE_OVERWRITE 13
#define SQLITE_FCNTL_PRAGMA 14
#define SQLITE_FCNTL_BUSYHANDLER 15
#define SQLITE_FCNTL_TEMPFILENAME 16
#define SQLITE_FCNTL_MMAP_SIZE 18
#define SQLITE_FCNTL_TRACE 19
#define SQLITE_FCNTL_HAS_MOVED 20
#define SQLITE_FCNTL_SYNC 21
#define SQLITE_FCNTL_COMMIT_PHASETWO 22
#define SQLITE_FCNTL_WIN32_SET_HANDLE 23
#define SQLITE_FCNTL_WAL_BLOCK 24
#define SQLITE_FCNTL_ZIPVFS 25
#define SQLITE_FCNTL_RBU 26
#define SQLITE_FCNTL_VFS_POINTER 27
#define SQLITE_FCNTL_JOURNAL_POINTER 28
#define SQLITE_FCNTL_WIN32_GET_HANDLE 29
#define SQLITE_FCNTL_PDB 30
#define SQLITE_FCNTL_BEGIN_ATOMIC_WRITE 31
#define SQLITE_FCNTL_COMMIT_ATOMIC_WRITE 32
#define SQLITE_FCNTL_ROLLBACK_ATOMIC_WRITE 33
#define SQLITE_FCNTL_LOCK_TIMEOUT 34
#define SQLITE_FCNTL_DATA_VERSION 35
#define SQLITE_FCNTL_SIZE_LIMIT 36
#define SQLITE_FCNTL_CKPT_DONE 37
#define SQLITE_FCNTL_RESERVE_BYTES 38
#define SQLITE_FCNTL_CKPT_START 39
#define SQLITE_FCNTL_EXTERNAL_READER 40
#define SQLITE_FCNTL_CKSM_FILE 41
#define SQLITE_FCNTL_RESET_CACHE 42
/* Older spellings of three of the opcodes. */
#define SQLITE_GET_LOCKPROXYFILE SQLITE_FCNTL_GET_LOCKPROXYFILE
#define SQLITE_SET_LOCKPROXYFILE SQLITE_FCNTL_SET_LOCKPROXYFILE
#define SQLITE_LAST_ERRNO SQLITE_FCNTL_LAST_ERRNO

/* Opaque types used by the OS layer and by loadable extensions. */
typedef struct sqlite3_mutex sqlite3_mutex;
typedef struct sqlite3_api_routines sqlite3_api_routines;

/* A file name handed to xOpen; URI parameters may follow it in memory. */
typedef const char* sqlite3_filename;

/* A virtual file system: how the library reaches the operating system.
** Version 2 adds xCurrentTimeInt64, version 3 the system-call overrides. */
typedef struct sqlite3_vfs sqlite3_vfs;
typedef void (*sqlite3_syscall_ptr)(void);
struct sqlite3_vfs {
  int iVersion;
  int szOsFile;   /* size of this VFS's sqlite3_file subclass */
  int mxPathname; /* longest path name the VFS accepts */
  sqlite3_vfs* pNext;
  const char* zName;
  void* pAppData;
  int (*xOpen)(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags, int* out_flags);
  int (*xDelete)(sqlite3_vfs*, const char* name, int sync_dir);
  int (*xAccess)(sqlite3_vfs*, const char* name, int flags, int* result_out);
  int (*xFullPathname)(sqlite3_vfs*, const char* name, int out_size, char* out);
  void* (*xDlOpen)(sqlite3_vfs*, const char* filename);
  void (*xDlError)(sqlite3_vfs*, int size, char* message_out);
  void (*(*xDlSym)(sqlite3_vfs*, void* handle, const char* symbol))(void);
  void (*xDlClose)(sqlite3_vfs*, void* handle);
  int (*xRandomness)(sqlite3_vfs*, int size, char* out);
  int (*xSleep)(sqlite3_vfs*, int microseconds);
  int (*xCurrentTime)(sqlite3_vfs*, double* julian_day);
  int (*xGetLastError)(sqlite3_vfs*, int size, char* out);
  /* version 2 */
  int (*xCurrentTimeInt64)(sqlite3_vfs*, sqlite3_int64* julian_ms);
  /* version 3 */
  int (*xSetSystemCall)(sqlite3_vfs*, const char* name, sqlite3_syscall_ptr);
  sqlite3_syscall_ptr (*xGetSystemCall)(sqlite3_vfs*, const char* name);
  const char* (*xNextSystemCall)(sqlite3_vfs*, const char* name);
};

/* xAccess questions. */
#define SQLITE_ACCESS_EXISTS 0
#define SQLITE_ACCESS_READWRITE 1
#define SQLITE_ACCESS_READ 2

/* xShmLock flags and the number of shared-memory lock slots. */
#define SQLITE_SHM_UNLOCK 1
#define SQLITE_SHM_LOCK 2
#define SQLITE_SHM_SHARED 4
#define SQLITE_SHM_EXCLUSIVE 8
#define SQLITE_SHM_NLOCK 8

/* ===================================================================== */
/* 5. Library set-up                                                     */
/* ===================================================================== */

SQLITE_API int sqlite3_initialize(void);
SQLITE_API int sqlite3_shutdown(void);
SQLITE_API int sqlite3_os_init(void);
SQLITE_API int sqlite3_os_end(void);

/* Global options (before sqlite3_initialize) and per-connection options. */
SQLITE_API int sqlite3_config(int op, ...);
SQLITE_API int sqlite3_db_config(sqlite3*, int op, ...);

/* A replacement memory allocator (SQLITE_CONFIG_MALLOC). */
typedef struct sqlite3_mem_methods sqlite3_mem_methods;
struct sqlite3_mem_methods {
  void* (*xMalloc)(int size);
  void (*xFree)(void*);
  void* (*xRealloc)(void*, int size);
  int (*xSize)(void*);
  int (*xRoundup)(int size);
  int (*xInit)(void* app_data);
  void (*xShutdown)(void* app_data);
  void* pAppData;
};

/* sqlite3_config() options. */
#define SQLITE_CONFIG_SINGLETHREAD 1
#define SQLITE_CONFIG_MULTITHREAD 2
#define SQLITE_CONFIG_SERIALIZED 3
#define SQLITE_CONFIG_MALLOC 4
#define SQLITE_CONFIG_GETMALLOC 5
#define SQLITE_CONFIG_SCRATCH 6 /* no longer used */
#define SQLITE_CONFIG_PAGECACHE 7
#define SQLITE_CONFIG_HEAP 8
#define SQLITE_CONFIG_MEMSTATUS 9
#define SQLITE_CONFIG_MUTEX 10
#define SQLITE_CONFIG_GETMUTEX 11
/* 12 was retired */
#define SQLITE_CONFIG_LOOKASIDE 13
#define SQLITE_CONFIG_PCACHE 14    /* no longer used */
#define SQLITE_CONFIG_GETPCACHE 15 /* no longer used */
#define SQLITE_CONFIG_LOG 16
#define SQLITE_CONFIG_URI 17
#define SQLITE_CONFIG_PCACHE2 18
#define SQLITE_CONFIG_GETPCACHE2 19
#define SQLITE_CONFIG_COVERING_INDEX_SCAN 20
#define SQLITE_CONFIG_SQLLOG 21
#define SQLITE_CONFIG_MMAP_SIZE 22
#define SQLITE_CONFIG_WIN32_HEAPSIZE 23
#define SQLITE_CONFIG_PCACHE_HDRSZ 24
#define SQLITE_CONFIG_PMASZ 25
#define SQLITE_CONFIG_STMTJRNL_SPILL 26
#define SQLITE_CONFIG_SMALL_MALLOC 27
#define SQLITE_CONFIG_SORTERREF_SIZE 28
#define SQLITE_CONFIG_MEMDB_MAXSIZE 29

/* sqlite3_db_config() options. */
#define SQLITE_DBCONFIG_MAINDBNAME 1000
#define SQLITE_DBCONFIG_LOOKASIDE 1001
#define SQLITE_DBCONFIG_ENABLE_FKEY 1002
#define SQLITE_DBCONFIG_ENABLE_TRIGGER 1003
#define SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER 1004
#define SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION 1005
#define SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE 1006
#define SQLITE_DBCONFIG_ENABLE_QPSG 1007
#define SQLITE_DBCONFIG_TRIGGER_EQP 1008
#define SQLITE_DBCONFIG_RESET_DATABASE 1009
#define SQLITE_DBCONFIG_DEFENSIVE 1010
#define SQLITE_DBCONFIG_WRITABLE_SCHEMA 1011
#define SQLITE_DBCONFIG_LEGACY_ALTER_TABLE 1012
#define SQLITE_DBCONFIG_DQS_DML 1013
#define SQLITE_DBCONFIG_DQS_DDL 1014
#define SQLITE_DBCONFIG_ENABLE_VIEW 1015
#define SQLITE_DBCONFIG_LEGACY_FILE_FORMAT 1016
#define SQLITE_DBCONFIG_TRUSTED_SCHEMA 1017
#define SQLITE_DBCONFIG_MAX 1017 /* the largest option above */

/* ===================================================================== */
/* 6. Connections                                                        */
/* ===================================================================== */

SQLITE_API int sqlite3_extended_result_codes(sqlite3*, int onoff);

/* Row ids and change counters. */
SQLITE_API sqlite3_int64 sqlite3_last_insert_rowid(sqlite3*);
SQLITE_API void sqlite3_set_last_insert_rowid(sqlite3*, sqlite3_int64);
SQLITE_API int sqlite3_changes(sqlite3*);
SQLITE_API sqlite3_int64 sqlite3_changes64(sqlite3*);
SQLITE_API int sqlite3_total_changes(sqlite3*);
SQLITE_API sqlite3_int64 sqlite3_total_changes64(sqlite3*);

/* Asks running statements of the connection to stop soon. */
SQLITE_API void sqlite3_interrupt(sqlite3*);

/* 1 if the text ends with a complete SQL statement (semicolon-terminated). */
SQLITE_API int sqlite3_complete(const char* sql);
SQLITE_API int sqlite3_complete16(const void* sql);

/* What to do when a lock cannot be taken at once. */
SQLITE_API int sqlite3_busy_handler(sqlite3*, int (*)(void*, int), void*);
SQLITE_API int sqlite3_busy_timeout(sqlite3*, int ms);

/* The whole result of a text as one array of strings (legacy). */
SQLITE_API int sqlite3_get_table(sqlite3* db, const char* sql, char*** result, int* rows,
                                 int* columns, char** errmsg);
SQLITE_API void sqlite3_free_table(char** result);

/* Formatted strings in memory from sqlite3_malloc (mprintf, vmprintf) or in
** a caller's buffer (snprintf, vsnprintf; note the size comes first). */
SQLITE_API char* sqlite3_mprintf(const char*, ...);
SQLITE_API char* sqlite3_vmprintf(const char*, va_list);
SQLITE_API char* sqlite3_snprintf(int, char*, const char*, ...);
SQLITE_API char* sqlite3_vsnprintf(int, char*, const char*, va_list);

/* The library's allocator. */
SQLITE_API void* sqlite3_malloc(int);
SQLITE_API void* sqlite3_malloc64(sqlite3_uint64);
SQLITE_API void* sqlite3_realloc(void*, int);
SQLITE_API void* sqlite3_realloc64(void*, sqlite3_uint64);
SQLITE_API void sqlite3_free(void*);
SQLITE_API sqlite3_uint64 sqlite3_msize(void*);
SQLITE_API sqlite3_int64 sqlite3_memory_used(void);
SQLITE_API sqlite3_int64 sqlite3_memory_highwater(int reset);

/* Bytes from the library's pseudo-random generator. */
SQLITE_API void sqlite3_randomness(int n, void* out);

/* Compile-time access checks: the callback gets an action code and up to
** four strings, and answers SQLITE_OK, SQLITE_DENY or SQLITE_IGNORE. */
SQLITE_API int sqlite3_set_authorizer(sqlite3*,
                                      int (*xAuth)(void*, int, const char*, const char*,
                                                   const char*, const char*),
                                      void* user_data);
#define SQLITE_DENY 1
#define SQLITE_IGNORE 2

/* Authorizer action codes. The comment gives the 3rd and 4th arguments. */
#define SQLITE_CREATE_INDEX 1        /* index name, table name */
#define SQLITE_CREATE_TABLE 2        /* table name, null */
#define SQLITE_CREATE_TEMP_INDEX 3   /* index name, table name */
#define SQLITE_CREATE_TEMP_TABLE 4   /* table name, null */
#define SQLITE_CREATE_TEMP_TRIGGER 5 /* trigger name, table name */
#define SQLITE_CREATE_TEMP_VIEW 6    /* view name, null */
#define SQLITE_CREATE_TRIGGER 7      /* trigger name, table name */
#define SQLITE_CREATE_VIEW 8         /* view name, null */
#define SQLITE_DELETE 9              /* table name, null */
#define SQLITE_DROP_INDEX 10         /* index name, table name */
#define SQLITE_DROP_TABLE 11         /* table name, null */
#define SQLITE_DROP_TEMP_INDEX 12    /* index name, table name */
#define SQLITE_DROP_TEMP_TABLE 13    /* table name, null */
#define SQLITE_DROP_TEMP_TRIGGER 14  /* trigger name, table name */
#define SQLITE_DROP_TEMP_VIEW 15     /* view name, null */
#define SQLITE_DROP_TRIGGER 16       /* trigger name, table name */
#define SQLITE_DROP_VIEW 17          /* view name, null */
#define SQLITE_INSERT 18             /* table name, null */
#define SQLITE_PRAGMA 19             /* pragma name, first argument or null */
#define SQLITE_READ 20               /* table name, column name */
#define SQLITE_SELECT 21             /* null, null */
#define SQLITE_TRANSACTION 22        /* operation, null */
#define SQLITE_UPDATE 23             /* table name, column name */
#define SQLITE_ATTACH 24             /* file name, null */
#define SQLITE_DETACH 25             /* database name, null */
#define SQLITE_ALTER_TABLE 26        /* database name, table name */
#define SQLITE_REINDEX 27            /* index name, null */
#define SQLITE_ANALYZE 28            /* table name, null */
#define SQLITE_CREATE_VTABLE 29      /* table name, module name */
#define SQLITE_DROP_VTABLE 30        /* table name, module name */
#define SQLITE_FUNCTION 31           /* null, function name */
#define SQLITE_SAVEPOINT 32          /* operation, savepoint name */
#define SQLITE_COPY 0                /* no longer used */
#define SQLITE_RECURSIVE 33          /* null, null */

/* Legacy tracing (superseded by sqlite3_trace_v2). */
SQLITE_API SQLITE_DEPRECATED void* sqlite3_trace(sqlite3*, void (*xTrace)(void*, const char*),
                                                 void*);
SQLITE_API SQLITE_DEPRECATED void* sqlite3_profile(
    sqlite3*, void (*xProfile)(void*, const char*, sqlite3_uint64), void*);

/* Event mask bits of sqlite3_trace_v2. */
#define SQLITE_TRACE_STMT 0x01
#define SQLITE_TRACE_PROFILE 0x02
#define SQLITE_TRACE_ROW 0x04
#define SQLITE_TRACE_CLOSE 0x08

SQLITE_API int sqlite3_trace_v2(sqlite3*, unsigned mask,
                                int (*xCallback)(unsigned, void*, void*, void*), void* context);

/* Calls the callback every n virtual-machine steps; non-zero interrupts. */
SQLITE_API void sqlite3_progress_handler(sqlite3*, int n, int (*)(void*), void*);

/* Opening connections. */
SQLITE_API int sqlite3_open(const char* filename, sqlite3** db_out);
SQLITE_API int sqlite3_open16(const void* filename, sqlite3** db_out);
SQLITE_API int sqlite3_open_v2(const char* filename, sqlite3** db_out, int flags,
                               const char* vfs_name);

/* Query parameters of a URI file name, as seen by a VFS. */
SQLITE_API const char* sqlite3_uri_parameter(sqlite3_filename name, const char* param);
SQLITE_API int sqlite3_uri_boolean(sqlite3_filename name, const char* param, int fallback);
SQLITE_API sqlite3_int64 sqlite3_uri_int64(sqlite3_filename, const char*, sqlite3_int64);
SQLITE_API const char* sqlite3_uri_key(sqlite3_filename name, int n);

/* Related file names, as seen by a VFS. */
SQLITE_API const char* sqlite3_filename_database(sqlite3_filename);
SQLITE_API const char* sqlite3_filename_journal(sqlite3_filename);
SQLITE_API const char* sqlite3_filename_wal(sqlite3_filename);
SQLITE_API sqlite3_file* sqlite3_database_file_object(const char*);
SQLITE_API sqlite3_filename sqlite3_create_filename(const char* database, const char* journal,
                                                    const char* wal, int param_count,
                                                    const char** params);
SQLITE_API void sqlite3_free_filename(sqlite3_filename);

/* The most recent error of a connection. */
SQLITE_API int sqlite3_errcode(sqlite3* db);
SQLITE_API int sqlite3_extended_errcode(sqlite3* db);
SQLITE_API const char* sqlite3_errmsg(sqlite3*);
SQLITE_API const void* sqlite3_errmsg16(sqlite3*);
SQLITE_API const char* sqlite3_errstr(int);
SQLITE_API int sqlite3_error_offset(sqlite3* db);

/* A prepared statement (opaque). */
typedef struct sqlite3_stmt sqlite3_stmt;

/* Run-time limits per connection; a negative value only reads. */
SQLITE_API int sqlite3_limit(sqlite3*, int id, int new_value);

#define SQLITE_LIMIT_LENGTH 0
#define SQLITE_LIMIT_SQL_LENGTH 1
#define SQLITE_LIMIT_COLUMN 2
#define SQLITE_LIMIT_EXPR_DEPTH 3
#define SQLITE_LIMIT_COMPOUND_SELECT 4
#define SQLITE_LIMIT_VDBE_OP 5
#define SQLITE_LIMIT_FUNCTION_ARG 6
#define SQLITE_LIMIT_ATTACHED 7
#define SQLITE_LIMIT_LIKE_PATTERN_LENGTH 8
#define SQLITE_LIMIT_VARIABLE_NUMBER 9
#define SQLITE_LIMIT_TRIGGER_DEPTH 10
#define SQLITE_LIMIT_WORKER_THREADS 11

/* ===================================================================== */
/* 7. Statements                                                         */
/* ===================================================================== */

/* Flags of sqlite3_prepare_v3. */
#define SQLITE_PREPARE_PERSISTENT 0x01
#define SQLITE_PREPARE_NORMALIZE 0x02 /* accepted, has no effect */
#define SQLITE_PREPARE_NO_VTAB 0x04

/* Compile the first statement of a text. nbytes < 0 reads up to the NUL;
** *tail receives the first byte after the compiled statement. */
SQLITE_API int sqlite3_prepare(sqlite3* db, const char* sql, int nbytes, sqlite3_stmt** stmt_out,
                               const char** tail);
SQLITE_API int sqlite3_prepare_v2(sqlite3* db, const char* sql, int nbytes, sqlite3_stmt** stmt_out,
                                  const char** tail);
SQLITE_API int sqlite3_prepare_v3(sqlite3* db, const char* sql, int nbytes, unsigned int flags,
                                  sqlite3_stmt** stmt_out, const char** tail);
SQLITE_API int sqlite3_prepare16(sqlite3* db, const void* sql, int nbytes, sqlite3_stmt** stmt_out,
                                 const void** tail);
SQLITE_API int sqlite3_prepare16_v2(sqlite3* db, const void* sql, int nbytes,
                                    sqlite3_stmt** stmt_out, const void** tail);
SQLITE_API int sqlite3_prepare16_v3(sqlite3* db, const void* sql, int nbytes, unsigned int flags,
                                    sqlite3_stmt** stmt_out, const void** tail);

/* The statement's text: as written, and with bound parameters expanded. */
SQLITE_API const char* sqlite3_sql(sqlite3_stmt* stmt);
SQLITE_API char* sqlite3_expanded_sql(sqlite3_stmt* stmt);
#ifdef SQLITE_ENABLE_NORMALIZE
SQLITE_API const char* sqlite3_normalized_sql(sqlite3_stmt* stmt);
#endif

SQLITE_API int sqlite3_stmt_readonly(sqlite3_stmt* stmt);
SQLITE_API int sqlite3_stmt_isexplain(sqlite3_stmt* stmt);
SQLITE_API int sqlite3_stmt_busy(sqlite3_stmt*);

/* A dynamically typed value, and the context a user function runs in. */
typedef struct sqlite3_value sqlite3_value;
typedef struct sqlite3_context sqlite3_context;

/* Binding parameters (indices start at 1). The last pointer argument of the
** blob/text forms is a destructor, SQLITE_STATIC or SQLITE_TRANSIENT. */
SQLITE_API int sqlite3_bind_blob(sqlite3_stmt*, int, const void*, int n, void (*)(void*));
SQLITE_API int sqlite3_bind_blob64(sqlite3_stmt*, int, const void*, sqlite3_uint64,
                                   void (*)(void*));
SQLITE_API int sqlite3_bind_double(sqlite3_stmt*, int, double);
SQLITE_API int sqlite3_bind_int(sqlite3_stmt*, int, int);
SQLITE_API int sqlite3_bind_int64(sqlite3_stmt*, int, sqlite3_int64);
SQLITE_API int sqlite3_bind_null(sqlite3_stmt*, int);
SQLITE_API int sqlite3_bind_text(sqlite3_stmt*, int, const char*, int, void (*)(void*));
SQLITE_API int sqlite3_bind_text16(sqlite3_stmt*, int, const void*, int, void (*)(void*));
SQLITE_API int sqlite3_bind_text64(sqlite3_stmt*, int, const char*, sqlite3_uint64, void (*)(void*),
                                   unsigned char encoding);
SQLITE_API int sqlite3_bind_value(sqlite3_stmt*, int, const sqlite3_value*);
SQLITE_API int sqlite3_bind_pointer(sqlite3_stmt*, int, void*, const char*, void (*)(void*));
SQLITE_API int sqlite3_bind_zeroblob(sqlite3_stmt*, int, int n);
SQLITE_API int sqlite3_bind_zeroblob64(sqlite3_stmt*, int, sqlite3_uint64);
SQLITE_API int sqlite3_bind_parameter_count(sqlite3_stmt*);
SQLITE_API const char* sqlite3_bind_parameter_name(sqlite3_stmt*, int);
SQLITE_API int sqlite3_bind_parameter_index(sqlite3_stmt*, const char* name);
SQLITE_API int sqlite3_clear_bindings(sqlite3_stmt*);

/* Result columns: count, names, declared types and origins. */
SQLITE_API int sqlite3_column_count(sqlite3_stmt* stmt);
SQLITE_API const char* sqlite3_column_name(sqlite3_stmt*, int n);
SQLITE_API const void* sqlite3_column_name16(sqlite3_stmt*, int n);
SQLITE_API const char* sqlite3_column_database_name(sqlite3_stmt*, int);
SQLITE_API const void* sqlite3_column_database_name16(sqlite3_stmt*, int);
SQLITE_API const char* sqlite3_column_table_name(sqlite3_stmt*, int);
SQLITE_API const void* sqlite3_column_table_name16(sqlite3_stmt*, int);
SQLITE_API const char* sqlite3_column_origin_name(sqlite3_stmt*, int);
SQLITE_API const void* sqlite3_column_origin_name16(sqlite3_stmt*, int);
SQLITE_API const char* sqlite3_column_decltype(sqlite3_stmt*, int);
SQLITE_API const void* sqlite3_column_decltype16(sqlite3_stmt*, int);

/* Runs the statement to its next row (SQLITE_ROW) or to the end. */
SQLITE_API int sqlite3_step(sqlite3_stmt*);
SQLITE_API int sqlite3_data_count(sqlite3_stmt* stmt);

/* Fundamental datatypes, as sqlite3_column_type / sqlite3_value_type say. */
#define SQLITE_INTEGER 1
#define SQLITE_FLOAT 2
#define SQLITE_BLOB 4
#define SQLITE_NULL 5
#ifdef SQLITE_TEXT
#undef SQLITE_TEXT
#else
#define SQLITE_TEXT 3
#endif
#define SQLITE3_TEXT 3

/* Reading a column of the current row (columns start at 0). */
SQLITE_API const void* sqlite3_column_blob(sqlite3_stmt*, int col);
SQLITE_API double sqlite3_column_double(sqlite3_stmt*, int col);
SQLITE_API int sqlite3_column_int(sqlite3_stmt*, int col);
SQLITE_API sqlite3_int64 sqlite3_column_int64(sqlite3_stmt*, int col);
SQLITE_API const unsigned char* sqlite3_column_text(sqlite3_stmt*, int col);
SQLITE_API const void* sqlite3_column_text16(sqlite3_stmt*, int col);
SQLITE_API sqlite3_value* sqlite3_column_value(sqlite3_stmt*, int col);
SQLITE_API int sqlite3_column_bytes(sqlite3_stmt*, int col);
SQLITE_API int sqlite3_column_bytes16(sqlite3_stmt*, int col);
SQLITE_API int sqlite3_column_type(sqlite3_stmt*, int col);

SQLITE_API int sqlite3_finalize(sqlite3_stmt* stmt);
SQLITE_API int sqlite3_reset(sqlite3_stmt* stmt);

/* ===================================================================== */
/* 8. Values, user functions, collations                                 */
/* ===================================================================== */

/* Registering scalar, aggregate and window functions. */
SQLITE_API int sqlite3_create_function(sqlite3* db, const char* name, int nargs, int text_rep,
                                       void* app,
                                       void (*xFunc)(sqlite3_context*, int, sqlite3_value**),
                                       void (*xStep)(sqlite3_context*, int, sqlite3_value**),
                                       void (*xFinal)(sqlite3_context*));
SQLITE_API int sqlite3_create_function16(sqlite3* db, const void* name, int nargs, int text_rep,
                                         void* app,
                                         void (*xFunc)(sqlite3_context*, int, sqlite3_value**),
                                         void (*xStep)(sqlite3_context*, int, sqlite3_value**),
                                         void (*xFinal)(sqlite3_context*));
SQLITE_API int sqlite3_create_function_v2(sqlite3* db, const char* name, int nargs, int text_rep,
                                          void* app,
                                          void (*xFunc)(sqlite3_context*, int, sqlite3_value**),
                                          void (*xStep)(sqlite3_context*, int, sqlite3_value**),
                                          void (*xFinal)(sqlite3_context*),
                                          void (*xDestroy)(void*));
SQLITE_API int sqlite3_create_window_function(
    sqlite3* db, const char* name, int nargs, int text_rep, void* app,
    void (*xStep)(sqlite3_context*, int, sqlite3_value**), void (*xFinal)(sqlite3_context*),
    void (*xValue)(sqlite3_context*), void (*xInverse)(sqlite3_context*, int, sqlite3_value**),
    void (*xDestroy)(void*));

/* Text encodings. */
#define SQLITE_UTF8 1
#define SQLITE_UTF16LE 2
#define SQLITE_UTF16BE 3
#define SQLITE_UTF16 4 /* native byte order */
#define SQLITE_ANY 5   /* no longer used */
#define SQLITE_UTF16_ALIGNED 8

/* Function flags, or-ed into text_rep. */
#define SQLITE_DETERMINISTIC 0x000000800
#define SQLITE_DIRECTONLY 0x000080000
#define SQLITE_SUBTYPE 0x000100000
#define SQLITE_INNOCUOUS 0x000200000

/* Interfaces kept only so that old programs still link. */
#ifndef SQLITE_OMIT_DEPRECATED
SQLITE_API SQLITE_DEPRECATED int sqlite3_aggregate_count(sqlite3_context*);
SQLITE_API SQLITE_DEPRECATED int sqlite3_expired(sqlite3_stmt*);
SQLITE_API SQLITE_DEPRECATED int sqlite3_transfer_bindings(sqlite3_stmt*, sqlite3_stmt*);
SQLITE_API SQLITE_DEPRECATED int sqlite3_global_recover(void);
SQLITE_API SQLITE_DEPRECATED void sqlite3_thread_cleanup(void);
SQLITE_API SQLITE_DEPRECATED int sqlite3_memory_alarm(void (*)(void*, sqlite3_int64, int), void*,
                                                      sqlite3_int64);
#endif

/* Reading function arguments and other protected values. */
SQLITE_API const void* sqlite3_value_blob(sqlite3_value*);
SQLITE_API double sqlite3_value_double(sqlite3_value*);
SQLITE_API int sqlite3_value_int(sqlite3_value*);
SQLITE_API sqlite3_int64 sqlite3_value_int64(sqlite3_value*);
SQLITE_API void* sqlite3_value_pointer(sqlite3_value*, const char*);
SQLITE_API const unsigned char* sqlite3_value_text(sqlite3_value*);
SQLITE_API const void* sqlite3_value_text16(sqlite3_value*);
SQLITE_API const void* sqlite3_value_text16le(sqlite3_value*);
SQLITE_API const void* sqlite3_value_text16be(sqlite3_value*);
SQLITE_API int sqlite3_value_bytes(sqlite3_value*);
SQLITE_API int sqlite3_value_bytes16(sqlite3_value*);
SQLITE_API int sqlite3_value_type(sqlite3_value*);
SQLITE_API int sqlite3_value_numeric_type(sqlite3_value*);
SQLITE_API int sqlite3_value_nochange(sqlite3_value*);
SQLITE_API int sqlite3_value_frombind(sqlite3_value*);
SQLITE_API int sqlite3_value_encoding(sqlite3_value*);
SQLITE_API unsigned int sqlite3_value_subtype(sqlite3_value*);
SQLITE_API sqlite3_value* sqlite3_value_dup(const sqlite3_value*);
SQLITE_API void sqlite3_value_free(sqlite3_value*);

/* State of a running user function. */
SQLITE_API void* sqlite3_aggregate_context(sqlite3_context*, int nbytes);
SQLITE_API void* sqlite3_user_data(sqlite3_context*);
SQLITE_API sqlite3* sqlite3_context_db_handle(sqlite3_context*);
SQLITE_API void* sqlite3_get_auxdata(sqlite3_context*, int n);
SQLITE_API void sqlite3_set_auxdata(sqlite3_context*, int n, void*, void (*)(void*));

/* Destructor arguments: the memory is constant (STATIC) or must be copied
** before the call returns (TRANSIENT). */
typedef void (*sqlite3_destructor_type)(void*);
#define SQLITE_STATIC ((sqlite3_destructor_type)0)
#define SQLITE_TRANSIENT ((sqlite3_destructor_type)-1)

/* Setting the result of a user function. */
SQLITE_API void sqlite3_result_blob(sqlite3_context*, const void*, int, void (*)(void*));
SQLITE_API void sqlite3_result_blob64(sqlite3_context*, const void*, sqlite3_uint64,
                                      void (*)(void*));
SQLITE_API void sqlite3_result_double(sqlite3_context*, double);
SQLITE_API void sqlite3_result_error(sqlite3_context*, const char*, int);
SQLITE_API void sqlite3_result_error16(sqlite3_context*, const void*, int);
SQLITE_API void sqlite3_result_error_toobig(sqlite3_context*);
SQLITE_API void sqlite3_result_error_nomem(sqlite3_context*);
SQLITE_API void sqlite3_result_error_code(sqlite3_context*, int);
SQLITE_API void sqlite3_result_int(sqlite3_context*, int);
SQLITE_API void sqlite3_result_int64(sqlite3_context*, sqlite3_int64);
SQLITE_API void sqlite3_result_null(sqlite3_context*);
SQLITE_API void sqlite3_result_text(sqlite3_context*, const char*, int, void (*)(void*));
SQLITE_API void sqlite3_result_text64(sqlite3_context*, const char*, sqlite3_uint64,
                                      void (*)(void*), unsigned char encoding);
SQLITE_API void sqlite3_result_text16(sqlite3_context*, const void*, int, void (*)(void*));
SQLITE_API void sqlite3_result_text16le(sqlite3_context*, const void*, int, void (*)(void*));
SQLITE_API void sqlite3_result_text16be(sqlite3_context*, const void*, int, void (*)(void*));
SQLITE_API void sqlite3_result_value(sqlite3_context*, sqlite3_value*);
SQLITE_API void sqlite3_result_pointer(sqlite3_context*, void*, const char*, void (*)(void*));
SQLITE_API void sqlite3_result_zeroblob(sqlite3_context*, int n);
SQLITE_API int sqlite3_result_zeroblob64(sqlite3_context*, sqlite3_uint64 n);
SQLITE_API void sqlite3_result_subtype(sqlite3_context*, unsigned int);

/* Registering collating sequences, and a hook for missing ones. */
SQLITE_API int sqlite3_create_collation(sqlite3*, const char* name, int text_rep, void* arg,
                                        int (*xCompare)(void*, int, const void*, int, const void*));
SQLITE_API int sqlite3_create_collation_v2(sqlite3*, const char* name, int text_rep, void* arg,
                                           int (*xCompare)(void*, int, const void*, int,
                                                           const void*),
                                           void (*xDestroy)(void*));
SQLITE_API int sqlite3_create_collation16(sqlite3*, const void* name, int text_rep, void* arg,
                                          int (*xCompare)(void*, int, const void*, int,
                                                          const void*));
SQLITE_API int sqlite3_collation_needed(sqlite3*, void*,
                                        void (*)(void*, sqlite3*, int text_rep, const char*));
SQLITE_API int sqlite3_collation_needed16(sqlite3*, void*,
                                          void (*)(void*, sqlite3*, int text_rep, const void*));

#ifdef SQLITE_ENABLE_CEROD
SQLITE_API void sqlite3_activate_cerod(const char* passphrase);
#endif

/* Sleeps at least the given number of milliseconds. */
SQLITE_API int sqlite3_sleep(int);

/* Directories for temporary files and for relative names (legacy globals). */
SQLITE_API SQLITE_EXTERN char* sqlite3_temp_directory;
SQLITE_API SQLITE_EXTERN char* sqlite3_data_directory;

/* Windows-only directory setters; other platforms do not define them. */
SQLITE_API int sqlite3_win32_set_directory(unsigned long type, void* value);
SQLITE_API int sqlite3_win32_set_directory8(unsigned long type, const char* value);
SQLITE_API int sqlite3_win32_set_directory16(unsigned long type, const void* value);
#define SQLITE_WIN32_DATA_DIRECTORY_TYPE 1
#define SQLITE_WIN32_TEMP_DIRECTORY_TYPE 2

/* Connection state. */
SQLITE_API int sqlite3_get_autocommit(sqlite3*);
SQLITE_API sqlite3* sqlite3_db_handle(sqlite3_stmt*);
SQLITE_API const char* sqlite3_db_name(sqlite3* db, int n);
SQLITE_API sqlite3_filename sqlite3_db_filename(sqlite3* db, const char* schema);
SQLITE_API int sqlite3_db_readonly(sqlite3* db, const char* schema);
SQLITE_API int sqlite3_txn_state(sqlite3*, const char* schema);

/* Answers of sqlite3_txn_state. */
#define SQLITE_TXN_NONE 0
#define SQLITE_TXN_READ 1
#define SQLITE_TXN_WRITE 2

/* Walks the statements of a connection (null starts the walk). */
SQLITE_API sqlite3_stmt* sqlite3_next_stmt(sqlite3* db, sqlite3_stmt* stmt);

/* Transaction and change hooks; each returns the previous user argument. */
SQLITE_API void* sqlite3_commit_hook(sqlite3*, int (*)(void*), void*);
SQLITE_API void* sqlite3_rollback_hook(sqlite3*, void (*)(void*), void*);
SQLITE_API int sqlite3_autovacuum_pages(sqlite3* db,
                                        unsigned int (*)(void*, const char*, unsigned int,
                                                         unsigned int, unsigned int),
                                        void*, void (*)(void*));
SQLITE_API void* sqlite3_update_hook(sqlite3*,
                                     void (*)(void*, int, char const*, char const*, sqlite3_int64),
                                     void*);

/* Memory management. */
SQLITE_API int sqlite3_enable_shared_cache(int);
SQLITE_API int sqlite3_release_memory(int);
SQLITE_API int sqlite3_db_release_memory(sqlite3*);
SQLITE_API sqlite3_int64 sqlite3_soft_heap_limit64(sqlite3_int64 n);
SQLITE_API sqlite3_int64 sqlite3_hard_heap_limit64(sqlite3_int64 n);
SQLITE_API SQLITE_DEPRECATED void sqlite3_soft_heap_limit(int n);

/* Declared properties of one table column. */
SQLITE_API int sqlite3_table_column_metadata(sqlite3* db, const char* schema, const char* table,
                                             const char* column, char const** data_type,
                                             char const** collation, int* not_null,
                                             int* primary_key, int* autoincrement);

/* Loadable extensions. */
SQLITE_API int sqlite3_load_extension(sqlite3* db, const char* file, const char* entry_point,
                                      char** errmsg);
SQLITE_API int sqlite3_enable_load_extension(sqlite3* db, int onoff);
SQLITE_API int sqlite3_auto_extension(void (*xEntryPoint)(void));
SQLITE_API int sqlite3_cancel_auto_extension(void (*xEntryPoint)(void));
SQLITE_API void sqlite3_reset_auto_extension(void);

/* ===================================================================== */
/* 9. Virtual tables                                                     */
/* ===================================================================== */

typedef struct sqlite3_vtab sqlite3_vtab;
typedef struct sqlite3_index_info sqlite3_index_info;
typedef struct sqlite3_vtab_cursor sqlite3_vtab_cursor;
typedef struct sqlite3_module sqlite3_module;

/* The methods of a virtual-table implementation. Version 2 adds the
** savepoint methods, version 3 adds xShadowName. */
struct sqlite3_module {
  int iVersion;
  int (*xCreate)(sqlite3*, void* aux, int argc, const char* const* argv, sqlite3_vtab** vtab_out,
                 char**);
  int (*xConnect)(sqlite3*, void* aux, int argc, const char* const* argv, sqlite3_vtab** vtab_out,
                  char**);
  int (*xBestIndex)(sqlite3_vtab* vtab, sqlite3_index_info*);
  int (*xDisconnect)(sqlite3_vtab* vtab);
  int (*xDestroy)(sqlite3_vtab* vtab);
  int (*xOpen)(sqlite3_vtab* vtab, sqlite3_vtab_cursor** cursor_out);
  int (*xClose)(sqlite3_vtab_cursor*);
  int (*xFilter)(sqlite3_vtab_cursor*, int idx_num, const char* idx_str, int argc,
                 sqlite3_value** argv);
  int (*xNext)(sqlite3_vtab_cursor*);
  int (*xEof)(sqlite3_vtab_cursor*);
  int (*xColumn)(sqlite3_vtab_cursor*, sqlite3_context*, int);
  int (*xRowid)(sqlite3_vtab_cursor*, sqlite3_int64* rowid_out);
  int (*xUpdate)(sqlite3_vtab*, int, sqlite3_value**, sqlite3_int64*);
  int (*xBegin)(sqlite3_vtab* vtab);
  int (*xSync)(sqlite3_vtab* vtab);
  int (*xCommit)(sqlite3_vtab* vtab);
  int (*xRollback)(sqlite3_vtab* vtab);
  int (*xFindFunction)(sqlite3_vtab* vtab, int nargs, const char* name,
                       void (**func_out)(sqlite3_context*, int, sqlite3_value**), void** arg_out);
  int (*xRename)(sqlite3_vtab* vtab, const char* new_name);
  /* version 2 */
  int (*xSavepoint)(sqlite3_vtab* vtab, int);
  int (*xRelease)(sqlite3_vtab* vtab, int);
  int (*xRollbackTo)(sqlite3_vtab* vtab, int);
  /* version 3 */
  int (*xShadowName)(const char*);
};

/* The planner's question to xBestIndex (inputs) and the answer (outputs). */
struct sqlite3_index_info {
  /* inputs */
  int nConstraint;
  struct sqlite3_index_constraint {
    int iColumn;          /* constrained column; -1 for the rowid */
    unsigned char op;     /* one of SQLITE_INDEX_CONSTRAINT_* */
    unsigned char usable; /* true if the constraint can be used */
    int iTermOffset;      /* internal */
  } * aConstraint;
  int nOrderBy;
  struct sqlite3_index_orderby {
    int iColumn;
    unsigned char desc;
  } * aOrderBy;
  /* outputs */
  struct sqlite3_index_constraint_usage {
    int argvIndex;      /* position of the value in xFilter's argv, from 1 */
    unsigned char omit; /* the constraint needs no re-check */
  } * aConstraintUsage;
  int idxNum;
  char* idxStr;
  int needToFreeIdxStr;
  int orderByConsumed;
  double estimatedCost;
  sqlite3_int64 estimatedRows;
  int idxFlags;
  sqlite3_uint64 colUsed;
};

/* sqlite3_index_info.idxFlags bits. */
#define SQLITE_INDEX_SCAN_UNIQUE 1

/* Constraint operators of sqlite3_index_info.aConstraint[].op. */
#define SQLITE_INDEX_CONSTRAINT_EQ 2
#define SQLITE_INDEX_CONSTRAINT_GT 4
#define SQLITE_INDEX_CONSTRAINT_LE 8
#define SQLITE_INDEX_CONSTRAINT_LT 16
#define SQLITE_INDEX_CONSTRAINT_GE 32
#define SQLITE_INDEX_CONSTRAINT_MATCH 64
#define SQLITE_INDEX_CONSTRAINT_LIKE 65
#define SQLITE_INDEX_CONSTRAINT_GLOB 66
#define SQLITE_INDEX_CONSTRAINT_REGEXP 67
#define SQLITE_INDEX_CONSTRAINT_NE 68
#define SQLITE_INDEX_CONSTRAINT_ISNOT 69
#define SQLITE_INDEX_CONSTRAINT_ISNOTNULL 70
#define SQLITE_INDEX_CONSTRAINT_ISNULL 71
#define SQLITE_INDEX_CONSTRAINT_IS 72
#define SQLITE_INDEX_CONSTRAINT_LIMIT 73
#define SQLITE_INDEX_CONSTRAINT_OFFSET 74
#define SQLITE_INDEX_CONSTRAINT_FUNCTION 150

SQLITE_API int sqlite3_create_module(sqlite3* db, const char* name, const sqlite3_module* module,
                                     void* client_data);
SQLITE_API int sqlite3_create_module_v2(sqlite3* db, const char* name, const sqlite3_module* module,
                                        void* client_data, void (*xDestroy)(void*));
SQLITE_API int sqlite3_drop_modules(sqlite3* db, const char** keep);

/* Base classes of a virtual-table instance and of its cursors. */
struct sqlite3_vtab {
  const sqlite3_module* pModule;
  int nRef; /* no longer used */
  char* zErrMsg;
};
struct sqlite3_vtab_cursor {
  sqlite3_vtab* pVtab;
};

SQLITE_API int sqlite3_declare_vtab(sqlite3*, const char* sql);
SQLITE_API int sqlite3_overload_function(sqlite3*, const char* name, int nargs);

/* ===================================================================== */
/* 10. Incremental blob I/O, VFS registry, mutexes                       */
/* ===================================================================== */

typedef struct sqlite3_blob sqlite3_blob;

SQLITE_API int sqlite3_blob_open(sqlite3*, const char* schema, const char* table,
                                 const char* column, sqlite3_int64 rowid, int flags,
                                 sqlite3_blob** blob_out);
SQLITE_API int sqlite3_blob_reopen(sqlite3_blob*, sqlite3_int64);
SQLITE_API int sqlite3_blob_close(sqlite3_blob*);
SQLITE_API int sqlite3_blob_bytes(sqlite3_blob*);
SQLITE_API int sqlite3_blob_read(sqlite3_blob*, void* out, int n, int offset);
SQLITE_API int sqlite3_blob_write(sqlite3_blob*, const void* in, int n, int offset);

SQLITE_API sqlite3_vfs* sqlite3_vfs_find(const char* name);
SQLITE_API int sqlite3_vfs_register(sqlite3_vfs*, int make_default);
SQLITE_API int sqlite3_vfs_unregister(sqlite3_vfs*);

SQLITE_API sqlite3_mutex* sqlite3_mutex_alloc(int);
SQLITE_API void sqlite3_mutex_free(sqlite3_mutex*);
SQLITE_API void sqlite3_mutex_enter(sqlite3_mutex*);
SQLITE_API int sqlite3_mutex_try(sqlite3_mutex*);
SQLITE_API void sqlite3_mutex_leave(sqlite3_mutex*);

/* A replacement mutex implementation (SQLITE_CONFIG_MUTEX). */
typedef struct sqlite3_mutex_methods sqlite3_mutex_methods;
struct sqlite3_mutex_methods {
  int (*xMutexInit)(void);
  int (*xMutexEnd)(void);
  sqlite3_mutex* (*xMutexAlloc)(int);
  void (*xMutexFree)(sqlite3_mutex*);
  void (*xMutexEnter)(sqlite3_mutex*);
  int (*xMutexTry)(sqlite3_mutex*);
  void (*xMutexLeave)(sqlite3_mutex*);
  int (*xMutexHeld)(sqlite3_mutex*);
  int (*xMutexNotheld)(sqlite3_mutex*);
};

/* Debug-build assertions about mutex ownership. */
#ifndef NDEBUG
SQLITE_API int sqlite3_mutex_held(sqlite3_mutex*);
SQLITE_API int sqlite3_mutex_notheld(sqlite3_mutex*);
#endif

/* Mutex kinds for sqlite3_mutex_alloc. Values from 2 up name static mutexes. */
#define SQLITE_MUTEX_FAST 0
#define SQLITE_MUTEX_RECURSIVE 1
#define SQLITE_MUTEX_STATIC_MAIN 2
#define SQLITE_MUTEX_STATIC_MEM 3
#define SQLITE_MUTEX_STATIC_MEM2 4 /* no longer used */
#define SQLITE_MUTEX_STATIC_OPEN 4
#define SQLITE_MUTEX_STATIC_PRNG 5
#define SQLITE_MUTEX_STATIC_LRU 6
#define SQLITE_MUTEX_STATIC_LRU2 7 /* no longer used */
#define SQLITE_MUTEX_STATIC_PMEM 7
#define SQLITE_MUTEX_STATIC_APP1 8
#define SQLITE_MUTEX_STATIC_APP2 9
#define SQLITE_MUTEX_STATIC_APP3 10
#define SQLITE_MUTEX_STATIC_VFS1 11
#define SQLITE_MUTEX_STATIC_VFS2 12
#define SQLITE_MUTEX_STATIC_VFS3 13
/* Former name of SQLITE_MUTEX_STATIC_MAIN. */
#define SQLITE_MUTEX_STATIC_MASTER 2

SQLITE_API sqlite3_mutex* sqlite3_db_mutex(sqlite3*);

/* Passes an opcode straight to the xFileControl of a database's file. */
SQLITE_API int sqlite3_file_control(sqlite3*, const char* schema, int op, void*);

/* ===================================================================== */
/* 11. Test control, keywords, dynamic strings, status counters          */
/* ===================================================================== */

SQLITE_API int sqlite3_test_control(int op, ...);

#define SQLITE_TESTCTRL_FIRST 5
#define SQLITE_TESTCTRL_PRNG_SAVE 5
#define SQLITE_TESTCTRL_PRNG_RESTORE 6
#define SQLITE_TESTCTRL_PRNG_RESET 7 /* no longer used */
#define SQLITE_TESTCTRL_BITVEC_TEST 8
#define SQLITE_TESTCTRL_FAULT_INSTALL 9
#define SQLITE_TESTCTRL_BENIGN_MALLOC_HOOKS 10
#define SQLITE_TESTCTRL_PENDING_BYTE 11
#define SQLITE_TESTCTRL_ASSERT 12
#define SQLITE_TESTCTRL_ALWAYS 13
#define SQLITE_TESTCTRL_RESERVE 14 /* no longer used */
#define SQLITE_TESTCTRL_OPTIMIZATIONS 15
#define SQLITE_TESTCTRL_ISKEYWORD 16     /* no longer used */
#define SQLITE_TESTCTRL_SCRATCHMALLOC 17 /* no longer used */
#define SQLITE_TESTCTRL_INTERNAL_FUNCTIONS 17
#define SQLITE_TESTCTRL_LOCALTIME_FAULT 18
#define SQLITE_TESTCTRL_EXPLAIN_STMT 19 /* no longer used */
#define SQLITE_TESTCTRL_ONCE_RESET_THRESHOLD 19
#define SQLITE_TESTCTRL_NEVER_CORRUPT 20
#define SQLITE_TESTCTRL_VDBE_COVERAGE 21
#define SQLITE_TESTCTRL_BYTEORDER 22
#define SQLITE_TESTCTRL_ISINIT 23
#define SQLITE_TESTCTRL_SORTER_MMAP 24
#define SQLITE_TESTCTRL_IMPOSTER 25
#define SQLITE_TESTCTRL_PARSER_COVERAGE 26
#define SQLITE_TESTCTRL_RESULT_INTREAL 27
#define SQLITE_TESTCTRL_PRNG_SEED 28
#define SQLITE_TESTCTRL_EXTRA_SCHEMA_CHECKS 29
#define SQLITE_TESTCTRL_SEEK_COUNT 30
#define SQLITE_TESTCTRL_TRACEFLAGS 31
#define SQLITE_TESTCTRL_TUNE 32
#define SQLITE_TESTCTRL_LOGEST 33
#define SQLITE_TESTCTRL_LAST 33 /* the largest opcode above */

/* The SQL keywords the parser knows. */
SQLITE_API int sqlite3_keyword_count(void);
SQLITE_API int sqlite3_keyword_name(int, const char**, int*);
SQLITE_API int sqlite3_keyword_check(const char*, int);

/* A growable string built with printf-style appends. */
typedef struct sqlite3_str sqlite3_str;

SQLITE_API sqlite3_str* sqlite3_str_new(sqlite3*);
SQLITE_API char* sqlite3_str_finish(sqlite3_str*);
SQLITE_API void sqlite3_str_appendf(sqlite3_str*, const char* format, ...);
SQLITE_API void sqlite3_str_vappendf(sqlite3_str*, const char* format, va_list);
SQLITE_API void sqlite3_str_append(sqlite3_str*, const char* in, int n);
SQLITE_API void sqlite3_str_appendall(sqlite3_str*, const char* in);
SQLITE_API void sqlite3_str_appendchar(sqlite3_str*, int n, char c);
SQLITE_API void sqlite3_str_reset(sqlite3_str*);
SQLITE_API int sqlite3_str_errcode(sqlite3_str*);
SQLITE_API int sqlite3_str_length(sqlite3_str*);
SQLITE_API char* sqlite3_str_value(sqlite3_str*);

/* Library-wide counters. */
SQLITE_API int sqlite3_status(int op, int* current, int* highwater, int reset);
SQLITE_API int sqlite3_status64(int op, sqlite3_int64* current, sqlite3_int64* highwater,
                                int reset);

#define SQLITE_STATUS_MEMORY_USED 0
#define SQLITE_STATUS_PAGECACHE_USED 1
#define SQLITE_STATUS_PAGECACHE_OVERFLOW 2
#define SQLITE_STATUS_SCRATCH_USED 3     /* no longer used */
#define SQLITE_STATUS_SCRATCH_OVERFLOW 4 /* no longer used */
#define SQLITE_STATUS_MALLOC_SIZE 5
#define SQLITE_STATUS_PARSER_STACK 6
#define SQLITE_STATUS_PAGECACHE_SIZE 7
#define SQLITE_STATUS_SCRATCH_SIZE 8 /* no longer used */
#define SQLITE_STATUS_MALLOC_COUNT 9

/* Per-connection counters. */
SQLITE_API int sqlite3_db_status(sqlite3*, int op, int* current, int* highwater, int reset);

#define SQLITE_DBSTATUS_LOOKASIDE_USED 0
#define SQLITE_DBSTATUS_CACHE_USED 1
#define SQLITE_DBSTATUS_SCHEMA_USED 2
#define SQLITE_DBSTATUS_STMT_USED 3
#define SQLITE_DBSTATUS_LOOKASIDE_HIT 4
#define SQLITE_DBSTATUS_LOOKASIDE_MISS_SIZE 5
#define SQLITE_DBSTATUS_LOOKASIDE_MISS_FULL 6
#define SQLITE_DBSTATUS_CACHE_HIT 7
#define SQLITE_DBSTATUS_CACHE_MISS 8
#define SQLITE_DBSTATUS_CACHE_WRITE 9
#define SQLITE_DBSTATUS_DEFERRED_FKS 10
#define SQLITE_DBSTATUS_CACHE_USED_SHARED 11
#define SQLITE_DBSTATUS_CACHE_SPILL 12
#define SQLITE_DBSTATUS_MAX 12 /* the largest option above */

/* Per-statement counters. */
SQLITE_API int sqlite3_stmt_status(sqlite3_stmt*, int op, int reset);

#define SQLITE_STMTSTATUS_FULLSCAN_STEP 1
#define SQLITE_STMTSTATUS_SORT 2
#define SQLITE_STMTSTATUS_AUTOINDEX 3
#define SQLITE_STMTSTATUS_VM_STEP 4
#define SQLITE_STMTSTATUS_REPREPARE 5
#define SQLITE_STMTSTATUS_RUN 6
#define SQLITE_STMTSTATUS_FILTER_MISS 7
#define SQLITE_STMTSTATUS_FILTER_HIT 8
#define SQLITE_STMTSTATUS_MEMUSED 99

/* ===================================================================== */
/* 12. Page cache plug-ins, backup, unlock notification, string helpers  */
/* ===================================================================== */

typedef struct sqlite3_pcache sqlite3_pcache;

/* One cached page: its buffer and the library's extra bytes. */
typedef struct sqlite3_pcache_page sqlite3_pcache_page;
struct sqlite3_pcache_page {
  void* pBuf;
  void* pExtra;
};

/* A replacement page cache (SQLITE_CONFIG_PCACHE2). */
typedef struct sqlite3_pcache_methods2 sqlite3_pcache_methods2;
struct sqlite3_pcache_methods2 {
  int iVersion;
  void* pArg;
  int (*xInit)(void*);
  void (*xShutdown)(void*);
  sqlite3_pcache* (*xCreate)(int page_size, int extra_size, int purgeable);
  void (*xCachesize)(sqlite3_pcache*, int cache_size);
  int (*xPagecount)(sqlite3_pcache*);
  sqlite3_pcache_page* (*xFetch)(sqlite3_pcache*, unsigned key, int create_flag);
  void (*xUnpin)(sqlite3_pcache*, sqlite3_pcache_page*, int discard);
  void (*xRekey)(sqlite3_pcache*, sqlite3_pcache_page*, unsigned old_key, unsigned new_key);
  void (*xTruncate)(sqlite3_pcache*, unsigned limit);
  void (*xDestroy)(sqlite3_pcache*);
  void (*xShrink)(sqlite3_pcache*);
};

/* The first-generation page cache interface (SQLITE_CONFIG_PCACHE). */
typedef struct sqlite3_pcache_methods sqlite3_pcache_methods;
struct sqlite3_pcache_methods {
  void* pArg;
  int (*xInit)(void*);
  void (*xShutdown)(void*);
  sqlite3_pcache* (*xCreate)(int page_size, int purgeable);
  void (*xCachesize)(sqlite3_pcache*, int cache_size);
  int (*xPagecount)(sqlite3_pcache*);
  void* (*xFetch)(sqlite3_pcache*, unsigned key, int create_flag);
  void (*xUnpin)(sqlite3_pcache*, void*, int discard);
  void (*xRekey)(sqlite3_pcache*, void*, unsigned old_key, unsigned new_key);
  void (*xTruncate)(sqlite3_pcache*, unsigned limit);
  void (*xDestroy)(sqlite3_pcache*);
};

/* Online backup: copies a database page by page into another. */
typedef struct sqlite3_backup sqlite3_backup;

SQLITE_API sqlite3_backup* sqlite3_backup_init(sqlite3* dest, const char* dest_schema,
                                               sqlite3* source, const char* source_schema);
SQLITE_API int sqlite3_backup_step(sqlite3_backup* backup, int pages);
SQLITE_API int sqlite3_backup_finish(sqlite3_backup* backup);
SQLITE_API int sqlite3_backup_remaining(sqlite3_backup* backup);
SQLITE_API int sqlite3_backup_pagecount(sqlite3_backup* backup);

/* Shared-cache mode: a callback for when a blocking connection finishes. */
SQLITE_API int sqlite3_unlock_notify(sqlite3* blocked, void (*xNotify)(void** args, int nargs),
                                     void* notify_arg);

/* ASCII-case-insensitive comparison, GLOB and LIKE matching. */
SQLITE_API int sqlite3_stricmp(const char*, const char*);
SQLITE_API int sqlite3_strnicmp(const char*, const char*, int);
SQLITE_API int sqlite3_strglob(const char* pattern, const char* str);
SQLITE_API int sqlite3_strlike(const char* pattern, const char* str, unsigned int escape);

/* Writes a message to the error log (SQLITE_CONFIG_LOG). */
SQLITE_API void sqlite3_log(int code, const char* format, ...);

/* ===================================================================== */
/* 13. Write-ahead log, virtual-table configuration, scan status         */
/* ===================================================================== */

SQLITE_API void* sqlite3_wal_hook(sqlite3*, int (*)(void*, sqlite3*, const char*, int), void*);
SQLITE_API int sqlite3_wal_autocheckpoint(sqlite3* db, int n);
SQLITE_API int sqlite3_wal_checkpoint(sqlite3* db, const char* schema);
SQLITE_API int sqlite3_wal_checkpoint_v2(sqlite3* db, const char* schema, int mode, int* log_frames,
                                         int* checkpointed_frames);

/* Checkpoint modes. */
#define SQLITE_CHECKPOINT_PASSIVE 0
#define SQLITE_CHECKPOINT_FULL 1
#define SQLITE_CHECKPOINT_RESTART 2
#define SQLITE_CHECKPOINT_TRUNCATE 3

/* Options a virtual table may set from xCreate or xConnect. */
SQLITE_API int sqlite3_vtab_config(sqlite3*, int op, ...);

#define SQLITE_VTAB_CONSTRAINT_SUPPORT 1
#define SQLITE_VTAB_INNOCUOUS 2
#define SQLITE_VTAB_DIRECTONLY 3

/* Helpers a virtual table calls while a statement uses it. */
SQLITE_API int sqlite3_vtab_on_conflict(sqlite3*);
SQLITE_API int sqlite3_vtab_nochange(sqlite3_context*);
SQLITE_API SQLITE_EXPERIMENTAL const char* sqlite3_vtab_collation(sqlite3_index_info*, int);
SQLITE_API int sqlite3_vtab_distinct(sqlite3_index_info*);
SQLITE_API int sqlite3_vtab_in(sqlite3_index_info*, int constraint, int handle);
SQLITE_API int sqlite3_vtab_in_first(sqlite3_value* list, sqlite3_value** out);
SQLITE_API int sqlite3_vtab_in_next(sqlite3_value* list, sqlite3_value** out);
SQLITE_API int sqlite3_vtab_rhs_value(sqlite3_index_info*, int, sqlite3_value** out);

/* Conflict resolution modes (sqlite3_vtab_on_conflict). SQLITE_IGNORE and
** SQLITE_ABORT, defined above, are the other two. */
#define SQLITE_ROLLBACK 1
#define SQLITE_FAIL 3
#define SQLITE_REPLACE 5

/* What sqlite3_stmt_scanstatus reports. */
#define SQLITE_SCANSTAT_NLOOP 0
#define SQLITE_SCANSTAT_NVISIT 1
#define SQLITE_SCANSTAT_EST 2
#define SQLITE_SCANSTAT_NAME 3
#define SQLITE_SCANSTAT_EXPLAIN 4
#define SQLITE_SCANSTAT_SELECTID 5

SQLITE_API int sqlite3_stmt_scanstatus(sqlite3_stmt* stmt, int index, int what, void* out);
SQLITE_API void sqlite3_stmt_scanstatus_reset(sqlite3_stmt*);

/* Writes dirty cached pages of every attached database to disk. */
SQLITE_API int sqlite3_db_cacheflush(sqlite3*);

#if defined(SQLITE_ENABLE_PREUPDATE_HOOK)
SQLITE_API void* sqlite3_preupdate_hook(sqlite3* db,
                                        void (*xPreUpdate)(void* context, sqlite3* db, int op,
                                                           char const* schema, char const* table,
                                                           sqlite3_int64 old_rowid,
                                                           sqlite3_int64 new_rowid),
                                        void*);
SQLITE_API int sqlite3_preupdate_old(sqlite3*, int, sqlite3_value**);
SQLITE_API int sqlite3_preupdate_count(sqlite3*);
SQLITE_API int sqlite3_preupdate_depth(sqlite3*);
SQLITE_API int sqlite3_preupdate_new(sqlite3*, int, sqlite3_value**);
SQLITE_API int sqlite3_preupdate_blobwrite(sqlite3*);
#endif

/* The operating system's errno of the last failed system call. */
SQLITE_API int sqlite3_system_errno(sqlite3*);

/* ===================================================================== */
/* 14. Snapshots, serialization                                          */
/* ===================================================================== */

/* A point in the history of a WAL database, to read as of. */
typedef struct sqlite3_snapshot {
  unsigned char hidden[48];
} sqlite3_snapshot;

SQLITE_API SQLITE_EXPERIMENTAL int sqlite3_snapshot_get(sqlite3* db, const char* schema,
                                                        sqlite3_snapshot** snapshot_out);
SQLITE_API SQLITE_EXPERIMENTAL int sqlite3_snapshot_open(sqlite3* db, const char* schema,
                                                         sqlite3_snapshot* snapshot);
SQLITE_API SQLITE_EXPERIMENTAL void sqlite3_snapshot_free(sqlite3_snapshot*);
SQLITE_API SQLITE_EXPERIMENTAL int sqlite3_snapshot_cmp(sqlite3_snapshot* a, sqlite3_snapshot* b);
SQLITE_API SQLITE_EXPERIMENTAL int sqlite3_snapshot_recover(sqlite3* db, const char* schema);

/* A database as one block of memory, and back. */
SQLITE_API unsigned char* sqlite3_serialize(sqlite3* db, const char* schema,
                                            sqlite3_int64* size_out, unsigned int flags);

#define SQLITE_SERIALIZE_NOCOPY 0x001

SQLITE_API int sqlite3_deserialize(sqlite3* db, const char* schema, unsigned char* data,
                                   sqlite3_int64 db_size, sqlite3_int64 buffer_size,
                                   unsigned flags);

#define SQLITE_DESERIALIZE_FREEONCLOSE 1
#define SQLITE_DESERIALIZE_RESIZEABLE 2
#define SQLITE_DESERIALIZE_READONLY 4

#ifdef SQLITE_OMIT_FLOATING_POINT
#undef double
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif
#endif /* SQLITE3_H */

/* ===================================================================== */
/* 15. R*Tree geometry callbacks                                         */
/* ===================================================================== */
#ifndef _SQLITE3RTREE_H_
#define _SQLITE3RTREE_H_

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sqlite3_rtree_geometry sqlite3_rtree_geometry;
typedef struct sqlite3_rtree_query_info sqlite3_rtree_query_info;

/* The coordinate type of an R*Tree. */
#ifdef SQLITE_RTREE_INT_ONLY
typedef sqlite3_int64 sqlite3_rtree_dbl;
#else
typedef double sqlite3_rtree_dbl;
#endif

/* Legacy geometry callback for "MATCH fn(...)" constraints. */
SQLITE_API int sqlite3_rtree_geometry_callback(sqlite3* db, const char* name,
                                               int (*xGeom)(sqlite3_rtree_geometry*, int,
                                                            sqlite3_rtree_dbl*, int*),
                                               void* context);

struct sqlite3_rtree_geometry {
  void* pContext;
  int nParam;
  sqlite3_rtree_dbl* aParam;
  void* pUser;
  void (*xDelUser)(void*);
};

/* Query callback with access to the tree walk. */
SQLITE_API int sqlite3_rtree_query_callback(sqlite3* db, const char* name,
                                            int (*xQueryFunc)(sqlite3_rtree_query_info*),
                                            void* context, void (*xDestructor)(void*));

struct sqlite3_rtree_query_info {
  void* pContext;
  int nParam;
  sqlite3_rtree_dbl* aParam;
  void* pUser;
  void (*xDelUser)(void*);
  sqlite3_rtree_dbl* aCoord;
  unsigned int* anQueue;
  int nCoord;
  int iLevel;
  int mxLevel;
  sqlite3_int64 iRowid;
  sqlite3_rtree_dbl rParentScore;
  int eParentWithin;
  int eWithin;
  sqlite3_rtree_dbl rScore;
  sqlite3_value** apSqlParam;
};

/* Values of eWithin / eParentWithin. */
#define NOT_WITHIN 0
#define PARTLY_WITHIN 1
#define FULLY_WITHIN 2

#ifdef __cplusplus
} /* extern "C" */
#endif
#endif /* _SQLITE3RTREE_H_ */

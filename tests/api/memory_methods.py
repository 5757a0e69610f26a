"""SQLITE_CONFIG_MALLOC / GETMALLOC / MEMSTATUS: an application allocator
(in Python, over the C library's malloc) receives the library's blocks, and
every block is given back by the end; run by same_output.sh on both
libraries."""
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
libc.realloc.restype = ctypes.c_void_p
libc.realloc.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
I64 = ctypes.c_int64
lib.sqlite3_memory_used.restype = I64
lib.sqlite3_malloc.restype = ctypes.c_void_p
lib.sqlite3_free.argtypes = [ctypes.c_void_p]
lib.sqlite3_msize.restype = ctypes.c_uint64
lib.sqlite3_msize.argtypes = [ctypes.c_void_p]

MALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_int)
FREE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
REALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)
SIZE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
ROUNDUP = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)
INIT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
SHUTDOWN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)

class Methods(ctypes.Structure):
    _fields_ = [("xMalloc", MALLOC), ("xFree", FREE), ("xRealloc", REALLOC), ("xSize", SIZE),
                ("xRoundup", ROUNDUP), ("xInit", INIT), ("xShutdown", SHUTDOWN),
                ("pAppData", ctypes.c_void_p)]

live = {}   # address -> size
calls = {"malloc": 0, "free": 0, "realloc": 0, "init": 0, "shutdown": 0, "foreign": 0}
def x_malloc(n):
    calls["malloc"] += 1
    p = libc.malloc(max(n, 1))
    if p: live[p] = n
    return p
def x_free(p):
    if p is None: return
    calls["free"] += 1
    if live.pop(p, None) is None: calls["foreign"] += 1
    libc.free(p)
def x_realloc(p, n):
    calls["realloc"] += 1
    if live.pop(p, None) is None: calls["foreign"] += 1
    q = libc.realloc(p, max(n, 1))
    if q: live[q] = n
    return q
def x_size(p): return live.get(p, 0) if p else 0
def x_roundup(n): return (n + 7) & ~7
def x_init(arg): calls["init"] += 1; return 0
def x_shutdown(arg): calls["shutdown"] += 1

m = Methods(MALLOC(x_malloc), FREE(x_free), REALLOC(x_realloc), SIZE(x_size),
            ROUNDUP(x_roundup), INIT(x_init), SHUTDOWN(x_shutdown), None)
SQLITE_CONFIG_MALLOC, SQLITE_CONFIG_GETMALLOC, SQLITE_CONFIG_MEMSTATUS = 4, 5, 9
print("config MALLOC:", lib.sqlite3_config(SQLITE_CONFIG_MALLOC, ctypes.byref(m)))
got = Methods()
print("config GETMALLOC:", lib.sqlite3_config(SQLITE_CONFIG_GETMALLOC, ctypes.byref(got)))
addr = lambda f: ctypes.cast(f, ctypes.c_void_p).value
print("GETMALLOC gives the installed functions:",
      all(addr(getattr(got, f)) == addr(getattr(m, f)) for f, _ in Methods._fields_[:7]))
print("initialize:", lib.sqlite3_initialize(), "xInit calls:", calls["init"])
print("config after initialize:", lib.sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0))

p = lib.sqlite3_malloc(100)
print("sqlite3_malloc(100) came from xMalloc:", p in live, "msize:", lib.sqlite3_msize(p))
lib.sqlite3_free(p)
print("sqlite3_free gave it back:", p not in live)

db = ctypes.c_void_p()
lib.sqlite3_open(b":memory:", ctypes.byref(db))
def ex(sql): return lib.sqlite3_exec(db, sql.encode(), None, None, None)
print("exec:", ex("create table t(a, b); create index tb on t(b); "
                  "with recursive c(x) as (select 1 union all select x+1 from c where x<3000) "
                  "insert into t select x, randomblob(300) from c; "
                  "select b from t order by b; select group_concat(b) from t"))
print("blocks outstanding with a connection open:", len(live) > 0,
      "used > 1MB:", lib.sqlite3_memory_used() > 1_000_000)
lib.sqlite3_close(db)
print("after close: blocks outstanding", len(live), "used", lib.sqlite3_memory_used())
print("shutdown:", lib.sqlite3_shutdown(), "xShutdown calls:", calls["shutdown"])
print("frees of blocks not from xMalloc:", calls["foreign"])
print("xMalloc was used:", calls["malloc"] > 0)

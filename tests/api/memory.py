"""The library heap: sqlite3_malloc sizes, sqlite3_status / memory_used
figures, the hard and soft heap limits and their pragmas, and the
connection's cache figures; run by same_output.sh on both libraries, so it
prints only what both must agree on (exact sizes of sqlite3_malloc blocks,
and facts such as "fails with SQLITE_NOMEM" or "stays under a bound")."""
import ctypes, os, sys, tempfile
lib = ctypes.CDLL(sys.argv[1])
I64 = ctypes.c_int64
lib.sqlite3_malloc.restype = ctypes.c_void_p
lib.sqlite3_malloc64.restype = ctypes.c_void_p
lib.sqlite3_realloc.restype = ctypes.c_void_p
lib.sqlite3_realloc.argtypes = [ctypes.c_void_p, ctypes.c_int]
lib.sqlite3_free.argtypes = [ctypes.c_void_p]
lib.sqlite3_msize.restype = ctypes.c_uint64
lib.sqlite3_msize.argtypes = [ctypes.c_void_p]
for f in ("sqlite3_memory_used", "sqlite3_memory_highwater", "sqlite3_soft_heap_limit64",
          "sqlite3_hard_heap_limit64"):
    getattr(lib, f).restype = I64
lib.sqlite3_soft_heap_limit64.argtypes = [I64]
lib.sqlite3_hard_heap_limit64.argtypes = [I64]
lib.sqlite3_errmsg.restype = ctypes.c_char_p

def status(op, reset=0):
    c, h = I64(), I64()
    rc = lib.sqlite3_status64(op, ctypes.byref(c), ctypes.byref(h), reset)
    return rc, c.value, h.value

MEMORY_USED, MALLOC_SIZE, MALLOC_COUNT, PAGECACHE_OVERFLOW = 0, 5, 9, 2
lib.sqlite3_initialize()
print("before any connection: used", lib.sqlite3_memory_used())

# Blocks of sqlite3_malloc: their size, and memory_used moving by exactly it.
for n in (1, 7, 8, 9, 100, 1000, 4097):
    u0 = lib.sqlite3_memory_used()
    p = lib.sqlite3_malloc(n)
    print("malloc", n, "msize", lib.sqlite3_msize(p), "used +", lib.sqlite3_memory_used() - u0)
    q = lib.sqlite3_realloc(p, n * 3)
    print("  realloc", n * 3, "msize", lib.sqlite3_msize(q), "used +", lib.sqlite3_memory_used() - u0)
    lib.sqlite3_free(q)
    print("  freed: used +", lib.sqlite3_memory_used() - u0)
print("malloc(0) is NULL:", lib.sqlite3_malloc(0) is None, "msize(NULL):", lib.sqlite3_msize(None))
status(MALLOC_SIZE, 1)
p = lib.sqlite3_malloc(12345)
print("largest request after reset:", status(MALLOC_SIZE)[2], "current", status(MALLOC_SIZE)[1])
rc, c0, _ = status(MALLOC_COUNT)
p2 = lib.sqlite3_malloc(10)
print("outstanding blocks +", status(MALLOC_COUNT)[1] - c0)
lib.sqlite3_free(p2); lib.sqlite3_free(p)
print("unknown status op:", lib.sqlite3_status64(99, ctypes.byref(I64()), ctypes.byref(I64()), 0))

def open_db(path):
    db = ctypes.c_void_p(); lib.sqlite3_open(path.encode(), ctypes.byref(db)); return db
def ex(db, sql):
    return lib.sqlite3_exec(db, sql.encode(), None, None, None)
def one(db, sql):
    st = ctypes.c_void_p(); lib.sqlite3_prepare_v2(db, sql.encode(), -1, ctypes.byref(st), None)
    lib.sqlite3_step(st); lib.sqlite3_column_int64.restype = I64
    v = lib.sqlite3_column_int64(st, 0); lib.sqlite3_finalize(st); return v

# An in-memory database: its pages are counted; a hard limit below what is
# in use refuses the next allocations (SQLITE_NOMEM), and lifting it works.
db = open_db(":memory:")
ex(db, "create table t(a); with recursive c(x) as (select 1 union all select x+1 from c where x<20000) insert into t select randomblob(200) from c")
used = lib.sqlite3_memory_used()
print("20000 rows of 200 bytes in memory: used > 4MB", used > 4_000_000, "< 12MB", used < 12_000_000)
print("highwater >= used:", lib.sqlite3_memory_highwater(0) >= used)
lib.sqlite3_hard_heap_limit64(1_000_000)
print("hard limit 1MB: order by ->", ex(db, "select a from t order by a"), lib.sqlite3_errmsg(db))
print("  insert ->", ex(db, "with recursive c(x) as (select 1 union all select x+1 from c where x<100) insert into t select randomblob(5000) from c"))
print("  soft follows hard:", lib.sqlite3_soft_heap_limit64(-1))
print("  pragma hard_heap_limit:", one(db, "pragma hard_heap_limit"))
lib.sqlite3_hard_heap_limit64(0)
print("no limit: order by ->", ex(db, "select a from t order by a"), "count", one(db, "select count(*) from t"))
print("integrity:", ex(db, "pragma integrity_check"))
one(db, "pragma hard_heap_limit = 500000000")
print("pragma set hard limit, API reads:", lib.sqlite3_hard_heap_limit64(-1))
one(db, "pragma hard_heap_limit = 900000000")
print("pragma cannot raise it:", lib.sqlite3_hard_heap_limit64(-1))
lib.sqlite3_hard_heap_limit64(0)
one(db, "pragma soft_heap_limit = 123456")
print("pragma soft, API reads:", lib.sqlite3_soft_heap_limit64(-1), "old value returned by set:",
      lib.sqlite3_soft_heap_limit64(0))
lib.sqlite3_close(db)
print("after close: used", lib.sqlite3_memory_used())

# A file database read with a big cache: under a 2 MB soft limit the cache
# stops growing; without it, it holds the table.
d = tempfile.mkdtemp()
path = os.path.join(d, "big.db")
db = open_db(path)
ex(db, "create table t(a); with recursive c(x) as (select 1 union all select x+1 from c where x<8000) insert into t select randomblob(1000) from c")
lib.sqlite3_close(db)
def scan_peak(soft):
    lib.sqlite3_soft_heap_limit64(soft)
    db = open_db(path)
    ex(db, "pragma cache_size = -100000")
    lib.sqlite3_memory_highwater(1)
    n = one(db, "select count(a) from t")
    peak = lib.sqlite3_memory_highwater(0)
    cache = ctypes.c_int(); hw = ctypes.c_int()
    lib.sqlite3_db_status(db, 1, ctypes.byref(cache), ctypes.byref(hw), 0)  # CACHE_USED
    misses = ctypes.c_int(); lib.sqlite3_db_status(db, 8, ctypes.byref(misses), ctypes.byref(hw), 0)
    lib.sqlite3_close(db)
    lib.sqlite3_soft_heap_limit64(0)
    return n, peak, cache.value, misses.value
n, peak, cache, misses = scan_peak(0)
print("no soft limit: rows", n, "peak > 8MB", peak > 8_000_000, "cache > 8MB", cache > 8_000_000,
      "misses >= 2000", misses >= 2000)
n, peak, cache, misses = scan_peak(2_000_000)
print("soft limit 2MB: rows", n, "peak < 3MB", peak < 3_000_000, "cache < 2.5MB", cache < 2_500_000)
os.remove(path); os.rmdir(d)
print("after the file scans: used", lib.sqlite3_memory_used())

# %z frees its argument with sqlite3_free.
lib.sqlite3_mprintf.restype = ctypes.c_void_p
inner = lib.sqlite3_mprintf(b"abc")
outer = lib.sqlite3_mprintf(b"<%z>", ctypes.c_void_p(inner))
print("%z:", ctypes.string_at(outer), "used after freeing both back to", end=" ")
lib.sqlite3_free(ctypes.c_void_p(outer))
print(lib.sqlite3_memory_used())

# The connection's cache counters: hits, misses, writes; reset zeroes them.
d = tempfile.mkdtemp()
path = os.path.join(d, "c.db")
db = open_db(path)
def dbstat(op, reset=0):
    c, h = ctypes.c_int(), ctypes.c_int()
    rc = lib.sqlite3_db_status(db, op, ctypes.byref(c), ctypes.byref(h), reset)
    return rc, c.value, h.value
ex(db, "create table t(a); with recursive c(x) as (select 1 union all select x+1 from c where x<500) "
       "insert into t select randomblob(500) from c")
CACHE_USED, SCHEMA_USED, CACHE_HIT, CACHE_MISS, CACHE_WRITE, CACHE_SPILL = 1, 2, 7, 8, 9, 12
print("after writing: cache used > 0", dbstat(CACHE_USED)[1] > 0, "schema used > 0",
      dbstat(SCHEMA_USED)[1] > 0, "writes > 60", dbstat(CACHE_WRITE)[1] > 60,
      "spills", dbstat(CACHE_SPILL)[1])
print("write counter with reset > 0:", dbstat(CACHE_WRITE, 1)[1] > 0, "then", dbstat(CACHE_WRITE)[1])
lib.sqlite3_close(db)
db = open_db(path)
one(db, "select count(a) from t")
print("cold read: misses > 60", dbstat(CACHE_MISS)[1] > 60, "highwater", dbstat(CACHE_MISS)[2])
dbstat(CACHE_HIT, 1)
one(db, "select count(a) from t")
print("warm read: hits > 60", dbstat(CACHE_HIT)[1] > 60)
lib.sqlite3_close(db)
os.remove(path); os.rmdir(d)
print("end: used", lib.sqlite3_memory_used())

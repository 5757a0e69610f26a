"""sqlite3_file_control through a VFS of the program's own: a shim that
wraps the default VFS (every method forwarded) and records the opcodes its
xFileControl receives. For each opcode: the return code, whether the call
reached the shim (the library did not answer it itself), and what it
answered (FILE_POINTER / VFS_POINTER / JOURNAL_POINTER compared with the
objects the shim knows). Run by same_output.sh on both libraries."""
import ctypes, os, sys, tempfile
lib = ctypes.CDLL(sys.argv[1])
P = ctypes.c_void_p
XOPEN = ctypes.CFUNCTYPE(ctypes.c_int, P, P, P, ctypes.c_int, P)  # the name passed on as is
XFCNTL = ctypes.CFUNCTYPE(ctypes.c_int, P, ctypes.c_int, P)

class Vfs(ctypes.Structure):
    _fields_ = [("iVersion", ctypes.c_int), ("szOsFile", ctypes.c_int), ("mxPathname", ctypes.c_int),
                ("pNext", P), ("zName", ctypes.c_char_p), ("pAppData", P), ("xOpen", P)] + \
               [(n, P) for n in ("xDelete", "xAccess", "xFullPathname", "xDlOpen", "xDlError", "xDlSym",
                                 "xDlClose", "xRandomness", "xSleep", "xCurrentTime", "xGetLastError",
                                 "xCurrentTimeInt64", "xSetSystemCall", "xGetSystemCall",
                                 "xNextSystemCall")]
class Io(ctypes.Structure):
    _fields_ = [("iVersion", ctypes.c_int)] + \
               [(n, P) for n in ("xClose", "xRead", "xWrite", "xTruncate", "xSync", "xFileSize", "xLock",
                                 "xUnlock", "xCheckReservedLock", "xFileControl", "xSectorSize",
                                 "xDeviceCharacteristics", "xShmMap", "xShmLock", "xShmBarrier",
                                 "xShmUnmap", "xFetch", "xUnfetch")]

lib.sqlite3_vfs_find.restype = P
lib.sqlite3_vfs_find.argtypes = [ctypes.c_char_p]
real_ptr = lib.sqlite3_vfs_find(None)
real = Vfs.from_address(real_ptr)
real_open = XOPEN(real.xOpen)
shim = Vfs()
ctypes.memmove(ctypes.addressof(shim), real_ptr, ctypes.sizeof(Vfs))
shim.zName = b"shim"
shim.pNext = None
seen = []           # opcodes the shim's xFileControl received
files = {}          # sqlite3_file address -> kind of file
wrapped = {}        # address of our io methods -> the real ones (kept alive)
def fcntl(pfile, op, arg):
    seen.append(op)
    ours = ctypes.c_void_p.from_address(pfile).value
    orig = wrapped[ours][1]
    return XFCNTL(orig.xFileControl)(pfile, op, arg)
fcntl_cb = XFCNTL(fcntl)
def xopen(vfs, name, pfile, flags, out):
    rc = real_open(real_ptr, name, pfile, flags, out)
    methods = ctypes.c_void_p.from_address(pfile).value
    if rc == 0 and methods:
        for key, (io, orig) in wrapped.items():
            if ctypes.addressof(orig) == methods:
                break
        else:
            orig = Io.from_address(methods)
            io = Io()
            ctypes.memmove(ctypes.addressof(io), methods, ctypes.sizeof(Io))
            io.xFileControl = ctypes.cast(fcntl_cb, P).value
            wrapped[ctypes.addressof(io)] = (io, orig)
        ctypes.c_void_p.from_address(pfile).value = ctypes.addressof(io)
        files[pfile] = "main" if flags & 0x100 else ("journal" if flags & 0x800 else (
            "wal" if flags & 0x80000 else "other %x" % flags))
    return rc
open_cb = XOPEN(xopen)
shim.xOpen = ctypes.cast(open_cb, P).value
lib.sqlite3_vfs_register.argtypes = [P, ctypes.c_int]
print("register", lib.sqlite3_vfs_register(ctypes.addressof(shim), 0))

tmp = tempfile.mkdtemp()
db = P()
path = os.path.join(tmp, "a.db").encode()
lib.sqlite3_open_v2.argtypes = [ctypes.c_char_p, ctypes.POINTER(P), ctypes.c_int, ctypes.c_char_p]
print("open", lib.sqlite3_open_v2(path, ctypes.byref(db), 6, b"shim"))
lib.sqlite3_exec.argtypes = [P, ctypes.c_char_p, P, P, P]
lib.sqlite3_file_control.argtypes = [P, ctypes.c_char_p, ctypes.c_int, P]
print("create", lib.sqlite3_exec(db, b"create table t(a); insert into t values(1)", None, None,
                                 None))
lib.sqlite3_free.argtypes = [P]

def fc(op, buf, name=b"main"):
    del seen[:]
    rc = lib.sqlite3_file_control(db, name, op, buf)
    return rc, list(seen)

def describe(op, rc, buf):
    if rc != 0:
        return ""
    v = ctypes.c_void_p.from_address(ctypes.addressof(buf)).value
    if op == 7:  # FILE_POINTER
        return "file=%s" % files.get(v, "unknown" if v else "null")
    if op == 27:  # VFS_POINTER
        return "vfs=%s" % ("shim" if v == ctypes.addressof(shim) else ("null" if not v else "other"))
    if op == 28:  # JOURNAL_POINTER
        if not v:
            return "journal=null"
        # A closed file object is only memory (SQLite reuses its pager's).
        if not ctypes.c_void_p.from_address(v).value:
            return "journal=closed"
        return "journal=%s" % files.get(v, "unknown")
    if op in (12, 16):  # VFSNAME, TEMPFILENAME: a string to free
        s = ctypes.cast(v, ctypes.c_char_p).value if v else None
        if v:
            lib.sqlite3_free(v)
        if op == 16:
            return "name=%s" % (s is not None and os.path.basename(s.decode()).startswith("etilqs_"))
        return "name=%s" % s
    if op in (10, 13, 38, 40, 20, 4, 1):
        return "int=%d" % ctypes.c_int.from_address(ctypes.addressof(buf)).value
    return ""

for mode in ["delete", "wal"]:
    print(mode, lib.sqlite3_exec(db, b"pragma journal_mode=" + mode.encode(), None, None, None),
          lib.sqlite3_exec(db, b"select * from t", None, None, None))
    for txn in [False, True]:
        if txn:
            print("begin", lib.sqlite3_exec(db, b"begin; insert into t values(2)", None, None, None))
        for op in [1, 4, 5, 6, 7, 10, 12, 13, 16, 18, 27, 28, 35, 36, 38, 40, 42, 99, 1000]:
            buf = ctypes.create_string_buffer(64)
            if op in (10, 13, 38):
                ctypes.c_int.from_address(ctypes.addressof(buf)).value = -1
            rc, s = fc(op, buf)
            print(mode, "txn" if txn else "-", "op", op, "rc", rc, "shim", s, describe(op, rc, buf))
        if txn:
            print("commit", lib.sqlite3_exec(db, b"commit", None, None, None))
for name in [b"temp", b"nosuch"]:
    buf = ctypes.create_string_buffer(64)
    print(name.decode(), "op 7", fc(7, buf, name), "op 1000", fc(1000, buf, name))
lib.sqlite3_close_v2(db)
print("unregister", lib.sqlite3_vfs_unregister(ctypes.addressof(shim)))

# The default VFS: the pointers lead to working objects.
db = P()
print("open default", lib.sqlite3_open_v2(os.path.join(tmp, "b.db").encode(), ctypes.byref(db), 6,
                                           None))
lib.sqlite3_exec(db, b"create table t(a); begin; insert into t values(1)", None, None, None)
buf = ctypes.create_string_buffer(64)
rc, _ = fc(7, buf)
f = ctypes.c_void_p.from_address(ctypes.addressof(buf)).value
io = Io.from_address(ctypes.c_void_p.from_address(f).value)
state = ctypes.c_int(-1)
print("file pointer", rc, "lockstate via its methods",
      XFCNTL(io.xFileControl)(f, 1, ctypes.addressof(state)), state.value)
size = ctypes.c_longlong(-1)
XSIZE = ctypes.CFUNCTYPE(ctypes.c_int, P, P)
print("its size", XSIZE(io.xFileSize)(f, ctypes.addressof(size)), size.value)
rc, _ = fc(27, buf)
print("vfs pointer", rc, ctypes.c_void_p.from_address(ctypes.addressof(buf)).value == real_ptr)
for op in [1, 12, 99, 1000]:
    buf = ctypes.create_string_buffer(64)
    rc, _ = fc(op, buf)
    print("default op", op, "rc", rc, describe(op, rc, buf))
lib.sqlite3_exec(db, b"commit", None, None, None)
lib.sqlite3_close_v2(db)

"""SQLITE_FCNTL_DATA_VERSION and PRAGMA data_version, in rollback and WAL
mode: two connections to one file; after each step both numbers of both
connections (the file-control one counts changes the pager sees -- its own
commits and other connections' changes found when a read starts -- and
PRAGMA data_version only other connections' commits). Run by
same_output.sh on both libraries. (An UPDATE that rewrites rows unchanged
is left out: SQLite then writes no page and other connections see no
change; Basalt writes the pages.)"""
import ctypes, os, sys, tempfile
lib = ctypes.CDLL(sys.argv[1])
P = ctypes.c_void_p
lib.sqlite3_exec.argtypes = [P, ctypes.c_char_p, P, P, P]
lib.sqlite3_file_control.argtypes = [P, ctypes.c_char_p, ctypes.c_int, P]
CB = ctypes.CFUNCTYPE(ctypes.c_int, P, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), P)
got = []
def row(_, n, vals, names):
    got.append(vals[0].decode() if vals[0] is not None else None)
    return 0
cb = CB(row)
def pragma(db):
    del got[:]
    lib.sqlite3_exec(db, b"pragma data_version", cb, None, None)
    return got[0] if got else None
def fcntl(db):
    v = ctypes.c_uint(12345)
    rc = lib.sqlite3_file_control(db, b"main", 35, ctypes.byref(v))
    return "%d:%d" % (rc, v.value)
tmp = tempfile.mkdtemp()
for mode in ["delete", "wal", "truncate", "memory"]:
    path = os.path.join(tmp, mode + ".db").encode()
    a, b = P(), P()
    lib.sqlite3_open(path, ctypes.byref(a))
    print(mode)
    def show(what, rc=None):
        print("  %-40s rc=%s  a fcntl=%s pragma=%s  b fcntl=%s pragma=%s" % (
            what, rc, fcntl(a), pragma(a), fcntl(b) if b.value else "-", pragma(b) if b.value else "-"))
    show("opened a")
    for step in ["pragma journal_mode=" + mode, "create table t(x)", "insert into t values(1)"]:
        show(step, lib.sqlite3_exec(a, step.encode(), None, None, None))
    lib.sqlite3_open(path, ctypes.byref(b))
    show("opened b")
    script = [("b", "select count(*) from t"), ("a", "insert into t values(2)"),
              ("b", "select count(*) from t"), ("b", "insert into t values(3)"),
              ("a", "select count(*) from t"), ("a", "begin"), ("a", "insert into t values(4)"),
              ("a", "insert into t values(5)"), ("a", "commit"), ("b", "begin"),
              ("b", "select count(*) from t"), ("a", "insert into t values(6)"),
              ("b", "select count(*) from t"), ("b", "commit"), ("b", "select count(*) from t"),
              ("a", "begin"), ("a", "insert into t values(7)"), ("a", "rollback"),
              ("a", "savepoint s"), ("a", "insert into t values(8)"), ("a", "release s"),
              ("b", "pragma wal_checkpoint"), ("a", "select count(*) from t"),
              ("a", "vacuum"), ("b", "select count(*) from t"), ("a", "create table u(y)"),
              ("b", "select count(*) from u"), ("a", "update t set x = x + 1")]
    for who, sql in script:
        db = a if who == "a" else b
        show(who + ": " + sql, lib.sqlite3_exec(db, sql.encode(), None, None, None))
    lib.sqlite3_close(b)
    lib.sqlite3_close(a)

"""Incremental blob I/O and the connection's hooks: sqlite3_blob_open /
write / read ask the authorizer nothing, fire no trigger, call no update
hook and count no change, as SQLite's in-place blob I/O. Run by
same_output.sh on Basalt's library and the system one."""
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
db = ctypes.c_void_p()
lib.sqlite3_open(b":memory:", ctypes.byref(db))
lib.sqlite3_errmsg.restype = ctypes.c_char_p
CB = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_char_p))
def row(_, n, vals, names):
    print("  row:", [vals[i] for i in range(n)]); return 0
rowcb = CB(row)
def ex(sql):
    rc = lib.sqlite3_exec(db, sql.encode(), rowcb, None, None)
    print(sql, "->", rc, lib.sqlite3_errmsg(db).decode() if rc else "")
ex("create table t(a integer primary key, b blob, c); create table log(x); create trigger tr after update on t begin insert into log values('upd ' || new.a); end; insert into t values(1, zeroblob(20), 'x'), (2, 'hello world', 'y')")
AUTH = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p)
def auth(_, code, a1, a2, a3, a4):
    print("    auth", code, a1, a2, a3); return 0
authcb = AUTH(auth)
UPD = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64)
def upd(_, op, dbn, tbl, rowid):
    print("    update hook", op, dbn, tbl, rowid)
updcb = UPD(upd)
lib.sqlite3_set_authorizer.argtypes = [ctypes.c_void_p, AUTH, ctypes.c_void_p]
lib.sqlite3_update_hook.argtypes = [ctypes.c_void_p, UPD, ctypes.c_void_p]
lib.sqlite3_update_hook.restype = ctypes.c_void_p
lib.sqlite3_set_authorizer(db, authcb, None)
lib.sqlite3_update_hook(db, updcb, None)
lib.sqlite3_blob_open.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]
lib.sqlite3_blob_write.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
lib.sqlite3_blob_read.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
lib.sqlite3_blob_reopen.argtypes = [ctypes.c_void_p, ctypes.c_int64]
lib.sqlite3_blob_close.argtypes = [ctypes.c_void_p]
for rowid in (1, 2):
    blob = ctypes.c_void_p()
    print("open", rowid, lib.sqlite3_blob_open(db, b"main", b"t", b"b", rowid, 1, ctypes.byref(blob)))
    print("changes before", lib.sqlite3_changes(db), lib.sqlite3_total_changes(db))
    print("write", lib.sqlite3_blob_write(blob, b"ABC", 3, 2))
    print("write", lib.sqlite3_blob_write(blob, b"Z", 1, 0))
    buf = ctypes.create_string_buffer(8)
    print("read", lib.sqlite3_blob_read(blob, buf, 8, 0), buf.raw)
    print("changes after", lib.sqlite3_changes(db), lib.sqlite3_total_changes(db))
    print("close", lib.sqlite3_blob_close(blob))
lib.sqlite3_set_authorizer(db, AUTH(), None)
ex("select a, quote(b), typeof(b) from t")
ex("select * from log")
ex("pragma integrity_check")
# Two handles on one row: a write through one is read through the other;
# an UPDATE of the row expires both.
lib.sqlite3_update_hook(db, UPD(), None)
h1, h2 = ctypes.c_void_p(), ctypes.c_void_p()
print("open", lib.sqlite3_blob_open(db, b"main", b"t", b"b", 1, 1, ctypes.byref(h1)),
      lib.sqlite3_blob_open(db, b"main", b"t", b"b", 1, 0, ctypes.byref(h2)))
print("write h1", lib.sqlite3_blob_write(h1, b"QQ", 2, 5))
buf = ctypes.create_string_buffer(10)
print("read h2", lib.sqlite3_blob_read(h2, buf, 10, 0), buf.raw)
ex("update t set c = 'changed' where a = 1")
print("read h2", lib.sqlite3_blob_read(h2, buf, 10, 0), lib.sqlite3_errmsg(db).decode())
print("write h1", lib.sqlite3_blob_write(h1, b"R", 1, 0), lib.sqlite3_errmsg(db).decode())
print("close", lib.sqlite3_blob_close(h1), lib.sqlite3_blob_close(h2))
print("changes", lib.sqlite3_changes(db), lib.sqlite3_total_changes(db))

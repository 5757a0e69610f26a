"""PRAGMA collation_list after sqlite3_create_collation: the application's
collations listed with the built-in ones in SQLite's hash order (through
its resizes), deleted ones kept, a redefined name in its first spelling.
Run by same_output.sh on Basalt's library and the system one."""
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
db = ctypes.c_void_p()
lib.sqlite3_open(b":memory:", ctypes.byref(db))
CMP = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)
cmp = CMP(lambda u, n1, a, n2, b: 0)
lib.sqlite3_create_collation.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p, CMP]
CB = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_char_p))
def row(_, n, vals, names):
    print(" ", b"|".join(vals[i] for i in range(n)).decode()); return 0
cb = CB(row)
def show():
    print("rc", lib.sqlite3_exec(db, b"select * from pragma_collation_list", cb, None, None))
for i in range(25):
    lib.sqlite3_create_collation(db, b"coll%d" % i, 1, None, cmp)
    if i in (3, 9, 12, 20): show()
lib.sqlite3_create_collation(db, b"coll5", 1, None, CMP())
lib.sqlite3_create_collation(db, b"Nocase", 1, None, cmp)
lib.sqlite3_create_collation(db, b"COLL7", 1, None, cmp)
lib.sqlite3_create_collation(db, b"u16", 2, None, cmp)
show()

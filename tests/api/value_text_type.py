"""sqlite3_value_text/_blob/_bytes on an INTEGER or REAL argument: the value
keeps its type (sqlite3_value_type and sqlite3_result_value still see the
number), as the sqlite3 shell's own functions rely on. Run by
same_output.sh on Basalt's library and the system one; outputs must match."""
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
db = ctypes.c_void_p()
lib.sqlite3_open(b":memory:", ctypes.byref(db))
lib.sqlite3_value_text.restype = ctypes.c_char_p
lib.sqlite3_value_blob.restype = ctypes.c_void_p
for name in ("value_text", "value_blob", "value_bytes", "value_type"):
    getattr(lib, "sqlite3_" + name).argtypes = [ctypes.c_void_p]
lib.sqlite3_result_value.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p))
def make(kind):
    def f(ctx, n, argv):
        v = argv[0]
        before = lib.sqlite3_value_type(v)
        if kind == "text":
            t = lib.sqlite3_value_text(v)
        elif kind == "blob":
            lib.sqlite3_value_blob(v)
            t = None
        else:
            t = None
        nbytes = lib.sqlite3_value_bytes(v)
        after = lib.sqlite3_value_type(v)
        print(" ", kind, before, after, nbytes, t)
        lib.sqlite3_result_value(ctx, v)
    return FN(f)
fns = {k: make(k) for k in ("text", "blob", "bytes")}
for k, f in fns.items():
    lib.sqlite3_create_function_v2(db, k.encode(), 1, 1, None, f, None, None, None)
CB = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_char_p))
def row(_, n, vals, names):
    print("  row:", [vals[i] for i in range(n)]); return 0
cb = CB(row)
for arg in ["12", "2.5", "-0.0", "1e300", "9223372036854775807", "'7'", "x'41'", "NULL"]:
    for k in fns:
        sql = "select typeof(%s(%s)), %s(%s) || ''" % (k, arg, k, arg)
        print(sql, "->", lib.sqlite3_exec(db, sql.encode(), cb, None, None))

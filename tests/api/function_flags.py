"""SQLITE_DIRECTONLY / SQLITE_INNOCUOUS functions: where a direct-only
function may not be used (views, triggers, CHECK, DEFAULT, generated
columns, index expressions) and what PRAGMA function_list shows. Run by
same_output.sh on Basalt's library and the system one."""
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.sqlite3_errmsg.restype = ctypes.c_char_p
FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p))
lib.sqlite3_result_int.argtypes = [ctypes.c_void_p, ctypes.c_int]
def f(ctx, n, argv):
    lib.sqlite3_result_int(ctx, 7)
fcb = FN(f)
lib.sqlite3_create_function_v2.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p, FN, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
CB = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_char_p))
def row(_, n, vals, names):
    print("  row:", [vals[i] for i in range(n)]); return 0
rowcb = CB(row)
UTF8, DET, DIRECT, SUBTYPE, INNOC = 1, 0x800, 0x80000, 0x100000, 0x200000
for trusted in (1, 0):
    db = ctypes.c_void_p()
    lib.sqlite3_open(b":memory:", ctypes.byref(db))
    def ex(sql):
        rc = lib.sqlite3_exec(db, sql.encode(), rowcb, None, None)
        print(sql, "->", rc, lib.sqlite3_errmsg(db).decode() if rc else "")
    for name, flags in [("fd", DIRECT), ("fi", INNOC), ("fp", 0), ("fdd", DIRECT | DET), ("fid", INNOC | DET), ("fpd", DET), ("fs", SUBTYPE | INNOC | DET)]:
        lib.sqlite3_create_function_v2(db, name.encode(), -1, UTF8 | flags, None, fcb, None, None, None)
    ex("pragma trusted_schema=%d" % trusted)
    ex("select name, narg, flags from pragma_function_list where name in ('fd','fi','fp','fdd','fid','fpd','fs') order by 1")
    ex("create table t(a, b)")
    ex("insert into t values(1, 2)")
    for fn in ("fd", "fi", "fp"):
        ex("select %s(1)" % fn)
        ex("create view v_%s as select %s(a) from t" % (fn, fn))
        ex("select * from v_%s" % fn)
        ex("create trigger tr_%s after insert on t begin select %s(new.a); end" % (fn, fn))
        ex("insert into t values(3, 4)")
        ex("drop trigger if exists tr_%s" % fn)
        ex("create table c_%s(x check(%s(x) > 0))" % (fn, fn))
        ex("insert into c_%s values(1)" % fn)
        ex("create table d_%s(x default (%s(1)))" % (fn, fn))
        ex("insert into d_%s default values" % fn)
        ex("create table g_%s(x, y as (%s(x)))" % (fn, fn + "d"))
        ex("insert into g_%s(x) values(1)" % fn)
        ex("select * from g_%s" % fn)
        ex("create index i_%s on t(%s(a))" % (fn, fn + "d"))
        ex("create index w_%s on t(a) where %s(a) > 0" % (fn, fn + "d"))
        ex("select a from t where %s(a) > 0" % fn)
    lib.sqlite3_close(db)

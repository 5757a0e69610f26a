"""sqlite3_set_authorizer on CREATE / DROP / VACUUM / ATTACH: every question
SQLite asks, in its order -- including those of the statements it runs on
the schema table (automatic indexes, CHECK and generated-column reads, the
schema-row update, trigger and root-page bookkeeping of DROP) -- and what a
denial does. Run by same_output.sh on Basalt's library and the system one."""
import ctypes, os, sys, tempfile
lib = ctypes.CDLL(sys.argv[1])
tmp = tempfile.mkdtemp()
db = ctypes.c_void_p()
lib.sqlite3_open(b":memory:", ctypes.byref(db))
lib.sqlite3_errmsg.restype = ctypes.c_char_p
AUTH = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p,
                        ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p)
lib.sqlite3_set_authorizer.argtypes = [ctypes.c_void_p, AUTH, ctypes.c_void_p]
deny = [None]
def auth(_, code, a1, a2, a3, a4):
    args = [x.decode().replace(tmp, "TMP") if x is not None else None for x in (a1, a2, a3, a4)]
    print("   ", code, *args)
    return 1 if code == deny[0] else 0
cb = AUTH(auth)
lib.sqlite3_set_authorizer(db, cb, None)
def ex(sql, denied=None):
    deny[0] = denied
    print(sql.replace(tmp, "TMP"), "deny=%s" % denied)
    rc = lib.sqlite3_exec(db, sql.encode(), None, None, None)
    print("  ->", rc, lib.sqlite3_errmsg(db).decode() if rc else "")
for sql in ["create table a(x integer primary key, y)",
            "create table b(x, y, primary key(x,y)) without rowid",
            "create temp table c(x unique, y check(y>x), z default 3)",
            "create table if not exists a(q)",
            "create table t(A, b, c, d as (a+c), unique(b, c), check(d > B), primary key(a))",
            "create table u(x integer primary key desc, y unique, z unique)",
            "create table w(x int primary key, y text unique unique)",
            "create index ia on a(y) where y > 0",
            "create index ix on t(c, a+d) where b > 0",
            "create index ix2 on t(c collate nocase desc)",
            "create unique index ib on b(y)",
            "create view v as select a.x from a where y in (select x from b)",
            "create temp view tv as select 1",
            "create temp trigger tt after insert on a begin select 1; end",
            "create trigger t2 before delete on a begin select 1; end",
            "create trigger t3 after update on a begin select 1; end",
            "attach '%s/a.db' as aa" % tmp, "attach '%s/b' || '.db' as bb" % tmp, "detach bb",
            "drop index ia", "drop trigger t2", "drop trigger tt", "drop table a",
            "drop view tv", "drop view v", "drop table c", "drop table t"]:
    ex(sql)
for code, sql in [(24, "vacuum"), (22, "vacuum"), (24, "vacuum into '%s/z.db'" % tmp),
                  (9, "drop table u"), (18, "create table z(a unique)"), (20, "create index iw on w(y)"),
                  (23, "create view vz as select 1"), (16, "drop table b"), (20, "drop table w")]:
    ex(sql, code)

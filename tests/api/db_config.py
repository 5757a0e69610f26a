"""sqlite3_db_config on a library: the default of every boolean option,
and what ENABLE_TRIGGER, ENABLE_VIEW, DQS_DML and DQS_DDL change. Run by
same_output.sh on Basalt's library and the system one; outputs must match."""
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
db = ctypes.c_void_p()
lib.sqlite3_open(b":memory:", ctypes.byref(db))
lib.sqlite3_errmsg.restype = ctypes.c_char_p
def cfg(op, v):
    out = ctypes.c_int(-5)
    rc = lib.sqlite3_db_config(db, op, ctypes.c_int(v), ctypes.byref(out))
    return rc, out.value
CB = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_char_p))
def row(_, n, vals, names):
    print("  row:", [vals[i] for i in range(n)]); return 0
cb = CB(row)
def ex(sql):
    err = ctypes.c_char_p()
    rc = lib.sqlite3_exec(db, sql.encode(), cb, None, ctypes.byref(err))
    print(sql, "->", rc, err.value)
ENABLE_TRIGGER=1003; ENABLE_VIEW=1015; DQS_DML=1013; DQS_DDL=1014
# Every boolean option of the 3.40 header, read without changing it.
for op in [1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014,
           1015, 1016, 1017]:
    print("option", op, cfg(op, -1))
ex("create table t(a,b); create table log(x); create trigger tr after insert on t begin insert into log values(new.a); end; create temp trigger tt after insert on t begin insert into log values(-new.a); end; create view v as select * from t; create temp view tv as select * from t")
print(cfg(ENABLE_TRIGGER, 0))
ex("insert into t values(1,2)"); ex("select * from log")
print(cfg(ENABLE_TRIGGER, 1))
print(cfg(ENABLE_VIEW, 0))
ex("select * from v"); ex("select * from tv"); ex("create view v2 as select 1"); ex("select * from (select * from v)")
print(cfg(ENABLE_VIEW, 1))
print(cfg(DQS_DML, 0))
ex('select "abc"'); ex('insert into t values("x", 1)'); ex('create table d(a check (a<>"z"), b default "q")'); ex('create index di on t(a) where b<>"w"'); ex('create view dv as select "lit"'); ex('select * from dv'); ex('create trigger dtr after update on t begin select "zz"; end')
print(cfg(DQS_DML, 1))
print(cfg(DQS_DDL, 0))
ex('select "abc"'); ex('create table d2(a check (a<>"z"), b default "q")'); ex('create index di2 on t(a) where b<>"w"'); ex('create view dv2 as select "lit"'); ex('select * from dv2'); ex('create trigger dtr2 after update on t begin select "zz"; end'); ex('select * from dv')

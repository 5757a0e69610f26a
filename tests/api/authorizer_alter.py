"""sqlite3_set_authorizer on ALTER TABLE (RENAME TABLE, RENAME COLUMN, ADD
COLUMN, DROP COLUMN), CREATE / DROP / RENAME of virtual tables (fts4) and
CREATE TABLE ... AS SELECT: every question SQLite asks, in its order -- including those of the
statements it runs on the schema table to rewrite it and of
sqlite3_declare_vtab -- what a denial (SQLITE_DENY) of each question in turn
does, and SQLITE_IGNORE of the first. Then, on one connection, eponymous
tables connected once (json_each, pragma_quick_check for ADD COLUMN ...
CHECK). Run by same_output.sh on Basalt's library and the system one.
(fts5 and rtree run statements of their own in an order of their own and
are not compared here. Nor is IGNORE of the automatic index of an added
UNIQUE column: SQLite then adds the column, UNIQUE and all.)"""
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.sqlite3_errmsg.restype = ctypes.c_char_p
AUTH = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p,
                        ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p)
lib.sqlite3_set_authorizer.argtypes = [ctypes.c_void_p, AUTH, ctypes.c_void_p]
lib.sqlite3_exec.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p,
                             ctypes.c_void_p]
state = {"deny": None, "answer": 1, "nth": 0, "count": 0, "quiet": False}
log = []
def auth(_, code, a1, a2, a3, a4):
    args = [x.decode() if x is not None else None for x in (a1, a2, a3, a4)]
    state["count"] += 1
    hit = state["deny"] == code or state["nth"] == state["count"]
    log.append("    %s %s%s" % (code, " ".join(str(x) for x in args), " <-" if hit else ""))
    return state["answer"] if hit else 0
cb = AUTH(auth)
def opendb():
    db = ctypes.c_void_p()
    lib.sqlite3_open(b":memory:", ctypes.byref(db))
    return db
def run(db, sql):
    return lib.sqlite3_exec(db, sql.encode(), None, None, None)
def dump(db, what):
    out = []
    CB = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int,
                          ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_char_p))
    def row(_, n, vals, names):
        out.append("|".join((vals[i] or b"NULL").decode() for i in range(n)))
        return 0
    c = CB(row)
    lib.sqlite3_exec(db, what.encode(), c, None, None)
    return out
def ex(db, sql, deny=None, nth=0, answer=1, show=True):
    state.update(deny=deny, nth=nth, answer=answer, count=0)
    del log[:]
    rc = run(db, sql)
    print("%s  deny=%s nth=%s answer=%s" % (sql, deny, nth, answer))
    if show:
        for line in log:
            print(line)
    print("  ->", rc, lib.sqlite3_errmsg(db).decode() if rc else "")
    return len(log)
SETUP = """create table t1(a integer primary key, b, c unique, d check(d>0));
create index i1 on t1(b);
create view v1 as select a, b from t1;
create trigger tr1 after insert on t1 begin insert into t2 values(new.b, new.c); end;
create table t2(x, y, z default 5);
create temp table tt(p, q);
create temp trigger ttr after update on t1 begin select 1; end;
insert into t1 values(1, 2, 3, 4);"""
CASES = [
    "alter table t1 rename to t9",
    "alter table t2 rename to t8",
    "alter table tt rename to tq",
    "alter table t1 rename column b to bb",
    "alter table t2 rename column y to yy",
    "alter table tt rename column q to qq",
    "alter table t2 add column w",
    "alter table t2 add column w2 default 7 check(w2 > 0)",
    "alter table t2 add column w3 references t1(a)",
    "alter table t2 add column w4 as (x+1)",
    "alter table tt add column r",
    "alter table t2 add column e1 not null",
    "alter table t2 add column e2 as (x) stored",
    "alter table t2 add column e3 primary key",
    "alter table t2 add column e5 default (random())",
    "alter table t2 add column e6 integer primary key",
    "alter table t2 add column e7 default (-1) not null",
    "alter table tt add column e8 primary key",
    "alter table t2 drop column z",
    "alter table t1 drop column d",
    "alter table tt drop column q",
    "alter table t1 rename column a to aa",
    "alter table main.t2 rename to t7",
    "alter table nosuch rename to x",
    "create virtual table s using fts4(a)",
    "create virtual table temp.s5 using fts4(z)",
    "create virtual table if not exists tt using fts4(q)",
    "create virtual table s2 using fts4(a); drop table s2",
    "create virtual table s3 using fts4(a, b); alter table s3 rename to s4",
    "create virtual table s6 using fts4(a); alter table s6 add column z",
    "create table c1 as select a, b from t1 where c > 0",
    "create temp table c2 as select x, y from t2",
    "create table c4 as select t1.a, t2.x from t1, t2 where t1.b = t2.y",
]
for sql in CASES:
    db = opendb()
    run(db, SETUP)
    lib.sqlite3_set_authorizer(db, cb, None)
    n = ex(db, sql)
    lib.sqlite3_set_authorizer(db, AUTH(0), None)
    print("  schema:", dump(db, "select type, name, tbl_name, sql from sqlite_master order by 1, 2"))
    lib.sqlite3_close_v2(db)
    # Deny, then ignore, each question in turn.
    for answer in (1, 2):
        for k in range(1, n + 1 if answer == 1 else 2):
            db = opendb()
            run(db, SETUP)
            lib.sqlite3_set_authorizer(db, cb, None)
            ex(db, sql, nth=k, answer=answer, show=False)
            print("   ", log[k - 1] if k <= len(log) else "-", "(%d asked)" % len(log))
            lib.sqlite3_set_authorizer(db, AUTH(0), None)
            print("  schema:", dump(db, "select type, name, sql from sqlite_master order by 1, 2"),
                  dump(db, "select name, sql from sqlite_temp_master order by 1"))
            lib.sqlite3_close_v2(db)

# One connection: the declaration questions come with the first use only.
db = opendb()
run(db, SETUP)
lib.sqlite3_set_authorizer(db, cb, None)
for sql in ["select key from json_each('[1,2]')", "select value from json_each('[3]')",
            "alter table t2 add column k1 check(k1 > 0)", "alter table t2 add column k2 check(k2 > 0)",
            "alter table t1 add column k3", "create virtual table x using fts4(a)",
            "drop table x"]:
    ex(db, sql)
lib.sqlite3_close_v2(db)

"""sqlite3_backup between two files, one page per step: what other
connections see on the destination between steps (a reader, a writer, in
rollback and WAL mode of the destination), and what the source's own
connection and another one may do to the source meanwhile. Run by
same_output.sh on both libraries."""
import ctypes, os, sys, tempfile
lib = ctypes.CDLL(sys.argv[1])
P = ctypes.c_void_p
lib.sqlite3_exec.argtypes = [P, ctypes.c_char_p, P, P, P]
lib.sqlite3_errmsg.restype = ctypes.c_char_p
lib.sqlite3_errmsg.argtypes = [P]
lib.sqlite3_backup_init.restype = P
lib.sqlite3_backup_init.argtypes = [P, ctypes.c_char_p, P, ctypes.c_char_p]
for f in ("step", "remaining", "pagecount", "finish"):
    getattr(lib, "sqlite3_backup_" + f).argtypes = [P] + ([ctypes.c_int] if f == "step" else [])
CB = ctypes.CFUNCTYPE(ctypes.c_int, P, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), P)
out = []
def row(_, n, vals, names):
    out.append("|".join((vals[i] or b"NULL").decode() for i in range(n)))
    return 0
cb = CB(row)
def opendb(path):
    db = P()
    lib.sqlite3_open(path.encode(), ctypes.byref(db))
    return db
def ex(db, sql):
    del out[:]
    rc = lib.sqlite3_exec(db, sql.encode(), cb, None, None)
    return "%d %s %s" % (rc, ",".join(out), lib.sqlite3_errmsg(db).decode() if rc else "")
tmp = tempfile.mkdtemp()
for dest_mode in ["delete", "wal"]:
    for n, probe in enumerate(["select count(*) from d", "insert into d values(9)",
                               "begin; select count(*) from d", "pragma user_version",
                               "src: insert into s values(randomblob(900))",
                               "src-other: insert into s values(randomblob(900))",
                               "src-other: select count(*) from s"]):
        src_path = os.path.join(tmp, "s%s%d.db" % (dest_mode, n))
        dst_path = os.path.join(tmp, "d%s%d.db" % (dest_mode, n))
        src = opendb(src_path)
        ex(src, "pragma page_size=1024; create table s(x); insert into s select randomblob(900) "
                "from (with recursive c(i) as (select 1 union all select i+1 from c where i<20) "
                "select i from c)")
        dst = opendb(dst_path)
        ex(dst, "pragma journal_mode=%s; create table d(y); insert into d values(1)" % dest_mode)
        other = opendb(dst_path)
        sother = opendb(src_path)
        print(dest_mode, "probe:", probe)
        b = lib.sqlite3_backup_init(dst, b"main", src, b"main")
        for i in range(4):
            rc = lib.sqlite3_backup_step(b, 3)
            who, sql = (src, probe[5:]) if probe.startswith("src: ") else (
                (sother, probe[11:]) if probe.startswith("src-other: ") else (other, probe))
            r = ex(who, sql)
            print("  step rc=%d remaining=%d pagecount=%d probe -> %s" % (
                rc, lib.sqlite3_backup_remaining(b), lib.sqlite3_backup_pagecount(b), r))
            if who is other and sql.startswith("begin"):
                ex(other, "commit")
            if rc != 0:
                break
        while True:
            rc = lib.sqlite3_backup_step(b, 5)
            if rc != 0:
                break
        print("  last step rc=%d finish=%d" % (rc, lib.sqlite3_backup_finish(b)))
        print("  dest after:", ex(other, "select count(*) from s"), "| src:", ex(src, "select count(*) from s"))
        for db in (other, sother, dst, src):
            lib.sqlite3_close(db)

# A destination read before the backup (its schema cached), a WAL
# destination of the source's page size, and a backup finished half-way.
for dest_mode, stop_after in [("delete", None), ("wal", None), ("delete", 2), ("wal", 2)]:
    tag = "%s%s" % (dest_mode, stop_after)
    src_path = os.path.join(tmp, "s2%s.db" % tag)
    dst_path = os.path.join(tmp, "d2%s.db" % tag)
    src = opendb(src_path)
    ex(src, "pragma page_size=1024; create table s(x); create index si on s(x); insert into s "
            "select randomblob(300) from (with recursive c(i) as (select 1 union all select i+1 "
            "from c where i<30) select i from c)")
    dst = opendb(dst_path)
    ex(dst, "pragma page_size=1024; pragma journal_mode=%s; create table d(y); "
            "insert into d values(1)" % dest_mode)
    other = opendb(dst_path)
    print(tag, "before:", ex(other, "select count(*) from d"))
    b = lib.sqlite3_backup_init(dst, b"main", src, b"main")
    steps = 0
    while True:
        rc = lib.sqlite3_backup_step(b, 4)
        steps += 1
        print("  step rc=%d remaining=%d read -> %s | write -> %s" % (
            rc, lib.sqlite3_backup_remaining(b), ex(other, "select count(*) from sqlite_master"),
            ex(other, "insert into d values(2)") if steps == 1 else "-"))
        if rc != 0 or (stop_after is not None and steps >= stop_after):
            break
    print("  finish=%d" % lib.sqlite3_backup_finish(b))
    print("  other:", ex(other, "select count(*) from s"), "|", ex(other, "select count(*) from d"),
          "| cookie:", ex(other, "pragma schema_version"),
          "| check:", ex(other, "pragma integrity_check"))
    for db in (other, dst, src):
        lib.sqlite3_close(db)

# Written through the source's own connection between steps: a source file
# goes on (its copied pages refreshed), an in-memory source restarts.
for src_name in [":memory:", os.path.join(tmp, "own.db")]:
    src = opendb(src_name)
    ex(src, "pragma page_size=1024; create table s(x); insert into s select randomblob(700) from "
            "(with recursive c(i) as (select 1 union all select i+1 from c where i<6) select i from c)")
    dst = opendb(os.path.join(tmp, "own_dest%d.db" % len(src_name)))
    b = lib.sqlite3_backup_init(dst, b"main", src, b"main")
    trail = []
    while True:
        rc = lib.sqlite3_backup_step(b, 2)
        trail.append((rc, lib.sqlite3_backup_remaining(b), lib.sqlite3_backup_pagecount(b)))
        if len(trail) == 1:
            ex(src, "insert into s values(randomblob(700)); update s set x = randomblob(10) "
                    "where rowid = 1")
        if rc != 0:
            break
    print("own writes", "memory" if src_name == ":memory:" else "file", trail,
          lib.sqlite3_backup_finish(b), ex(dst, "select count(*), sum(length(x)) from s"))
    lib.sqlite3_close(dst)
    lib.sqlite3_close(src)

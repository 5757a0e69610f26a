"""sqlite3_stmt_status FULLSCAN_STEP, SORT and AUTOINDEX after each query of
a fixture; run by same_output.sh on both libraries."""
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
db = ctypes.c_void_p(); lib.sqlite3_open(b":memory:", ctypes.byref(db))
def ex(sql): lib.sqlite3_exec(db, sql.encode(), None, None, None)
ex("create table t(a integer primary key, b, c); create index tb on t(b); create table w(k primary key, v) without rowid;")
ex("insert into t select value, value%10, value from generate_series(1,100); insert into w select value, value from generate_series(1,50)")
for q in ["select * from t", "select * from t where c > 50", "select b from t", "select * from t where b = 3", "select * from w", "select * from t order by c", "select count(*) from t, w where t.a = w.k", "select * from t where a > 10", "select * from t order by b desc"]:
    st = ctypes.c_void_p(); lib.sqlite3_prepare_v2(db, q.encode(), -1, ctypes.byref(st), None)
    while lib.sqlite3_step(st) == 100: pass
    print(q, "fullscan", lib.sqlite3_stmt_status(st, 1, 0), "sort", lib.sqlite3_stmt_status(st, 2, 0), "autoindex", lib.sqlite3_stmt_status(st, 3, 0))
    lib.sqlite3_finalize(st)

# .selftest: the default checks, --init (a schema hash and one row hash per table), -v, failing and erroring checks, memos, rows skipped for NULLs, an unknown op, an unreadable selftest table, bad options.
sqlite3 :memory: ".selftest"
sqlite3 :memory: ".selftest -v" ".self --v"
sqlite3 :memory: ".selftest --bogus" ".print not reached"
sqlite3 :memory: ".sel" ".print not reached"
sqlite3 :memory: "create table t(a,b); insert into t values(1,'x'); create table \"q\"\"t\"(c); create index i on t(b);" ".selftest --init" "select * from selftest;" ".selftest -v"
sqlite3 :memory: "create table t(a); insert into t values(1);" ".selftest --init" "insert into selftest values(5,'run','select 1,2 union all select 3,null','1,2|3,');" "insert into selftest values(6,'run','select 1','2');" "insert into selftest values(7,'run','select x','2');" "insert into selftest values(8,'memo','hello',null);" "insert into selftest values(9,'memo','shown','');" ".selftest" ".print next"
sqlite3 :memory: "create table selftest(tno integer primary key, op, cmd, ans); insert into selftest values(1,'run','select 1','2'),(2,'bad','x','y'),(3,'run','select 1','1');" ".selftest" ".print not reached"
sqlite3 :memory: "create table selftest(tno integer primary key, op, cmd, ans); insert into selftest values(1,'run','select 1','2');" ".selftest" ".print not reached"
sqlite3 :memory: "create table selftest(tno integer primary key, op, cmd, ans); insert into selftest values(1,'run','select 1','2'),(2,'run','select 2','2');" ".selftest" ".print reached"
sqlite3 :memory: "create table selftest(tno integer primary key, op, cmd, ans); insert into selftest values(1,null,'select 1','2');" ".selftest -v"
sqlite3 :memory: "create table selftest(x);" ".selftest" ".print not reached"
sqlite3 f.db "create table t(a integer primary key, b); insert into t values(1, x'00'), (2, 2.5);" ".selftest --init" ".selftest --init" "select tno, op, ans from selftest;" && sqlite3 f.db ".selftest"
printf '.selftest --init\n.selftest -v -v\nselect count(*) from selftest;\n' | sqlite3

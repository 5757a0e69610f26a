# .trace: to stdout, stderr and a file; statements, rows, closing, expanded and plain SQL, trigger comments, errors; profile times vary, so only their shape is compared.
sqlite3 :memory: ".trace stdout" "select 1; select 2;" "create table t(a);" "insert into t values(1);"
sqlite3 :memory: ".trace stderr" "select 1;;" ".trace off" "select 2;"
sqlite3 :memory: ".trace tr.txt" "create table t(a,b);" "insert into t values(1,'x');" "select * from t;" ".trace off" "select 5;" && cat tr.txt
sqlite3 :memory: ".trace stdout --row" "create table t(a); insert into t values(1),(2),(3);" "select a from t;"
sqlite3 :memory: ".trace stdout --close" "select 1;"
sqlite3 :memory: ".trace stdout --close --stmt" "select 1;" ".open x.db" "select 2;"
sqlite3 :memory: ".trace stdout --expanded" ".parameter set :x 42" ".parameter set :y 'it''s'" "select :x, :y, ?3;"
sqlite3 :memory: ".trace stdout --expanded" ".trace stdout" "select 7 where 1=?1;" ".trace stdout --plain" "select 8 where 1=?1;"
sqlite3 :memory: ".trace stdout --bogus" ".print next"
sqlite3 :memory: ".trace nosuchdir/x" "select 3;"
sqlite3 :memory: ".trace stdout --profile" "select 1;" "select 2;" | sed 's/-- [0-9]* ns/-- N ns/'
sqlite3 :memory: ".trace stdout --profile --stmt" "select 4;" | sed 's/-- [0-9]* ns/-- N ns/'
sqlite3 :memory: ".trace stdout" ".trace" "select 1;" ".trace -row" "select 2;"
sqlite3 :memory: ".tr stdout" "select 9;" ".tra off" "select 10;"
sqlite3 :memory: ".trace --row stdout" "select 1;"; ls
printf '.trace stdout\nselect 1;\n.trace t2.txt --stmt\nselect 2;\nselect 3\n;\n' | sqlite3 && cat t2.txt
sqlite3 f.db ".trace stdout --stmt --row --close" "create table t(a);" "insert into t values(1);" "select * from t;"
sqlite3 :memory: ".trace stdout" ".parameter init" ".parameter set @a 1" ".parameter list" ".parameter bogus" "select @a;"
# Trigger programs: "-- TRIGGER name" as each starts, then "-- <step>" (whitespace as spaces) before each step.
printf '.trace stdout\ncreate table t(a); create table log(x);\ncreate trigger tr after insert on t begin insert into log values(new.a);\n  update log set x = x\n\t+ 1; end;\ncreate trigger tr2 before insert on t when new.a > 5 begin select 1; end;\ninsert into t values(1);\ninsert into t values(7);\n.trace off\ninsert into t values(8);\n.trace stdout --stmt\ninsert into t values(9);\n' | sqlite3

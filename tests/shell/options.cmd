# Command-line options: each line runs both shells.
sqlite3 -version
sqlite3 -help
sqlite3 --help
sqlite3 -bogus
sqlite3 --bogus x.db
sqlite3 :memory: -separator
sqlite3 -nullvalue
sqlite3 :memory: "select 1, 'a', null"
sqlite3 :memory: "select 1" "select 2; select 3"
sqlite3 :memory: "select nosuch"
sqlite3 :memory: "select 1" "select nosuch" "select 3"
sqlite3 :memory: ".bogus"
sqlite3 :memory: ".mode csv" "select 1, 'a b'"
sqlite3 -header :memory: "select 1 as a, 2 as b"
sqlite3 -noheader -column :memory: "select 1 as a, 2 as b"
sqlite3 -column :memory: "select 1 as a, 2 as b"
sqlite3 -csv -header :memory: "select 1 as a, 'x,y' as b"
sqlite3 -json :memory: "select 1 as a, 'x' as b, null as c, 2.5 as d"
sqlite3 -box :memory: "select 1 as a, 'x' as b"
sqlite3 -table :memory: "select 1 as a, 'x' as b"
sqlite3 -markdown :memory: "select 1 as a, 'x' as b"
sqlite3 -line :memory: "select 1 as a, 'x' as b"
sqlite3 -list :memory: "select 1 as a, 'x' as b"
sqlite3 -html :memory: "select 1 as a, 'x' as b"
sqlite3 -quote :memory: "select 1 as a, 'x' as b"
sqlite3 -ascii :memory: "select 1 as a, 'x' as b"
sqlite3 -tabs :memory: "select 1 as a, 'x' as b"
sqlite3 -separator :: -newline '@@' :memory: "select 1, 2" "select 3, 4"
sqlite3 -nullvalue '<null>' :memory: "select null, 1"
sqlite3 -cmd ".mode box" :memory: "select 1 as x"
sqlite3 -cmd "select 5" :memory: "select 6"
sqlite3 -cmd "select nosuch" :memory: "select 6"
sqlite3 -bail -cmd "select nosuch" :memory: "select 6"
sqlite3 -init init.rc :memory: "select 1 as a, 'b c' as b"
sqlite3 -init missing.rc :memory: "select 1"
sqlite3 -echo :memory: "select 1" ".print hi"
sqlite3 :memory: < script.sql
sqlite3 -bail < bad.sql
sqlite3 < bad.sql
sqlite3 -echo < script.sql
sqlite3 -batch < script.sql
sqlite3 new.db "create table t(x); insert into t values(1)" && sqlite3 new.db "select * from t"
sqlite3 -readonly ro.db "select 1"
sqlite3 -stats -version
sqlite3 nofile.db ".tables" && ls
sqlite3 -csv -separator ';' :memory: "select 'a;b', 2"
sqlite3 :memory: ".mode line" "select 1 as a" ".exit 3"
sqlite3 :memory: ".quit" "select 1"
sqlite3 :memory: "select 1;" ".headers"
sqlite3 -eqp :memory: "create table t(a); select * from t where a=1"

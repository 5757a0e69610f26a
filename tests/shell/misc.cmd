# Errors, exit codes and the remaining dot-commands.
sqlite3 :memory: "select 1" ".read nested.sql"
sqlite3 :memory: ".read outer.sql"
sqlite3 -bail :memory: ".read outer.sql"
sqlite3 :memory: < outer.sql
sqlite3 -bail < outer.sql
printf 'select 1;\n.bail on\nselect x;\nselect 2;\n' | sqlite3
printf 'select 1;\nselect x;\nselect 2;\n' | sqlite3
printf 'create table t(a primary key);\ninsert into t values(1);\ninsert into t values(1);\n' | sqlite3
sqlite3 :memory: "create table t(a primary key)" "insert into t values(1)" "insert into t values(1)"
printf 'select 1\n/\nselect 2\ngo\nselect 3;' | sqlite3
printf 'select 1 -- comment\n;\n# hash comment\n  .print indented dot\n/* c */ select 2;\nselect 3' | sqlite3
printf 'select 1;\r\nselect 2;\r\n' | sqlite3
sqlite3 :memory: ".open --new fresh.db" "create table t(x)" ".databases" ".open --readonly fresh.db" ".databases" "insert into t values(1)"
sqlite3 :memory: ".open" ".tables"
sqlite3 :memory: ".open a.db b.db"
sqlite3 :memory: ".open --bogus a.db"
sqlite3 :memory: ".output" ".once" "select 1"
sqlite3 :memory: ".once o.txt" ".print x" "select 1"
sqlite3 :memory: ".output /nonexistent/dir/x" "select 1"
sqlite3 :memory: ".prompt 'A> ' 'B> '" ".show"
sqlite3 :memory: ".cd /" ".print ok"
sqlite3 :memory: ".cd"
sqlite3 :memory: ".timeout 100" ".print ok"
sqlite3 :memory: ".width 5 -5 2" ".show" ".mode column" "select 'abcdefg', 'ab', 'x'"
sqlite3 :memory: ".mode column" "select 'abc' as 日本, '日本語のテキスト' as w, null" ".nullvalue ø" "select null as n"
sqlite3 :memory: ".header on" ".mode box" "select 1 as a, 2 as a"
sqlite3 :memory: ".mode insert" ".header on" "select 1 as [select], 'a' as ok"
sqlite3 :memory: ".mode line" "select 1 as a, 'x' || char(10) || 'y' as longer_name"
sqlite3 :memory: ".mode csv" ".separator ;" "select 'a;b', 'c'"
sqlite3 :memory: ".mode tcl" "select 'a\b' as x, char(1), 'é'"
sqlite3 :memory: ".mode html" "select '<&>' as '\"q\"'"
sqlite3 :memory: ".mode json" "select x'00410a' as b, 'a\"\\b' as t, 1e999 as inf, -1e999 as ninf, 9223372036854775807 as big"
sqlite3 :memory: ".mode quote" "select -0.0, 1e999, 5.0, 1e15, 123456.789"
sqlite3 :memory: ".mode insert" "select -0.0, 1e999, 5.0, 1e15, 123456.789, 1e20"
sqlite3 :memory: ".mode list" "select 1.0, 0.1, 1e15, 1e16, -0.0, 1e-5, 123456789.123456789"
sqlite3 :memory: "select x'41004243', 'a' || char(0) || 'b'"
sqlite3 :memory: ".eqp on" "create table t(a)" "select * from t where a in (select a from t)"
sqlite3 :memory: ".explain" ".show" ".explain off" ".show" ".explain auto" ".show"
sqlite3 :memory: ".tables" ".schema" ".indexes" ".fullschema"
sqlite3 :memory: "attach 'aux.db' as aux" "create table aux.x(a)" "create view aux.v as select a from x" "create table main.y(b)" ".tables" ".schema" ".databases"
sqlite3 :memory: "create temp table tt(a)" "create table m(b)" ".tables" ".schema" ".databases"
sqlite3 :memory: ".changes" ".changes on" "create table t(a)" "insert into t values(1),(2)"
sqlite3 -safe :memory: "select 1"
sqlite3 -nonce x :memory: "select 1"
sqlite3 -lookaside 10 10 :memory: "select 1"
sqlite3 -mmap 0 :memory: "select 1"
sqlite3 -nofollow :memory: "select 1"
sqlite3 -interactive :memory: < script.sql
sqlite3 -vfs nosuchvfs :memory: "select 1"
# -safe: dot-commands that reach files or programs end the shell.
printf 'select 1;\n.shell echo x\n' | sqlite3 -safe
printf 'select 1;\n.cd /\n' | sqlite3 -safe
printf 'select 1;\n.open x.db\n' | sqlite3 -safe
printf 'select 1;\n.open :memory:\n.output x.txt\n' | sqlite3 -safe
printf '.once x\n' | sqlite3 -safe
printf '.import a b\n' | sqlite3 -safe
printf '.read outer.sql\n' | sqlite3 -safe
printf '.dump\n.tables\n' | sqlite3 -safe
# Opening: -readonly, a missing file, a directory, a non-database.
sqlite3 r.db "create table t(a)" && sqlite3 -readonly r.db "insert into t values(1)"
sqlite3 -readonly r.db ".databases" && ls
sqlite3 / "select 1"
sqlite3 script.sql "select * from sqlite_schema"
sqlite3 r.db "create table t(a)" && sqlite3 -nofollow r.db ".tables"
# .lint fkey-indexes
sqlite3 :memory: ".lint" ".lint bogus" ".lint fkey-indexes"
sqlite3 :memory: "create table p(id integer primary key, k unique); create table c(x references p(id), y); create table d(a, b, foreign key(a,b) references p(id,k)); create index d_ba on d(b,a); create table e(z references p)" ".lint fkey-indexes" ".lint fkey-indexes -verbose" ".lint fkey-indexes --groupbyparent -v" ".lint fkey -x"
sqlite3 :memory: ".output --bom b.txt" "select 1" ".output" ".once -z x"
sqlite3 :memory: ".output a b"
sqlite3 :memory: ".once --bom" "select 2"
sqlite3 :memory: ".once --bom |cat" "select 3"

# The apndvfs VFS: -append, .open --append, .archive -a, databases appended to other files found by their mark, ordinary databases passed through.
printf 'hello prefix\n' > host.txt && sqlite3 -append host.txt "create table t(x); insert into t values(42)" && sqlite3 host.txt "select * from t" && od -c host.txt | tail -4
head -c 5000 /dev/zero > big.txt && sqlite3 -append big.txt "create table t(x)" "insert into t values(1)" && ls -l big.txt | cut -d' ' -f5 && tail -c 25 big.txt | od -c
: > e1 && sqlite3 -append e1 "create table t(x)" && ls -l e1 | cut -d' ' -f5 && tail -c 25 e1 | od -c && sqlite3 -append n1 "create table t(x)" && ls -l n1 | cut -d' ' -f5
printf 'hello prefix\n' > h3.txt && sqlite3 -append h3.txt "create table big(x); insert into big select zeroblob(3000) from generate_series(1,10)" "delete from big" "vacuum" "select count(*) from big" && ls -l h3.txt | cut -d' ' -f5 && od -c h3.txt | tail -3
sqlite3 plain.db "create table t(x); insert into t values(7)" && sqlite3 -append plain.db "select * from t" "insert into t values(8)" && sqlite3 plain.db "select * from t" && tail -c 25 plain.db | od -c | head -2
printf 'hello\n' > host.txt && sqlite3 :memory: ".open --append host.txt" "create table t(x); insert into t values(5)" ".open host.txt" "select * from t" && tail -c 25 host.txt | od -c
mkdir -p d && printf 'hello\n' > d/a.txt && touch -d '2024-01-02 03:04:05' d/a.txt d && printf 'prefix\n' > app.db && sqlite3 :memory: ".ar -cva app.db d" ".ar -tva app.db" ".ar -tvf app.db" && sqlite3 app.db ".ar -tv" && od -c app.db | head -3
printf "x" > h.txt && sqlite3 -append h.txt "create table t(x)" && sqlite3 :memory: "attach 'h.txt' as a" "select * from a.sqlite_schema"
sqlite3 -append :memory: "select 1"

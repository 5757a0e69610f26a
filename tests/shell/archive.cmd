# .archive and -A: sqlar tables and ZIP files (create, list, extract, update, insert, remove; -v -f -C -g -n), archives exchanged with /usr/bin/sqlite3 both ways.
mkdir -p d/sub && printf 'hello world\n' > d/a.txt && head -c 3000 fixture.sql > d/sub/big.txt && printf '' > d/empty && touch -d '2024-01-02 03:04:05' d/a.txt d/sub/big.txt d/empty d/sub d && sqlite3 ar.db ".ar -cv d" ".ar -tv" ".ar -t" "select name, mode, mtime, sz, length(data) from sqlar order by name"
mkdir -p d/sub && printf 'hello world\n' > d/a.txt && head -c 3000 fixture.sql > d/sub/big.txt && touch -d '2024-01-02 03:04:05' d/a.txt d/sub/big.txt d/sub d && sqlite3 -Acvf t.zip d && sqlite3 -Atvf t.zip && cat t.zip | od -c | head -5
mkdir -p d/sub && printf 'hello world\n' > d/a.txt && touch -d '2024-01-02 03:04:05' d/a.txt d/sub d && sqlite3 ar.db ".ar --create d" && mkdir out && sqlite3 ar.db ".ar -xv -C out" && ls -lR --time-style=+%s out | sed 's/ [0-9]* root root//'
mkdir -p d/sub && printf 'hello world\n' > d/a.txt && touch -d '2024-01-02 03:04:05' d/a.txt d/sub d && sqlite3 -Acf t.zip d && mkdir out && sqlite3 -Axvf t.zip -C out && ls -lR --time-style=+%s out | sed 's/ [0-9]* root root//'
mkdir -p d/sub && printf 'hello world\n' > d/a.txt && touch -d '2024-01-02 03:04:05' d/a.txt d/sub d && sqlite3 ar.db ".ar -c d" && rm -r d && sqlite3 ar.db ".ar -x d/a.txt" && ls -R d
mkdir -p d/sub && printf 'hello\n' > d/a.txt && printf 'b\n' > d/b.txt && touch -d '2024-01-02 03:04:05' d/a.txt d/b.txt d/sub d && sqlite3 ar.db ".ar -c d" && printf 'changed\n' > d/a.txt && touch -d '2024-01-03 03:04:05' d/a.txt && sqlite3 ar.db ".ar -uv d" ".ar -iv d/b.txt" ".ar -tv" "select name, sqlar_uncompress(data, sz) from sqlar where name = 'd/a.txt'"
mkdir -p d/sub && printf 'hello\n' > d/a.txt && printf 'b\n' > d/b.txt && touch -d '2024-01-02 03:04:05' d/a.txt d/b.txt d/sub d && sqlite3 -Acf t.zip d && printf 'changed\n' > d/a.txt && touch -d '2024-01-03 03:04:05' d/a.txt && sqlite3 -Auvf t.zip d && sqlite3 -Aivf t.zip d/b.txt && sqlite3 -Atvf t.zip
mkdir -p d/sub && printf 'hello\n' > d/a.txt && printf 'b\n' > d/b.txt && touch -d '2024-01-02 03:04:05' d/a.txt d/b.txt d/sub d && sqlite3 ar.db ".ar -c d" ".ar -rv d/a.txt" ".ar -t" ".ar -r d/sub/" ".ar -t" ".ar -rg 'd/*'" ".ar -t"
mkdir -p d/sub && printf 'hello\n' > d/a.txt && touch -d '2024-01-02 03:04:05' d/a.txt d/sub d && sqlite3 ar.db ".ar -c d" ".ar -tg 'd/*'" ".ar -tg 'd*'" ".ar -t d/sub/" ".ar -tg 'x*'"
mkdir -p d && printf 'hello\n' > d/a.txt && touch -d '2024-01-02 03:04:05' d/a.txt d && sqlite3 :memory: ".ar -cf ar2.db d" ".ar -tvf ar2.db" ".ar --list --file ar2.db" ".ar --lis --fi ar2.db d/a.txt"
mkdir -p src/d && printf 'hello\n' > src/d/a.txt && touch -d '2024-01-02 03:04:05' src/d/a.txt src/d && sqlite3 ar.db ".ar -c -C src d" ".ar -tv" && sqlite3 -Acf t.zip -C src d && sqlite3 -Atvf t.zip
mkdir -p d && printf 'hello\n' > d/a.txt && touch -d '2024-01-02 03:04:05' d/a.txt d && sqlite3 ar.db ".ar -c d" ".ar -tnv" ".ar -tn" ".ar -xnv" ".ar -unv d" ".ar -inv d/a.txt" ".ar -rnv d/a.txt" ".ar -tn d/a.txt d" ".ar -tng 'd/*'" ".ar -xn -C out d/a.txt" ".ar -rng 'd/*'" ".ar -cnf x.db d" ".ar -tnf ar.db"
mkdir -p d && printf 'hello\n' > d/a.txt && touch -d '2024-01-02 03:04:05' d/a.txt d && sqlite3 -Acf t.zip d && sqlite3 t.zip ".ar -tnv" ".ar -xn" ".ar -tv" "select name, mode, mtime, data from zip" ".ar -rn d/a.txt"
sqlite3 :memory: ".ar -tvf ar.db nomatch"
sqlite3 :memory: ".ar -tf nonexist.db"
sqlite3 :memory: ".ar -tf nonexist.zip"
sqlite3 :memory: ".ar -t" ".print after"
sqlite3 :memory: ".ar -tx"
sqlite3 :memory: ".ar -q"
sqlite3 :memory: ".ar -tf"
sqlite3 :memory: ".ar --d"
sqlite3 :memory: ".ar --zz"
sqlite3 :memory: ".ar -t --file"
sqlite3 :memory: ".ar -tt"
sqlite3 :memory: ".ar"
sqlite3 :memory: ".ar --help"
sqlite3 :memory: ".ar -h" ".archive -h -v"
sqlite3 :memory: ".ar -v"
sqlite3 -A
sqlite3 -Atf
sqlite3 -Atf nonexist.db; echo "status $?"
sqlite3 -A -q
mkdir -p d && printf 'hello\n' > d/a.txt && touch -d '2024-01-02 03:04:05' d/a.txt d && sqlite3 -Acf x.zip d && /usr/bin/sqlite3 -Atvf x.zip && /usr/bin/sqlite3 :memory: "select name, mode, mtime, data, method from zipfile('x.zip')"
mkdir -p d && printf 'hello\n' > d/a.txt && head -c 2000 fixture.sql > d/b.txt && touch -d '2024-01-02 03:04:05' d/a.txt d/b.txt d && /usr/bin/sqlite3 -Acf x.zip d && sqlite3 -Atvf x.zip && mkdir out && sqlite3 -Axf x.zip -C out && cmp out/d/b.txt d/b.txt && echo same
mkdir -p d && printf 'hello\n' > d/a.txt && head -c 2000 fixture.sql > d/b.txt && touch -d '2024-01-02 03:04:05' d/a.txt d/b.txt d && sqlite3 ar.db ".ar -c d" && /usr/bin/sqlite3 ar.db ".ar -tv" && mkdir out && /usr/bin/sqlite3 ar.db ".ar -x -C out" && cmp out/d/b.txt d/b.txt && echo same
mkdir -p d && printf 'hello\n' > d/a.txt && head -c 2000 fixture.sql > d/b.txt && touch -d '2024-01-02 03:04:05' d/a.txt d/b.txt d && /usr/bin/sqlite3 ar.db ".ar -c d" && sqlite3 ar.db ".ar -tv" && mkdir out && sqlite3 ar.db ".ar -x -C out" && cmp out/d/b.txt d/b.txt && echo same
sqlite3 x.db "select 1" -A tf ar.db
mkdir -p d && printf 'hello\n' > d/a.txt && touch -d '2024-01-02 03:04:05' d/a.txt d && sqlite3 ar.db ".ar -c d" && sqlite3 -A tf ar.db && sqlite3 -A -tvf ar.db d/a.txt && sqlite3 ar.db -A -tv -- d && sqlite3 -Atvfar.db && sqlite3 ar.db -Atv
mkdir -p d && printf 'hello\n' > d/a.txt && touch -d '2024-01-02 03:04:05' d/a.txt d && sqlite3 ar.db ".ar -c d" ".help archive" ".help recover"

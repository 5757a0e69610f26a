#!/bin/sh
# PRAGMA integrity_check / quick_check on a file whose schema sqlite3 was
# made to contradict the rows (through writable_schema): CHECK constraints,
# indexes on expressions, on VIRTUAL columns, partial indexes, a WITHOUT
# ROWID table and a STRICT one. Basalt's shell must print exactly what
# sqlite3 prints.
set -u
shell=${1:?usage: integrity_expr.sh BASALT_SHELL}
if ! command -v sqlite3 >/dev/null 2>&1; then
  echo "sqlite3 not installed: skipped"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/ic.db"
sqlite3 "$db" <<'SQL'
CREATE TABLE m(a, b NOT NULL, c AS (a*2), CHECK(a < 10));
CREATE INDEX m1 ON m(c);
CREATE INDEX m2 ON m(a+b);
CREATE INDEX m3 ON m(b) WHERE a > 2;
CREATE INDEX m4 ON m(a);
CREATE INDEX m5 ON m(b);
INSERT INTO m(a,b) VALUES(1,1),(2,2),(3,3),(4,4),(5,5);
CREATE TABLE w(k PRIMARY KEY, v, g AS (v || 'x') STORED, h AS (k + v)) WITHOUT ROWID;
CREATE INDEX w1 ON w(h);
CREATE INDEX w2 ON w(lower(g));
INSERT INTO w(k, v) VALUES(1, 'A'), (2, 'B'), (3, 'C');
CREATE TABLE s(a INTEGER, b TEXT, CHECK (a > 0)) STRICT;
INSERT INTO s VALUES(1, 'x'), (2, 'y');
CREATE TABLE old(a, b);
INSERT INTO old VALUES(1, 2);
ALTER TABLE old ADD COLUMN c DEFAULT 3 CHECK (c > 2);
CREATE INDEX old1 ON old(c * 2);
PRAGMA writable_schema=ON;
UPDATE sqlite_schema SET sql='CREATE TABLE m(a, b NOT NULL, c AS (a*3), CHECK(a < 4))' WHERE name='m';
UPDATE sqlite_schema SET sql='CREATE INDEX m3 ON m(b) WHERE a > 1' WHERE name='m3';
UPDATE sqlite_schema SET sql='CREATE INDEX w2 ON w(upper(g))' WHERE name='w2';
UPDATE sqlite_schema SET sql='CREATE TABLE s(a INTEGER, b TEXT, CHECK (a > 1)) STRICT' WHERE name='s';
SQL
checks='PRAGMA integrity_check;
PRAGMA integrity_check(3);
PRAGMA quick_check;
PRAGMA integrity_check(w);
PRAGMA integrity_check(old);
PRAGMA ignore_check_constraints=ON;
PRAGMA integrity_check(s);'
echo "$checks" | sqlite3 "$db" > "$tmp/sqlite.out" 2>&1
echo "$checks" | "$shell" "$db" > "$tmp/basalt.out" 2>&1
if cmp -s "$tmp/sqlite.out" "$tmp/basalt.out"; then
  echo "ok: $(wc -l < "$tmp/sqlite.out") lines identical"
  exit 0
fi
diff "$tmp/sqlite.out" "$tmp/basalt.out"
exit 1

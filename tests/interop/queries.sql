SELECT count(*), sum(a), total(c), sum(length(d)) FROM t1;
SELECT id, a, b, c, length(d) FROM t1 WHERE id % 101 = 1 ORDER BY id;
SELECT a, n FROM v1 ORDER BY n DESC, a LIMIT 5;
SELECT count(*), sum(length(v)) FROM t2;
SELECT k FROM t2 WHERE v > 'abab' ORDER BY v, k LIMIT 3;
SELECT count(*), max(id) FROM seq;
SELECT name, seq FROM sqlite_sequence;
SELECT type, name, tbl_name FROM sqlite_schema ORDER BY name;
PRAGMA user_version;

-- Values of every storage class as the shell prints them in list mode.
CREATE TABLE t(a INTEGER PRIMARY KEY, b, c TEXT, d REAL);
INSERT INTO t VALUES(1, 'text', 'x', 1.5);
INSERT INTO t VALUES(2, NULL, NULL, NULL);
INSERT INTO t VALUES(3, 12, '12', 12);
INSERT INTO t(b, d) VALUES(x'414243', 1e20);
INSERT INTO t(b, d) VALUES(-9223372036854775808, 0.1);
SELECT * FROM t;
SELECT typeof(b), typeof(c), typeof(d) FROM t ORDER BY a;
SELECT 1/0, 1.0/3, 2e300*1e300, -0.0, 100000000000000000000;
SELECT count(*), sum(a), avg(d), total(b) FROM t;
SELECT a, b FROM t WHERE c IS NULL;
SELECT group_concat(a, '-') FROM t;

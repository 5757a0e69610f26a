-- SQLite 3.40.1 bug rj-const-on (see README.md): differential record 9805:24947,
-- found by `sh tests/diff/run.sh build/basalt-slt 9805 1 2000 DIR` (the
-- record at line 24947 of DIR/expected/diff_9805.test). The generated query was
--   SELECT s2220.b FROM t3 s2219 LEFT JOIN t2 s2220 ON s2219.c = s2220.id AND (s2220.c >= s2220.c AND NOT (2 = 2)) JOIN t4 s2221 ON s2220.a = s2221.a RIGHT JOIN t2 s2222 ON s2221.c = s2222.c
-- Reduced below (rows, terms and columns removed while SQLite and Basalt
-- still differ and Basalt still agrees with the rewrite).
--
-- sqlite3 3.40.1 answers (rows sorted, .mode quote):
--   (no rows)
-- The correct answer, Basalt's, which is also what sqlite3 answers to the
-- join-by-join rewrite at the end of this file (tests/diff/join_oracle.py:
-- every RIGHT JOIN turned into a LEFT JOIN with its operands swapped, each
-- join step materialized, no more than two sources per join):
--   NULL
--
-- Run: sqlite3 < this file (the query, then the rewrite); build/basalt < this file.
CREATE TABLE t2(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID;
INSERT INTO t2 VALUES (6, 2, 'x', 0);
CREATE TABLE t3(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID;
CREATE TABLE t4(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
SELECT s2220.b FROM t3 s2219 LEFT JOIN t2 s2220 ON ( NOT (2 = 2)) JOIN t4 s2221 ON s2220.a = s2221.a RIGHT JOIN t2 s2222 ON s2221.c = s2222.c;
WITH j1 AS MATERIALIZED (SELECT s2219.id AS s2219_id, s2219.a AS s2219_a, s2219.b AS s2219_b, s2219.c AS s2219_c FROM t3 s2219), j2 AS MATERIALIZED (SELECT j1.s2219_id AS s2219_id, j1.s2219_a AS s2219_a, j1.s2219_b AS s2219_b, j1.s2219_c AS s2219_c, s2220.id AS s2220_id, s2220.a AS s2220_a, s2220.b AS s2220_b, s2220.c AS s2220_c FROM j1 LEFT JOIN t2 s2220 ON ( NOT (2 = 2))), j3 AS MATERIALIZED (SELECT j2.s2219_id AS s2219_id, j2.s2219_a AS s2219_a, j2.s2219_b AS s2219_b, j2.s2219_c AS s2219_c, j2.s2220_id AS s2220_id, j2.s2220_a AS s2220_a, j2.s2220_b AS s2220_b, j2.s2220_c AS s2220_c, s2221.id AS s2221_id, s2221.a AS s2221_a, s2221.b AS s2221_b, s2221.c AS s2221_c FROM j2, t4 s2221 WHERE j2.s2220_a = s2221.a), j4 AS MATERIALIZED (SELECT j3.s2219_id AS s2219_id, j3.s2219_a AS s2219_a, j3.s2219_b AS s2219_b, j3.s2219_c AS s2219_c, j3.s2220_id AS s2220_id, j3.s2220_a AS s2220_a, j3.s2220_b AS s2220_b, j3.s2220_c AS s2220_c, j3.s2221_id AS s2221_id, j3.s2221_a AS s2221_a, j3.s2221_b AS s2221_b, j3.s2221_c AS s2221_c, s2222.id AS s2222_id, s2222.a AS s2222_a, s2222.b AS s2222_b, s2222.c AS s2222_c FROM t2 s2222 LEFT JOIN j3 ON j3.s2221_c = s2222.c) SELECT j4.s2220_b FROM j4;

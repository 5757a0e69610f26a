-- SQLite 3.40.1 bug rj-where-before-match (see README.md): differential record 10345:49738,
-- found by `sh tests/diff/run.sh build/basalt-slt 10345 1 2000 DIR` (the
-- record at line 49738 of DIR/expected/diff_10345.test). The generated query was
--   SELECT s4054.a, s4053.b FROM t3 s4053 JOIN t3 s4054 ON s4053.id = s4054.c RIGHT JOIN t2 s4055 ON s4054.c = s4055.a WHERE s4054.c IS s4054.a
-- Reduced below (rows, terms and columns removed while SQLite and Basalt
-- still differ and Basalt still agrees with the rewrite).
--
-- sqlite3 3.40.1 answers (rows sorted, .mode quote):
--   NULL
-- The correct answer, Basalt's, which is also what sqlite3 answers to the
-- join-by-join rewrite at the end of this file (tests/diff/join_oracle.py:
-- every RIGHT JOIN turned into a LEFT JOIN with its operands swapped, each
-- join step materialized, no more than two sources per join):
--   (no rows)
--
-- Run: sqlite3 < this file (the query, then the rewrite); build/basalt < this file.
CREATE TABLE t2(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID;
INSERT INTO t2 VALUES (8, 3, 'x', 3);
CREATE TABLE t3(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID;
CREATE INDEX t3_a ON t3(a);
INSERT INTO t3 VALUES (3, 2, '', 3);
SELECT s4053.b FROM t3 s4053 JOIN t3 s4054 ON s4053.id = s4054.c RIGHT JOIN t2 s4055 ON s4054.c = s4055.a WHERE s4054.c IS s4054.a;
WITH j1 AS MATERIALIZED (SELECT s4053.id AS s4053_id, s4053.a AS s4053_a, s4053.b AS s4053_b, s4053.c AS s4053_c FROM t3 s4053), j2 AS MATERIALIZED (SELECT j1.s4053_id AS s4053_id, j1.s4053_a AS s4053_a, j1.s4053_b AS s4053_b, j1.s4053_c AS s4053_c, s4054.id AS s4054_id, s4054.a AS s4054_a, s4054.b AS s4054_b, s4054.c AS s4054_c FROM j1, t3 s4054 WHERE j1.s4053_id = s4054.c), j3 AS MATERIALIZED (SELECT j2.s4053_id AS s4053_id, j2.s4053_a AS s4053_a, j2.s4053_b AS s4053_b, j2.s4053_c AS s4053_c, j2.s4054_id AS s4054_id, j2.s4054_a AS s4054_a, j2.s4054_b AS s4054_b, j2.s4054_c AS s4054_c, s4055.id AS s4055_id, s4055.a AS s4055_a, s4055.b AS s4055_b, s4055.c AS s4055_c FROM t2 s4055 LEFT JOIN j2 ON j2.s4054_c = s4055.a) SELECT j3.s4053_b FROM j3 WHERE j3.s4054_c IS j3.s4054_a;

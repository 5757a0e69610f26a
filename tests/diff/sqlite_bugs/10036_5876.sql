-- SQLite 3.40.1 bug rj-where-before-match (see README.md): differential record 10036:5876,
-- found by `sh tests/diff/run.sh build/basalt-slt 10036 1 2000 DIR` (the
-- record at line 5876 of DIR/expected/diff_10036.test). The generated query was
--   SELECT s546.b, count(s545.b), count(DISTINCT s544.b), min(s544.b) FROM t2 s544 JOIN t1 s545 USING (a) RIGHT JOIN t1 s546 ON s544.id = s546.id WHERE s545.id IS s545.a GROUP BY s546.b
-- Reduced below (rows, terms and columns removed while SQLite and Basalt
-- still differ and Basalt still agrees with the rewrite).
--
-- sqlite3 3.40.1 answers (rows sorted, .mode quote):
--   NULL
--   NULL
-- The correct answer, Basalt's, which is also what sqlite3 answers to the
-- join-by-join rewrite at the end of this file (tests/diff/join_oracle.py:
-- every RIGHT JOIN turned into a LEFT JOIN with its operands swapped, each
-- join step materialized, no more than two sources per join):
--   NULL
--
-- Run: sqlite3 < this file (the query, then the rewrite); build/basalt < this file.
CREATE TABLE t1(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID;
INSERT INTO t1 VALUES (2, 2, '', 2), (5, 0, 'X', NULL);
CREATE TABLE t2(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
INSERT INTO t2 VALUES (2, 0, '', 4);
SELECT min(s544.b) FROM t2 s544 JOIN t1 s545 USING (a) RIGHT JOIN t1 s546 ON s544.id = s546.id WHERE s545.id IS s545.a GROUP BY s546.b;
WITH j1 AS MATERIALIZED (SELECT s544.id AS s544_id, s544.a AS s544_a, s544.b AS s544_b, s544.c AS s544_c FROM t2 s544), j2 AS MATERIALIZED (SELECT j1.s544_id AS s544_id, j1.s544_a AS s544_a, j1.s544_b AS s544_b, j1.s544_c AS s544_c, s545.id AS s545_id, s545.a AS s545_a, s545.b AS s545_b, s545.c AS s545_c FROM j1, t1 s545 WHERE j1.s544_a = s545.a), j3 AS MATERIALIZED (SELECT j2.s544_id AS s544_id, j2.s544_a AS s544_a, j2.s544_b AS s544_b, j2.s544_c AS s544_c, j2.s545_id AS s545_id, j2.s545_a AS s545_a, j2.s545_b AS s545_b, j2.s545_c AS s545_c, s546.id AS s546_id, s546.a AS s546_a, s546.b AS s546_b, s546.c AS s546_c FROM t1 s546 LEFT JOIN j2 ON j2.s544_id = s546.id) SELECT min(j3.s544_b) FROM j3 WHERE j3.s545_id IS j3.s545_a GROUP BY j3.s546_b;

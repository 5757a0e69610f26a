-- SQLite 3.40.1 bug rj-const-on (see README.md): differential record 11593:20384,
-- found by `sh tests/diff/run.sh build/basalt-slt 11593 1 2000 DIR` (the
-- record at line 20384 of DIR/expected/diff_11593.test). The generated query was
--   SELECT s1146.b FROM (SELECT * FROM t3 WHERE t3.a IS NOT 3) s1146 LEFT JOIN t1 s1147 ON s1146.a = s1147.c AND 1 > 2 JOIN t1 s1148 ON s1147.id = s1148.id RIGHT JOIN (SELECT * FROM t3 WHERE t3.a IS NOT 2) s1149 ON (NOT (s1146.c = (s1146.a + 4)) AND NOT ((s1148.a + 0) = 3))
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
CREATE TABLE t1(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID;
CREATE TABLE t3(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID;
INSERT INTO t3 VALUES (5, 4, 'y', 1);
SELECT s1146.b FROM t3 s1146 LEFT JOIN t1 s1147 ON 1 > 2 JOIN t1 s1148 ON s1147.id = s1148.id RIGHT JOIN t3 s1149 ON (NOT (s1146.c = (s1146.a + 4)));
WITH j1 AS MATERIALIZED (SELECT s1146.id AS s1146_id, s1146.a AS s1146_a, s1146.b AS s1146_b, s1146.c AS s1146_c FROM t3 s1146), j2 AS MATERIALIZED (SELECT j1.s1146_id AS s1146_id, j1.s1146_a AS s1146_a, j1.s1146_b AS s1146_b, j1.s1146_c AS s1146_c, s1147.id AS s1147_id, s1147.a AS s1147_a, s1147.b AS s1147_b, s1147.c AS s1147_c FROM j1 LEFT JOIN t1 s1147 ON 1 > 2), j3 AS MATERIALIZED (SELECT j2.s1146_id AS s1146_id, j2.s1146_a AS s1146_a, j2.s1146_b AS s1146_b, j2.s1146_c AS s1146_c, j2.s1147_id AS s1147_id, j2.s1147_a AS s1147_a, j2.s1147_b AS s1147_b, j2.s1147_c AS s1147_c, s1148.id AS s1148_id, s1148.a AS s1148_a, s1148.b AS s1148_b, s1148.c AS s1148_c FROM j2, t1 s1148 WHERE j2.s1147_id = s1148.id), j4 AS MATERIALIZED (SELECT j3.s1146_id AS s1146_id, j3.s1146_a AS s1146_a, j3.s1146_b AS s1146_b, j3.s1146_c AS s1146_c, j3.s1147_id AS s1147_id, j3.s1147_a AS s1147_a, j3.s1147_b AS s1147_b, j3.s1147_c AS s1147_c, j3.s1148_id AS s1148_id, j3.s1148_a AS s1148_a, j3.s1148_b AS s1148_b, j3.s1148_c AS s1148_c, s1149.id AS s1149_id, s1149.a AS s1149_a, s1149.b AS s1149_b, s1149.c AS s1149_c FROM t3 s1149 LEFT JOIN j3 ON (NOT (j3.s1146_c = (j3.s1146_a + 4)))) SELECT j4.s1146_b FROM j4;

-- SQLite 3.40.1 bug rj-where-before-match (see README.md): differential record 8608:26700,
-- found by `sh tests/diff/run.sh build/basalt-slt 8608 1 2000 DIR` (the
-- record at line 26700 of DIR/expected/diff_8608.test). The generated query was
--   SELECT s3109.b, s3109.a FROM (SELECT * FROM t4 WHERE t4.a IS NOT 0) s3109 JOIN t2 s3110 ON s3109.a = s3110.id RIGHT JOIN (SELECT * FROM t2 WHERE t2.a IS NOT NULL) s3111 ON (0 < coalesce(s3111.c, 4) OR NOT (coalesce(s3111.a, 2) = 3)) WHERE s3110.id IS s3110.a
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
CREATE INDEX t2_a ON t2(a);
INSERT INTO t2 VALUES (4, 2, 'z', 0);
CREATE TABLE t4(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID;
INSERT INTO t4 VALUES (7, 4, '', 0);
SELECT s3109.a FROM t4 s3109 JOIN t2 s3110 ON s3109.a = s3110.id RIGHT JOIN t2 s3111 ON (0 < coalesce(s3111.c, 4) OR NOT (coalesce(s3111.a, 2) = 3)) WHERE s3110.id IS s3110.a;
WITH j1 AS MATERIALIZED (SELECT s3109.id AS s3109_id, s3109.a AS s3109_a, s3109.b AS s3109_b, s3109.c AS s3109_c FROM t4 s3109), j2 AS MATERIALIZED (SELECT j1.s3109_id AS s3109_id, j1.s3109_a AS s3109_a, j1.s3109_b AS s3109_b, j1.s3109_c AS s3109_c, s3110.id AS s3110_id, s3110.a AS s3110_a, s3110.b AS s3110_b, s3110.c AS s3110_c FROM j1, t2 s3110 WHERE j1.s3109_a = s3110.id), j3 AS MATERIALIZED (SELECT j2.s3109_id AS s3109_id, j2.s3109_a AS s3109_a, j2.s3109_b AS s3109_b, j2.s3109_c AS s3109_c, j2.s3110_id AS s3110_id, j2.s3110_a AS s3110_a, j2.s3110_b AS s3110_b, j2.s3110_c AS s3110_c, s3111.id AS s3111_id, s3111.a AS s3111_a, s3111.b AS s3111_b, s3111.c AS s3111_c FROM t2 s3111 LEFT JOIN j2 ON (0 < coalesce(s3111.c, 4) OR NOT (coalesce(s3111.a, 2) = 3))) SELECT j3.s3109_a FROM j3 WHERE j3.s3110_id IS j3.s3110_a;

-- SQLite 3.40.1 bug rj-const-on (see README.md): differential record 11442:31224,
-- found by `sh tests/diff/run.sh build/basalt-slt 11442 1 2000 DIR` (the
-- record at line 31224 of DIR/expected/diff_11442.test). The generated query was
--   SELECT s3119.b, s3117.b, s3118.c FROM t1 s3117 LEFT JOIN t2 s3118 ON s3117.c = s3118.id AND 2 < 0 JOIN t2 s3119 ON s3118.c = s3119.id RIGHT JOIN t4 s3120 ON s3118.a = s3120.a
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
CREATE TABLE t1(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
CREATE TABLE t2(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
CREATE TABLE t4(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID;
INSERT INTO t4 VALUES (6, 3, NULL, 3);
SELECT s3118.c FROM t1 s3117 LEFT JOIN t2 s3118 ON 2 < 0 JOIN t2 s3119 ON s3118.c = s3119.id RIGHT JOIN t4 s3120 ON s3118.a = s3120.a;
WITH j1 AS MATERIALIZED (SELECT s3117.id AS s3117_id, s3117.a AS s3117_a, s3117.b AS s3117_b, s3117.c AS s3117_c FROM t1 s3117), j2 AS MATERIALIZED (SELECT j1.s3117_id AS s3117_id, j1.s3117_a AS s3117_a, j1.s3117_b AS s3117_b, j1.s3117_c AS s3117_c, s3118.id AS s3118_id, s3118.a AS s3118_a, s3118.b AS s3118_b, s3118.c AS s3118_c FROM j1 LEFT JOIN t2 s3118 ON 2 < 0), j3 AS MATERIALIZED (SELECT j2.s3117_id AS s3117_id, j2.s3117_a AS s3117_a, j2.s3117_b AS s3117_b, j2.s3117_c AS s3117_c, j2.s3118_id AS s3118_id, j2.s3118_a AS s3118_a, j2.s3118_b AS s3118_b, j2.s3118_c AS s3118_c, s3119.id AS s3119_id, s3119.a AS s3119_a, s3119.b AS s3119_b, s3119.c AS s3119_c FROM j2, t2 s3119 WHERE j2.s3118_c = s3119.id), j4 AS MATERIALIZED (SELECT j3.s3117_id AS s3117_id, j3.s3117_a AS s3117_a, j3.s3117_b AS s3117_b, j3.s3117_c AS s3117_c, j3.s3118_id AS s3118_id, j3.s3118_a AS s3118_a, j3.s3118_b AS s3118_b, j3.s3118_c AS s3118_c, j3.s3119_id AS s3119_id, j3.s3119_a AS s3119_a, j3.s3119_b AS s3119_b, j3.s3119_c AS s3119_c, s3120.id AS s3120_id, s3120.a AS s3120_a, s3120.b AS s3120_b, s3120.c AS s3120_c FROM t4 s3120 LEFT JOIN j3 ON j3.s3118_a = s3120.a) SELECT j4.s3118_c FROM j4;

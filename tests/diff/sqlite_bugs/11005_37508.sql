-- SQLite 3.40.1 bug rj-const-on (see README.md): differential record 11005:37508,
-- found by `sh tests/diff/run.sh build/basalt-slt 11005 1 2000 DIR` (the
-- record at line 37508 of DIR/expected/diff_11005.test). The generated query was
--   SELECT s3830.a, s3831.a, s3830.a FROM t2 s3828 LEFT JOIN t4 s3829 ON s3828.a = s3829.a AND 2 = 3 JOIN t4 s3830 ON (NOT (s3828.id = (s3829.a + 2)) AND NOT ((s3829.a + 1) = coalesce(s3828.a, 2))) FULL JOIN t4 s3831 ON s3830.c = s3831.c
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
CREATE TABLE t4(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
INSERT INTO t4 VALUES (1, 2, 'z', 0);
SELECT s3830.a FROM t2 s3828 LEFT JOIN t4 s3829 ON 2 = 3 JOIN t4 s3830 ON (NOT (s3828.id = (s3829.a + 2))) FULL JOIN t4 s3831 ON s3830.c = s3831.c;
WITH j1 AS MATERIALIZED (SELECT s3828.id AS s3828_id, s3828.a AS s3828_a, s3828.b AS s3828_b, s3828.c AS s3828_c FROM t2 s3828), j2 AS MATERIALIZED (SELECT j1.s3828_id AS s3828_id, j1.s3828_a AS s3828_a, j1.s3828_b AS s3828_b, j1.s3828_c AS s3828_c, s3829.id AS s3829_id, s3829.a AS s3829_a, s3829.b AS s3829_b, s3829.c AS s3829_c FROM j1 LEFT JOIN t4 s3829 ON 2 = 3), j3 AS MATERIALIZED (SELECT j2.s3828_id AS s3828_id, j2.s3828_a AS s3828_a, j2.s3828_b AS s3828_b, j2.s3828_c AS s3828_c, j2.s3829_id AS s3829_id, j2.s3829_a AS s3829_a, j2.s3829_b AS s3829_b, j2.s3829_c AS s3829_c, s3830.id AS s3830_id, s3830.a AS s3830_a, s3830.b AS s3830_b, s3830.c AS s3830_c FROM j2, t4 s3830 WHERE (NOT (j2.s3828_id = (j2.s3829_a + 2)))), j4 AS MATERIALIZED (SELECT j3.s3828_id AS s3828_id, j3.s3828_a AS s3828_a, j3.s3828_b AS s3828_b, j3.s3828_c AS s3828_c, j3.s3829_id AS s3829_id, j3.s3829_a AS s3829_a, j3.s3829_b AS s3829_b, j3.s3829_c AS s3829_c, j3.s3830_id AS s3830_id, j3.s3830_a AS s3830_a, j3.s3830_b AS s3830_b, j3.s3830_c AS s3830_c, s3831.id AS s3831_id, s3831.a AS s3831_a, s3831.b AS s3831_b, s3831.c AS s3831_c FROM j3 LEFT JOIN t4 s3831 ON j3.s3830_c = s3831.c UNION ALL SELECT NULL AS s3828_id, NULL AS s3828_a, NULL AS s3828_b, NULL AS s3828_c, NULL AS s3829_id, NULL AS s3829_a, NULL AS s3829_b, NULL AS s3829_c, NULL AS s3830_id, NULL AS s3830_a, NULL AS s3830_b, NULL AS s3830_c, s3831.id AS s3831_id, s3831.a AS s3831_a, s3831.b AS s3831_b, s3831.c AS s3831_c FROM t4 s3831 WHERE NOT EXISTS (SELECT 1 FROM j3 WHERE j3.s3830_c = s3831.c)) SELECT j4.s3830_a FROM j4;

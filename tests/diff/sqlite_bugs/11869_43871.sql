-- SQLite 3.40.1 bug rj-where-before-match (see README.md): differential record 11869:43871,
-- found by `sh tests/diff/run.sh build/basalt-slt 11869 1 2000 DIR` (the
-- record at line 43871 of DIR/expected/diff_11869.test). The generated query was
--   SELECT s3819.c, s3818.a, s3818.id, s3819.b FROM t1 s3817 JOIN t4 s3818 USING (a) FULL JOIN t1 s3819 ON s3818.id = s3819.id RIGHT JOIN t1 s3820 ON s3818.id = s3820.id WHERE s3818.a IS s3818.id
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
CREATE TABLE t1(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
INSERT INTO t1 VALUES (2, 1, 'y', 2), (3, NULL, NULL, NULL);
CREATE TABLE t4(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
INSERT INTO t4 VALUES (3, 1, 'X', NULL);
SELECT s3819.b FROM t1 s3817 JOIN t4 s3818 USING (a) FULL JOIN t1 s3819 ON s3818.id = s3819.id RIGHT JOIN t1 s3820 ON s3818.id = s3820.id WHERE s3818.a IS s3818.id;
WITH j1 AS MATERIALIZED (SELECT s3817.id AS s3817_id, s3817.a AS s3817_a, s3817.b AS s3817_b, s3817.c AS s3817_c FROM t1 s3817), j2 AS MATERIALIZED (SELECT j1.s3817_id AS s3817_id, j1.s3817_a AS s3817_a, j1.s3817_b AS s3817_b, j1.s3817_c AS s3817_c, s3818.id AS s3818_id, s3818.a AS s3818_a, s3818.b AS s3818_b, s3818.c AS s3818_c FROM j1, t4 s3818 WHERE j1.s3817_a = s3818.a), j3 AS MATERIALIZED (SELECT j2.s3817_id AS s3817_id, j2.s3817_a AS s3817_a, j2.s3817_b AS s3817_b, j2.s3817_c AS s3817_c, j2.s3818_id AS s3818_id, j2.s3818_a AS s3818_a, j2.s3818_b AS s3818_b, j2.s3818_c AS s3818_c, s3819.id AS s3819_id, s3819.a AS s3819_a, s3819.b AS s3819_b, s3819.c AS s3819_c FROM j2 LEFT JOIN t1 s3819 ON j2.s3818_id = s3819.id UNION ALL SELECT NULL AS s3817_id, NULL AS s3817_a, NULL AS s3817_b, NULL AS s3817_c, NULL AS s3818_id, NULL AS s3818_a, NULL AS s3818_b, NULL AS s3818_c, s3819.id AS s3819_id, s3819.a AS s3819_a, s3819.b AS s3819_b, s3819.c AS s3819_c FROM t1 s3819 WHERE NOT EXISTS (SELECT 1 FROM j2 WHERE j2.s3818_id = s3819.id)), j4 AS MATERIALIZED (SELECT j3.s3817_id AS s3817_id, j3.s3817_a AS s3817_a, j3.s3817_b AS s3817_b, j3.s3817_c AS s3817_c, j3.s3818_id AS s3818_id, j3.s3818_a AS s3818_a, j3.s3818_b AS s3818_b, j3.s3818_c AS s3818_c, j3.s3819_id AS s3819_id, j3.s3819_a AS s3819_a, j3.s3819_b AS s3819_b, j3.s3819_c AS s3819_c, s3820.id AS s3820_id, s3820.a AS s3820_a, s3820.b AS s3820_b, s3820.c AS s3820_c FROM t1 s3820 LEFT JOIN j3 ON j3.s3818_id = s3820.id) SELECT j4.s3819_b FROM j4 WHERE j4.s3818_a IS j4.s3818_id;

-- SQLite 3.40.1 bug rj-const-on (see README.md): differential record 9460:20350,
-- found by `sh tests/diff/run.sh build/basalt-slt 9460 1 2000 DIR` (the
-- record at line 20350 of DIR/expected/diff_9460.test). The generated query was
--   SELECT s1860.c FROM t1 s1858 LEFT JOIN t4 s1859 ON (NOT (3 = 3) AND s1859.a IS coalesce(s1859.c, 4)) JOIN (t1 s1860 JOIN t1 s1861 ON s1860.c = s1861.a) ON s1859.c = s1860.a RIGHT JOIN t2 s1862 ON s1860.c = s1862.a
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
CREATE TABLE t2(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
INSERT INTO t2 VALUES (6, 0, 'y', 3);
CREATE TABLE t4(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID;
SELECT s1860.c FROM t1 s1858 LEFT JOIN t4 s1859 ON (NOT (3 = 3)) JOIN (t1 s1860 JOIN t1 s1861 ON s1860.c = s1861.a) ON s1859.c = s1860.a RIGHT JOIN t2 s1862 ON s1860.c = s1862.a;
WITH j1 AS MATERIALIZED (SELECT s1858.id AS s1858_id, s1858.a AS s1858_a, s1858.b AS s1858_b, s1858.c AS s1858_c FROM t1 s1858), j2 AS MATERIALIZED (SELECT j1.s1858_id AS s1858_id, j1.s1858_a AS s1858_a, j1.s1858_b AS s1858_b, j1.s1858_c AS s1858_c, s1859.id AS s1859_id, s1859.a AS s1859_a, s1859.b AS s1859_b, s1859.c AS s1859_c FROM j1 LEFT JOIN t4 s1859 ON (NOT (3 = 3))), j3 AS MATERIALIZED (SELECT s1860.id AS s1860_id, s1860.a AS s1860_a, s1860.b AS s1860_b, s1860.c AS s1860_c FROM t1 s1860), j4 AS MATERIALIZED (SELECT j3.s1860_id AS s1860_id, j3.s1860_a AS s1860_a, j3.s1860_b AS s1860_b, j3.s1860_c AS s1860_c, s1861.id AS s1861_id, s1861.a AS s1861_a, s1861.b AS s1861_b, s1861.c AS s1861_c FROM j3, t1 s1861 WHERE j3.s1860_c = s1861.a), j5 AS MATERIALIZED (SELECT j2.s1858_id AS s1858_id, j2.s1858_a AS s1858_a, j2.s1858_b AS s1858_b, j2.s1858_c AS s1858_c, j2.s1859_id AS s1859_id, j2.s1859_a AS s1859_a, j2.s1859_b AS s1859_b, j2.s1859_c AS s1859_c, j4.s1860_id AS s1860_id, j4.s1860_a AS s1860_a, j4.s1860_b AS s1860_b, j4.s1860_c AS s1860_c, j4.s1861_id AS s1861_id, j4.s1861_a AS s1861_a, j4.s1861_b AS s1861_b, j4.s1861_c AS s1861_c FROM j2, j4 WHERE j2.s1859_c = j4.s1860_a), j6 AS MATERIALIZED (SELECT j5.s1858_id AS s1858_id, j5.s1858_a AS s1858_a, j5.s1858_b AS s1858_b, j5.s1858_c AS s1858_c, j5.s1859_id AS s1859_id, j5.s1859_a AS s1859_a, j5.s1859_b AS s1859_b, j5.s1859_c AS s1859_c, j5.s1860_id AS s1860_id, j5.s1860_a AS s1860_a, j5.s1860_b AS s1860_b, j5.s1860_c AS s1860_c, j5.s1861_id AS s1861_id, j5.s1861_a AS s1861_a, j5.s1861_b AS s1861_b, j5.s1861_c AS s1861_c, s1862.id AS s1862_id, s1862.a AS s1862_a, s1862.b AS s1862_b, s1862.c AS s1862_c FROM t2 s1862 LEFT JOIN j5 ON j5.s1860_c = s1862.a) SELECT j6.s1860_c FROM j6;

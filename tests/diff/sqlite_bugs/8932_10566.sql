-- SQLite 3.40.1 bug rj-const-on (see README.md): differential record 8932:10566,
-- found by `sh tests/diff/run.sh build/basalt-slt 8932 1 2000 DIR` (the
-- record at line 10566 of DIR/expected/diff_8932.test). The generated query was
--   SELECT s818.b FROM t1 s817 LEFT JOIN t3 s818 ON 2 = 0 JOIN t1 s819 ON s818.id = s819.c FULL JOIN (SELECT * FROM t2 WHERE t2.a IS NOT NULL) s820 ON s817.id = s820.id AND (s820.a + 0) IS NOT 3
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
INSERT INTO t2 VALUES (7, 2, NULL, 2);
CREATE TABLE t3(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
SELECT s818.b FROM t1 s817 LEFT JOIN t3 s818 ON 2 = 0 JOIN t1 s819 ON s818.id = s819.c FULL JOIN t2 s820 ON s817.id = s820.id;
WITH j1 AS MATERIALIZED (SELECT s817.id AS s817_id, s817.a AS s817_a, s817.b AS s817_b, s817.c AS s817_c FROM t1 s817), j2 AS MATERIALIZED (SELECT j1.s817_id AS s817_id, j1.s817_a AS s817_a, j1.s817_b AS s817_b, j1.s817_c AS s817_c, s818.id AS s818_id, s818.a AS s818_a, s818.b AS s818_b, s818.c AS s818_c FROM j1 LEFT JOIN t3 s818 ON 2 = 0), j3 AS MATERIALIZED (SELECT j2.s817_id AS s817_id, j2.s817_a AS s817_a, j2.s817_b AS s817_b, j2.s817_c AS s817_c, j2.s818_id AS s818_id, j2.s818_a AS s818_a, j2.s818_b AS s818_b, j2.s818_c AS s818_c, s819.id AS s819_id, s819.a AS s819_a, s819.b AS s819_b, s819.c AS s819_c FROM j2, t1 s819 WHERE j2.s818_id = s819.c), j4 AS MATERIALIZED (SELECT j3.s817_id AS s817_id, j3.s817_a AS s817_a, j3.s817_b AS s817_b, j3.s817_c AS s817_c, j3.s818_id AS s818_id, j3.s818_a AS s818_a, j3.s818_b AS s818_b, j3.s818_c AS s818_c, j3.s819_id AS s819_id, j3.s819_a AS s819_a, j3.s819_b AS s819_b, j3.s819_c AS s819_c, s820.id AS s820_id, s820.a AS s820_a, s820.b AS s820_b, s820.c AS s820_c FROM j3 LEFT JOIN t2 s820 ON j3.s817_id = s820.id UNION ALL SELECT NULL AS s817_id, NULL AS s817_a, NULL AS s817_b, NULL AS s817_c, NULL AS s818_id, NULL AS s818_a, NULL AS s818_b, NULL AS s818_c, NULL AS s819_id, NULL AS s819_a, NULL AS s819_b, NULL AS s819_c, s820.id AS s820_id, s820.a AS s820_a, s820.b AS s820_b, s820.c AS s820_c FROM t2 s820 WHERE NOT EXISTS (SELECT 1 FROM j3 WHERE j3.s817_id = s820.id)) SELECT j4.s818_b FROM j4;

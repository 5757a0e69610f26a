-- SQLite 3.40.1 bug rj-const-on (see README.md): differential record 8742:11947,
-- found by `sh tests/diff/run.sh build/basalt-slt 8742 1 2000 DIR` (the
-- record at line 11947 of DIR/expected/diff_8742.test). The generated query was
--   SELECT s1274.id, s1271.a, s1274.b, s1271.a FROM t1 s1271 LEFT JOIN t4 s1272 ON s1271.id = s1272.a AND 2 IS 3 JOIN t1 s1273 ON s1272.a = s1273.id RIGHT JOIN t4 s1274 ON s1273.c = s1274.a WHERE (s1273.a + 3) IS s1272.a
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
CREATE TABLE t4(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
INSERT INTO t4 VALUES (2, 0, 'X', 2);
SELECT s1271.a FROM t1 s1271 LEFT JOIN t4 s1272 ON 2 IS 3 JOIN t1 s1273 ON s1272.a = s1273.id RIGHT JOIN t4 s1274 ON s1273.c = s1274.a;
WITH j1 AS MATERIALIZED (SELECT s1271.id AS s1271_id, s1271.a AS s1271_a, s1271.b AS s1271_b, s1271.c AS s1271_c FROM t1 s1271), j2 AS MATERIALIZED (SELECT j1.s1271_id AS s1271_id, j1.s1271_a AS s1271_a, j1.s1271_b AS s1271_b, j1.s1271_c AS s1271_c, s1272.id AS s1272_id, s1272.a AS s1272_a, s1272.b AS s1272_b, s1272.c AS s1272_c FROM j1 LEFT JOIN t4 s1272 ON 2 IS 3), j3 AS MATERIALIZED (SELECT j2.s1271_id AS s1271_id, j2.s1271_a AS s1271_a, j2.s1271_b AS s1271_b, j2.s1271_c AS s1271_c, j2.s1272_id AS s1272_id, j2.s1272_a AS s1272_a, j2.s1272_b AS s1272_b, j2.s1272_c AS s1272_c, s1273.id AS s1273_id, s1273.a AS s1273_a, s1273.b AS s1273_b, s1273.c AS s1273_c FROM j2, t1 s1273 WHERE j2.s1272_a = s1273.id), j4 AS MATERIALIZED (SELECT j3.s1271_id AS s1271_id, j3.s1271_a AS s1271_a, j3.s1271_b AS s1271_b, j3.s1271_c AS s1271_c, j3.s1272_id AS s1272_id, j3.s1272_a AS s1272_a, j3.s1272_b AS s1272_b, j3.s1272_c AS s1272_c, j3.s1273_id AS s1273_id, j3.s1273_a AS s1273_a, j3.s1273_b AS s1273_b, j3.s1273_c AS s1273_c, s1274.id AS s1274_id, s1274.a AS s1274_a, s1274.b AS s1274_b, s1274.c AS s1274_c FROM t4 s1274 LEFT JOIN j3 ON j3.s1273_c = s1274.a) SELECT j4.s1271_a FROM j4;

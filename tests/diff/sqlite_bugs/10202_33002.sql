-- SQLite 3.40.1 bug rj-where-before-match (see README.md): differential record 10202:33002,
-- found by `sh tests/diff/run.sh build/basalt-slt 10202 1 2000 DIR` (the
-- record at line 33002 of DIR/expected/diff_10202.test). The generated query was
--   SELECT s2276.id, s2279.a, s2278.id FROM t2 s2275 JOIN t2 s2276 USING (a, c) RIGHT JOIN (t4 s2277 LEFT JOIN t3 s2278 ON s2277.a = s2278.c) ON s2276.c = s2277.a CROSS JOIN t2 s2279 WHERE s2276.id IS s2275.c
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
CREATE TABLE t2(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
INSERT INTO t2 VALUES (6, 4, 'X', 1);
CREATE TABLE t3(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
CREATE TABLE t4(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
INSERT INTO t4 VALUES (3, 1, 'y', NULL);
SELECT s2278.id FROM t2 s2275 JOIN t2 s2276 USING (a, c) RIGHT JOIN (t4 s2277 LEFT JOIN t3 s2278 ON s2277.a = s2278.c) ON s2276.c = s2277.a CROSS JOIN t2 s2279 WHERE s2276.id IS s2275.c;
WITH j1 AS MATERIALIZED (SELECT s2275.id AS s2275_id, s2275.a AS s2275_a, s2275.b AS s2275_b, s2275.c AS s2275_c FROM t2 s2275), j2 AS MATERIALIZED (SELECT j1.s2275_id AS s2275_id, j1.s2275_a AS s2275_a, j1.s2275_b AS s2275_b, j1.s2275_c AS s2275_c, s2276.id AS s2276_id, s2276.a AS s2276_a, s2276.b AS s2276_b, s2276.c AS s2276_c FROM j1, t2 s2276 WHERE j1.s2275_a = s2276.a AND j1.s2275_c = s2276.c), j3 AS MATERIALIZED (SELECT s2277.id AS s2277_id, s2277.a AS s2277_a, s2277.b AS s2277_b, s2277.c AS s2277_c FROM t4 s2277), j4 AS MATERIALIZED (SELECT j3.s2277_id AS s2277_id, j3.s2277_a AS s2277_a, j3.s2277_b AS s2277_b, j3.s2277_c AS s2277_c, s2278.id AS s2278_id, s2278.a AS s2278_a, s2278.b AS s2278_b, s2278.c AS s2278_c FROM j3 LEFT JOIN t3 s2278 ON j3.s2277_a = s2278.c), j5 AS MATERIALIZED (SELECT j2.s2275_id AS s2275_id, j2.s2275_a AS s2275_a, j2.s2275_b AS s2275_b, j2.s2275_c AS s2275_c, j2.s2276_id AS s2276_id, j2.s2276_a AS s2276_a, j2.s2276_b AS s2276_b, j2.s2276_c AS s2276_c, j4.s2277_id AS s2277_id, j4.s2277_a AS s2277_a, j4.s2277_b AS s2277_b, j4.s2277_c AS s2277_c, j4.s2278_id AS s2278_id, j4.s2278_a AS s2278_a, j4.s2278_b AS s2278_b, j4.s2278_c AS s2278_c FROM j4 LEFT JOIN j2 ON j2.s2276_c = j4.s2277_a), j6 AS MATERIALIZED (SELECT j5.s2275_id AS s2275_id, j5.s2275_a AS s2275_a, j5.s2275_b AS s2275_b, j5.s2275_c AS s2275_c, j5.s2276_id AS s2276_id, j5.s2276_a AS s2276_a, j5.s2276_b AS s2276_b, j5.s2276_c AS s2276_c, j5.s2277_id AS s2277_id, j5.s2277_a AS s2277_a, j5.s2277_b AS s2277_b, j5.s2277_c AS s2277_c, j5.s2278_id AS s2278_id, j5.s2278_a AS s2278_a, j5.s2278_b AS s2278_b, j5.s2278_c AS s2278_c, s2279.id AS s2279_id, s2279.a AS s2279_a, s2279.b AS s2279_b, s2279.c AS s2279_c FROM j5, t2 s2279 WHERE 1) SELECT j6.s2278_id FROM j6 WHERE j6.s2276_id IS j6.s2275_c;

-- SQLite 3.40.1 bug rj-const-on (see README.md): differential record 10530:1611,
-- found by `sh tests/diff/run.sh build/basalt-slt 10530 1 2000 DIR` (the
-- record at line 1611 of DIR/expected/diff_10530.test). The generated query was
--   SELECT s92.c FROM (SELECT * FROM t1 WHERE t1.a IS NOT 4) s92 LEFT JOIN (SELECT * FROM t4 WHERE t4.a IS NOT 0) s93 ON s92.a = s93.c AND 0 = 3 JOIN t2 s94 ON s93.a = s94.c RIGHT JOIN t1 s95 ON s92.id = s95.id AND s92.c IS NOT NULL WHERE ((s95.a IN (3, 0, NULL) OR NOT (3 = s94.c)) OR coalesce(s92.c, 2) <> s93.c)
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
INSERT INTO t1 VALUES (4, 4, 'z', 4);
CREATE TABLE t2(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
CREATE TABLE t4(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
SELECT s92.c FROM t1 s92 LEFT JOIN t4 s93 ON 0 = 3 JOIN t2 s94 ON s93.a = s94.c RIGHT JOIN t1 s95 ON s92.id = s95.id;
WITH j1 AS MATERIALIZED (SELECT s92.id AS s92_id, s92.a AS s92_a, s92.b AS s92_b, s92.c AS s92_c FROM t1 s92), j2 AS MATERIALIZED (SELECT j1.s92_id AS s92_id, j1.s92_a AS s92_a, j1.s92_b AS s92_b, j1.s92_c AS s92_c, s93.id AS s93_id, s93.a AS s93_a, s93.b AS s93_b, s93.c AS s93_c FROM j1 LEFT JOIN t4 s93 ON 0 = 3), j3 AS MATERIALIZED (SELECT j2.s92_id AS s92_id, j2.s92_a AS s92_a, j2.s92_b AS s92_b, j2.s92_c AS s92_c, j2.s93_id AS s93_id, j2.s93_a AS s93_a, j2.s93_b AS s93_b, j2.s93_c AS s93_c, s94.id AS s94_id, s94.a AS s94_a, s94.b AS s94_b, s94.c AS s94_c FROM j2, t2 s94 WHERE j2.s93_a = s94.c), j4 AS MATERIALIZED (SELECT j3.s92_id AS s92_id, j3.s92_a AS s92_a, j3.s92_b AS s92_b, j3.s92_c AS s92_c, j3.s93_id AS s93_id, j3.s93_a AS s93_a, j3.s93_b AS s93_b, j3.s93_c AS s93_c, j3.s94_id AS s94_id, j3.s94_a AS s94_a, j3.s94_b AS s94_b, j3.s94_c AS s94_c, s95.id AS s95_id, s95.a AS s95_a, s95.b AS s95_b, s95.c AS s95_c FROM t1 s95 LEFT JOIN j3 ON j3.s92_id = s95.id) SELECT j4.s92_c FROM j4;

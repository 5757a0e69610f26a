-- SQLite 3.40.1 bug rj-const-on (see README.md): differential record 8457:6412,
-- found by `sh tests/diff/run.sh build/basalt-slt 8457 1 2000 DIR` (the
-- record at line 6412 of DIR/expected/diff_8457.test). The generated query was
--   SELECT s679.c, s683.b, s680.c FROM t3 s678 LEFT JOIN t3 s679 ON 4 <= 3 JOIN (t1 s680 JOIN t1 s681 ON s680.id = s681.id) ON s679.c = s680.c RIGHT JOIN (t4 s682 LEFT JOIN t4 s683 ON s682.id = s683.id) ON s678.c = s682.a
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
CREATE TABLE t3(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
CREATE TABLE t4(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID;
INSERT INTO t4 VALUES (5, 4, NULL, NULL);
SELECT s680.c FROM t3 s678 LEFT JOIN t3 s679 ON 4 <= 3 JOIN (t1 s680 JOIN t1 s681 ON s680.id = s681.id) ON s679.c = s680.c RIGHT JOIN (t4 s682 LEFT JOIN t4 s683 ON s682.id = s683.id) ON s678.c = s682.a;
WITH j1 AS MATERIALIZED (SELECT s678.id AS s678_id, s678.a AS s678_a, s678.b AS s678_b, s678.c AS s678_c FROM t3 s678), j2 AS MATERIALIZED (SELECT j1.s678_id AS s678_id, j1.s678_a AS s678_a, j1.s678_b AS s678_b, j1.s678_c AS s678_c, s679.id AS s679_id, s679.a AS s679_a, s679.b AS s679_b, s679.c AS s679_c FROM j1 LEFT JOIN t3 s679 ON 4 <= 3), j3 AS MATERIALIZED (SELECT s680.id AS s680_id, s680.a AS s680_a, s680.b AS s680_b, s680.c AS s680_c FROM t1 s680), j4 AS MATERIALIZED (SELECT j3.s680_id AS s680_id, j3.s680_a AS s680_a, j3.s680_b AS s680_b, j3.s680_c AS s680_c, s681.id AS s681_id, s681.a AS s681_a, s681.b AS s681_b, s681.c AS s681_c FROM j3, t1 s681 WHERE j3.s680_id = s681.id), j5 AS MATERIALIZED (SELECT j2.s678_id AS s678_id, j2.s678_a AS s678_a, j2.s678_b AS s678_b, j2.s678_c AS s678_c, j2.s679_id AS s679_id, j2.s679_a AS s679_a, j2.s679_b AS s679_b, j2.s679_c AS s679_c, j4.s680_id AS s680_id, j4.s680_a AS s680_a, j4.s680_b AS s680_b, j4.s680_c AS s680_c, j4.s681_id AS s681_id, j4.s681_a AS s681_a, j4.s681_b AS s681_b, j4.s681_c AS s681_c FROM j2, j4 WHERE j2.s679_c = j4.s680_c), j6 AS MATERIALIZED (SELECT s682.id AS s682_id, s682.a AS s682_a, s682.b AS s682_b, s682.c AS s682_c FROM t4 s682), j7 AS MATERIALIZED (SELECT j6.s682_id AS s682_id, j6.s682_a AS s682_a, j6.s682_b AS s682_b, j6.s682_c AS s682_c, s683.id AS s683_id, s683.a AS s683_a, s683.b AS s683_b, s683.c AS s683_c FROM j6 LEFT JOIN t4 s683 ON j6.s682_id = s683.id), j8 AS MATERIALIZED (SELECT j5.s678_id AS s678_id, j5.s678_a AS s678_a, j5.s678_b AS s678_b, j5.s678_c AS s678_c, j5.s679_id AS s679_id, j5.s679_a AS s679_a, j5.s679_b AS s679_b, j5.s679_c AS s679_c, j5.s680_id AS s680_id, j5.s680_a AS s680_a, j5.s680_b AS s680_b, j5.s680_c AS s680_c, j5.s681_id AS s681_id, j5.s681_a AS s681_a, j5.s681_b AS s681_b, j5.s681_c AS s681_c, j7.s682_id AS s682_id, j7.s682_a AS s682_a, j7.s682_b AS s682_b, j7.s682_c AS s682_c, j7.s683_id AS s683_id, j7.s683_a AS s683_a, j7.s683_b AS s683_b, j7.s683_c AS s683_c FROM j7 LEFT JOIN j5 ON j5.s678_c = j7.s682_a) SELECT j8.s680_c FROM j8;

-- SQLite 3.40.1 bug rj-const-on (see README.md): differential record 9736:18696,
-- found by `sh tests/diff/run.sh build/basalt-slt 9736 1 2000 DIR` (the
-- record at line 18696 of DIR/expected/diff_9736.test). The generated query was
--   SELECT s1739.c, s1738.c, s1740.id FROM t4 s1737 LEFT JOIN t4 s1738 ON s1737.c = s1738.a AND 2 > 4 JOIN t2 s1739 ON s1738.a = s1739.a RIGHT JOIN t3 s1740 ON s1737.id = s1740.c AND s1740.c IS NULL
-- Reduced below (rows, terms and columns removed while SQLite and Basalt
-- still differ and Basalt still agrees with the rewrite).
--
-- sqlite3 3.40.1 answers (rows sorted, .mode quote):
--   (no rows)
-- The correct answer, Basalt's, which is also what sqlite3 answers to the
-- join-by-join rewrite at the end of this file (tests/diff/join_oracle.py:
-- every RIGHT JOIN turned into a LEFT JOIN with its operands swapped, each
-- join step materialized, no more than two sources per join):
--   5
--
-- Run: sqlite3 < this file (the query, then the rewrite); build/basalt < this file.
CREATE TABLE t2(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
CREATE TABLE t3(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
INSERT INTO t3 VALUES (5, 2, NULL, 3);
CREATE TABLE t4(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
SELECT s1740.id FROM t4 s1737 LEFT JOIN t4 s1738 ON 2 > 4 JOIN t2 s1739 ON s1738.a = s1739.a RIGHT JOIN t3 s1740 ON s1737.id = s1740.c;
WITH j1 AS MATERIALIZED (SELECT s1737.id AS s1737_id, s1737.a AS s1737_a, s1737.b AS s1737_b, s1737.c AS s1737_c FROM t4 s1737), j2 AS MATERIALIZED (SELECT j1.s1737_id AS s1737_id, j1.s1737_a AS s1737_a, j1.s1737_b AS s1737_b, j1.s1737_c AS s1737_c, s1738.id AS s1738_id, s1738.a AS s1738_a, s1738.b AS s1738_b, s1738.c AS s1738_c FROM j1 LEFT JOIN t4 s1738 ON 2 > 4), j3 AS MATERIALIZED (SELECT j2.s1737_id AS s1737_id, j2.s1737_a AS s1737_a, j2.s1737_b AS s1737_b, j2.s1737_c AS s1737_c, j2.s1738_id AS s1738_id, j2.s1738_a AS s1738_a, j2.s1738_b AS s1738_b, j2.s1738_c AS s1738_c, s1739.id AS s1739_id, s1739.a AS s1739_a, s1739.b AS s1739_b, s1739.c AS s1739_c FROM j2, t2 s1739 WHERE j2.s1738_a = s1739.a), j4 AS MATERIALIZED (SELECT j3.s1737_id AS s1737_id, j3.s1737_a AS s1737_a, j3.s1737_b AS s1737_b, j3.s1737_c AS s1737_c, j3.s1738_id AS s1738_id, j3.s1738_a AS s1738_a, j3.s1738_b AS s1738_b, j3.s1738_c AS s1738_c, j3.s1739_id AS s1739_id, j3.s1739_a AS s1739_a, j3.s1739_b AS s1739_b, j3.s1739_c AS s1739_c, s1740.id AS s1740_id, s1740.a AS s1740_a, s1740.b AS s1740_b, s1740.c AS s1740_c FROM t3 s1740 LEFT JOIN j3 ON j3.s1737_id = s1740.c) SELECT j4.s1740_id FROM j4;

-- SQLite 3.40.1 bug rj-const-on (see README.md): differential record 9824:11023,
-- found by `sh tests/diff/run.sh build/basalt-slt 9824 1 2000 DIR` (the
-- record at line 11023 of DIR/expected/diff_9824.test). The generated query was
--   SELECT s970.id, s971.a, s970.c FROM t4 s970 LEFT JOIN (SELECT * FROM t2 WHERE t2.a IS NOT 1) s971 ON s970.c = s971.c AND 3 = 4 JOIN t2 s972 ON s971.a = s972.a RIGHT JOIN t3 s973 ON s970.id = s973.a
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
CREATE TABLE t2(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
CREATE TABLE t3(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
INSERT INTO t3 VALUES (2, NULL, 'z', 4);
CREATE TABLE t4(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID;
SELECT s970.c FROM t4 s970 LEFT JOIN t2 s971 ON 3 = 4 JOIN t2 s972 ON s971.a = s972.a RIGHT JOIN t3 s973 ON s970.id = s973.a;
WITH j1 AS MATERIALIZED (SELECT s970.id AS s970_id, s970.a AS s970_a, s970.b AS s970_b, s970.c AS s970_c FROM t4 s970), j2 AS MATERIALIZED (SELECT j1.s970_id AS s970_id, j1.s970_a AS s970_a, j1.s970_b AS s970_b, j1.s970_c AS s970_c, s971.id AS s971_id, s971.a AS s971_a, s971.b AS s971_b, s971.c AS s971_c FROM j1 LEFT JOIN t2 s971 ON 3 = 4), j3 AS MATERIALIZED (SELECT j2.s970_id AS s970_id, j2.s970_a AS s970_a, j2.s970_b AS s970_b, j2.s970_c AS s970_c, j2.s971_id AS s971_id, j2.s971_a AS s971_a, j2.s971_b AS s971_b, j2.s971_c AS s971_c, s972.id AS s972_id, s972.a AS s972_a, s972.b AS s972_b, s972.c AS s972_c FROM j2, t2 s972 WHERE j2.s971_a = s972.a), j4 AS MATERIALIZED (SELECT j3.s970_id AS s970_id, j3.s970_a AS s970_a, j3.s970_b AS s970_b, j3.s970_c AS s970_c, j3.s971_id AS s971_id, j3.s971_a AS s971_a, j3.s971_b AS s971_b, j3.s971_c AS s971_c, j3.s972_id AS s972_id, j3.s972_a AS s972_a, j3.s972_b AS s972_b, j3.s972_c AS s972_c, s973.id AS s973_id, s973.a AS s973_a, s973.b AS s973_b, s973.c AS s973_c FROM t3 s973 LEFT JOIN j3 ON j3.s970_id = s973.a) SELECT j4.s970_c FROM j4;

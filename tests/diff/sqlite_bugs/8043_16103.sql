-- SQLite 3.40.1 bug rj-where-before-match (see README.md): differential record 8043:16103,
-- found by `sh tests/diff/run.sh build/basalt-slt 8043 1 2000 DIR` (the
-- record at line 16103 of DIR/expected/diff_8043.test). The generated query was
--   SELECT s1666.a, s1663.c, s1665.id FROM t3 s1663 JOIN t3 s1664 ON s1663.id = s1664.c RIGHT JOIN t3 s1665 ON s1663.a = s1665.c, t3 s1666 WHERE s1664.a IS s1663.id
-- Reduced below (rows, terms and columns removed while SQLite and Basalt
-- still differ and Basalt still agrees with the rewrite).
--
-- sqlite3 3.40.1 answers (rows sorted, .mode quote):
--   1
--   1
--   9
--   9
-- The correct answer, Basalt's, which is also what sqlite3 answers to the
-- join-by-join rewrite at the end of this file (tests/diff/join_oracle.py:
-- every RIGHT JOIN turned into a LEFT JOIN with its operands swapped, each
-- join step materialized, no more than two sources per join):
--   1
--   1
--
-- Run: sqlite3 < this file (the query, then the rewrite); build/basalt < this file.
CREATE TABLE t3(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
CREATE INDEX t3_a ON t3(a);
INSERT INTO t3 VALUES (1, 1, 'y', 2), (9, NULL, 'x', 1);
SELECT s1665.id FROM t3 s1663 JOIN t3 s1664 ON s1663.id = s1664.c RIGHT JOIN t3 s1665 ON s1663.a = s1665.c, t3 s1666 WHERE s1664.a IS s1663.id;
WITH j1 AS MATERIALIZED (SELECT s1663.id AS s1663_id, s1663.a AS s1663_a, s1663.b AS s1663_b, s1663.c AS s1663_c FROM t3 s1663), j2 AS MATERIALIZED (SELECT j1.s1663_id AS s1663_id, j1.s1663_a AS s1663_a, j1.s1663_b AS s1663_b, j1.s1663_c AS s1663_c, s1664.id AS s1664_id, s1664.a AS s1664_a, s1664.b AS s1664_b, s1664.c AS s1664_c FROM j1, t3 s1664 WHERE j1.s1663_id = s1664.c), j3 AS MATERIALIZED (SELECT j2.s1663_id AS s1663_id, j2.s1663_a AS s1663_a, j2.s1663_b AS s1663_b, j2.s1663_c AS s1663_c, j2.s1664_id AS s1664_id, j2.s1664_a AS s1664_a, j2.s1664_b AS s1664_b, j2.s1664_c AS s1664_c, s1665.id AS s1665_id, s1665.a AS s1665_a, s1665.b AS s1665_b, s1665.c AS s1665_c FROM t3 s1665 LEFT JOIN j2 ON j2.s1663_a = s1665.c), j4 AS MATERIALIZED (SELECT j3.s1663_id AS s1663_id, j3.s1663_a AS s1663_a, j3.s1663_b AS s1663_b, j3.s1663_c AS s1663_c, j3.s1664_id AS s1664_id, j3.s1664_a AS s1664_a, j3.s1664_b AS s1664_b, j3.s1664_c AS s1664_c, j3.s1665_id AS s1665_id, j3.s1665_a AS s1665_a, j3.s1665_b AS s1665_b, j3.s1665_c AS s1665_c, s1666.id AS s1666_id, s1666.a AS s1666_a, s1666.b AS s1666_b, s1666.c AS s1666_c FROM j3, t3 s1666 WHERE 1) SELECT j4.s1665_id FROM j4 WHERE j4.s1664_a IS j4.s1663_id;

-- SQLite 3.40.1 bug rj-where-before-match (see README.md): differential record 10738:7521,
-- found by `sh tests/diff/run.sh build/basalt-slt 10738 1 2000 DIR` (the
-- record at line 7521 of DIR/expected/diff_10738.test). The generated query was
--   SELECT s561.id, s560.id FROM t1 s560 JOIN t4 s561 ON s560.id = s561.a FULL JOIN t2 s562 ON s560.c = s562.c WHERE s561.a IS s561.id
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
CREATE TABLE t1(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
INSERT INTO t1 VALUES (4, 0, 'X', 2);
CREATE TABLE t2(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID;
INSERT INTO t2 VALUES (1, 3, NULL, 2);
CREATE TABLE t4(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
INSERT INTO t4 VALUES (5, 4, 'y', NULL);
SELECT s560.id FROM t1 s560 JOIN t4 s561 ON s560.id = s561.a FULL JOIN t2 s562 ON s560.c = s562.c WHERE s561.a IS s561.id;
WITH j1 AS MATERIALIZED (SELECT s560.id AS s560_id, s560.a AS s560_a, s560.b AS s560_b, s560.c AS s560_c FROM t1 s560), j2 AS MATERIALIZED (SELECT j1.s560_id AS s560_id, j1.s560_a AS s560_a, j1.s560_b AS s560_b, j1.s560_c AS s560_c, s561.id AS s561_id, s561.a AS s561_a, s561.b AS s561_b, s561.c AS s561_c FROM j1, t4 s561 WHERE j1.s560_id = s561.a), j3 AS MATERIALIZED (SELECT j2.s560_id AS s560_id, j2.s560_a AS s560_a, j2.s560_b AS s560_b, j2.s560_c AS s560_c, j2.s561_id AS s561_id, j2.s561_a AS s561_a, j2.s561_b AS s561_b, j2.s561_c AS s561_c, s562.id AS s562_id, s562.a AS s562_a, s562.b AS s562_b, s562.c AS s562_c FROM j2 LEFT JOIN t2 s562 ON j2.s560_c = s562.c UNION ALL SELECT NULL AS s560_id, NULL AS s560_a, NULL AS s560_b, NULL AS s560_c, NULL AS s561_id, NULL AS s561_a, NULL AS s561_b, NULL AS s561_c, s562.id AS s562_id, s562.a AS s562_a, s562.b AS s562_b, s562.c AS s562_c FROM t2 s562 WHERE NOT EXISTS (SELECT 1 FROM j2 WHERE j2.s560_c = s562.c)) SELECT j3.s560_id FROM j3 WHERE j3.s561_a IS j3.s561_id;

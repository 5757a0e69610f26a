-- SQLite 3.40.1 bug rj-where-before-match (see README.md): differential record 11080:23274,
-- found by `sh tests/diff/run.sh build/basalt-slt 11080 1 2000 DIR` (the
-- record at line 23274 of DIR/expected/diff_11080.test). The generated query was
--   SELECT s2093.b FROM t2 s2093 JOIN t3 s2094 USING (a, c) RIGHT JOIN t2 s2095 ON s2093.id = s2095.c WHERE s2094.c IS s2094.id
-- Reduced below (rows, terms and columns removed while SQLite and Basalt
-- still differ and Basalt still agrees with the rewrite).
--
-- sqlite3 3.40.1 answers (rows sorted, .mode quote):
--   NULL
--   NULL
-- The correct answer, Basalt's, which is also what sqlite3 answers to the
-- join-by-join rewrite at the end of this file (tests/diff/join_oracle.py:
-- every RIGHT JOIN turned into a LEFT JOIN with its operands swapped, each
-- join step materialized, no more than two sources per join):
--   NULL
--
-- Run: sqlite3 < this file (the query, then the rewrite); build/basalt < this file.
CREATE TABLE t2(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
INSERT INTO t2 VALUES (2, 0, 'z', 0), (6, NULL, 'x', 2);
CREATE TABLE t3(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID;
INSERT INTO t3 VALUES (5, 0, 'X', 0);
SELECT s2093.b FROM t2 s2093 JOIN t3 s2094 USING (a, c) RIGHT JOIN t2 s2095 ON s2093.id = s2095.c WHERE s2094.c IS s2094.id;
WITH j1 AS MATERIALIZED (SELECT s2093.id AS s2093_id, s2093.a AS s2093_a, s2093.b AS s2093_b, s2093.c AS s2093_c FROM t2 s2093), j2 AS MATERIALIZED (SELECT j1.s2093_id AS s2093_id, j1.s2093_a AS s2093_a, j1.s2093_b AS s2093_b, j1.s2093_c AS s2093_c, s2094.id AS s2094_id, s2094.a AS s2094_a, s2094.b AS s2094_b, s2094.c AS s2094_c FROM j1, t3 s2094 WHERE j1.s2093_a = s2094.a AND j1.s2093_c = s2094.c), j3 AS MATERIALIZED (SELECT j2.s2093_id AS s2093_id, j2.s2093_a AS s2093_a, j2.s2093_b AS s2093_b, j2.s2093_c AS s2093_c, j2.s2094_id AS s2094_id, j2.s2094_a AS s2094_a, j2.s2094_b AS s2094_b, j2.s2094_c AS s2094_c, s2095.id AS s2095_id, s2095.a AS s2095_a, s2095.b AS s2095_b, s2095.c AS s2095_c FROM t2 s2095 LEFT JOIN j2 ON j2.s2093_id = s2095.c) SELECT j3.s2093_b FROM j3 WHERE j3.s2094_c IS j3.s2094_id;

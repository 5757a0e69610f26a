-- SQLite 3.40.1 bug rj-const-on (see README.md): differential record 10696:8178,
-- found by `sh tests/diff/run.sh build/basalt-slt 10696 1 2000 DIR` (the
-- record at line 8178 of DIR/expected/diff_10696.test). The generated query was
--   SELECT s961.c, s961.b FROM t1 s961 LEFT JOIN t2 s962 ON 4 = 0 JOIN t4 s963 ON s962.a = s963.a FULL JOIN t3 s964 ON s963.id = s964.c AND s961.id = s961.id
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
CREATE TABLE t1(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID;
CREATE TABLE t2(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
CREATE TABLE t3(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
INSERT INTO t3 VALUES (9, 0, 'y', 3);
CREATE TABLE t4(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
SELECT s961.b FROM t1 s961 LEFT JOIN t2 s962 ON 4 = 0 JOIN t4 s963 ON s962.a = s963.a FULL JOIN t3 s964 ON s963.id = s964.c;
WITH j1 AS MATERIALIZED (SELECT s961.id AS s961_id, s961.a AS s961_a, s961.b AS s961_b, s961.c AS s961_c FROM t1 s961), j2 AS MATERIALIZED (SELECT j1.s961_id AS s961_id, j1.s961_a AS s961_a, j1.s961_b AS s961_b, j1.s961_c AS s961_c, s962.id AS s962_id, s962.a AS s962_a, s962.b AS s962_b, s962.c AS s962_c FROM j1 LEFT JOIN t2 s962 ON 4 = 0), j3 AS MATERIALIZED (SELECT j2.s961_id AS s961_id, j2.s961_a AS s961_a, j2.s961_b AS s961_b, j2.s961_c AS s961_c, j2.s962_id AS s962_id, j2.s962_a AS s962_a, j2.s962_b AS s962_b, j2.s962_c AS s962_c, s963.id AS s963_id, s963.a AS s963_a, s963.b AS s963_b, s963.c AS s963_c FROM j2, t4 s963 WHERE j2.s962_a = s963.a), j4 AS MATERIALIZED (SELECT j3.s961_id AS s961_id, j3.s961_a AS s961_a, j3.s961_b AS s961_b, j3.s961_c AS s961_c, j3.s962_id AS s962_id, j3.s962_a AS s962_a, j3.s962_b AS s962_b, j3.s962_c AS s962_c, j3.s963_id AS s963_id, j3.s963_a AS s963_a, j3.s963_b AS s963_b, j3.s963_c AS s963_c, s964.id AS s964_id, s964.a AS s964_a, s964.b AS s964_b, s964.c AS s964_c FROM j3 LEFT JOIN t3 s964 ON j3.s963_id = s964.c UNION ALL SELECT NULL AS s961_id, NULL AS s961_a, NULL AS s961_b, NULL AS s961_c, NULL AS s962_id, NULL AS s962_a, NULL AS s962_b, NULL AS s962_c, NULL AS s963_id, NULL AS s963_a, NULL AS s963_b, NULL AS s963_c, s964.id AS s964_id, s964.a AS s964_a, s964.b AS s964_b, s964.c AS s964_c FROM t3 s964 WHERE NOT EXISTS (SELECT 1 FROM j3 WHERE j3.s963_id = s964.c)) SELECT j4.s961_b FROM j4;

-- SQLite 3.40.1 bug rj-const-on (see README.md): differential record 9736:14570,
-- found by `sh tests/diff/run.sh build/basalt-slt 9736 1 2000 DIR` (the
-- record at line 14570 of DIR/expected/diff_9736.test). The generated query was
--   SELECT s1266.c, s1268.b, s1267.id, s1268.b FROM t1 s1266 LEFT JOIN t1 s1267 ON s1266.a = s1267.id AND 4 = 1 JOIN (SELECT * FROM t4 WHERE t4.a IS NOT NULL) s1268 ON s1267.id = s1268.a RIGHT JOIN t2 s1269 ON s1266.a = s1269.id
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
CREATE TABLE t2(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
INSERT INTO t2 VALUES (2, 4, 'X', 4);
CREATE TABLE t4(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT);
SELECT s1268.b FROM t1 s1266 LEFT JOIN t1 s1267 ON 4 = 1 JOIN t4 s1268 ON s1267.id = s1268.a RIGHT JOIN t2 s1269 ON s1266.a = s1269.id;
WITH j1 AS MATERIALIZED (SELECT s1266.id AS s1266_id, s1266.a AS s1266_a, s1266.b AS s1266_b, s1266.c AS s1266_c FROM t1 s1266), j2 AS MATERIALIZED (SELECT j1.s1266_id AS s1266_id, j1.s1266_a AS s1266_a, j1.s1266_b AS s1266_b, j1.s1266_c AS s1266_c, s1267.id AS s1267_id, s1267.a AS s1267_a, s1267.b AS s1267_b, s1267.c AS s1267_c FROM j1 LEFT JOIN t1 s1267 ON 4 = 1), j3 AS MATERIALIZED (SELECT j2.s1266_id AS s1266_id, j2.s1266_a AS s1266_a, j2.s1266_b AS s1266_b, j2.s1266_c AS s1266_c, j2.s1267_id AS s1267_id, j2.s1267_a AS s1267_a, j2.s1267_b AS s1267_b, j2.s1267_c AS s1267_c, s1268.id AS s1268_id, s1268.a AS s1268_a, s1268.b AS s1268_b, s1268.c AS s1268_c FROM j2, t4 s1268 WHERE j2.s1267_id = s1268.a), j4 AS MATERIALIZED (SELECT j3.s1266_id AS s1266_id, j3.s1266_a AS s1266_a, j3.s1266_b AS s1266_b, j3.s1266_c AS s1266_c, j3.s1267_id AS s1267_id, j3.s1267_a AS s1267_a, j3.s1267_b AS s1267_b, j3.s1267_c AS s1267_c, j3.s1268_id AS s1268_id, j3.s1268_a AS s1268_a, j3.s1268_b AS s1268_b, j3.s1268_c AS s1268_c, s1269.id AS s1269_id, s1269.a AS s1269_a, s1269.b AS s1269_b, s1269.c AS s1269_c FROM t2 s1269 LEFT JOIN j3 ON j3.s1266_a = s1269.id) SELECT j4.s1268_b FROM j4;

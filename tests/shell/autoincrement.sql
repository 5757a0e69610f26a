-- AUTOINCREMENT and sqlite_sequence.
CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT, v);
INSERT INTO t(v) VALUES('a'),('b'),('c');
DELETE FROM t WHERE id = 3;
INSERT INTO t(v) VALUES('d');
SELECT * FROM t;
SELECT * FROM sqlite_sequence;
INSERT INTO t VALUES(100, 'x');
INSERT INTO t(v) VALUES('y');
DELETE FROM t;
INSERT INTO t(v) VALUES('z');
SELECT * FROM t;
SELECT name, seq FROM sqlite_sequence;
SELECT type, name, sql FROM sqlite_master;
DROP TABLE t;
SELECT count(*) FROM sqlite_sequence;
DROP TABLE sqlite_sequence;

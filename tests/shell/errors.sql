-- Errors: prepare errors with and without a position, run-time errors, and
-- the exit status after an error (the script continues).
CREATE TABLE t(a UNIQUE, b NOT NULL, c CHECK(c > 0));
SELECT nosuch FROM t;
SELECT * FROM nosuch;
SELEC 1;
SELECT a FROM t ORDER BY 2;
INSERT INTO t VALUES(1, 2, 3);
INSERT INTO t VALUES(1, 2, 3);
INSERT INTO t VALUES(2, NULL, 3);
INSERT INTO t VALUES(3, 3, 0);
SELECT * FROM t;
SELECT abs(-9223372036854775808);
CREATE TABLE t(x);
SELECT 'after the errors';

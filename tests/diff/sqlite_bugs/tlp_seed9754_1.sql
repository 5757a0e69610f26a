-- SQLite 3.40.1 bug autoindex-collate (see README.md), found by the TLP
-- oracle on the system library only: `sh tools/oracle/ci_slice.sh
-- $PWD/build/libbasalt.so 9000 1000 300` (seed 9754; SQLite's TLP partitions
-- lose a row that the unpartitioned query returns; Basalt passes the check).
-- Reduced:
--
-- sqlite3 3.40.1 answers: (no rows)
-- The correct answer, Basalt's: 'a'|'a '
--   The explicit COLLATE RTRIM decides the comparison (datatype3.html 7.1:
--   an explicit collating sequence on either operand is used), and 'a ' =
--   'a' under RTRIM. sqlite3 itself answers 'a'|'a ' to the same query with
--   PRAGMA automatic_index=OFF or with the term written `... OR 0` (which
--   keeps it from driving an index): the automatic index SQLite builds on
--   b.y (EXPLAIN QUERY PLAN: SEARCH b USING AUTOMATIC COVERING INDEX (y=?))
--   compares with BINARY instead of RTRIM.
.mode quote
CREATE TABLE a(x);
CREATE TABLE b(y);
INSERT INTO a VALUES('a');
INSERT INTO b VALUES('a ');
SELECT * FROM a, b WHERE b.y = (a.x COLLATE RTRIM);
SELECT * FROM a, b WHERE b.y = (a.x COLLATE RTRIM) OR 0;
PRAGMA automatic_index = OFF;
SELECT * FROM a, b WHERE b.y = (a.x COLLATE RTRIM);

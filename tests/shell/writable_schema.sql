-- PRAGMA writable_schema lets sqlite_schema be changed; the connection keeps the schema it read.
CREATE TABLE m(a, b);
CREATE INDEX mi ON m(b);
INSERT INTO m VALUES(1, 2);
UPDATE sqlite_schema SET sql = 'x' WHERE name = 'm';
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = 'CREATE TABLE m(a, b, CHECK(a > 5))' WHERE name = 'm';
SELECT sql FROM sqlite_schema;
INSERT INTO m VALUES(2, 3);
DELETE FROM sqlite_schema WHERE name = 'mi';
SELECT name FROM sqlite_schema;
PRAGMA writable_schema = OFF;
DELETE FROM sqlite_schema WHERE name = 'm';
PRAGMA integrity_check;
SELECT * FROM m;

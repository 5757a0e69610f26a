-- Written by one engine, checked by the other (tests/interop/run.sh).
CREATE TABLE t1(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL, d BLOB);
CREATE INDEX t1_a ON t1(a);
CREATE INDEX t1_bc ON t1(b DESC, c);
CREATE TABLE t2(k TEXT PRIMARY KEY, v, UNIQUE(v, k)) ;
CREATE TABLE seq(id INTEGER PRIMARY KEY AUTOINCREMENT, note TEXT);
CREATE VIEW v1 AS SELECT a, count(*) AS n FROM t1 GROUP BY a;
CREATE TRIGGER t1_log AFTER INSERT ON t1 BEGIN INSERT INTO seq(note) VALUES('t1 ' || new.id); END;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
INSERT INTO t1(a, b, c, d) SELECT i % 97, 'row ' || i || ' ' || substr('abcdefghijklmnopqrstuvwxyz', i % 26 + 1),
  i * 0.25, CASE WHEN i % 50 = 0 THEN zeroblob(9000 + i) ELSE NULL END FROM n;
COMMIT;
INSERT INTO t2 SELECT 'key' || id, replace(hex(zeroblob(id % 700)), '00', 'ab') FROM t1 WHERE id <= 1500;
DELETE FROM t1 WHERE id % 3 = 0;
DELETE FROM t2 WHERE rowid BETWEEN 200 AND 900;
UPDATE t1 SET b = b || ' (updated)', d = zeroblob(5000) WHERE id % 7 = 1;
CREATE TABLE big(x);
INSERT INTO big VALUES(replace(hex(zeroblob(200000)), '00', 'xy'));
DROP TABLE big;
CREATE INDEX t2_v ON t2(v);
DROP INDEX t1_bc;
PRAGMA user_version = 42;
CREATE TABLE words(id INTEGER PRIMARY KEY, w TEXT, n TEXT COLLATE NOCASE, note);
CREATE INDEX words_w ON words(w);
CREATE INDEX words_n ON words(n);
INSERT INTO words(w, n, note) VALUES('héllo', 'Crème', 'é'), ('naïve', 'CAFÉ', 'ü'),
  ('zürich', 'café', '€'), ('日本語', 'ABC', '😀 emoji'), ('😀', 'abc', NULL),
  ('straße', 'Straße', 'ß'), ('Ωmega', 'ωmega', x'00ff');
INSERT INTO words(w, n, note) SELECT w || '-' || id, upper(n) || id, length(w) FROM words;
SELECT id, w, n, length(w), length(n), typeof(note) FROM words ORDER BY w, id;
SELECT id FROM words WHERE n = 'CAFÉ' ORDER BY id;
SELECT w FROM words WHERE w > 'naïve' ORDER BY w LIMIT 4;
CREATE TABLE gen(id INTEGER PRIMARY KEY, a INT, b TEXT, v AS (a * 2 + length(b)) VIRTUAL,
  s TEXT AS (upper(b) || a) STORED, w AS (v + 1), r REAL AS (a / 3) STORED);
CREATE INDEX gen_v ON gen(v);
CREATE INDEX gen_s ON gen(s, w);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
INSERT INTO gen(a, b) SELECT i, 'g' || (i % 37) FROM n;
UPDATE gen SET a = a + 1000, b = b || 'x' WHERE id % 5 = 0;
DELETE FROM gen WHERE v BETWEEN 100 AND 200;
CREATE TABLE st(id INTEGER PRIMARY KEY, i INTEGER, n INT NOT NULL, r REAL, t TEXT, b BLOB, x ANY,
  g INT AS (i + n) STORED) STRICT;
CREATE INDEX st_r ON st(r);
INSERT INTO st(i, n, r, t, b, x) VALUES('12', 1, 3, 4.5, x'00ff', '07'), (NULL, '2', '2.5', 'x', NULL, 1.0),
  (-9, 3, 1e300, 'y', zeroblob(3), x'41');
UPDATE st SET r = r * 2, t = t || id WHERE id > 1;
SELECT id, a, b, v, s, w, r FROM gen WHERE id % 50 = 1 ORDER BY id;
SELECT count(*), sum(v), sum(w) FROM gen WHERE v > 500;
SELECT id, typeof(i), i, n, typeof(r), r, t, hex(b), typeof(x), quote(x), g FROM st ORDER BY id;
CREATE TABLE wr(k TEXT, n INTEGER, pad TEXT, note, PRIMARY KEY(k, n DESC)) WITHOUT ROWID;
CREATE INDEX wr_note ON wr(note);
CREATE TABLE wr2(id INTEGER PRIMARY KEY, v TEXT COLLATE NOCASE UNIQUE, big BLOB) WITHOUT ROWID;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
INSERT INTO wr SELECT 'k' || (i % 40), i, CASE WHEN i % 60 = 0 THEN printf('%.*c', 6000 + i, 'p') ELSE 'p' || i END,
  i % 13 FROM n;
INSERT INTO wr2 SELECT n, 'V' || n || k, CASE WHEN n % 25 = 0 THEN zeroblob(3000 + n) ELSE x'0102' END
  FROM wr WHERE n <= 1200;
DELETE FROM wr WHERE n % 5 = 0;
UPDATE wr SET note = note * 2, pad = pad || '+' WHERE n % 7 = 3;
UPDATE wr2 SET id = id + 10000 WHERE id % 9 = 0;
CREATE TABLE alt(a INTEGER PRIMARY KEY, b TEXT, c, d, g AS (c + 1));
CREATE INDEX alt_b ON alt(b);
CREATE VIEW alt_v AS SELECT a, b FROM alt WHERE c > 0;
CREATE TRIGGER alt_t AFTER UPDATE OF b ON alt BEGIN UPDATE alt SET c = length(new.b) WHERE a = new.a; END;
INSERT INTO alt(b, c, d) VALUES('x', 1, 2), ('yy', 3, 4);
ALTER TABLE alt RENAME TO alt2;
ALTER TABLE alt2 RENAME COLUMN b TO bee;
ALTER TABLE alt2 ADD COLUMN e INT DEFAULT 5;
ALTER TABLE alt2 DROP COLUMN d;
UPDATE alt2 SET bee = 'zzz' WHERE a = 1;
SELECT * FROM alt2 ORDER BY a;
SELECT * FROM alt_v ORDER BY a;

-- Every output mode over NULLs, blobs, wide characters, reals and long text.
CREATE TABLE v(id INTEGER PRIMARY KEY, t TEXT, r REAL, b BLOB, n);
INSERT INTO v VALUES(1, 'plain', 1.5, x'00414243', NULL);
INSERT INTO v VALUES(2, '日本語テキスト', 0.1, x'ff00', 42);
INSERT INTO v VALUES(3, 'quote''s "double" <tag> & amp', 1e300*10, x'', -7);
INSERT INTO v VALUES(4, 'line1' || char(10) || 'line2' || char(13) || char(10) || 'tab' || char(9) || 'x', 100.0, NULL, 3.25);
INSERT INTO v VALUES(5, 'a long piece of text that goes on and on, well past the default wrap width of sixty characters', -2.5e-10, x'0102', '');
INSERT INTO v VALUES(6, NULL, 123456789012345678, 'text-in-blob-col', 'ünïcödé');
.nullvalue NULL
.mode list
SELECT * FROM v;
.headers on
SELECT * FROM v;
.mode line
SELECT * FROM v;
.mode csv
SELECT * FROM v;
.headers off
SELECT * FROM v;
.mode tabs
SELECT * FROM v;
.mode html
SELECT * FROM v;
.headers on
SELECT * FROM v;
.mode tcl
SELECT * FROM v;
.mode ascii
SELECT * FROM v;
.mode quote
SELECT * FROM v;
.mode insert
SELECT * FROM v;
.mode insert tbl_x
SELECT id, t AS "a b" FROM v;
.mode json
SELECT * FROM v;
.mode column
SELECT * FROM v;
.mode table
SELECT * FROM v;
.mode markdown
SELECT * FROM v;
.mode box
SELECT * FROM v;
.mode box --wrap 10
SELECT * FROM v;
.mode table --wrap 12 --wordwrap on
SELECT * FROM v;
.mode column --ww --wrap 8 --quote
SELECT * FROM v;
.mode qbox
SELECT * FROM v;
.mode
.width 3 -6 0 5
.mode column
SELECT * FROM v;
.mode box
SELECT id, t FROM v;
.width
.headers off
.mode column
SELECT * FROM v;
.mode count
SELECT * FROM v;
.mode off
SELECT * FROM v;
.mode list
.separator ; ~
SELECT * FROM v;
.separator "\t" "\n"
SELECT 1, 2;
.mode bogus
.mode box extra1 extra2
.mode box --foo
.show
SELECT 1 WHERE 0;
.mode json
SELECT 1 WHERE 0;
SELECT 1 AS a; SELECT 2 AS b;
.mode line
SELECT 1 AS a; SELECT 2 AS b;

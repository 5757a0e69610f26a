CREATE TABLE t(a, b);
INSERT INTO t VALUES(1, 'x'), (2, 'y'), (-3, 'z');
CREATE INDEX i1 ON t(a) WHERE random() > 0;
CREATE INDEX i2 ON t(a) WHERE a > current_time;
CREATE INDEX i3 ON t(a) WHERE b < current_date;
CREATE INDEX i4 ON t(a) WHERE abs(a) > 1;
SELECT a, b FROM t WHERE abs(a) > 1;
SELECT name FROM sqlite_schema WHERE type = 'index' ORDER BY name;

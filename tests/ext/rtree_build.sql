-- Builds R*Tree tables deep enough to have several levels (run by either
-- engine; the other then reads and changes them).
CREATE TABLE rnd(i INTEGER PRIMARY KEY, a, b, c);
WITH RECURSIVE g(i, x) AS (SELECT 1, 4242 UNION ALL SELECT i + 1, (x * 1103515245 + 12345) % 2147483648 FROM g WHERE i < 6000)
INSERT INTO rnd(i, a) SELECT i, x FROM g;
UPDATE rnd SET b = (a * 7 + 3) % 2147483648, c = (a * 13 + 5) % 2147483648;
CREATE VIRTUAL TABLE r2 USING rtree(id, x0, x1, y0, y1, +label);
INSERT INTO r2 SELECT i, a % 10000 / 10.0, a % 10000 / 10.0 + b % 300 / 100.0, c % 10000 / 10.0, c % 10000 / 10.0 + b % 700 / 100.0, 'r' || i FROM rnd;
DELETE FROM r2 WHERE id % 5 = 0;
CREATE VIRTUAL TABLE ri USING rtree_i32(id, a0, a1, b0, b1, c0, c1);
INSERT INTO ri SELECT i, a % 50000, a % 50000 + b % 100, b % 50000, b % 50000 + c % 100, c % 50000, c % 50000 + a % 100 FROM rnd WHERE i <= 4000;

-- Changes the tables of rtree_build.sql: new rows, moved rows, deletes that
-- condense the tree, a rename.
INSERT INTO r2 SELECT i + 10000, a % 1000, a % 1000 + 1, c % 1000, c % 1000 + 1, 'new' FROM rnd WHERE i <= 1500;
UPDATE r2 SET x0 = x0 / 2, x1 = x1 / 2 WHERE id % 7 = 0;
DELETE FROM r2 WHERE x0 BETWEEN 100 AND 300;
INSERT OR REPLACE INTO r2 VALUES(3, 1, 2, 3, 4, 'replaced');
DELETE FROM ri WHERE a0 % 3 = 0;
ALTER TABLE ri RENAME TO ri2;
ALTER TABLE ri2 RENAME TO ri;

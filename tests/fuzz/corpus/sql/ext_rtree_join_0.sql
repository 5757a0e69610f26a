CREATE VIRTUAL TABLE t USING rtree(id, x0, x1, y0, y1);
CREATE TABLE o(k);
INSERT INTO t VALUES(1, 2, 3, 4, 5), (2, 0, 10, 0, 10);
INSERT INTO o VALUES(1), (2), (2.5), (9);
SELECT o.k, t.* FROM o JOIN t ON t.x0 <= o.k AND t.x1 >= o.k;
SELECT o.k, t.* FROM o JOIN t ON t.id = o.k;
ANALYZE;
SELECT * FROM sqlite_stat1 ORDER BY tbl;

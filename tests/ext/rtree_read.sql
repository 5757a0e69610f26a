-- Reads and checks the tables of rtree_build.sql.
PRAGMA integrity_check;
SELECT rtreecheck('r2');
SELECT rtreecheck('ri');
SELECT rtreedepth(data) FROM r2_node WHERE nodeno = 1;
SELECT count(*), sum(id) FROM r2;
SELECT * FROM r2 WHERE x0 <= 310 AND x1 >= 300 AND y0 <= 710 AND y1 >= 700;
SELECT id, label FROM r2 WHERE id = 4321;
SELECT id FROM r2 WHERE x1 < 2 OR y1 < 1;
SELECT * FROM ri WHERE a0 < 5000 AND b1 > 40000;
SELECT nodeno, hex(data) FROM r2_node ORDER BY nodeno;
SELECT * FROM r2_parent ORDER BY nodeno;
SELECT * FROM r2_rowid ORDER BY rowid;
SELECT nodeno, hex(data) FROM ri_node ORDER BY nodeno;

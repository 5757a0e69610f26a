-- Joins, grouping, ordering, subqueries and compound queries.
CREATE TABLE emp(id INTEGER PRIMARY KEY, name TEXT, dept INTEGER, salary REAL);
CREATE TABLE dept(id INTEGER PRIMARY KEY, title TEXT);
INSERT INTO dept VALUES(1, 'eng'), (2, 'ops'), (3, 'empty');
INSERT INTO emp VALUES(1, 'ann', 1, 120.5), (2, 'bob', 1, 99), (3, 'cy', 2, 80),
  (4, 'di', NULL, 50), (5, 'ed', 2, 80);
SELECT d.title, count(e.id), sum(e.salary) FROM dept d LEFT JOIN emp e ON e.dept = d.id
  GROUP BY d.id ORDER BY d.title;
SELECT name FROM emp WHERE salary > (SELECT avg(salary) FROM emp) ORDER BY name;
SELECT name, salary FROM emp ORDER BY salary DESC, name LIMIT 3 OFFSET 1;
SELECT dept FROM emp UNION SELECT id FROM dept ORDER BY 1;
SELECT name FROM emp e WHERE EXISTS (SELECT 1 FROM dept WHERE id = e.dept AND title = 'ops');
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x * 2 FROM n WHERE x < 100)
  SELECT group_concat(x) FROM n;
SELECT CASE WHEN salary >= 100 THEN 'high' WHEN salary >= 80 THEN 'mid' ELSE 'low' END AS band,
  count(*) FROM emp GROUP BY band ORDER BY band;
CREATE VIEW rich AS SELECT name FROM emp WHERE salary > 90;
SELECT * FROM rich ORDER BY 1;
UPDATE emp SET salary = salary * 2 WHERE dept = 2;
DELETE FROM emp WHERE dept IS NULL;
SELECT changes(), total_changes();
SELECT * FROM emp ORDER BY id;

SELECT p.id, quote((SELECT max(x) FROM (SELECT p.x FROM p WHERE p.x > '1' INTERSECT SELECT p.x FROM p WHERE p.y > 3 INTERSECT SELECT p.x FROM p WHERE p.x IS NOT '10') WHERE x <> p.x)) FROM p;
SELECT quote(z), count(*) FROM (SELECT q.z FROM q WHERE q.y >= 2.5 UNION SELECT p.z FROM p WHERE p.x > '1' UNION ALL SELECT q.z FROM q WHERE q.y > '10') GROUP BY z;
SELECT quote(z), count(*) FROM (SELECT p.z FROM p WHERE p.x > 3 UNION SELECT p.z FROM p WHERE p.x IS NOT 2.5) GROUP BY z;
SELECT p.id FROM p WHERE p.y NOT IN (SELECT q.y FROM q WHERE q.z > 3 UNION ALL SELECT q.y FROM q WHERE q.x <> 2.5);
SELECT quote(y), count(*) FROM (SELECT q.y, q.z FROM q WHERE q.y IS NOT NULL EXCEPT SELECT q.y, q.z FROM q WHERE q.z = '10' UNION SELECT q.y, q.z FROM q WHERE q.y < 2.5) GROUP BY y;

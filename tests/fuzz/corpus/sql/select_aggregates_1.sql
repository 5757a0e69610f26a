SELECT quote(sum(x)) FROM (SELECT x'03' AS x);
SELECT quote(count(DISTINCT x)) FROM (SELECT 1 AS x UNION ALL SELECT 1.0 UNION ALL SELECT '1');
SELECT count(DISTINCT x, s) FROM v;
SELECT sum(x, s) FROM v;
SELECT sum(*) FROM v;
SELECT abs(x) FILTER (WHERE 1) FROM v;
SELECT group_concat() FROM v;
SELECT count(x) FILTER (WHERE count(*) > 1) FROM v;
SELECT min(DISTINCT) FROM v;

-- EXPLAIN QUERY PLAN drawn as a tree (the shell's automatic EQP mode),
-- with the temporary trees of DISTINCT / GROUP BY / ORDER BY after the loops,
-- subqueries nested under their lines, and RIGHT/FULL JOIN's unmatched-row scan.
create table a(id integer primary key, k, v);
create table b(id integer primary key, k, w);
create index bk on b(k);
explain query plan select * from a;
explain query plan select 1;
explain query plan select v, count(*) from a group by k order by 2;
explain query plan select distinct v from a order by 1 desc;
explain query plan select * from a where k in (select w from b) and exists (select 1 from b where b.w = a.v) order by 1;
explain query plan select a.v, b.w from a right join b on a.k = b.k;
explain query plan select a.v, b.w from a full join b on a.k = b.k;
explain query plan select * from a left join b on b.k = a.k where a.id = 3;
.headers on
explain query plan select * from a, b where a.id = b.id;
select count(*) from a full join b on a.k = b.k;

-- Parameters where a schema object would store them: views, triggers, DEFAULT, CHECK, index expressions, partial-index WHERE and generated columns are refused with sqlite3's messages (and error positions).
create table b(id, x, y);
CREATE VIEW v(k, s) AS SELECT :a id, x + y FROM b;
create view w as with q as (select ?) select * from q;
create view w2 as select * from b where x in (select ?);
create view v3 as select :a from nosuch;
create view v4 as select :a syntax error here;
create table t(a default (:x));
create trigger g after insert on b begin select :a; end;
create trigger g2 after insert on b when :z begin select 1; end;
create trigger g3 after insert on nosuch begin select :a; end;
create trigger g4 after insert on b begin select 1 from nosuch; select ?; end;
create index i on b(x+?);
create table c(a check(a > ?1));
create table d(a, z as (?));
create index i2 on b(x) where y > ?;
create index i3 on b(x) where y > (select 1);
select name from sqlite_schema order by 1;

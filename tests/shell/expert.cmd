# .expert: index suggestions for the next SQL (single-table queries; joins and ties between equal candidates depend on the planner, see the report).
printf 'create table t(a, b, c);\n.expert\nselect * from t where a = 1;\n' | sqlite3
printf 'create table t(a, b, c);\n.expert -verbose\nselect * from t where a = 1 and b = 2 and c = 3;\n' | sqlite3
printf 'create table t(a, b, c);\n.expert --verbose\nselect * from t where a = 1 and b > 2 order by c;\n' | sqlite3
printf 'create table t(a, b, c);\n.expert\nselect * from nosuch;\n.expert\nselect * from t order by a desc, b;\nselect 1;\n' | sqlite3
printf 'create table t(a, b, c);\ncreate index ta on t(a);\n.expert\nselect * from t where a = 1;\nselect 1;\n' | sqlite3
printf '.expert -verbose 1\n.expert --sample 50\n.expert -x\n.expert --sample\n.expert --sample 200\n' | sqlite3
printf 'create table "my tab"(a integer primary key, "b c" text collate nocase, d);\n.expert -v\nselect * from "my tab" where "b c" = 1 and a = 2 and d = 3 collate nocase;\n' | sqlite3
printf 'create table t(a, b);\n.expert\nselect 1;\n.expert\ncreate table x(y);\n.expert\n.print hi\nselect 1;\n' | sqlite3
printf 'create table t(a, b);\n.expert\nselect a from t where b = 1; select b from t where a > 1 order by a;\n' | sqlite3
printf 'create table t(a, b, "select");\n.expert -v\nselect * from t where "select" = 1 and b < 5;\n' | sqlite3
printf 'create table t(a, b);\ncreate view v as select a from t where b > 0;\n.expert\nselect * from v where a = 3;\n' | sqlite3
sqlite3 x.db "create table t(a, b)" ".expert" "select * from t where b = ?"
sqlite3 x.db "create table t(a, b)" ".expert" "select * from t where"
printf 'create table t(a, b, c);\n.expert -verbose --sample 100\nselect * from t where a = 1 and b > 2;\n' | sqlite3
printf 'create table t(a, b, c);\ncreate index tb on t(b);\ninsert into t values(1,2,3),(1,3,4),(2,3,5),(NULL,NULL,1),(NULL,NULL,2);\n.expert -verbose --sample 100\nselect * from t where a = 1 and b > 2;\n' | sqlite3
printf 'create table t(a, b, c);\ninsert into t select value %% 10, value %% 7, value from generate_series(1, 1000);\n.expert -verbose --sample 100\nselect * from t where a = 1 and b > 2;\n' | sqlite3
printf 'create table t(a, b, c);\ninsert into t select value / 100, value %% 7, value from generate_series(1, 1000);\n.expert -verbose --sample 100\nselect * from t where a = 1 and b > 2;\n' | sqlite3
printf 'create table t(a text collate nocase, b, c);\ninsert into t select char(65 + value %% 3) || (value / 500), value %% 7, value from generate_series(1, 1000) order by value %% 2;\ninsert into t values(lower((select a from t limit 1)), 1, 1);\n.expert -verbose --sample 100\nselect * from t where a = 1 order by b;\n' | sqlite3

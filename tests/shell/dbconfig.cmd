# .dbconfig: every setting's default, setting and showing one, errors (an unknown name, not a boolean), on a file database too.
sqlite3 :memory: ".dbconfig"
sqlite3 :memory: ".dbconfig defensive on" ".dbconfig defensive" ".dbconfig defensive off" ".dbconfig"
sqlite3 :memory: ".dbconfig enable_fkey 1" "create table p(a primary key); create table c(b references p);" "insert into c values(5);"
sqlite3 :memory: ".dbconfig enable_view off" "create view v as select 1;" "select * from v;"
sqlite3 :memory: ".dbconfig enable_trigger no" ".dbconfig enable_trigger" ".dbconfig enable_trigger yes" ".dbconfig enable_trigger"
sqlite3 :memory: ".dbconfig dqs_dml off" "select \"x\";"
sqlite3 :memory: ".dbconfig foo" ".print after"
sqlite3 :memory: ".dbconfig Defensive"
sqlite3 :memory: ".dbconfig defensive maybe" ".dbconfig defensive"
sqlite3 :memory: ".dbconfig a b c"
sqlite3 :memory: ".dbconfig trusted_schema off extra" ".dbconfig trusted_schema"
sqlite3 :memory: ".dbc" ".dbco writable_schema"
sqlite3 :memory: ".db"
sqlite3 f.db "create table t(a);" ".dbconfig" ".dbconfig legacy_file_format on" ".dbconfig legacy_file_format"
printf '.dbconfig reset_database\n.dbconfig nosuch\n.dbconfig no_ckpt_on_close on\n.dbconfig no_ckpt_on_close\n' | sqlite3
sqlite3 :memory: ".output out.txt" ".dbconfig load_extension" ".output stdout" ".print done" && cat out.txt

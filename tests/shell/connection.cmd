# .connection: listing, switching to new and existing slots, each connection's own tables, file and in-memory databases, closing, errors; traced closes show the order in which the shell closes connections at exit.
sqlite3 :memory: ".connection"
sqlite3 :memory: ".connection 1" ".connection" "create table t(a);" ".tables" ".connection 0" ".tables" ".connection" ".connection close 1" ".connection"
sqlite3 :memory: ".connection 1" ".connection close 1" ".print not reached"
sqlite3 :memory: ".connection 9" ".connection" ".connection close 9" ".connection 0" ".print ok"
sqlite3 :memory: ".connection x"
sqlite3 :memory: ".connection a b c"
sqlite3 :memory: ".connection 12"
sqlite3 :memory: ".connection close" ".print not reached"
sqlite3 f.db "create table main_t(a);" ".connection 2" ".open g.db" "create table g_t(b);" ".connection" ".connection 0" ".tables" ".connection 2" ".tables" ".connection 4" ".connection" ".connection close 2" ".connection" ".connection 2" ".tables" ".connection"
sqlite3 :memory: ".trace stdout --close" ".connection 1" ".trace stdout --close" "select 1;" ".connection 3" ".trace stdout --close" "select 2;" ".connection 1" ".print end"
sqlite3 :memory: "create table t(a primary key);" ".session open main s" ".connection 1" ".session list" "create table t(a primary key);" ".session open main s1" ".session list" ".connection 0" ".session list" ".session attach t" "insert into t values(1);" ".session isempty" ".connection close 1" ".connection" ".session list"
printf '.connection 1\n.connection\n.connection close 0\n.connection\n.connection close 1\n.connection 0\n.connection close 1\n.connection\n' | sqlite3
sqlite3 :memory: ".co" ".conn 1" ".con"

# .imposter: usage errors, ".imposter off", and names that are not an index (or WITHOUT ROWID table); Basalt's library has no SQLITE_TESTCTRL_IMPOSTER, so creating an imposter is not compared.
sqlite3 :memory: ".imposter" ".print not reached"
sqlite3 :memory: ".imposter a b c"
sqlite3 :memory: ".imposter off" ".imposter OFF" ".print next"
sqlite3 :memory: ".imposter nosuch x"
sqlite3 :memory: "create table t(a,b); create index i on t(b);" ".imposter t x"
sqlite3 :memory: "create table t(a,b); create view v as select 1;" ".imposter v x"
sqlite3 :memory: ".impo" 2>&1 | head -1
sqlite3 :memory: ".impos" ".print not reached"
printf '.imposter x\n.imposter a\n.print after\n' | sqlite3

# .stats: usage errors, on/off/stmt/vmstep; memory and I/O figures measure each library's allocator and the process, so the cases compare the lines shown with the figures masked; the statement metadata of "stmt" is compared in full.
sqlite3 :memory: ".stats x y"
sqlite3 :memory: ".stats off" "select 1;"
sqlite3 :memory: ".stats maybe" "select 1;"
sqlite3 :memory: ".stats" | sed 's/[0-9][0-9]*/N/g'
sqlite3 :memory: "select 1;" ".stats" | sed 's/[0-9][0-9]*/N/g'
sqlite3 :memory: ".stats on" "create table t(a);" "select 1;" | sed 's/[0-9][0-9]*/N/g'
sqlite3 :memory: ".stats stmt" "create table t(a integer, b text);" "select a, b as bee, 1 from t;" "select 2;" | grep -E '^(Number of output|Column|[0-9])'
sqlite3 :memory: ".stats stmt" "select 2;" | grep -c .
sqlite3 :memory: ".stats vmstep" "select 3;" ".stats off" "select 4;" | sed 's/VM-steps: [0-9]*/VM-steps: N/'
sqlite3 :memory: ".stats on" ".stats" | sed 's/[0-9][0-9]*/N/g'
sqlite3 :memory: ".show" | grep stats && sqlite3 :memory: ".stats stmt" ".show" | grep stats && sqlite3 :memory: ".stats vmstep" ".show" | grep stats
sqlite3 f.db ".stats on" "create table t(a); insert into t values(1);" | sed 's/[0-9][0-9]*/N/g'

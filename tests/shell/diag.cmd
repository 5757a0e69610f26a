# .scanstats (no scan status in either build), .dbinfo (no sqlite_dbpage in either), .testcase and .check (the shell's own harness: output captured to testcase-out.txt and matched against a pattern).
sqlite3 :memory: ".scanstats"
sqlite3 :memory: ".scanstats on" ".print next" ".scanstats off" ".sc on"
sqlite3 :memory: ".scanstats x"
sqlite3 :memory: ".dbinfo"
sqlite3 f.db "create table t(a);" ".dbinfo main" ".print not reached"
printf '.dbinfo x y\n.dbi\nselect 1;\n' | sqlite3
sqlite3 :memory: ".testcase abc" "select 1;" ".check 1" ".print after"
sqlite3 :memory: ".testcase t2" "select 2;" ".check 3" ".print not reached"
sqlite3 :memory: ".testcase" ".check" ".print not reached"
sqlite3 :memory: ".check 1"
printf '.testcase a\nselect 1;\n.check 2\n.testcase b\n.print xyz\n.check x?z\n.testcase c\nselect 5;\n.check 5*\n.check 5\n' | sqlite3
printf '.testcase g\nselect 12, -34, 5.5;\n.check #|#|#.#\n.check [0-9]*|-#|5.[5]\n.check [^a]2*5.5\n.check *[|]5*\n.check 12|-34|5.5   \n.check 12|-34|5.6\n.check [a-\n' | sqlite3
printf '.testcase sp\n.print "a   b"\n.check a b\n.check "a\tb"\n.check ab\n.check *b\n.check a*\n' | sqlite3
printf '.testcase a-very-long-testcase-name-that-is-truncated\n.print x\n.check y\n' | sqlite3
printf '.testcase\n.print x\n.check x\n.testca\n.testcases\n' | sqlite3

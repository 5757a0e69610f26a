# .session: open, attach, changeset, patchset, enable, indirect, isempty, filter, list, close; changesets written to files and compared byte for byte (od); errors and the help shown for bad subcommands.
sqlite3 :memory: ".session"
sqlite3 :memory: ".session bogus" ".print next"
sqlite3 :memory: ".session list" ".session attach t" ".session changeset c.bin" ".session enable" ".session isempty" ".session close" ".print end"; ls
sqlite3 :memory: "create table t(a primary key, b);" ".session open main s1" ".session attach t" ".session isempty" "insert into t values(1,'one'),(2,'two');" "update t set b='deux' where a=2;" "delete from t where a=1;" ".session isempty" ".session changeset c.bin" ".session patchset p.bin" && od -An -c c.bin && od -An -c p.bin
sqlite3 :memory: "create table t(a primary key, b); create table u(x primary key, y);" ".session open main s" ".session attach *" "insert into t values(1,2);" "insert into u values(3,4);" ".session changeset all.bin" && od -An -tx1 all.bin
sqlite3 :memory: "create table t(a primary key, b); create table u(x primary key, y); create table tmp1(k primary key);" ".session open main s" ".session filter u tmp*" ".session attach" ".session attach *" "insert into t values(1,2);" "insert into u values(3,4);" "insert into tmp1 values(5);" ".session changeset f.bin" && od -An -tx1 f.bin
sqlite3 :memory: ".session open main a" ".session open main b" ".session open main a" ".session list" ".session b enable" ".session b enable off" ".session b enable" ".session indirect" ".session a indirect on" ".session indirect" ".session b isempty"
sqlite3 :memory: ".session open main a" ".session open main b" ".session open main c" ".session open main d" ".session open main e" ".session list" ".session a close" ".session list" ".session close" ".session list"
sqlite3 :memory: "create table t(a primary key, b);" ".session open main s" ".session attach t" ".session enable 0" "insert into t values(1,2);" ".session enable 1" "insert into t values(3,4);" ".session indirect 1" "insert into t values(5,6);" ".session changeset e.bin" && od -An -tx1 e.bin
sqlite3 :memory: ".session open" ".session open main" ".session open main ''" ".session list" ".session open nosuchdb s" ".session list"
sqlite3 :memory: "attach ':memory:' as aux; create table aux.t(a primary key);" ".session open aux s" ".session attach t" "insert into aux.t values(9);" ".session changeset a.bin" ".session s changeset b.bin" && od -An -tx1 a.bin && cmp a.bin b.bin
sqlite3 :memory: "create table t(a primary key);" ".session open main s" ".session attach t" "insert into t values(1);" ".session changeset nosuchdir/x.bin" ".session changeset" ".session s" ".print end"
sqlite3 :memory: "create table t(a);" ".session open main s" ".session attach t" "insert into t values(1);" ".session isempty" ".session changeset n.bin" && ls -l n.bin | cut -d' ' -f5
sqlite3 :memory: "create table t(a primary key);" ".session open main s" ".session attach t" ".open :memory:" ".session list" ".session isempty"
sqlite3 f.db "create table t(a integer primary key, b text, c real, d blob);" ".session open main s" ".session attach t" "insert into t values(1,'x',1.5,x'00ff'),(2,null,-2,'');" "update t set c=c+1;" ".session changeset f1.bin" ".session patchset f2.bin" && od -An -tx1 f1.bin && od -An -tx1 f2.bin
sqlite3 -safe :memory: ".session open main s" ".session changeset x.bin" ".print not reached"
printf '.session open main s\n.session list\n.session open main s\n.session close x\n.session s close\n.session list\n' | sqlite3

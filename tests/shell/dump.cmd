# .dump: output compared with sqlite3's, and round trips between the two
# shells ("/usr/bin/sqlite3" is always the real one; .sha3sum by sqlite3).
sqlite3 a.db < fixture.sql && sqlite3 a.db .dump
sqlite3 a.db < fixture.sql && sqlite3 a.db ".dump --preserve-rowids"
sqlite3 a.db < fixture.sql && sqlite3 a.db ".dump --data-only"
sqlite3 a.db < fixture.sql && sqlite3 a.db ".dump --newlines kinds"
sqlite3 a.db < fixture.sql && sqlite3 a.db ".dump k% wr" ".dump --bogus"
sqlite3 a.db < fixture.sql && sqlite3 a.db ".dump --nosys"
sqlite3 a.db < fixture.sql && sqlite3 a.db ".mode insert" "select * from kinds"
sqlite3 a.db < fixture.sql && sqlite3 a.db .dump | /usr/bin/sqlite3 b.db && /usr/bin/sqlite3 a.db .sha3sum && /usr/bin/sqlite3 b.db .sha3sum .dump
/usr/bin/sqlite3 a.db < fixture.sql && /usr/bin/sqlite3 a.db .dump | sqlite3 b.db && /usr/bin/sqlite3 b.db .sha3sum && /usr/bin/sqlite3 b.db "pragma integrity_check"
sqlite3 a.db < fixture.sql && sqlite3 a.db ".output d.sql" ".dump" && /usr/bin/sqlite3 c.db < d.sql && /usr/bin/sqlite3 c.db .sha3sum
sqlite3 a.db < fixture.sql && sqlite3 a.db ".once d.sql" ".dump" ".print after" && cat d.sql | sqlite3 e.db && /usr/bin/sqlite3 e.db .sha3sum
# .sha3sum by the shell under test, on both sides of a round trip.
sqlite3 a.db < fixture.sql && sqlite3 a.db .sha3sum ".sha3sum --schema" ".sha3sum k%" ".sha3sum --sha3-512 wr" ".sha3sum sqlite%"
sqlite3 a.db < fixture.sql && sqlite3 a.db ".sha3sum --debug" ".sha3sum --bogus"
sqlite3 a.db < fixture.sql && sqlite3 a.db .dump | /usr/bin/sqlite3 b.db && sqlite3 b.db .sha3sum && sqlite3 a.db .sha3sum
/usr/bin/sqlite3 a.db < fixture.sql && /usr/bin/sqlite3 a.db .dump | sqlite3 b.db && sqlite3 b.db ".sha3sum --schema" && /usr/bin/sqlite3 a.db ".sha3sum --schema"
sqlite3 :memory: "select lower(hex(sha3('abc'))), lower(hex(sha3(x'00', 384))), sha3(null)"

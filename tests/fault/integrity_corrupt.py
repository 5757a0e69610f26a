"""PRAGMA integrity_check / quick_check on databases with a damaged root page
(page type byte, cell count, a zeroed page, a table root of the index kind,
a wrong fragment count): the report rows, then the step's final result code
and message; run by tests/api/same_output.sh on both libraries.
usage: integrity_corrupt.py LIBRARY"""
import ctypes, os, shutil, subprocess, sys, tempfile

lib = ctypes.CDLL(sys.argv[1])
lib.sqlite3_column_text.restype = ctypes.c_char_p
lib.sqlite3_errmsg.restype = ctypes.c_char_p
work = tempfile.mkdtemp()
base = os.path.join(work, "base.db")
# The base file is made by the system library in a separate process, so that
# both runs damage the same bytes.
subprocess.run([sys.executable, "-c", """
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executescript('''PRAGMA page_size=1024;
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT); CREATE INDEX tb ON t(b); CREATE TABLE u(x);
CREATE TABLE w(k TEXT PRIMARY KEY, v INT NOT NULL) WITHOUT ROWID;''')
c.executemany('INSERT INTO t(b) VALUES(?)', [('v%d' % i * 20,) for i in range(200)])
c.executemany('INSERT INTO u VALUES(?)', [(i,) for i in range(10)])
c.executemany('INSERT INTO w VALUES(?, ?)', [('k%d' % i, i) for i in range(5)])
c.commit()
""", base], check=True)
PS = 1024
# Root pages, in creation order: t 2, tb 3, u 4, w 5.
CASES = [
    ("table root type 0", 2, 0, b"\x00"),
    ("table root type 0xff", 2, 0, b"\xff"),
    ("table root zeroed", 2, 0, b"\x00" * PS),
    ("index root type 7", 3, 0, b"\x07"),
    ("table root of index kind", 4, 0, b"\x0a"),
    ("table root cell count 65535", 4, 3, b"\xff\xff"),
    ("table root fragment count", 4, 7, b"\x05"),
    ("without rowid root type 0", 5, 0, b"\x00"),
    # The first record of u (its cell ends page 4) with a header size past
    # its payload: the check ends with the row "database disk image is
    # malformed"; then the same with a wrong fragment count reported first.
    ("record header too long", 4, PS - 2, b"\x7f"),
    ("record header too long, fragment count", 4, PS - 2, b"\x7f", 7, b"\x05"),
]

def run(path, sql):
    db = ctypes.c_void_p()
    lib.sqlite3_open(path.encode(), ctypes.byref(db))
    st = ctypes.c_void_p()
    rc = lib.sqlite3_prepare_v2(db, sql.encode(), -1, ctypes.byref(st), None)
    out = []
    if rc == 0:
        while True:
            rc = lib.sqlite3_step(st)
            if rc != 100:
                break
            out.append(lib.sqlite3_column_text(st, 0).decode())
    out.append("rc %d %s" % (rc, lib.sqlite3_errmsg(db).decode()))
    lib.sqlite3_finalize(st)
    lib.sqlite3_close(db)
    return out

for name, page, *patches in CASES:
    path = os.path.join(work, "case.db")
    shutil.copy(base, path)
    with open(path, "r+b") as f:
        for offset, data in zip(patches[0::2], patches[1::2]):
            f.seek((page - 1) * PS + offset)
            f.write(data)
    for sql in ["PRAGMA integrity_check", "PRAGMA quick_check", "PRAGMA integrity_check(u)",
                "PRAGMA integrity_check(3)"]:
        print("==", name, "|", sql)
        for line in run(path, sql):
            print(line)
shutil.rmtree(work)

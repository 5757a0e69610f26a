"""sqlite3_keyword_count / sqlite3_keyword_name / sqlite3_keyword_check: the
keywords in SQLite's numbering (the shell's completion lists them in that
order). Run by same_output.sh on Basalt's library and the system one."""
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
n = lib.sqlite3_keyword_count()
print("count", n)
for i in range(-1, n + 1):
    p, l = ctypes.c_char_p(), ctypes.c_int()
    rc = lib.sqlite3_keyword_name(i, ctypes.byref(p), ctypes.byref(l))
    print(i, rc, p.value[:l.value].decode() if rc == 0 else "")
lib.sqlite3_keyword_check.argtypes = [ctypes.c_char_p, ctypes.c_int]
for w in [b"select", b"SeLeCt", b"temporary", b"rowid", b"abc", b"", b"sel", b"WITHOUT", b"ROWS"]:
    print(w, lib.sqlite3_keyword_check(w, len(w)))

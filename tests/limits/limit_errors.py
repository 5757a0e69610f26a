#!/usr/bin/env python3
"""Error texts of the limit tests, compared with sqlite3's.

sqllogictest records only say that a statement fails; SQLite's limits also
have exact messages ("too many columns in result set", "Expression tree is
too large (maximum depth 1000)", ...). This replays every record of each
tests/sql/limits/*.test file, in order, through Basalt's shell and the
system sqlite3 shell and compares their whole output: results and error
messages (sqlite3's extra context lines, the SQL excerpt and caret under an
error, are dropped first).

usage: limit_errors.py BASALT_SHELL SQLITE3_SHELL TEST_FILE...
"""
import subprocess
import sys


def records(path):
    """The SQL of each statement/query record of a sqllogictest file."""
    out, cur = [], None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if cur is None:
            if line.startswith("statement ") or line.startswith("query "):
                cur = []
            continue
        if line == "" or line == "----":
            if cur:
                out.append("\n".join(cur))
            cur = None
            continue
        cur.append(line)
    if cur:
        out.append("\n".join(cur))
    return out


def run(shell, script):
    p = subprocess.run([shell, ":memory:"], input=script, capture_output=True, text=True,
                       timeout=300)
    lines = []
    for line in (p.stdout + "\n" + p.stderr).split("\n"):
        if line.startswith("  "):  # sqlite3's excerpt of the failing SQL and its caret
            continue
        lines.append(line)
    return lines


def main():
    basalt, sqlite3, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = 0
    for path in files:
        script = "".join(sql + ";\n" for sql in records(path))
        want, got = run(sqlite3, script), run(basalt, script)
        if want != got:
            bad += 1
            print("MISMATCH %s" % path)
            for i in range(max(len(want), len(got))):
                w = want[i] if i < len(want) else "<none>"
                g = got[i] if i < len(got) else "<none>"
                if w != g:
                    print("  sqlite3: %s\n  basalt:  %s" % (w[:200], g[:200]))
        else:
            print("ok %s (%d records)" % (path, script.count(";\n")))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

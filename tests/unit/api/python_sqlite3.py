#!/usr/bin/env python3
"""Runs CPython's own sqlite3 test suite (python3 -m test test_sqlite3) with
Basalt's library standing in for libsqlite3.so.0.

usage: python_sqlite3.py BUILD/libbasalt.so

Passes when every test that ran passed and exactly as many ran (and were
skipped) as when the same suite runs against the system library, which is
run first as the baseline (436 run, 6 skipped for CPython 3.11.7).
Exits 77 (ctest: skipped) when this Python has no test.test_sqlite3. When
Basalt has no fts4 module yet, test_dump_virtual_tables (which needs it) is
left out, with a message, and one test fewer is expected.
"""
import os
import re
import subprocess
import sys
import tempfile

def run(cmd, env, **kw):
    return subprocess.run(cmd, env=env, capture_output=True, text=True, **kw)


def totals(out):
    """(run, skipped) from regrtest's summary, or None."""
    m = re.search(r"Total tests: run=(\d+)(.*)", out)
    if not m:
        return None
    skipped = re.search(r"skipped=(\d+)", m.group(2))
    return int(m.group(1)), int(skipped.group(1)) if skipped else 0


def main():
    lib = os.path.abspath(sys.argv[1])
    probe = run([sys.executable, "-c", "import test.test_sqlite3"], os.environ.copy())
    if probe.returncode != 0:
        print("skipped: this Python has no test.test_sqlite3\n" + probe.stderr)
        return 77
    with tempfile.TemporaryDirectory() as d:
        os.symlink(lib, os.path.join(d, "libsqlite3.so.0"))
        env = os.environ.copy()
        env["LD_LIBRARY_PATH"] = d
        # The module must really load Basalt's library.
        check = run([sys.executable, "-c",
                     "import sqlite3; c = sqlite3.connect(':memory:');"
                     "print(open('/proc/self/maps').read());"
                     "c.execute('create virtual table f using fts4(a)')"], env)
        if os.path.realpath(lib) not in check.stdout and lib not in check.stdout:
            print("FAIL: _sqlite3 did not load " + lib + "\n" + check.stderr)
            return 1
        cmd = [sys.executable, "-m", "test", "test_sqlite3", "-v"]
        if "no such module: fts4" in check.stderr:
            print("note: Basalt has no fts4 module: test_dump_virtual_tables left out")
            cmd += ["-i", "test_dump_virtual_tables"]
        base = run(cmd, os.environ.copy(), cwd=d, timeout=1200)
        baseline = totals(base.stdout + base.stderr)
        if base.returncode != 0 or baseline is None:
            print("FAIL: the suite does not pass on the system library\n" + base.stdout[-3000:])
            return 1
        expected, expected_skipped = baseline
        r = run(cmd, env, cwd=d, timeout=1200)
        out = r.stdout + r.stderr
        print(out[-6000:])
        got = totals(out)
        if got is None:
            print("FAIL: no test totals in the output")
            return 1
        ran, n_skipped = got
        bad = re.findall(r"^(?:FAIL|ERROR): .*$", out, re.M)
        if bad or r.returncode != 0:
            print("FAIL: failing tests:\n" + "\n".join(bad))
            return 1
        if ran != expected or n_skipped != expected_skipped:
            print(f"FAIL: {ran} tests ran, {n_skipped} skipped; the system library: "
                  f"{expected} and {expected_skipped}")
            return 1
        print(f"OK: {ran} tests ran, {n_skipped} skipped, none failed")
        return 0


if __name__ == "__main__":
    sys.exit(main())

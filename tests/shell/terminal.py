#!/usr/bin/env python3
"""The shell at a terminal (a pseudo-terminal): banner, prompts,
continuation lines, the rc file, Ctrl-C interrupting a running statement
without leaving the shell, tab completion, Ctrl-D quitting, and the
history file.

usage: terminal.py SHELL [--reference]
The same expectations hold for the system sqlite3 ("--reference": it
finds its home directory through the password file, not $HOME, so its rc
and history files are not checked) -- that is how they were checked."""
import os
import pty
import select
import sys
import tempfile
import time


def run(shell, rc_name, hist_name):
    home = tempfile.mkdtemp()
    if rc_name:
        with open(os.path.join(home, rc_name), "w") as f:
            f.write(".nullvalue <nil>\n")
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(home)
        env = dict(os.environ, HOME=home, TERM="dumb")
        os.execve(shell, [shell], env)
    out = b""

    def expect(text, timeout=10.0):
        nonlocal out
        end = time.time() + timeout
        while text.encode() not in out:
            left = end - time.time()
            if left <= 0:
                raise AssertionError("expected %r, got %r" % (text, out[-400:]))
            r, _, _ = select.select([fd], [], [], left)
            if r:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    data = b""
                if not data:
                    raise AssertionError("EOF waiting for %r; got %r" % (text, out[-400:]))
                out += data
        i = out.index(text.encode()) + len(text)
        seen, out = out[:i], out[i:]
        return seen.decode(errors="replace")

    def send(s):
        os.write(fd, s.encode())

    expect("SQLite version 3.40.1")
    expect('Enter ".help" for usage hints.')
    expect("Connected to a ")
    expect('Use ".open FILENAME" to reopen on a persistent database.')
    expect("sqlite> ")
    send("select 1+1, null;\r")
    got = expect("sqlite> ")
    assert ("2|<nil>" if rc_name else "2|") in got, got
    send("select\r")
    expect("   ...> ")
    send("40+2;\r")
    got = expect("sqlite> ")
    assert "42" in got, got
    send("select nosuch;\r")
    got = expect("sqlite> ")
    assert "Parse error: no such column: nosuch" in got, got
    send("with recursive c(x) as (select 1 union all select x+1 from c) "
         "select count(*) from c;\r")
    time.sleep(1.0)
    send("\x03")
    got = expect("sqlite> ")
    assert "interrupted" in got, got
    send("select 'still here';\r")
    got = expect("sqlite> ")
    assert "still here" in got, got
    # Tab completion from the completion table: a column name, then the
    # candidates for "sel" listed (a keyword and a table).
    send("create table selfish(xyzzy);\r")
    expect("sqlite> ")
    send("select xy\t")
    expect("select xyzzy ")
    send("from selfish;\r")
    expect("sqlite> ")
    send("sel\t\t")
    got = expect("selfish")
    assert "SELECT" in got, got
    expect("sqlite> sel")  # the line, shown again under the list
    send("\x15select 3;\r")
    got = expect("sqlite> ")
    assert "3" in got, got
    send("\x04")
    _, status = os.waitpid(pid, 0)
    # sqlite3 exits with 1 after a session that had errors.
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1, status
    if hist_name:
        with open(os.path.join(home, hist_name)) as f:
            hist = f.read()
        assert "select 'still here';" in hist, hist


def main():
    shell = os.path.abspath(sys.argv[1])
    reference = "--reference" in sys.argv[2:]
    rc_name = "" if reference else ".basaltrc"
    hist_name = "" if reference else ".basalt_history"
    run(shell, rc_name, hist_name)
    print("ok   terminal session (%s)" % shell)


if __name__ == "__main__":
    main()

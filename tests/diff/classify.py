#!/usr/bin/env python3
"""Sorts the failures of a differential run into Basalt's and SQLite's.

Reads basalt-slt's output, and for every "FILE:LINE: wrong result" record
checks whether it is a known SQLite 3.40.1 bug (tests/diff/sqlite_bugs/):
the query must have the bug's shape, and Basalt's answer must be what the
system SQLite itself answers to the join-by-join rewrite of the query
(join_oracle.py), which avoids the faulty code. Such records are reported
as "explained (SQLite 3.40.1 bug ...)"; every other failure (including
errors and crashes) stays unexplained and fails the run.

usage: classify.py BASALT_SLT SLT_OUTPUT WORKDIR
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import join_oracle  # noqa: E402

# Shapes of the SQLite 3.40.1 bugs (ids: files in tests/diff/sqlite_bugs/).
BUGS = {
    "rj-const-on": "a LEFT JOIN whose ON clause has a constant false term, later "
                   "a RIGHT/FULL JOIN: SQLite drops the RIGHT JOIN's unmatched rows",
    "rj-where-before-match": "a WHERE term over the left operand of a RIGHT/FULL JOIN "
                             "that lets NULL through: SQLite tests it before recording "
                             "the match and adds a NULL row for a matched right row",
}


def records(path):
    """[(header_line_no, header, sql)] of a sqllogictest file."""
    lines = open(path).read().split("\n")
    out = []
    i = 0
    while i < len(lines):
        if lines[i].startswith(("statement", "query")):
            j = i + 1
            sql = []
            while j < len(lines) and lines[j] not in ("", "----"):
                sql.append(lines[j])
                j += 1
            out.append((i + 1, lines[i], "\n".join(sql)))
            while j < len(lines) and lines[j] != "":
                j += 1
            i = j
        i += 1
    return out


def shape(query):
    """The id of the known bug whose shape the query has, or None."""
    q = query.strip()
    m = re.match(r"SELECT .*? FROM (.*)$", q, re.S)
    if not m or not re.search(r"\b(RIGHT|FULL) JOIN\b", q):
        return None
    rest = m.group(1)
    ends = join_oracle.split_top(rest, join_oracle.ENDS)
    frm = rest[:ends[0][0]] if ends else rest
    try:
        joins = join_oracle.parse_from(frm)
    except (join_oracle.Unsupported, ValueError, IndexError):
        return None
    seen_const_left = False
    for word, src, cons in joins:
        if word in ("RIGHT JOIN", "FULL JOIN") and seen_const_left:
            return "rj-const-on"
        if word == "LEFT JOIN" and cons and cons[0] == "ON":
            terms = conjuncts(cons[1])
            if any(not re.search(r"\bs\d+\.", t) and "SELECT" not in t for t in terms):
                seen_const_left = True
    if ends and ends[0][1] == "WHERE":
        return "rj-where-before-match"
    return None


def conjuncts(expr):
    """The AND terms of expr, looking inside parenthesised ANDs."""
    out = []
    for _, t in split_and(expr):
        if t.startswith("(") and t.endswith(")") and closes_at_end(t):
            out += conjuncts(t[1:-1])
        else:
            out.append(t)
    return out


def closes_at_end(t):
    """Whether the '(' opening t is closed by its last character."""
    depth = 0
    for i, ch in enumerate(t):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return i == len(t) - 1
    return False


def split_and(expr):
    """Top-level AND terms of expr, as (index, text)."""
    cuts = [at for at, w in join_oracle.split_top(expr, ["AND"])]
    # BETWEEN x AND y: the AND belongs to BETWEEN.
    cuts = [c for c in cuts if not re.search(r"\bBETWEEN\s+\S+\s*$", expr[:c])]
    out = []
    pos = 0
    for c in cuts + [len(expr)]:
        out.append((pos, expr[pos:c].strip()))
        pos = c + 3
    return out


def main():
    slt, log, work = sys.argv[1], sys.argv[2], sys.argv[3]
    fails = []
    other = []
    text = open(log).read()
    total = re.findall(r"^\d+ passed, (\d+) failed", text, re.M)
    for line in text.split("\n"):
        m = re.match(r"(\S+\.test):(\d+): (.*)$", line.rstrip("\n"))
        if not m:
            continue
        if m.group(3).startswith("wrong result"):
            fails.append((m.group(1), int(m.group(2)), m.group(3)))
        else:
            other.append(line.rstrip("\n"))
    os.makedirs(f"{work}/oracle_in", exist_ok=True)
    os.makedirs(f"{work}/oracle_out", exist_ok=True)
    cand = {}
    verdict = {}
    for path, line, msg in fails:
        recs = records(path)
        k = next((i for i, r in enumerate(recs) if r[0] == line), None)
        if k is None or not recs[k][1].startswith("query"):
            verdict[(path, line)] = "UNEXPLAINED (record not found)"
            continue
        query = recs[k][2]
        bug = shape(query)
        if bug is None:
            verdict[(path, line)] = "UNEXPLAINED (no known SQLite bug has this shape)"
            continue
        try:
            rewritten = join_oracle.rewrite(query)
        except (join_oracle.Unsupported, ValueError, IndexError) as e:
            verdict[(path, line)] = f"UNEXPLAINED (no rewrite: {e})"
            continue
        s = k
        while s > 0 and not recs[s][2].startswith("DROP TABLE IF EXISTS t1"):
            s -= 1
        body = ["hash-threshold 0", ""]
        for _, head, sql in recs[s:k]:
            if head.startswith("statement ok"):
                body += ["statement ok", sql, ""]
        name = f"c{len(cand)}.test"
        body += [recs[k][1], rewritten, "----", ""]
        open(f"{work}/oracle_in/{name}", "w").write("\n".join(body))
        cand[name] = (path, line, bug, rewritten, query)
    if cand:
        # SQLite answers the rewrites; Basalt then answers the original
        # queries against those expectations.
        subprocess.run([slt, "--engine", "sqlite", "--quiet", "--no-progress", "--complete",
                        f"{work}/oracle_out", f"{work}/oracle_in"], capture_output=True)
        for name, (path, line, bug, rewritten, query) in cand.items():
            p = f"{work}/oracle_out/{name}"
            text = open(p).read()
            if rewritten not in text:
                verdict[(path, line)] = "UNEXPLAINED (SQLite rejected the rewrite)"
                continue
            open(p, "w").write(text.replace(rewritten, query))
            r = subprocess.run([slt, "--engine", "basalt", "--quiet", "--no-progress", p],
                               capture_output=True, text=True)
            if r.returncode == 0:
                verdict[(path, line)] = f"explained (SQLite 3.40.1 bug {bug})"
            else:
                verdict[(path, line)] = ("UNEXPLAINED (Basalt differs from SQLite's answer to "
                                         "the join-by-join rewrite too)")
    unexplained = 0
    for path, line, msg in fails:
        v = verdict[(path, line)]
        unexplained += v.startswith("UNEXPLAINED")
        print(f"{path}:{line}: {v}")
    for o in other:
        print(f"UNEXPLAINED {o}")
    explained = len(fails) - unexplained
    unexplained += len(other)
    # A crash of the runner itself, or failures not reported per record.
    if not total or int(total[-1]) > len(fails) + len(other):
        print("UNEXPLAINED: basalt-slt did not report every failure (crash?)")
        unexplained += 1
    print(f"differential: {explained} failure(s) explained as SQLite 3.40.1 bugs, "
          f"{unexplained} unexplained")
    for bug, text in BUGS.items():
        print(f"  {bug}: {text}")
    sys.exit(1 if unexplained else 0)


if __name__ == "__main__":
    main()

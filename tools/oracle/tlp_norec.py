#!/usr/bin/env python3
"""Metamorphic testing of one SQLite-compatible library on its own: TLP
(ternary logic partitioning) and NoREC (non-optimizing reference engine
construction), the oracles of Rigger and Su.

For a random schema and data and a random predicate p over it:
  TLP    SELECT cols FROM src
         equals, as a multiset,
         SELECT cols FROM src WHERE p UNION ALL ... WHERE NOT (p)
                                      UNION ALL ... WHERE (p) IS NULL
         (also for DISTINCT, with UNION, and for count/sum/min/max
         aggregates recombined over the three parts);
  NoREC  SELECT count(*) FROM src WHERE p
         equals
         SELECT count(*) FROM (SELECT (p) IS TRUE AS x FROM src) WHERE x
         (the second form cannot use an index for p).
The library is loaded with ctypes (Basalt's libbasalt.so or the system
libsqlite3.so.0), so the oracles run on one engine alone; running the same
seeds on the system library tells SQLite's own quirks apart.

Every mismatch is written as a self-contained SQL script (schema, data and
the two queries) under --out. Seeded and reproducible.

usage: tlp_norec.py --lib PATH --seed N [--seeds K] [--checks N] [--out DIR]
"""
import argparse
import ctypes
import os
import random
import sys

SQLITE_ROW, SQLITE_DONE = 100, 101


class Lib:
    def __init__(self, path):
        self.c = ctypes.CDLL(path)
        c = self.c
        c.sqlite3_open.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        c.sqlite3_close.argtypes = [ctypes.c_void_p]
        c.sqlite3_prepare_v2.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int,
                                         ctypes.POINTER(ctypes.c_void_p),
                                         ctypes.POINTER(ctypes.c_char_p)]
        c.sqlite3_step.argtypes = [ctypes.c_void_p]
        c.sqlite3_finalize.argtypes = [ctypes.c_void_p]
        c.sqlite3_column_count.argtypes = [ctypes.c_void_p]
        c.sqlite3_column_type.argtypes = [ctypes.c_void_p, ctypes.c_int]
        c.sqlite3_column_int64.argtypes = [ctypes.c_void_p, ctypes.c_int]
        c.sqlite3_column_int64.restype = ctypes.c_int64
        c.sqlite3_column_double.argtypes = [ctypes.c_void_p, ctypes.c_int]
        c.sqlite3_column_double.restype = ctypes.c_double
        c.sqlite3_column_blob.argtypes = [ctypes.c_void_p, ctypes.c_int]
        c.sqlite3_column_blob.restype = ctypes.c_void_p
        c.sqlite3_column_bytes.argtypes = [ctypes.c_void_p, ctypes.c_int]
        c.sqlite3_errmsg.argtypes = [ctypes.c_void_p]
        c.sqlite3_errmsg.restype = ctypes.c_char_p


class Db:
    def __init__(self, lib):
        self.lib = lib
        self.h = ctypes.c_void_p()
        lib.c.sqlite3_open(b":memory:", ctypes.byref(self.h))

    def close(self):
        self.lib.c.sqlite3_close(self.h)

    def query(self, sql):
        """Rows as tuples, or raises RuntimeError with the error message."""
        c = self.lib.c
        st = ctypes.c_void_p()
        rc = c.sqlite3_prepare_v2(self.h, sql.encode(), -1, ctypes.byref(st), None)
        if rc != 0:
            raise RuntimeError(c.sqlite3_errmsg(self.h).decode(errors="replace"))
        rows = []
        try:
            while True:
                rc = c.sqlite3_step(st)
                if rc == SQLITE_DONE:
                    return rows
                if rc != SQLITE_ROW:
                    raise RuntimeError(c.sqlite3_errmsg(self.h).decode(errors="replace"))
                row = []
                for i in range(c.sqlite3_column_count(st)):
                    t = c.sqlite3_column_type(st, i)
                    if t == 1:
                        row.append(c.sqlite3_column_int64(st, i))
                    elif t == 2:
                        row.append(c.sqlite3_column_double(st, i))
                    elif t == 5:
                        row.append(None)
                    else:
                        n = c.sqlite3_column_bytes(st, i)
                        p = c.sqlite3_column_blob(st, i)
                        b = ctypes.string_at(p, n) if p else b""
                        row.append(("t" if t == 3 else "b", b))
                rows.append(tuple(row))
        finally:
            c.sqlite3_finalize(st)


# ---- random schemas, data and predicates ---------------------------------

AFFINITIES = ["", "INT", "INTEGER", "REAL", "TEXT", "NUMERIC", "BLOB"]
COLLATIONS = ["", " COLLATE NOCASE", " COLLATE RTRIM", " COLLATE BINARY"]
VALUES = ["NULL", "0", "1", "-1", "2", "3", "10", "-0.0", "0.5", "1.0", "2.5", "1e3",
          "9223372036854775807", "-9223372036854775808", "9007199254740993",
          "9.223372036854775807e18", "'0'", "'1'", "'1.0'", "' 1'", "'a'", "'A'", "'a '",
          "'abc'", "'ABC'", "''", "'10'", "x''", "x'00'", "x'41'", "'%'", "'_'"]


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.tables = {}  # name -> list of column names

    def pick(self, xs):
        return self.r.choice(xs)

    def schema(self):
        out = []
        for t in ["t0", "t1", "t2"]:
            ncol = self.r.randint(1, 4)
            cols = [f"c{i}" for i in range(ncol)]
            self.tables[t] = cols
            defs = [f"{c} {self.pick(AFFINITIES)}{self.pick(COLLATIONS)}" for c in cols]
            wr = self.r.random() < 0.25
            if wr:
                defs.append(f"PRIMARY KEY({cols[0]})")
            elif self.r.random() < 0.2:
                defs[0] += " UNIQUE"
            out.append(f"CREATE TABLE {t}({', '.join(defs)})" + (" WITHOUT ROWID" if wr else ""))
            for k in range(self.r.randint(0, 3)):
                out.append(self.index(t, cols, k))
            used = set()
            for _ in range(self.r.randint(0, 8)):
                vals = [self.pick(VALUES) for _ in cols]
                if wr:
                    if vals[0] == "NULL" or vals[0] in used:
                        continue
                    used.add(vals[0])
                out.append(f"INSERT OR IGNORE INTO {t} VALUES({', '.join(vals)})")
        if self.r.random() < 0.5:
            t = self.pick(list(self.tables))
            cols = self.tables[t]
            out.append(f"CREATE VIEW v0 AS SELECT {', '.join(cols)} FROM {t} WHERE {self.pred(cols, 1)}")
            self.tables["v0"] = list(cols)
        return out

    def index(self, t, cols, k):
        c = self.r.random()
        keys = self.r.sample(cols, self.r.randint(1, len(cols)))
        keys = [k2 + self.pick(["", "", " DESC", " COLLATE NOCASE"]) for k2 in keys]
        if c < 0.2:
            keys = [self.expr(cols, 1)] + keys[:1]
        sql = f"CREATE {'UNIQUE ' if self.r.random() < 0.1 else ''}INDEX {t}_i{k} ON {t}({', '.join(keys)})"
        if c > 0.8:
            sql += f" WHERE {self.pred(cols, 1)}"
        return sql

    def expr(self, cols, depth):
        c = self.r.random()
        if depth <= 0 or c < 0.35:
            return self.pick(cols) if self.r.random() < 0.6 else self.pick(VALUES)
        if c < 0.55:
            op = self.pick(["+", "-", "*", "/", "%", "||", "&", "|", "<<"])
            return f"({self.expr(cols, depth - 1)} {op} {self.expr(cols, depth - 1)})"
        if c < 0.65:
            f = self.pick(["abs", "lower", "upper", "length", "typeof", "hex", "quote", "trim",
                           "round", "unicode", "likely", "coalesce", "ifnull", "nullif",
                           "max", "min", "instr", "substr"])
            if f in ("coalesce", "ifnull", "nullif", "max", "min", "instr"):
                return f"{f}({self.expr(cols, depth - 1)}, {self.expr(cols, depth - 1)})"
            if f == "substr":
                return f"substr({self.expr(cols, depth - 1)}, {self.pick(['0', '1', '2', '-1'])})"
            return f"{f}({self.expr(cols, depth - 1)})"
        if c < 0.75:
            return f"CAST({self.expr(cols, depth - 1)} AS {self.pick(['INTEGER', 'REAL', 'TEXT', 'NUMERIC', 'BLOB'])})"
        if c < 0.85:
            return (f"CASE WHEN {self.pred(cols, depth - 1)} THEN {self.expr(cols, depth - 1)} "
                    f"ELSE {self.expr(cols, depth - 1)} END")
        if c < 0.92:
            return f"({self.expr(cols, depth - 1)} COLLATE {self.pick(['NOCASE', 'RTRIM', 'BINARY'])})"
        return f"(- {self.expr(cols, depth - 1)})"

    def pred(self, cols, depth):
        c = self.r.random()
        e = lambda: self.expr(cols, depth)
        if depth > 0 and c < 0.2:
            return f"({self.pred(cols, depth - 1)} {self.pick(['AND', 'OR'])} {self.pred(cols, depth - 1)})"
        if depth > 0 and c < 0.25:
            return f"NOT ({self.pred(cols, depth - 1)})"
        if c < 0.55:
            op = self.pick(["=", "==", "<>", "!=", "<", "<=", ">", ">=", "IS", "IS NOT"])
            return f"{e()} {op} {e()}"
        if c < 0.62:
            return f"{e()} {self.pick(['', 'NOT '])}BETWEEN {e()} AND {e()}"
        if c < 0.7:
            items = ", ".join(e() for _ in range(self.r.randint(1, 3)))
            return f"{e()} {self.pick(['', 'NOT '])}IN ({items})"
        if c < 0.76:
            t = self.pick(list(self.tables))
            cc = self.pick(self.tables[t])
            return f"{e()} {self.pick(['', 'NOT '])}IN (SELECT {cc} FROM {t})"
        if c < 0.82:
            return f"{e()} {self.pick(['LIKE', 'GLOB', 'NOT LIKE'])} {self.pick(VALUES + [repr('a%'), repr('%1%'), repr('A_')])}"
        if c < 0.88:
            return f"{e()} IS{self.pick(['', ' NOT'])} {self.pick(['NULL', 'TRUE', 'FALSE'])}"
        if c < 0.92:
            t = self.pick(list(self.tables))
            cc = self.pick(self.tables[t])
            return f"{self.pick(['', 'NOT '])}EXISTS (SELECT 1 FROM {t} WHERE {cc} = {e()})"
        return e()

    def source(self):
        """(FROM text, visible column references)."""
        names = list(self.tables)
        a = self.pick(names)
        if self.r.random() < 0.6:
            return a, [f"{a}.{c}" for c in self.tables[a]]
        b = self.pick(names)
        ab, bb = "a", "b"
        cols = [f"{ab}.{c}" for c in self.tables[a]] + [f"{bb}.{c}" for c in self.tables[b]]
        join = self.pick(["JOIN", "LEFT JOIN", "CROSS JOIN", "RIGHT JOIN", "FULL JOIN"])
        on = "" if join == "CROSS JOIN" else f" ON {self.pred(cols, 1)}"
        return f"{a} AS {ab} {join} {b} AS {bb}{on}", cols


def multiset(rows):
    return sorted(rows, key=repr)


STATS = {"run": 0, "skipped": 0}


def checks(g, db, n):
    """Yields (kind, query1, query2, why) for mismatches."""
    for _ in range(n):
        src, cols = g.source()
        p = g.pred(cols, 2)
        sel = ", ".join(g.r.sample(cols, g.r.randint(1, min(3, len(cols)))))
        kind = g.r.choice(["tlp", "tlp", "distinct", "agg", "norec"])
        if kind == "tlp":
            q1 = f"SELECT {sel} FROM {src}"
            q2 = " UNION ALL ".join(f"SELECT {sel} FROM {src} WHERE {w}"
                                    for w in (f"({p})", f"NOT ({p})", f"({p}) IS NULL"))
        elif kind == "distinct":
            q1 = f"SELECT DISTINCT {sel} FROM {src}"
            q2 = " UNION ".join(f"SELECT DISTINCT {sel} FROM {src} WHERE {w}"
                                for w in (f"({p})", f"NOT ({p})", f"({p}) IS NULL"))
        elif kind == "agg":
            col = g.r.choice(cols)
            agg = g.r.choice(["count", "max", "min", "sum"])
            outer = {"count": "sum", "max": "max", "min": "min", "sum": "sum"}[agg]
            q1 = f"SELECT {agg}({col}) FROM {src}"
            q2 = (f"SELECT {outer}(x) FROM (" + " UNION ALL ".join(
                f"SELECT {agg}({col}) AS x FROM {src} WHERE {w}"
                for w in (f"({p})", f"NOT ({p})", f"({p}) IS NULL")) + ")")
        else:
            q1 = f"SELECT count(*) FROM {src} WHERE {p}"
            q2 = f"SELECT count(*) FROM (SELECT ({p}) IS TRUE AS x FROM {src}) WHERE x"
        try:
            r1 = db.query(q1)
        except RuntimeError:
            STATS["skipped"] += 1
            continue
        try:
            r2 = db.query(q2)
        except RuntimeError as e:
            if "integer overflow" in str(e):  # sum() of the parts may overflow
                STATS["skipped"] += 1
                continue
            yield kind, q1, q2, f"second query failed: {e}"
            continue
        STATS["run"] += 1
        if kind == "agg" and any(isinstance(r[0][0], float) for r in (r1, r2) if r):
            # A floating-point sum depends on the order of its terms.
            if "sum(" in q1:
                continue
        if kind == "distinct":
            # Which of several equal values (under a collation) stands for
            # them is not fixed: compare how many distinct rows there are.
            r1, r2 = [len(r1)], [len(r2)]
        if multiset(r1) != multiset(r2):
            yield kind, q1, q2, f"{len(r1)} rows vs {len(r2)} rows"


def run_seed(lib, seed, n, out):
    g = Gen(random.Random(seed))
    db = Db(lib)
    schema = []
    for sql in g.schema():
        try:
            db.query(sql)
            schema.append(sql)
        except RuntimeError:
            pass
    found = 0
    done = 0
    for kind, q1, q2, why in checks(g, db, n):
        found += 1
        if out:
            os.makedirs(out, exist_ok=True)
            with open(os.path.join(out, f"seed{seed}_{found}.sql"), "w") as f:
                f.write(f"-- {kind} mismatch ({why}), tlp_norec.py --seed {seed}\n")
                for s in schema:
                    f.write(s + ";\n")
                f.write(q1 + ";\n" + q2 + ";\n")
    db.close()
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--checks", type=int, default=500)
    ap.add_argument("--out", default="")
    a = ap.parse_args()
    lib = Lib(a.lib)
    total = 0
    for s in range(a.seed, a.seed + a.seeds):
        total += run_seed(lib, s, a.checks, a.out)
    print(f"{a.seeds} seeds x {a.checks} checks: {STATS['run']} run, "
          f"{STATS['skipped']} skipped (the query failed), {total} mismatches")
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()

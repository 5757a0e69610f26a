#!/usr/bin/env python3
"""Random queries for differential testing against the system SQLite.

Writes a sqllogictest script: a random schema and data, then random SELECTs
over joins (inner, LEFT, RIGHT, FULL, CROSS, NATURAL, USING, parenthesised),
window functions, CTEs (recursive and correlated), subqueries, aggregates,
compound SELECTs and scalar expressions (CASE, CAST, LIKE/GLOB, COLLATE,
string and numeric functions and operators). Expected results are not known here: complete the script with
`basalt-slt --engine sqlite --complete OUT IN`, then run Basalt on OUT.
Every query is deterministic (its rows are compared as a sorted set, window
orders end on a unique key). The same seed gives the same script.

usage: gen_queries.py --seed N --queries N [--schemas N] > script.test
"""
import argparse
import random

TABLES = ["t1", "t2", "t3", "t4"]
INTS = ["0", "1", "2", "3", "4", "NULL"]
TEXTS = ["'x'", "'y'", "'z'", "'X'", "''", "NULL"]


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.n_alias = 0

    def pick(self, xs):
        return self.r.choice(xs)

    # ---- schema --------------------------------------------------------
    def schema(self):
        out = []
        for t in TABLES:
            kind = self.r.random()
            if kind < 0.25:
                out.append(f"CREATE TABLE {t}(id INT PRIMARY KEY, a INT, b TEXT, c INT) WITHOUT ROWID")
            else:
                out.append(f"CREATE TABLE {t}(id INTEGER PRIMARY KEY, a INT, b TEXT, c INT)")
            if self.r.random() < 0.5:
                out.append(f"CREATE INDEX {t}_a ON {t}(a)")
            if self.r.random() < 0.3:
                out.append(f"CREATE INDEX {t}_bc ON {t}(b, c)")
            rows = []
            for i in range(self.r.randint(0, 9)):
                rows.append(f"({i + 1}, {self.pick(INTS)}, {self.pick(TEXTS)}, {self.pick(INTS)})")
            if rows:
                out.append(f"INSERT INTO {t} VALUES " + ", ".join(rows))
        return out

    # ---- expressions ---------------------------------------------------
    def col(self, aliases, kinds="abci"):
        al = self.pick(aliases)
        return f"{al}.{self.pick({'a': 'a', 'b': 'b', 'c': 'c', 'i': 'id'}[k] for k in kinds) if False else self.pick([{'a': 'a', 'b': 'b', 'c': 'c', 'i': 'id'}[k] for k in kinds])}"

    def int_expr(self, aliases):
        c = self.r.random()
        if c < 0.5:
            return self.col(aliases, "aci")
        if c < 0.7:
            return self.pick(INTS[:-1])
        if c < 0.85:
            return f"({self.col(aliases, 'ac')} + {self.pick(INTS[:-1])})"
        return f"coalesce({self.col(aliases, 'ac')}, {self.pick(INTS[:-1])})"

    def pred(self, aliases, depth=0):
        c = self.r.random()
        if c < 0.35:
            op = self.pick(["=", "<", ">", "<=", ">=", "<>", "IS", "IS NOT"])
            return f"{self.int_expr(aliases)} {op} {self.int_expr(aliases)}"
        if c < 0.45:
            return f"{self.col(aliases, 'b')} {self.pick(['=', '<', '>', 'IS'])} {self.pick(TEXTS)}"
        if c < 0.55:
            return f"{self.col(aliases)} IS {self.pick(['NULL', 'NOT NULL'])}"
        if c < 0.62:
            return f"{self.col(aliases, 'ac')} IN ({', '.join(self.pick(INTS) for _ in range(self.r.randint(1, 3)))})"
        if c < 0.67:
            return f"{self.col(aliases, 'ac')} BETWEEN {self.pick(INTS[:-1])} AND {self.pick(INTS[:-1])}"
        if c < 0.72 and depth == 0:
            t = self.pick(TABLES)
            s = self.alias()
            return (f"{self.pick(['EXISTS', 'NOT EXISTS'])} (SELECT 1 FROM {t} {s} "
                    f"WHERE {s}.a = {self.col(aliases, 'ac')})")
        if c < 0.77 and depth == 0:
            t = self.pick(TABLES)
            s = self.alias()
            return f"{self.col(aliases, 'ac')} {self.pick(['IN', 'NOT IN'])} (SELECT {s}.c FROM {t} {s})"
        if depth < 2:
            op = self.pick(["AND", "OR"])
            return f"({self.pred(aliases, depth + 1)} {op} {self.pred(aliases, depth + 1)})"
        return f"NOT ({self.int_expr(aliases)} = {self.int_expr(aliases)})"

    def alias(self):
        self.n_alias += 1
        return f"s{self.n_alias}"

    # ---- FROM clauses --------------------------------------------------
    def source(self, aliases):
        t = self.pick(TABLES)
        al = self.alias()
        aliases.append(al)
        if self.r.random() < 0.12:
            return f"(SELECT * FROM {t} WHERE {t}.a IS NOT {self.pick(INTS)}) {al}"
        return f"{t} {al}"

    def join_on(self, left, right):
        return f"{self.col([self.pick(left)], 'aci')} = {self.col([right], 'aci')}"

    def from_clause(self, aliases, n):
        sql = self.source(aliases)
        for _ in range(n - 1):
            jt = self.pick(["JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "LEFT JOIN",
                            "RIGHT JOIN", "FULL JOIN", ",", "CROSS JOIN"])
            left = list(aliases)
            if self.r.random() < 0.15 and jt not in (",", "CROSS JOIN"):
                # A parenthesised join as the right operand.
                inner = []
                a1 = self.source(inner)
                a2 = self.source(inner)
                ij = self.pick(["JOIN", "LEFT JOIN"])
                grp = f"({a1} {ij} {a2} ON {self.join_on(inner[:1], inner[1])})"
                aliases.extend(inner)
                sql += f" {jt} {grp} ON {self.col(left, 'ac')} = {self.col(inner, 'ac')}"
                continue
            src = self.source(aliases)
            right = aliases[-1]
            if jt in (",", "CROSS JOIN"):
                sql += f"{jt if jt == ',' else ' ' + jt} {src}"
                continue
            c = self.r.random()
            if c < 0.65:
                cond = self.join_on(left, right)
                if self.r.random() < 0.3:
                    cond += f" AND {self.pred([right] + left, 1)}"
                sql += f" {jt} {src} ON {cond}"
            elif c < 0.8:
                sql += f" {jt} {src} ON {self.pred(left + [right], 1)}"
            else:
                sql += f" {jt} {src} USING ({self.pick(['a', 'c', 'a, c', 'b'])})"
        return sql

    # ---- queries -------------------------------------------------------
    def join_query(self):
        aliases = []
        frm = self.from_clause(aliases, self.r.randint(2, 4))
        cols = [self.col(aliases) for _ in range(self.r.randint(1, 4))]
        sql = f"SELECT {', '.join(cols)} FROM {frm}"
        if self.r.random() < 0.5:
            sql += f" WHERE {self.pred(aliases)}"
        return sql, len(cols)

    def agg_query(self):
        aliases = []
        frm = self.from_clause(aliases, self.r.randint(1, 3))
        g = self.col(aliases, "abc")
        aggs = [self.pick(["count(*)", f"count({self.col(aliases)})", f"sum({self.col(aliases, 'ac')})",
                           f"min({self.col(aliases)})", f"max({self.col(aliases)})",
                           f"total({self.col(aliases, 'ac')})", f"count(DISTINCT {self.col(aliases, 'ab')})"])
                for _ in range(self.r.randint(1, 3))]
        sql = f"SELECT {g}, {', '.join(aggs)} FROM {frm}"
        if self.r.random() < 0.4:
            sql += f" WHERE {self.pred(aliases)}"
        sql += f" GROUP BY {g}"
        if self.r.random() < 0.3:
            sql += f" HAVING count(*) > {self.pick(['0', '1', '2'])}"
        return sql, 1 + len(aggs)

    def window_query(self):
        t = self.pick(TABLES)
        al = self.alias()
        part = self.pick(["", f"PARTITION BY {al}.a ", f"PARTITION BY {al}.b ", f"PARTITION BY {al}.c % 2 "])
        order = self.pick([f"ORDER BY {al}.id", f"ORDER BY {al}.a, {al}.id",
                           f"ORDER BY {al}.c DESC, {al}.id", f"ORDER BY {al}.b, {al}.id DESC"])
        frame = self.pick(["", "", " ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING",
                           " ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
                           " ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
                           " ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING",
                           " GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW",
                           " ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW"])
        funcs = []
        for _ in range(self.r.randint(1, 3)):
            f = self.pick(["row_number()", "rank()", "dense_rank()", "ntile(3)",
                           f"lag({al}.a)", f"lead({al}.c, 2, -1)", f"first_value({al}.b)",
                           f"last_value({al}.a)", f"nth_value({al}.c, 2)",
                           f"sum({al}.a)", f"count({al}.c)", f"min({al}.b)", f"max({al}.c)",
                           f"count(*) FILTER (WHERE {al}.a > 1)"])
            ranking = f.split("(")[0] in ("row_number", "rank", "dense_rank", "ntile", "lag", "lead")
            fr = "" if ranking else frame
            funcs.append(f"{f} OVER ({part}{order}{fr})")
        sql = f"SELECT {al}.id, {', '.join(funcs)} FROM {t} {al}"
        if self.r.random() < 0.4:
            sql += f" WHERE {self.pred([al])}"
        return sql, 1 + len(funcs)

    def cte_query(self):
        c = self.r.random()
        if c < 0.35:
            k = self.r.randint(1, 6)
            t = self.pick(TABLES)
            al = self.alias()
            jt = self.pick(["JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"])
            return (f"WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r WHERE n < {k}) "
                    f"SELECT r.n, {al}.id FROM r {jt} {t} {al} ON {al}.a = r.n"), 2
        if c < 0.6:
            t = self.pick(TABLES)
            u = self.pick(TABLES)
            al = self.alias()
            return (f"WITH w AS (SELECT a, count(*) AS n FROM {t} GROUP BY a) "
                    f"SELECT w.a, w.n, {al}.id FROM w {self.pick(['JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN'])} "
                    f"{u} {al} ON {al}.a = w.a"), 3
        if c < 0.8:
            t = self.pick(TABLES)
            u = self.pick(TABLES)
            o = self.alias()
            i = self.alias()
            return (f"SELECT {o}.id, (WITH s AS (SELECT {i}.c FROM {u} {i} WHERE {i}.a = {o}.a) "
                    f"SELECT {self.pick(['max(c)', 'count(*)', 'sum(c)'])} FROM s) FROM {t} {o}"), 2
        k = self.r.randint(1, 4)
        t = self.pick(TABLES)
        o = self.alias()
        return (f"WITH RECURSIVE d(z) AS (VALUES(0) UNION ALL SELECT z + 1 FROM d WHERE z < {k}), "
                f"x(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM x WHERE n < 4 AND "
                f"EXISTS (SELECT 1 FROM d WHERE d.z = x.n)) "
                f"SELECT x.n, {o}.id FROM x LEFT JOIN {t} {o} ON {o}.c = x.n"), 2

    def correlated_query(self):
        t = self.pick(TABLES)
        u = self.pick(TABLES)
        o = self.alias()
        i = self.alias()
        sub = self.pick([f"(SELECT count(*) FROM {u} {i} WHERE {i}.a = {o}.a)",
                         f"(SELECT max({i}.c) FROM {u} {i} WHERE {i}.b IS {o}.b)",
                         f"(SELECT sum(x.c) FROM {u} {i} RIGHT JOIN {u} x ON x.a = {i}.a WHERE x.id <> {o}.id)",
                         f"EXISTS (SELECT 1 FROM {u} {i} FULL JOIN {t} y ON y.c = {i}.c WHERE y.a IS {o}.a)"])
        return f"SELECT {o}.id, {sub} FROM {t} {o}", 2

    def scalar(self, aliases):
        c = self.r.random()
        col = self.col(aliases)
        if c < 0.15:
            return f"CASE WHEN {self.pred(aliases, 1)} THEN {col} ELSE {self.col(aliases)} END"
        if c < 0.3:
            return f"CAST({col} AS {self.pick(['INTEGER', 'TEXT', 'REAL', 'NUMERIC', 'BLOB'])})"
        if c < 0.4:
            return f"{self.col(aliases, 'b')} || {self.col(aliases)}"
        if c < 0.5:
            return f"{self.pick(['upper', 'lower', 'length', 'typeof', 'quote', 'abs', 'hex'])}({col})"
        if c < 0.6:
            return f"{col} {self.pick(['+', '-', '*', '/', '%'])} {self.pick(['1', '2', '-3', '0', '1.5'])}"
        if c < 0.7:
            return f"{self.col(aliases, 'b')} {self.pick(['LIKE', 'GLOB'])} {self.pick([repr(x) for x in ['x%', '%y', '_', 'X', '*z*', '[xy]']])}"
        if c < 0.8:
            return f"{col} COLLATE NOCASE = {self.pick(TEXTS)}"
        if c < 0.9:
            return f"coalesce({col}, {self.pick(INTS + TEXTS)})"
        return f"{self.pick(['min', 'max'])}({col}, {self.col(aliases)})"

    def expr_query(self):
        aliases = []
        frm = self.from_clause(aliases, self.r.randint(1, 2))
        cols = [self.scalar(aliases) for _ in range(self.r.randint(1, 3))]
        sql = f"SELECT {', '.join(cols)} FROM {frm}"
        if self.r.random() < 0.5:
            sql += f" WHERE {self.pred(aliases)}"
        return sql, len(cols)

    def compound_query(self):
        n = self.r.randint(1, 2)
        parts = []
        for _ in range(self.r.randint(2, 3)):
            t = self.pick(TABLES)
            al = self.alias()
            cols = [self.pick([f"{al}.a", f"{al}.b", f"{al}.c", f"{al}.id", "NULL", "1", "'x'"]) for _ in range(n)]
            p = f"SELECT {', '.join(cols)} FROM {t} {al}"
            if self.r.random() < 0.5:
                p += f" WHERE {self.pred([al])}"
            parts.append(p)
        sql = parts[0]
        for p in parts[1:]:
            sql += f" {self.pick(['UNION', 'UNION ALL', 'INTERSECT', 'EXCEPT'])} {p}"
        if self.r.random() < 0.3:
            sql += f" ORDER BY {self.r.randint(1, n)}"
        return sql, n

    def query(self):
        c0 = self.r.random()
        if c0 < 0.15:
            return self.expr_query()
        if c0 < 0.25:
            return self.compound_query()
        c = self.r.random()
        if c < 0.45:
            return self.join_query()
        if c < 0.6:
            return self.agg_query()
        if c < 0.75:
            return self.window_query()
        if c < 0.9:
            return self.cte_query()
        return self.correlated_query()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--schemas", type=int, default=0,
                    help="fresh schema every this many queries (default: queries/100)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    g = Gen(rng)
    per = a.schemas or max(a.queries // 100, 1)
    out = ["# Generated by tests/diff/gen_queries.py --seed %d --queries %d" % (a.seed, a.queries),
           "hash-threshold 0", ""]
    for q in range(a.queries):
        if q % per == 0:
            for t in TABLES:
                out += ["statement ok", f"DROP TABLE IF EXISTS {t}", ""]
            for s in g.schema():
                out += ["statement ok", s, ""]
        sql, n = g.query()
        out += ["query " + "T" * n + " rowsort", sql, "----", ""]
    print("\n".join(out))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Join-by-join rewrite of a generated query, for telling SQLite's own
RIGHT/FULL JOIN bugs apart from Basalt's.

A query of gen_queries.py's join shapes (SELECT list FROM <joins> [WHERE]
[GROUP BY [HAVING]]) is rewritten so that SQLite never sees a RIGHT or
FULL JOIN nor more than two sources in one join: each join step becomes a
MATERIALIZED common table expression joining the previous step's rows to
one source with a plain (LEFT) join:
  L RIGHT JOIN S ON e   ->  S LEFT JOIN L ON e           (columns reordered)
  L FULL JOIN S ON e    ->  L LEFT JOIN S ON e  UNION ALL
                            S's rows for which no L row satisfies e
and the WHERE, GROUP BY and result columns read the last step. That is
the documented meaning of the joins ("processed in order from left to
right", lang_select.html), computed with operations SQLite 3.40.1 gets
right. Columns of source sN are renamed sN_col in the steps.

usage: join_oracle.py QUERY   (prints the rewritten query, or exits 2
                               when the query is not of a supported shape)
"""
import re
import sys

COLS = ["id", "a", "b", "c"]
JOINS = ["LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "CROSS JOIN", "JOIN", ","]
ENDS = ["WHERE", "GROUP BY", "HAVING", "ORDER BY"]


class Unsupported(Exception):
    pass


def split_top(text, words):
    """Positions (index, word) where one of words starts at paren depth 0
    outside string literals, on word boundaries."""
    out = []
    depth = 0
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "'":
            j = text.index("'", i + 1)
            while j + 1 < n and text[j + 1] == "'":
                j = text.index("'", j + 2)
            i = j + 1
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0:
            for w in words:
                if text.startswith(w, i) and (w == "," or (
                        (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) and
                        (i + len(w) >= n or not (text[i + len(w)].isalnum() or text[i + len(w)] == "_")))):
                    out.append((i, w))
                    i += len(w)
                    break
            else:
                i += 1
            continue
        i += 1
    return out


def parse_source(text):
    """A source: `tN sK`, `(SELECT ...) sK` or a parenthesised join."""
    text = text.strip()
    m = re.fullmatch(r"(t\d+) (s\d+)", text)
    if m:
        return {"kind": "table", "sql": text, "aliases": [m.group(2)]}
    if text.startswith("("):
        depth = 0
        for i, ch in enumerate(text):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0:
                break
        inner = text[1:i]
        rest = text[i + 1:].strip()
        if inner.startswith("SELECT "):
            m = re.fullmatch(r"s\d+", rest)
            if not m:
                raise Unsupported("subquery source without alias")
            return {"kind": "table", "sql": text, "aliases": [rest]}
        if rest:
            raise Unsupported("aliased parenthesised join")
        return {"kind": "group", "joins": parse_from(inner), "aliases": None}
    raise Unsupported("source " + text)


def parse_from(text):
    """[(join_word or None, source, constraint)] with constraint one of
    None, ("ON", expr), ("USING", [cols])."""
    cuts = split_top(text, JOINS + ["ON", "USING"])
    items = []
    pos = 0
    word = None
    pending = []
    for at, w in cuts + [(len(text), None)]:
        pending.append((word, text[pos:at]))
        word = w
        pos = at + (len(w) if w else 0)
    # pending: [(None, src0), (JOIN, src1), (ON, expr), ...]
    cur = None
    for w, chunk in pending:
        if w is None or w in JOINS:
            if cur:
                items.append(cur)
            cur = [w, parse_source(chunk), None]
        elif w == "ON":
            cur[2] = ("ON", chunk.strip())
        elif w == "USING":
            cols = chunk.strip()
            if not (cols.startswith("(") and cols.endswith(")")):
                raise Unsupported("USING")
            cur[2] = ("USING", [c.strip() for c in cols[1:-1].split(",")])
    items.append(cur)
    return items


class Rewriter:
    def __init__(self, has_right):
        self.ctes = []
        self.n = 0
        self.has_right = has_right  # the FROM clause has a RIGHT or FULL JOIN
        self.grouped = set()  # aliases inside parenthesised joins

    def name(self):
        self.n += 1
        return f"j{self.n}"

    @staticmethod
    def refs(expr, aliases, cte):
        """Rewrites sK.col for the aliases materialized in cte."""
        def sub(m):
            if m.group(1) in aliases:
                return f"{cte}.{m.group(1)}_{m.group(2)}"
            return m.group(0)
        return re.sub(r"\b(s\d+)\.(id|a|b|c)\b", sub, expr)

    @staticmethod
    def cols_of(aliases, cte=None):
        if cte is None:
            return [f"{al}.{c} AS {al}_{c}" for al in aliases for c in COLS]
        return [f"{cte}.{al}_{c} AS {al}_{c}" for al in aliases for c in COLS]

    def source_sql(self, src):
        """(sql to use in FROM, aliases, cte name or None)."""
        if src["kind"] == "table":
            return src["sql"], src["aliases"], None
        cte, aliases = self.chain(src["joins"])
        self.grouped.update(aliases)
        return cte, aliases, cte

    def chain(self, joins):
        """Materializes the join list step by step; returns (cte, aliases)."""
        word, src, cons = joins[0]
        sql, aliases, sub = self.source_sql(src)
        cur = self.name()
        sel = self.cols_of(aliases, sub)
        self.ctes.append(f"{cur} AS MATERIALIZED (SELECT {', '.join(sel)} FROM {sql})")
        left = list(aliases)
        for word, src, cons in joins[1:]:
            rsql, raliases, rsub = self.source_sql(src)
            rname = rsub if rsub else None
            if cons is None:
                cond = "1"
            elif cons[0] == "ON":
                cond = cons[1]
            else:
                # The left side's column is the leftmost source's; when the
                # FROM clause has a RIGHT or FULL JOIN, the coalesce() of all
                # the left sources' (which SQLite accepts only when they
                # were joined USING that column).
                if len(raliases) != 1 or any(al in self.grouped for al in left[1:]):
                    raise Unsupported("USING with a parenthesised join")
                parts = []
                for col in cons[1]:
                    lhs = f"{left[0]}.{col}"
                    if self.has_right and len(left) > 1:
                        lhs = f"coalesce({', '.join(f'{al}.{col}' for al in left)})"
                    parts.append(f"{lhs} = {raliases[0]}.{col}")
                cond = " AND ".join(parts)
            cond = self.refs(cond, left, cur)
            if rname:
                cond = self.refs(cond, raliases, rname)
            lcols = self.cols_of(left, cur)
            rcols = self.cols_of(raliases, rname)
            nxt = self.name()
            both = ", ".join(lcols + rcols)
            if word in (None, ",", "JOIN", "CROSS JOIN"):
                body = f"SELECT {both} FROM {cur}, {rsql} WHERE {cond}"
            elif word == "LEFT JOIN":
                body = f"SELECT {both} FROM {cur} LEFT JOIN {rsql} ON {cond}"
            elif word == "RIGHT JOIN":
                body = f"SELECT {both} FROM {rsql} LEFT JOIN {cur} ON {cond}"
            elif word == "FULL JOIN":
                nulls = ", ".join(f"NULL AS {al}_{c}" for al in left for c in COLS)
                body = (f"SELECT {both} FROM {cur} LEFT JOIN {rsql} ON {cond} UNION ALL "
                        f"SELECT {', '.join([nulls] + rcols)} FROM {rsql} "
                        f"WHERE NOT EXISTS (SELECT 1 FROM {cur} WHERE {cond})")
            else:
                raise Unsupported(word)
            self.ctes.append(f"{nxt} AS MATERIALIZED ({body})")
            cur = nxt
            left += raliases
        return cur, left


def rewrite(query):
    q = query.strip().rstrip(";")
    m = re.match(r"SELECT (.*?) FROM (.*)$", q, re.S)
    if not m or q.startswith("WITH"):
        raise Unsupported("not a plain SELECT")
    cols = m.group(1)
    rest = m.group(2)
    if split_top(cols, ["FROM"]):
        raise Unsupported("FROM in result list")
    ends = split_top(rest, ENDS)
    frm = rest[:ends[0][0]] if ends else rest
    tail = rest[ends[0][0]:] if ends else ""
    if re.search(r"\b(UNION|INTERSECT|EXCEPT|OVER)\b", tail + cols):
        raise Unsupported("compound or window")
    rw = Rewriter(re.search(r"\b(RIGHT|FULL) JOIN\b", frm) is not None)
    cte, aliases = rw.chain(parse_from(frm))
    cols = Rewriter.refs(cols, aliases, cte)
    tail = Rewriter.refs(tail, aliases, cte)
    return f"WITH {', '.join(rw.ctes)} SELECT {cols} FROM {cte} {tail}".rstrip()


def main():
    try:
        print(rewrite(sys.argv[1]) + ";")
    except (Unsupported, ValueError, IndexError) as e:
        print(f"unsupported: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()

"""Random valid-ish EPL statements built from the grammar's shapes: select lists, filters,
windows, aggregations, group by, having, order by, output clauses, joins, subqueries,
patterns, named-window actions, contexts and creates. Each text is drawn from a
`random.Random`, so hypothesis (`st.randoms()`) and the long runner share the generator."""
from __future__ import annotations

import random
from typing import Optional

# The schemas every generated statement may use (tests/fuzz/harness.py creates them).
SETUP = (
    "create schema A(id string, v int, p double, s string, b boolean, l long)",
    "create schema B(id string, v int, q double, t string)",
    "create window W#keepall as A",
    "create variable int var1 = 1",
    "create table T(id string primary key, total sum(int), cnt count(*))",
    "create context Ctx partition by id from A",
)

STREAMS = {
    "A": {"id": "str", "v": "num", "p": "num", "s": "str", "b": "bool", "l": "num"},
    "B": {"id": "str", "v": "num", "q": "num", "t": "str"},
    "W": {"id": "str", "v": "num", "p": "num", "s": "str", "b": "bool", "l": "num"},
}

_WINDOWS = ["#length({n})", "#length_batch({n})", "#time({n} sec)", "#time_batch({n} sec)",
            "#keepall", "#lastevent", "#firstevent", "#unique(id)", "#groupwin(id)#length({n})",
            "#firstlength({n})", "#sort({n}, v desc)", "#time_length_batch({n} sec, {n})",
            "#ext_timed(l, {n} sec)", "#expr(current_count < {n})", "#length({n})#unique(id)",
            "#ext_timed_batch(l, {n} sec)", "#time_accum({n} sec)", "#firstunique(id)",
            "#firsttime({n} sec)", "#expr_batch(current_count > {n})", "#unique(id, v)",
            "#rank(id, {n}, v)", "#unique(id)#time({n} sec) retain-union", "#uni(v)"]
_AGGS = ["count(*)", "count({x})", "sum({n})", "avg({n})", "min({x})", "max({x})",
         "count(distinct {x})", "sum(distinct {n})", "median({n})", "stddev({n})", "avedev({n})",
         "first({x})", "last({x})", "window({x})", "maxby({n})", "minby({n})", "leaving()",
         "nth({x}, 1)", "rate(1)", "countever(*)", "fmax({n}, {b})"]
_STR_METHODS = ["toUpperCase()", "toLowerCase()", "trim()", "length()", "substring(1)",
                "startsWith('a')", "contains('b')", "indexOf('x')", "charAt(0)"]
_REGEXPS = ["'a.*'", "'(a+)+b'", "'[0-9]+'", "'('", "'\\\\d'", "'(a|aa)+\\\\1'"]
_LITERALS = {"num": ["0", "1", "-1", "2.5", "100L", "2147483647", "2147483648", "1e300", "-0.0",
                     "1.5f", "9223372036854775807L", "0.1"],
             "str": ["'a'", "''", "'x%'", "'%b_'", "'it''s'", "'\\''", "'\\n'", "'A1'"],
             "bool": ["true", "false"]}


class Gen:
    """One statement's generation: the streams in scope and a depth budget."""

    def __init__(self, r: random.Random) -> None:
        self.r = r
        self.aliases: list[tuple[Optional[str], str]] = []   # (alias, stream type)
        self.tags: list[tuple[str, str]] = []

    # -- helpers ------------------------------------------------------------------------
    def pick(self, seq):
        return seq[self.r.randrange(len(seq))]

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def n(self) -> str:
        if self.chance(0.05):
            return self.pick(["0", "-1", "1e308", "0.001", "2147483648", "1.5"])
        return self.pick(["1", "2", "3", "5", "10"])

    # -- expressions --------------------------------------------------------------------
    def prop(self, want: Optional[str] = None) -> str:
        if not self.aliases and not self.tags:
            return self.literal(want)
        pool = []
        for alias, t in self.aliases:
            for name, kind in STREAMS[t].items():
                if want is None or kind == want or self.chance(0.03):
                    pool.append(f"{alias}.{name}" if alias and len(self.aliases) > 1 else name)
        for tag, t in self.tags:
            for name, kind in STREAMS[t].items():
                if want is None or kind == want:
                    pool.append(f"{tag}.{name}")
        return self.pick(pool) if pool else self.literal(want)

    def literal(self, want: Optional[str] = None) -> str:
        kind = want or self.pick(["num", "str", "bool"])
        if self.chance(0.05):
            return "null"
        return self.pick(_LITERALS[kind])

    def expr(self, want: Optional[str] = None, depth: int = 3) -> str:
        r = self.r
        if depth <= 0 or self.chance(0.3):
            return self.prop(want) if self.chance(0.7) else self.literal(want)
        kind = want or self.pick(["num", "str", "bool"])
        d = depth - 1
        if kind == "num":
            choice = r.randrange(9)
            if choice == 0:
                return f"{self.expr('num', d)} {self.pick(['+', '-', '*', '/', '%'])} {self.expr('num', d)}"
            if choice == 1:
                return f"-{self.expr('num', d)}" if self.chance(0.5) else f"({self.expr('num', d)})"
            if choice == 2:
                return f"case when {self.expr('bool', d)} then {self.expr('num', d)} else {self.expr('num', d)} end"
            if choice == 3:
                return f"coalesce({self.expr('num', d)}, {self.expr('num', d)})"
            if choice == 4:
                return f"Math.{self.pick(['abs', 'sqrt', 'floor', 'round', 'pow'])}({self.expr('num', d)}" + \
                    (f", {self.expr('num', d)})" if self.chance(0.3) else ")")
            if choice == 5:
                return f"{self.prop('str')}.length()"
            if choice == 6:
                return f"cast({self.expr(None, d)}, {self.pick(['int', 'long', 'double', 'string'])})"
            if choice == 7:
                return f"{self.expr('num', d)} {self.pick(['&', '|', '^'])} {self.expr('num', d)}"
            return f"var1 + {self.expr('num', d)}"
        if kind == "str":
            choice = r.randrange(5)
            if choice == 0:
                return f"{self.expr('str', d)} || {self.expr(None, d)}"
            if choice == 1:
                return f"{self.prop('str')}.{self.pick(_STR_METHODS)}"
            if choice == 2:
                return f"case {self.prop()} when {self.literal()} then {self.expr('str', d)} end"
            if choice == 3:
                return f"typeof({self.expr(None, d)})"
            return self.prop("str")
        choice = r.randrange(12)
        if choice == 0:
            return f"{self.expr('bool', d)} {self.pick(['and', 'or'])} {self.expr('bool', d)}"
        if choice == 1:
            return f"not {self.expr('bool', d)}"
        if choice == 2:
            t = self.pick(["num", "str"])
            return f"{self.expr(t, d)} {self.pick(['=', '!=', '<', '>', '<=', '>=', '<>'])} {self.expr(t, d)}"
        if choice == 3:
            t = self.pick(["num", "str"])
            items = ", ".join(self.expr(t, 0) for _ in range(r.randrange(1, 4)))
            return f"{self.expr(t, d)} {self.pick(['in', 'not in'])} ({items})"
        if choice == 4:
            return f"{self.expr('num', d)} {self.pick(['between', 'not between'])} {self.expr('num', 0)} and {self.expr('num', 0)}"
        if choice == 5:
            return f"{self.prop('str')} {self.pick(['like', 'not like'])} {self.pick(_LITERALS['str'])}"
        if choice == 6:
            return f"{self.prop('str')} regexp {self.pick(_REGEXPS)}"
        if choice == 7:
            return f"{self.expr(None, d)} is {self.pick(['null', 'not null'])}"
        if choice == 8:
            return f"{self.prop('num')} in [{self.expr('num', 0)}:{self.expr('num', 0)})"
        if choice == 9 and self.aliases:
            return f"exists (select * from B#lastevent where {self.prop_of('B', 'str')} = 'a')"
        if choice == 10:
            return f"{self.prop('num')} > all (1, 2)"
        return self.prop("bool")

    def prop_of(self, t: str, want: str) -> str:
        names = [n for n, k in STREAMS[t].items() if k == want]
        return self.pick(names)

    def agg(self) -> str:
        f = self.pick(_AGGS)
        return f.format(x=self.prop(), n=self.prop("num"), b=self.expr("bool", 1))

    # -- clauses ------------------------------------------------------------------------
    def window(self) -> str:
        if self.chance(0.2):
            return ""
        return self.pick(_WINDOWS).format(n=self.n())

    def stream(self, t: str, alias: Optional[str]) -> str:
        filt = f"({self.expr('bool', 2)})" if self.chance(0.3) else ""
        self.aliases.append((alias, t))
        text = f"{t}{filt}{self.window()}"
        return text + (f" as {alias}" if alias else "")

    def select_list(self, aggregated: bool) -> str:
        if self.chance(0.15):
            return "*"
        items = []
        for i in range(self.r.randrange(1, 4)):
            e = self.agg() if aggregated and self.chance(0.5) else self.expr(depth=2)
            items.append(f"{e} as c{i}" if self.chance(0.7) else e)
        return ", ".join(items)

    def select(self) -> str:
        r = self.r
        parts = []
        if self.chance(0.1):
            parts.append(self.pick(["@name('fz')", "@priority(1)", "@drop", "@hint('reclaim_group_aged=1')"]))
        if self.chance(0.1):
            parts.append(self.pick(["insert into Out", "insert rstream into Out2", "insert into W"]))
        if self.chance(0.05):
            parts.append("context Ctx")
        parts.append("select")
        if self.chance(0.15):
            parts.append(self.pick(["irstream", "rstream", "istream", "distinct"]))
        from_kind = r.randrange(10)
        if from_kind < 6:
            from_text = self.stream(self.pick(["A", "B", "W"]), self.pick([None, None, "x"]))
        elif from_kind < 8:
            left = self.stream("A", "a")
            right = self.stream("B", "b")
            join = self.pick([", ", " inner join ", " left outer join ", " full outer join "])
            on = f" on a.id = b.id" if "join" in join else ""
            from_text = left + join + right + on
        else:
            from_text = "pattern [" + self.pattern(3) + "]"
        aggregated = self.chance(0.4)
        parts.append(self.select_list(aggregated))
        parts.append("from " + from_text)
        if self.chance(0.4):
            parts.append("where " + self.expr("bool", 3))
        if aggregated and self.chance(0.5):
            keys = ", ".join(self.prop() for _ in range(r.randrange(1, 3)))
            if self.chance(0.1):
                keys = f"rollup({keys})"
            parts.append("group by " + keys)
            if self.chance(0.3):
                parts.append(f"having {self.agg()} > {self.literal('num')}")
        if self.chance(0.2):
            parts.append(self.output())
        if self.chance(0.15):
            parts.append(f"order by {self.prop()}" + self.pick(["", " asc", " desc"]))
        if self.chance(0.1):
            parts.append(f"limit {self.n()}" + (f" offset {self.n()}" if self.chance(0.3) else ""))
        return " ".join(parts)

    def output(self) -> str:
        return self.pick([
            "output every {n} events", "output last every {n} events", "output first every {n} events",
            "output snapshot every {n} events", "output every {n} sec", "output all every {n} sec",
            "output after {n} events", "output every var1 events", "output when var1 > 0",
        ]).format(n=self.n())

    def pattern(self, depth: int) -> str:
        r = self.r
        if depth <= 0 or self.chance(0.3):
            t = self.pick(["A", "B"])
            tag = f"t{len(self.tags)}"
            filt = ""
            if self.chance(0.4):
                self.aliases, saved = [(None, t)], self.aliases
                filt = f"({self.expr('bool', 1)})"
                self.aliases = saved
            self.tags.append((tag, t))
            return f"{tag}={t}{filt}"
        choice = r.randrange(8)
        d = depth - 1
        if choice == 0:
            return f"every {self.pattern(d)}"
        if choice == 1:
            return f"{self.pattern(d)} -> {self.pattern(d)}"
        if choice == 2:
            return f"({self.pattern(d)} {self.pick(['and', 'or'])} {self.pattern(d)})"
        if choice == 3:
            return f"{self.pattern(d)} where timer:within({self.n()} sec)"
        if choice == 4:
            return f"timer:interval({self.n()} sec)"
        if choice == 5:
            return f"[{self.n()}] {self.pattern(d)}"
        if choice == 6:
            return f"{self.pattern(d)} and not {self.pattern(d)}"
        return f"every-distinct(t0.id) {self.pattern(d)}" if self.tags else f"every {self.pattern(d)}"

    def other(self) -> str:
        r = self.r
        choice = r.randrange(7)
        if choice == 0:
            self.aliases = [("a", "A"), ("w", "W")]
            return f"on A as a delete from W as w where {self.expr('bool', 2)}"
        if choice == 1:
            self.aliases = [("b", "B"), ("w", "W")]
            return f"on B as b select {self.select_list(False)} from W as w where w.id = b.id"
        if choice == 2:
            self.aliases = [("b", "B"), ("w", "W")]
            return f"on B as b update W as w set v = {self.expr('num', 1)} where w.id = b.id"
        if choice == 3:
            self.aliases = [(None, "A")]
            return f"into table T select sum(v) as total, count(*) as cnt from A group by id"
        if choice == 4:
            return self.pick(["create schema C(a int, b string)", "create window W2#length(2) as B",
                              "create variable string sv = 'x'", "create expression twice { x => x * 2 }",
                              "create schema C(a int, a string)", "on A set var1 = v"])
        if choice == 5:
            self.aliases = [(None, "B")]
            return f"select (select count(*) from W where W.id = B.id) as c, {self.expr(depth=1)} from B"
        self.aliases = [(None, "A")]
        return (f"select * from A#keepall match_recognize (measures X.id as xid, Y.v as yv "
                f"pattern (X Y{self.pick(['', '+', '*', '?'])}) define Y as Y.v > X.v)")


def statement(r: random.Random) -> str:
    """One random statement text over the SETUP schemas."""
    g = Gen(r)
    return g.select() if r.random() < 0.85 else g.other()

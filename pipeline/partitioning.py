"""Partitionability: which statements give the same results when each key's events run in
an engine of their own (or with other keys') as in one engine over all events.

A statement is partitionable by key k when nothing it outputs for one key depends on
another key's events (under the time protocol of pipeline.runner, where schedules fire at
their own instants). From the AST, conservatively:
- a keyed context `partition by k` makes everything inside per key (patterns inside must
  still bind the key: the engine narrows only the context's filter streams to the key);
- a stream filter `k = <constant>` holds one key only;
- otherwise each stream's windows must keep an event for reasons of its own key only:
  `#groupwin(k)...` (any sub-views), `#unique(k, ...)`/`#firstunique(k, ...)`, or views
  that depend on time alone (`#time`, `#firsttime`, `#keepall`, `#time_batch` with a
  reference point or START_EAGER, or pinned; see below). Count windows (`#length`,
  `#length_batch`, ...) and the rest count or order events of every key;
- aggregation needs `group by` on the key (un-aggregated rows come from one event each);
  `distinct`, `limit` and output rate limiting (but `output after <time>`) act across keys:
  `output every` starts its intervals at the first result of any key;
- a pattern must bind every event after its first to the key of an earlier tag
  (`every a=A -> b=B(k = a.k)`), start instances with `every` on a single filter, and use no
  `-[N]>` limits;
- joins, subqueries, named windows, tables, variables and on-actions share state across keys.

A plain `#time_batch(p)` starts its intervals at the first event's arrival over all keys.
Partitioned runs pin that reference point to the run's start time (the time of the first
event), which is what a single engine does when the stream is unfiltered; with a stream
filter the first arriving event is unknown and the statement is refused."""
from __future__ import annotations

import dataclasses
from typing import Iterable, NamedTuple, Optional, Sequence, Union

from engine.aggregation.registry import AGGREGATIONS
from engine.contracts.frozen import frozen_dataclass
import epl.ast as A
from epl.parser import parse_module
from epl.printer import to_epl

# Views whose keep/leave decisions depend only on time and on the event itself.
_TIME_ONLY_VIEWS = {"time", "firsttime", "keepall"}
_KEYED_VIEWS = {"unique", "firstunique"}
_SHARED_VIEWS = {
    "length": "counts events of every key",
    "length_batch": "counts events of every key",
    "firstlength": "counts events of every key",
    "firstevent": "keeps one event of all keys",
    "lastevent": "keeps one event of all keys",
    "time_length_batch": "counts events of every key",
    "time_accum": "waits for a pause in the events of every key",
    "ext_timed": "follows the newest timestamp of every key",
    "ext_timed_batch": "follows the newest timestamp of every key",
    "sort": "ranks events of every key",
    "rank": "ranks events of every key",
    "expr": "evaluates an expression over the events of every key",
    "expr_batch": "evaluates an expression over the events of every key",
}


class Verdict(NamedTuple):
    """One statement's answer: its name (as the engine names it), whether it can run
    partitioned by the key, and why (or why not)."""

    statement: str
    ok: bool
    reason: str


@frozen_dataclass
class Analysis:
    """The verdicts, plus the statement texts a partitioned run deploys (pinned batches)."""

    verdicts: tuple[Verdict, ...]
    texts: tuple[str, ...]
    pinned: tuple[str, ...] = ()        # statements whose #time_batch needs the start time

    @property
    def ok(self) -> bool:
        return all(v.ok for v in self.verdicts)

    def refusal(self, key: str) -> str:
        bad = [f"  {v.statement}: {v.reason}" for v in self.verdicts if not v.ok]
        return (f"Statements cannot run partitioned by '{key}':\n" + "\n".join(bad)
                + "\n(pass allow_single_partition=True to run them in one partition)")


class _Refuse(Exception):
    pass


def check_partitionable(statements: Union[str, Sequence[str]], key: str) -> list[Verdict]:
    """For each statement: `(statement name, ok, reason)`.

    >>> [tuple(v) for v in check_partitionable(
    ...     "select k, sum(v) from T#groupwin(k)#length(3) group by k;"
    ...     "select count(*) from T#length(100)", "k")]   # doctest: +NORMALIZE_WHITESPACE
    [('stmt-0', True, 'per-key windows (#groupwin(k)), aggregation grouped by k'),
     ('stmt-1', False, '#length counts events of every key: use #groupwin(k)#length(...) or a context partitioned by k')]
    """
    return list(analyse(statements, key).verdicts)


def statement_texts(statements: Union[str, Sequence[str]]) -> tuple[str, ...]:
    """Statement texts from a module text or a list of texts (each may hold several)."""
    items = [statements] if isinstance(statements, str) else list(statements)
    out: list[str] = []
    for item in items:
        module = parse_module(item)
        texts = module.texts or tuple(to_epl(s) for s in module.statements)
        out.extend(t.strip() for t in texts)
    return tuple(out)


def analyse(statements: Union[str, Sequence[str]], key: str,
            start_time: Optional[int] = None) -> Analysis:
    """Verdicts for every statement; with `start_time`, texts with pinned time batches."""
    texts = statement_texts(statements)
    nodes = [parse_module(t).statements[0] for t in texts]
    ctx = _Module(nodes, key)
    verdicts, out_texts, pinned = [], [], []
    for i, (node, text) in enumerate(zip(nodes, texts)):
        name = _name(node, i)
        pins: list[tuple[int, int]] = []
        try:
            reason = ctx.check(node, pins)
            verdicts.append(Verdict(name, True, reason))
        except _Refuse as r:
            verdicts.append(Verdict(name, False, str(r)))
        if pins and start_time is not None:
            out_texts.append(to_epl(_pin(node, pins, start_time)))
            pinned.append(name)
        else:
            out_texts.append(text)
    return Analysis(tuple(verdicts), tuple(out_texts), tuple(pinned))


def _name(node: A.Statement, index: int) -> str:
    for a in getattr(node, "annotations", ()):
        if a.name.lower() == "name" and a.value is not None:
            return str(a.value)
    return f"stmt-{index}"


def _pin(node: A.SelectStatement, pins: list[tuple[int, int]], start: int) -> A.SelectStatement:
    """The statement with a reference point `start` in the pinned #time_batch views."""
    streams = list(node.from_.streams)
    for si, vi in pins:
        s = streams[si]
        views = list(s.views)
        v = views[vi]
        ref = A.Literal(start, A.LiteralKind.LONG)
        views[vi] = dataclasses.replace(v, args=(v.args[0], ref, *v.args[1:]))
        streams[si] = dataclasses.replace(s, views=tuple(views))
    return dataclasses.replace(node, from_=dataclasses.replace(node.from_, streams=tuple(streams)))


def _conjuncts(e: Optional[A.Expr]) -> Iterable[A.Expr]:
    if e is None:
        return
    from epl.ast.walk import operands
    yield from operands(e, A.BinOp.AND)


def _unparen(e: A.Expr) -> A.Expr:
    while isinstance(e, A.Parens):
        e = e.inner
    return e


def _walk(node: object) -> Iterable[object]:
    """Every AST node under `node` (dataclass fields, tuples)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (tuple, list)):
            stack.extend(n)
        elif dataclasses.is_dataclass(n) and not isinstance(n, type):
            yield n
            stack.extend(getattr(n, f.name) for f in dataclasses.fields(n) if f.name != "span")


def _is_aggregate(call: A.Call) -> bool:
    name = call.name.lower()
    if name not in AGGREGATIONS:
        return False
    positional = [a for a in call.args if not isinstance(a, A.NamedArg)]
    return not (name in ("min", "max") and len(positional) >= 2)   # min(a, b) is a row function


def _view_text(v: A.ViewSpec) -> str:
    return f"#{v.name.lower()}"


class _Module:
    """Statement checks, with what the module declares (contexts, windows, tables, ...)."""

    def __init__(self, nodes: Sequence[A.Statement], key: str) -> None:
        self.key = key
        self.contexts = {n.name: n.spec for n in nodes if isinstance(n, A.CreateContext)}
        self.shared = {n.name: "named window" for n in nodes if isinstance(n, A.CreateWindow)}
        self.shared.update({n.name: "table" for n in nodes if isinstance(n, A.CreateTable)})
        self.variables = {n.name for n in nodes if isinstance(n, A.CreateVariable)}
        # streams made by `insert into`: do their events carry the key, unchanged?
        self.derived: dict[str, bool] = {}
        for n in nodes:
            if isinstance(n, A.SelectStatement) and n.insert_into is not None:
                name = n.insert_into.stream_name
                self.derived[name] = self.derived.get(name, True) and self._carries_key(n)

    def _carries_key(self, n: A.SelectStatement) -> bool:
        cols = n.insert_into.columns
        for i, item in enumerate(n.select.items):
            e = _unparen(item.expr)
            if isinstance(e, (A.Wildcard, A.StreamWildcard)):
                return True
            out = cols[i] if i < len(cols) else (item.alias or
                                                 (e.path[-1].name if isinstance(e, A.Property) else None))
            if out == self.key:
                return isinstance(e, A.Property) and e.path[-1].name == self.key
        return False

    # -- statements ---------------------------------------------------------------------
    def check(self, node: A.Statement, pins: list) -> str:
        if isinstance(node, A.CreateSchema):
            return "declares an event type"
        if isinstance(node, A.CreateContext):
            return "declares a context"
        if isinstance(node, A.CreateVariable):
            return "declares a variable (statements reading it are refused)"
        if isinstance(node, A.UpdateStatement) and node.istream and not self._subqueries(node):
            return "changes each event on its own"
        if isinstance(node, A.SelectStatement):
            return self._select(node, pins)
        kind = type(node).__name__
        raise _Refuse(f"{kind} shares state across keys")

    def _subqueries(self, node: object) -> bool:
        return any(isinstance(n, (A.Subquery, A.Exists, A.InSubquery)) for n in _walk(node))

    def _select(self, node: A.SelectStatement, pins: list) -> str:
        key = self.key
        if node.from_ is None:
            raise _Refuse("has no from clause")
        if self._subqueries(node):
            raise _Refuse("subqueries read events of every key")
        for n in _walk(node):
            if isinstance(n, A.Property) and n.path and n.path[0].name in self.variables:
                raise _Refuse(f"variable '{n.path[0].name}' is shared by all keys")
        if len(node.from_.streams) != 1:
            raise _Refuse("joins are not partitioned (each stream would need the key in its join)")
        stream = node.from_.streams[0]
        if isinstance(stream, A.FilterStream):
            tname = stream.event_filter.type_name
            if tname in self.shared:
                raise _Refuse(f"{self.shared[tname]} '{tname}' is shared by all keys")
            if self.derived.get(tname) is False:
                raise _Refuse(f"stream '{tname}' (insert into) does not carry {key} unchanged")
        if node.context is not None:
            reason = self._in_context(node)
            if isinstance(stream, A.PatternStream):
                # the engine narrows a keyed context's filter streams to the partition's key,
                # not (yet) the filters inside patterns: those must bind the key themselves
                self._pattern(stream.pattern)
                reason += ", pattern bound to the key"
            return reason
        if node.from_.match_recognize is not None and isinstance(stream, A.FilterStream):
            return self._match_recognize(node, stream, pins)
        if isinstance(stream, A.PatternStream):
            tags = self._pattern(stream.pattern)
            windows = "pattern instances bound to the key"
            if stream.views:
                raise _Refuse("views on pattern streams are not analysed for partitioning")
            single = False
            key_exprs = {(t, key) for t in tags}
        else:
            single = self._single_key(stream.event_filter.filter)
            alias = stream.alias
            key_exprs = {(key,)} | ({(alias, key)} if alias else set()) \
                | {(stream.event_filter.type_name, key)}
            if single:
                windows = f"a filter on one value of {key}"
            else:
                windows = self._views(stream, pins)
        if single:
            return windows
        return windows + ", " + self._result(node, key_exprs)

    def _match_recognize(self, node: A.SelectStatement, stream: A.FilterStream, pins: list) -> str:
        """match_recognize matches each partition's rows on their own: partitionable when
        `partition by` includes the key and the windows keep rows per key."""
        mr = node.from_.match_recognize
        alias = stream.alias
        if not any(self._is_key(e, alias) for e in mr.partition_by):
            raise _Refuse(f"match_recognize without partition by {self.key} matches rows of every key")
        windows = self._views(stream, pins) if not self._single_key(stream.event_filter.filter) \
            else f"a filter on one value of {self.key}"
        # the rows are the measures: a measure that is the key lets the result group by it
        key_measures = {(m.alias,) for m in mr.measures if m.alias is not None
                        and isinstance(_unparen(m.expr), A.Property)
                        and _unparen(m.expr).path[-1].name == self.key}
        return windows + f", match_recognize partitioned by {self.key}, " + self._result(node, key_measures)

    def _in_context(self, node: A.SelectStatement) -> str:
        name = node.context
        spec = self.contexts.get(name)
        if spec is None:
            raise _Refuse(f"context '{name}' is not declared among these statements")
        if not isinstance(spec, A.KeyedContext):
            raise _Refuse(f"context '{name}' is not a keyed context (partition by {self.key})")
        for item in (*spec.items, *spec.initiated_by):
            if not any(isinstance(_unparen(p), A.Property) and _unparen(p).dotted == self.key
                       for p in item.properties):
                raise _Refuse(f"context '{name}' does not partition by {self.key}")
        term = spec.terminated_by
        if term is not None and (term.event_filter is not None or term.pattern is not None):
            raise _Refuse(f"context '{name}' ends on events, which are not analysed per key")
        return f"runs per key in context '{name}' (partition by {self.key})"

    def _single_key(self, e: Optional[A.Expr]) -> bool:
        for c in _conjuncts(e):
            if isinstance(c, A.BinaryOp) and c.op is A.BinOp.EQ:
                l, r = _unparen(c.left), _unparen(c.right)
                for a, b in ((l, r), (r, l)):
                    if isinstance(a, A.Property) and a.path[-1].name == self.key \
                            and len(a.path) == 1 and isinstance(b, A.Literal) \
                            and b.kind is not A.LiteralKind.NULL:
                        return True
        return False

    # -- windows --------------------------------------------------------------------------
    def _is_key(self, e: A.Expr, alias: Optional[str]) -> bool:
        e = _unparen(e)
        if not isinstance(e, A.Property):
            return False
        names = tuple(s.name for s in e.path)
        return names == (self.key,) or (alias is not None and names == (alias, self.key))

    def _views(self, stream: A.FilterStream, pins: list) -> str:
        key, alias = self.key, stream.alias
        views = stream.views
        if not views:
            return "no window"
        vi = 0
        grouped_by_other = False
        if views[0].name.lower() == "groupwin":
            if any(self._is_key(a, alias) for a in views[0].args):
                return f"per-key windows (#groupwin({key}))"
            grouped_by_other = True
            vi = 1
        kept = []
        for i in range(vi, len(views)):
            v = views[i]
            name = v.name.lower()
            if name in _TIME_ONLY_VIEWS:
                kept.append(_view_text(v))
            elif name in _KEYED_VIEWS:
                if not any(self._is_key(a, alias) for a in v.args):
                    raise _Refuse(f"{_view_text(v)} without {key} among its criteria keeps one "
                                  f"event for several keys")
                kept.append(_view_text(v))
            elif name == "time_batch":
                kept.append(self._time_batch(stream, i, grouped_by_other, pins))
            elif name in _SHARED_VIEWS:
                raise _Refuse(f"{_view_text(v)} {_SHARED_VIEWS[name]}: use "
                              f"#groupwin({key}){_view_text(v)}(...) or a context partitioned by {key}")
            else:
                raise _Refuse(f"{_view_text(v)} is not analysed for partitioning")
        return "windows that depend on time only (" + "".join(kept) + ")"

    def _time_batch(self, stream: A.FilterStream, i: int, grouped: bool, pins: list) -> str:
        v = stream.views[i]
        rest = v.args[1:]
        if rest and not (isinstance(rest[0], A.Literal) and rest[0].kind is A.LiteralKind.STRING):
            return "#time_batch with a reference point"
        if rest and "START_EAGER" in str(rest[0].value).upper():
            return "#time_batch(START_EAGER)"
        if grouped:
            raise _Refuse("#time_batch under #groupwin on other properties starts its intervals "
                          f"at each group's first event, which several keys share; give a reference point")
        if stream.event_filter.filter is not None:
            raise _Refuse("#time_batch without a reference point starts at the first event that "
                          "passes the filter, of any key; give a reference point, e.g. "
                          "#time_batch(1 sec, 0L)")
        pins.append((0, i))
        return "#time_batch pinned to the start time"

    # -- results --------------------------------------------------------------------------
    def _result(self, node: A.SelectStatement, key_exprs: set) -> str:
        aggregated = any(isinstance(n, A.Call) and _is_aggregate(n)
                         for part in (node.select, node.having, node.order_by) for n in _walk(part))
        grouped = False
        for g in node.group_by:
            if isinstance(g, A.GroupingSet):
                raise _Refuse("rollup, cube and grouping sets aggregate across keys")
            g = _unparen(g)
            if isinstance(g, A.Property) and tuple(s.name for s in g.path) in key_exprs:
                grouped = True
        if aggregated and not grouped:
            raise _Refuse(f"aggregates over all keys: add 'group by {self.key}'")
        if node.select.distinct:
            raise _Refuse("select distinct compares rows of every key")
        if node.limit is not None:
            raise _Refuse("limit picks rows among every key's")
        self._output(node.output, grouped)
        if grouped:
            return f"aggregation grouped by {self.key}"
        return "rows from single events"

    def _output(self, out: Optional[A.OutputClause], grouped: bool) -> None:
        if out is None:
            return
        if out.every_events is not None or out.after_events is not None:
            raise _Refuse("output rate limiting by event count counts every key's rows")
        if out.when is not None or out.terminated_and is not None:
            raise _Refuse("output when ... is not analysed for partitioning")
        if out.every_time is not None or out.at is not None:
            # the intervals start at the statement's first result, of whichever key
            raise _Refuse("output every/at starts its intervals at the first result of any key: "
                          f"use a context partitioned by {self.key}")
        if not grouped and out.kind in (A.OutputKind.FIRST, A.OutputKind.LAST):
            raise _Refuse(f"output {out.kind.value} picks one row among every key's")

    # -- patterns -------------------------------------------------------------------------
    def _pattern(self, p: A.PatternExpr) -> set[str]:
        """The tags bound to the key; refuses patterns whose matches can mix keys."""
        bound = self._pat(p, frozenset(), top=True)
        return set(bound)

    def _binds(self, ef: A.EventFilter, bound: frozenset) -> bool:
        if self._single_key(ef.filter):
            return True
        for c in _conjuncts(ef.filter):
            if isinstance(c, A.BinaryOp) and c.op is A.BinOp.EQ:
                l, r = _unparen(c.left), _unparen(c.right)
                for a, b in ((l, r), (r, l)):
                    if isinstance(a, A.Property) and isinstance(b, A.Property) \
                            and tuple(s.name for s in a.path) == (self.key,) \
                            and len(b.path) == 2 and b.path[1].name == self.key \
                            and b.path[0].name in bound:
                        return True
        return False

    def _pat(self, p: A.PatternExpr, bound: frozenset, top: bool = False) -> frozenset:
        key = self.key
        if isinstance(p, A.PatternParens):
            return self._pat(p.inner, bound, top)
        if isinstance(p, A.PatternFilter):
            if self._binds(p.event_filter, bound):
                return bound | {p.tag} if p.tag else bound
            if top:
                raise _Refuse("a pattern without every matches once over all keys")
            raise _Refuse(f"pattern filter {p.event_filter.type_name} is not bound to the key "
                          f"of an earlier event ({p.event_filter.type_name}({key} = a.{key}))")
        if isinstance(p, A.PatternObserver):
            return bound
        if isinstance(p, A.PatternEvery):
            child = p.child
            while isinstance(child, (A.PatternParens, A.PatternGuard)):
                child = child.inner if isinstance(child, A.PatternParens) else child.child
            if isinstance(child, A.PatternFilter) and not self._binds(child.event_filter, bound):
                return bound | {child.tag} if child.tag else bound   # each event starts its own
            if not bound:
                raise _Refuse("every (...) over a compound pattern holds one instance for all "
                              f"keys; start each instance with every on one filter")
            return self._pat(p.child, bound)
        if isinstance(p, A.PatternEveryDistinct):
            child = p.child
            if isinstance(child, A.PatternFilter) and child.tag and any(
                    isinstance(_unparen(k), A.Property)
                    and tuple(s.name for s in _unparen(k).path) == (child.tag, key) for k in p.keys):
                return bound | {child.tag}
            if not bound:
                raise _Refuse(f"every-distinct without the key among its expressions spans keys")
            return self._pat(child, bound)
        if isinstance(p, A.PatternFollowedBy):
            if any(x is not None for x in p.limits):
                raise _Refuse("-[N]> limits count instances of every key")
            b = bound
            for i, c in enumerate(p.children):
                b = self._pat(c, b, top=top and i == 0)
            return b
        if isinstance(p, A.PatternOr):
            out = bound
            for c in p.children:
                out = out | self._pat(c, bound, top)
            return out
        if isinstance(p, (A.PatternAnd,)):
            if not bound:
                raise _Refuse("'and' of patterns not yet bound to a key combines events of "
                              "every key")
            b = bound
            for c in p.children:
                b = b | self._pat(c, bound)
            return b
        if isinstance(p, A.PatternNot):
            if not bound:
                raise _Refuse("'not' before the key is bound looks at events of every key")
            self._pat(p.child, bound)
            return bound
        if isinstance(p, A.PatternGuard):
            return self._pat(p.child, bound, top)
        if isinstance(p, A.PatternWhile):
            return self._pat(p.child, bound, top)
        if isinstance(p, (A.PatternRepeat, A.PatternUntil)):
            if not bound:
                raise _Refuse("repetition before the key is bound counts events of every key")
            self._pat(p.child, bound)
            if isinstance(p, A.PatternUntil):
                self._pat(p.until, bound)
            return bound
        raise _Refuse(f"{type(p).__name__} is not analysed for partitioning")

"""Every enumeration method through an EPL statement, compared with plain Python over random
int collections holding nulls (a null element makes arithmetic and comparisons null, which
filters treat as false, as in Esper)."""
from __future__ import annotations

from typing import Any, Callable, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine

Vals = Optional[list]


def _gt(a, b):
    return None if a is None or b is None else a > b


def _mul(a, b):
    return None if a is None or b is None else a * b


def _add(a, b):
    return None if a is None or b is None else a + b


def _present(vs):
    return [v for v in vs if v is not None]


def _key(v):
    return (0, 0) if v is None else (1, v)


def _most(vs, most=True):
    counts: dict = {}
    for v in vs:
        counts[v] = counts.get(v, 0) + 1
    best = best_n = None
    for k, n in counts.items():
        if best_n is None or (n > best_n if most else n < best_n):
            best, best_n = k, n
    return best


def _by(vs, keyf, largest):
    best = best_k = None
    for v in vs:
        k = keyf(v)
        if k is None:
            continue
        if best_k is None or (k > best_k if largest else k < best_k):
            best, best_k = v, k
    return best


def _take_while(vs, pred):
    out = []
    for v in vs:
        if pred(v) is not True:
            break
        out.append(v)
    return out


def _aggregate(vs):
    r = 0
    for v in vs:
        r = _add(r, v)
    return r


def _group(vs):
    out: dict = {}
    for v in vs:
        k = None if v is None else v % 3
        out.setdefault(k, []).append(_mul(v, 10))
    return out


def _distinct(vs):
    out = []
    for v in vs:
        if v not in out:
            out.append(v)
    return out


# EPL expression over `vals` (and `other`) -> the plain Python model
CASES: dict[str, tuple[str, Callable[[list, Vals], Any]]] = {
    "where": ("vals.where(v => v > 5)", lambda vs, o: [v for v in vs if _gt(v, 5) is True]),
    "where_index": ("vals.where((v, i) => i > 1)", lambda vs, o: vs[2:]),
    "where_size": ("vals.where((v, i, s) => i >= s - 2)", lambda vs, o: vs[-2:] if len(vs) >= 2 else vs),
    "selectFrom": ("vals.selectFrom(v => v * 2)", lambda vs, o: [v * 2 for v in _present(vs)]),
    "selectFrom_index": ("vals.selectFrom((v, i, s) => i + s)",
                         lambda vs, o: [i + len(vs) for i in range(len(vs))]),
    "countOf": ("vals.countOf()", lambda vs, o: len(vs)),
    "countOf_pred": ("vals.countOf(v => v > 5)", lambda vs, o: sum(1 for v in vs if _gt(v, 5))),
    "sumOf": ("vals.sumOf()", lambda vs, o: sum(_present(vs)) if _present(vs) else None),
    "sumOf_lambda": ("vals.sumOf(v => v * 2)", lambda vs, o: sum(2 * v for v in _present(vs)) if _present(vs) else None),
    "average": ("vals.average()", lambda vs, o: sum(_present(vs)) / len(_present(vs)) if _present(vs) else None),
    "min": ("vals.min()", lambda vs, o: min(_present(vs)) if _present(vs) else None),
    "max": ("vals.max(v => v * 2)", lambda vs, o: max(2 * v for v in _present(vs)) if _present(vs) else None),
    "minBy": ("vals.minBy(v => v)", lambda vs, o: _by(vs, lambda v: v, False)),
    "maxBy": ("vals.maxBy(v => v)", lambda vs, o: _by(vs, lambda v: v, True)),
    "firstOf": ("vals.firstOf()", lambda vs, o: vs[0] if vs else None),
    "firstOf_pred": ("vals.firstOf(v => v > 5)", lambda vs, o: next((v for v in vs if _gt(v, 5)), None)),
    "lastOf": ("vals.lastOf()", lambda vs, o: vs[-1] if vs else None),
    "lastOf_pred": ("vals.lastOf(v => v > 5)", lambda vs, o: next((v for v in reversed(vs) if _gt(v, 5)), None)),
    "allOf": ("vals.allOf(v => v > 5)", lambda vs, o: all(_gt(v, 5) is True for v in vs)),
    "anyOf": ("vals.anyOf(v => v > 5)", lambda vs, o: any(_gt(v, 5) is True for v in vs)),
    "aggregate": ("vals.aggregate(0, (r, v) => r + v)", lambda vs, o: _aggregate(vs)),
    "arrayOf": ("vals.arrayOf()", lambda vs, o: list(vs)),
    "arrayOf_lambda": ("vals.arrayOf(v => v * 2)", lambda vs, o: [_mul(v, 2) for v in vs]),
    "distinctOf": ("vals.distinctOf()", lambda vs, o: _distinct(vs)),
    "distinctOf_key": ("vals.distinctOf(v => v > 5)", lambda vs, o: _distinct_by(vs)),
    "except": ("vals.except(other)", lambda vs, o: vs if not o or not vs else [v for v in vs if v not in o]),
    "intersect": ("vals.intersect(other)", lambda vs, o: vs if not o or not vs else [v for v in vs if v in o]),
    "union": ("vals.union(other)", lambda vs, o: (vs + o) if o and vs else (vs or o or [])),
    "groupBy": ("vals.groupBy(v => v % 3, v => v * 10)", lambda vs, o: _group(vs)),
    "toMap": ("vals.toMap(v => v, v => v * 2)", lambda vs, o: {v: _mul(v, 2) for v in vs}),
    "mostFrequent": ("vals.mostFrequent()", lambda vs, o: _most(vs, True)),
    "leastFrequent": ("vals.leastFrequent()", lambda vs, o: _most(vs, False)),
    "orderBy": ("vals.orderBy()", lambda vs, o: sorted(vs, key=_key)),
    "orderByDesc": ("vals.orderByDesc(v => v)", lambda vs, o: sorted(vs, key=_key, reverse=True)),
    "reverse": ("vals.reverse()", lambda vs, o: list(reversed(vs))),
    "take": ("vals.take(2)", lambda vs, o: vs[:2]),
    "takeLast": ("vals.takeLast(2)", lambda vs, o: vs[-2:]),
    "takeWhile": ("vals.takeWhile(v => v > 2)", lambda vs, o: _take_while(vs, lambda v: _gt(v, 2))),
    "takeWhileLast": ("vals.takeWhileLast(v => v > 2)",
                      lambda vs, o: list(reversed(_take_while(list(reversed(vs)), lambda v: _gt(v, 2))))),
    "sequenceEqual": ("vals.sequenceEqual(other)", lambda vs, o: o is not None and list(vs) == list(o)),
    "chained": ("vals.where(v => v > 1).orderByDesc(v => v).take(2).sumOf()",
                lambda vs, o: (lambda t: sum(t) if t else None)(
                    sorted([v for v in vs if _gt(v, 1)], reverse=True)[:2])),
    "nested": ("vals.where(v => other.anyOf(w => w = v))",
               lambda vs, o: [v for v in vs if v is not None and o and v in o]),
}


def _distinct_by(vs):
    seen, out = [], []
    for v in vs:
        k = _gt(v, 5)
        if k not in seen:
            seen.append(k)
            out.append(v)
    return out


ints = st.lists(st.one_of(st.none(), st.integers(0, 12)), max_size=8)


@pytest.fixture(scope="module")
def engine() -> Engine:
    e = Engine(time="simulated")
    e.epl("create schema C(vals int[], other int[])")
    return e


@pytest.mark.parametrize("name", sorted(CASES))
def test_method_matches_python(engine: Engine, name: str) -> None:
    text, model = CASES[name]
    stmt = engine.epl(f"select {text} as r from C")
    got: list = []
    stmt.add_listener(lambda new, old: got.extend(b.get("r") for b in new))
    try:
        @settings(max_examples=100, deadline=None)
        @given(vals=st.one_of(st.none(), ints), other=st.one_of(st.none(), ints))
        def check(vals, other):
            got.clear()
            engine.send({"vals": vals, "other": other}, "C")
            want = None if vals is None else model(vals, other)
            r = got[0]
            if isinstance(want, float) and r is not None:
                assert r == pytest.approx(want)
            else:
                assert r == want, (vals, other)
        check()
    finally:
        stmt.destroy()


# The same methods over events (Item{p}) from an event-array property and from a data window.
EVENT_CASES: dict[str, tuple[str, Callable[[list], Any]]] = {
    "where": ("{src}.where(x => x.p > 5).selectFrom(x => x.p)", lambda ps: [p for p in ps if _gt(p, 5)]),
    "where_lt": ("{src}.where(x => x.p < 5).selectFrom(x => x.p)", lambda ps: [p for p in ps if p is not None and p < 5]),
    "where_ne": ("{src}.where(x => x.p != 5).countOf()", lambda ps: sum(1 for p in ps if p is not None and p != 5)),
    "sumOf": ("{src}.sumOf(x => x.p)", lambda ps: sum(_present(ps)) if _present(ps) else None),
    "sumOf_expr": ("{src}.sumOf(x => x.p * 2)", lambda ps: sum(2 * p for p in _present(ps)) if _present(ps) else None),
    "average": ("{src}.average(x => x.p)", lambda ps: sum(_present(ps)) / len(_present(ps)) if _present(ps) else None),
    "minBy": ("{src}.minBy(x => x.p).p", lambda ps: _by(ps, lambda p: p, False)),
    "orderBy": ("{src}.orderBy(x => x.p).selectFrom(x => x.p)", lambda ps: [p for p in sorted(ps, key=_key) if p is not None]),
    "countOf": ("{src}.countOf(x => x.p <= 5)", lambda ps: sum(1 for p in ps if p is not None and p <= 5)),
    "allOf": ("{src}.allOf(x => x.p >= 0)", lambda ps: all(p is not None for p in ps)),
    "takeWhile": ("{src}.takeWhile(x => x.p < 9).countOf()", lambda ps: len(_take_while(ps, lambda p: None if p is None else p < 9))),
}


@pytest.mark.parametrize("name", sorted(EVENT_CASES))
@pytest.mark.parametrize("source", ["array", "window"])
def test_event_method_matches_python(name: str, source: str) -> None:
    text, model = EVENT_CASES[name]
    e = Engine(time="simulated")
    e.epl("create schema Item(p int)")
    e.epl("create schema Box(contained Item[])")
    if source == "array":
        stmt = e.epl(f"select {text.format(src='contained')} as r from Box")
    else:
        stmt = e.epl(f"select {text.format(src='window(*)')} as r from Item#keepall")
    got: list = []
    stmt.add_listener(lambda new, old: got.extend(b.get("r") for b in new))

    @settings(max_examples=60, deadline=None)
    @given(ps=st.lists(st.one_of(st.none(), st.integers(0, 12)), min_size=1, max_size=6))
    def check(ps):
        got.clear()
        if source == "array":
            e.send({"contained": [{"p": p} for p in ps]}, "Box")
            want = model(ps)
        else:
            stmt.stop()
            stmt.start()
            for p in ps:
                e.send({"p": p}, "Item")
            want = model(ps)
        r = got[-1]
        if isinstance(want, float) and r is not None:
            assert r == pytest.approx(want)
        else:
            assert r == want, ps
    check()

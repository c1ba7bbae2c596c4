"""Joins of two windows against a brute-force model: after every event, the insert and
remove streams equal the rows of the join of the window contents (SQL semantics over the
whole windows) that contain the entering, respectively leaving, events."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine

KINDS = {"inner": None, "left": "left outer join", "right": "right outer join", "full": "full outer join"}


def sql_join(kind: str, left: list, right: list, cond) -> list[tuple]:
    rows = []
    matched_right = set()
    for a in left:
        found = False
        for b in right:
            if cond(a, b):
                rows.append((a, b))
                matched_right.add(id(b))
                found = True
        if not found and kind in ("left", "full"):
            rows.append((a, None))
    if kind in ("right", "full"):
        for b in right:
            if id(b) not in matched_right:
                rows.append((None, b))
    return rows


def containing(rows: list[tuple], stream: int, events: list) -> list[tuple]:
    ids = {id(e) for e in events}
    return [r for r in rows if r[stream] is not None and id(r[stream]) in ids]


def key(row: tuple) -> tuple:
    return tuple(None if e is None else e["u"] for e in row)


class Model:
    """Two windows (length, or length_batch for the second), joined per update."""

    def __init__(self, kind: str, sizes: tuple[int, int], batch_b: bool, cond) -> None:
        self.kind, self.sizes, self.batch_b, self.cond = kind, sizes, batch_b, cond
        self.win = ([], [])
        self.pending_b: list = []

    def send(self, stream: int, ev: dict) -> tuple[list, list]:
        if stream == 1 and self.batch_b:
            self.pending_b.append(ev)
            if len(self.pending_b) < self.sizes[1]:
                return [], []
            new, old = self.pending_b, list(self.win[1])
            self.pending_b = []
        else:
            new = [ev]
            w = self.win[stream]
            old = w[: max(0, len(w) + 1 - self.sizes[stream])]
        before = sql_join(self.kind, *self.win, self.cond)
        old_rows = containing(before, stream, old)
        if stream == 1 and self.batch_b:
            self.win = (self.win[0], list(new))
        else:
            w = [e for e in self.win[stream] if all(e is not o for o in old)] + new
            self.win = (w, self.win[1]) if stream == 0 else (self.win[0], w)
        after = sql_join(self.kind, *self.win, self.cond)
        return containing(after, stream, new), old_rows


def run(kind: str, sizes, batch_b: bool, where: str, cond, events) -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema A(id int, v int, u int)")
    engine.epl("create schema B(id int, v int, u int)")
    b_view = f"length_batch({sizes[1]})" if batch_b else f"length({sizes[1]})"
    if KINDS[kind] is None:
        frm = f"A#length({sizes[0]}) as a, B#{b_view} as b where {where}"
    else:
        frm = f"A#length({sizes[0]}) as a {KINDS[kind]} B#{b_view} as b on {where}"
    stmt = engine.epl(f"select irstream a.u as au, b.u as bu from {frm}")
    calls = []
    stmt.add_listener(lambda new, old: calls.append((new, old)))
    model = Model(kind, sizes, batch_b, cond)
    for n, (stream, ident, v) in enumerate(events):
        ev = {"id": ident, "v": v, "u": n}
        calls.clear()
        engine.send(dict(ev), "AB"[stream])
        exp_new, exp_old = model.send(stream, ev)
        got_new = Counter((r["au"], r["bu"]) for c in calls for r in (c[0] or ()))
        got_old = Counter((r["au"], r["bu"]) for c in calls for r in (c[1] or ()))
        assert got_new == Counter(key(r) for r in exp_new), f"new rows after event {n}"
        assert got_old == Counter(key(r) for r in exp_old), f"old rows after event {n}"
        assert len(calls) <= 1, "one delivery per event"
        # iteration equals the join of the current windows
        current = Counter((r["au"], r["bu"]) for r in stmt)
        assert current == Counter(key(r) for r in sql_join(kind, *model.win, cond))


events = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 3), st.integers(0, 5)),
                  max_size=25)
sizes = st.tuples(st.integers(1, 3), st.integers(1, 3))


@pytest.mark.parametrize("kind", list(KINDS))
@settings(max_examples=120, deadline=None)
@given(events=events, sizes=sizes, batch_b=st.booleans())
def test_equality_join_matches_model(kind, events, sizes, batch_b):
    run(kind, sizes, batch_b, "a.id = b.id",
        lambda a, b: a["id"] == b["id"], events)


@pytest.mark.parametrize("kind", ["inner", "left"])
@settings(max_examples=100, deadline=None)
@given(events=events, sizes=sizes)
def test_range_join_matches_model(kind, events, sizes):
    run(kind, sizes, False, "a.v < b.v and a.id != b.id",
        lambda a, b: a["v"] < b["v"] and a["id"] != b["id"], events)


@settings(max_examples=80, deadline=None)
@given(events=events, sizes=sizes)
def test_between_join_matches_model(events, sizes):
    run("inner", sizes, False, "b.v between a.id and a.v",
        lambda a, b: min(a["id"], a["v"]) <= b["v"] <= max(a["id"], a["v"]), events)


def sql_chain(kinds: list[str], windows: list[list], conds) -> list[tuple]:
    """Left-deep SQL joins: R0 = W0, Rk = R(k-1) <kinds[k]> Wk on conds[k](row, e)."""
    rows = [(e,) for e in windows[0]]
    for k in range(1, len(windows)):
        out, matched = [], set()
        for r in rows:
            found = False
            for e in windows[k]:
                if conds[k](r, e):
                    out.append(r + (e,))
                    matched.add(id(e))
                    found = True
            if not found and kinds[k] in ("left", "full"):
                out.append(r + (None,))
        if kinds[k] in ("right", "full"):
            for e in windows[k]:
                if id(e) not in matched:
                    out.append((None,) * k + (e,))
        rows = out
    return rows


def _eq(i: int, j: int):
    return lambda r, e: r[i] is not None and r[i]["id"] == e["id"] if i < len(r) else False


@pytest.mark.parametrize("k1,k2,on2", [
    ("left", "full", "c.id = b.id"),
    ("inner", "left", "c.id = a.id"),
    ("full", "right", "c.id = a.id"),
    ("right", "inner", "c.id = b.id"),
])
@settings(max_examples=60, deadline=None)
@given(events=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), max_size=20))
def test_three_stream_outer_chain_matches_model(k1, k2, on2, events):
    engine = Engine(time="simulated")
    for t in "ABC":
        engine.epl(f"create schema {t}(id int, u int)")
    words = {"inner": "inner join", "left": "left outer join", "right": "right outer join",
             "full": "full outer join"}
    stmt = engine.epl(
        "select irstream a.u as au, b.u as bu, c.u as cu from A#length(2) as a "
        f"{words[k1]} B#length(2) as b on a.id = b.id {words[k2]} C#length(2) as c on {on2}")
    calls = []
    stmt.add_listener(lambda new, old: calls.append((new, old)))
    other = 1 if on2.endswith("b.id") else 0
    conds = [None, _eq(0, 1), _eq(other, 2)]
    kinds = ["inner", k1, k2]
    windows: list[list] = [[], [], []]
    for n, (stream, ident) in enumerate(events):
        ev = {"id": ident, "u": n}
        calls.clear()
        engine.send(dict(ev), "ABC"[stream])
        w = windows[stream]
        old = w[: max(0, len(w) - 1)]
        before = sql_chain(kinds, windows, conds)
        windows[stream] = w[len(old):] + [ev]
        after = sql_chain(kinds, windows, conds)
        keyed = lambda rows: Counter(tuple(None if e is None else e["u"] for e in r) for r in rows)
        got_new = Counter((r["au"], r["bu"], r["cu"]) for c in calls for r in (c[0] or ()))
        got_old = Counter((r["au"], r["bu"], r["cu"]) for c in calls for r in (c[1] or ()))
        assert got_new == keyed(containing(after, stream, [ev]))
        assert got_old == keyed(containing(before, stream, old))
        assert Counter((r["au"], r["bu"], r["cu"]) for r in stmt) == keyed(after)

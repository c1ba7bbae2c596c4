"""A fused grouped time batch whose batches' ends run from the split of their values
(epl/compiler/fused/batch_ends.py _values_steady): a batch after one recorded as its
split sets each group's state to its own count and sum, groups of the old batch alone
leave, the rows come in Java hash-map order and reuse the beans of the last rows only
when nothing holds them. Directed cases against the general chain (fusion off) and
against the values they must show: steady key sets, groups that join and leave, a batch
that goes the general way in between, integer sums past their type's range, rows a
listener keeps, through per-event sends and through send_many with times."""
from __future__ import annotations

from typing import Any

import pytest

from engine import Engine
from engine.fused import is_fused

SCHEMA = "create schema T(k string, v int, n long)"
SUM = "select k, sum(v) as s from T#time_batch(100 msec) group by k"
MIXED = "select k, count(*) as c, sum(n) as s, count(v) as cv from T#time_batch(100 msec) group by k"


def _engine(fusion: bool) -> Engine:
    engine = Engine(time="simulated")
    engine.fusion = fusion
    engine.epl(SCHEMA)
    return engine


def _deliveries(text: str, batches: list, fusion: bool, per_event: bool, keep: Any = None) -> list:
    """Each batch's events 1 ms apart from the batch's start (batches 100 ms apart); the
    rows each delivery carried as (time, [(column, value), ...] per row). `keep(new)`:
    what the listener keeps of a delivery, looked at again at the end (appended last)."""
    engine = _engine(fusion)
    stmt = engine.epl(text)
    if fusion:
        assert is_fused(stmt)
    log: list = []
    kept: list = []

    def listener(new: Any, old: Any) -> None:
        log.append((engine.now, [sorted(r.to_dict().items()) for r in new or ()]))
        if keep is not None:
            kept.append(keep(new))
    stmt.add_listener(listener)
    for b, events in enumerate(batches):
        start = b * 100
        times = [start + i for i in range(len(events))]
        if per_event:
            for t, ev in zip(times, events):
                engine.advance_time(t)
                engine.send(dict(ev), "T")
        else:
            engine.send_many([dict(ev) for ev in events], "T", times=times)
    engine.advance_time(len(batches) * 100 + 100)
    log.append(("kept", [_looked_at(x) for x in kept]))
    aggs = stmt._instances[0].processor.aggs
    log.append(("groups", sorted(aggs.refcounts.items()), sorted(aggs.groups)))
    return log


def _looked_at(x: Any) -> Any:
    if x is None:
        return None
    if isinstance(x, list):
        return [sorted(r.to_dict().items()) for r in x]
    if isinstance(x, dict):
        return sorted(x.items())
    return sorted(x.to_dict().items())


def _ev(k: str, v: Any, n: Any = 1) -> dict:
    return {"k": k, "v": v, "n": n}


KEYS = [f"S{i:02d}" for i in range(30)]


def _steady(batches: int, odd: "int | None" = None) -> list:
    """Batches over the same 30 keys, each in another order of first appearance; with
    `odd`, that batch has a null value (it goes the general way)."""
    out = []
    for b in range(batches):
        keys = KEYS[b % 7:] + KEYS[:b % 7]
        evs = [_ev(keys[(i * 7 + b) % 30], i + b) for i in range(60)]
        if b == odd:
            evs[5] = _ev(evs[5]["k"], None)
        out.append(evs)
    return out


def _compare(text: str, batches: list, keep: Any = None) -> list:
    logs = [_deliveries(text, batches, fusion, per_event, keep)
            for per_event in (True, False) for fusion in (True, False)]
    assert logs[0] == logs[1]
    assert logs[2] == logs[3]
    return logs[0]


@pytest.mark.parametrize("text", [SUM, MIXED])
@pytest.mark.parametrize("odd", [None, 2, 4])
def test_steady_key_sets_as_the_general_chain(text: str, odd: "int | None") -> None:
    """The same keys in every batch, each batch in its own order (the rows' order is the
    hash map's: keys that share a bucket in the order they first appeared); with a batch
    holding a null between steady ones."""
    log = _compare(text, _steady(6, odd))
    assert len(log) == 6 + 2 and all(len(rows) == 30 for _, rows in log[:6])


def test_groups_join_and_leave() -> None:
    """Groups new in a batch, groups of the old batch alone (a row with a null sum, then
    gone from the state), a group back after a batch away."""
    batches = [[_ev("a", 1), _ev("b", 2), _ev("c", 3)],
               [_ev("b", 5), _ev("a", 4), _ev("c", 1)],         # the same keys, another order
               [_ev("a", 7), _ev("d", 1)],                      # b and c leave, d joins
               [_ev("d", 2), _ev("a", 1), _ev("b", 9)],         # b back
               [_ev("e", 1)]]
    log = _compare(SUM, batches)
    rows = [{dict(r)["k"]: dict(r)["s"] for r in rs} for _, rs in log[:5]]
    assert rows == [{"a": 1, "b": 2, "c": 3}, {"a": 4, "b": 5, "c": 1}, {"a": 7, "d": 1, "b": None, "c": None},
                    {"d": 2, "a": 1, "b": 9}, {"e": 1, "d": None, "a": None, "b": None}]
    assert log[-1] == ("groups", [("e", 1)], ["e"])


def test_sums_past_their_range_wrap_as_java() -> None:
    """An int sum past 2^31-1 wraps (Java int arithmetic), a long one past 2^63-1 too, in
    the steady batches as in the general chain."""
    big = 2**31 - 1
    batches = [[_ev("a", big, 2**62), _ev("b", 1, 1), _ev("a", big, 2**62)] for _ in range(4)]
    for text, wrapped in ((SUM, -2), (MIXED, -(2**63))):
        log = _compare(text, batches)
        assert [{dict(r)["k"]: dict(r)["s"] for r in rs}["a"] for _, rs in log[:4]] == [wrapped] * 4


KEEP = {"list": lambda new: new, "row": lambda new: new[0], "dict": lambda new: new[-1].underlying,
        "nothing": lambda new: None}


@pytest.mark.parametrize("what", sorted(KEEP))
def test_rows_a_listener_keeps_never_change(what: str) -> None:
    """The batch end gives the beans of its last rows to its next ones only when nothing
    else holds them: a listener keeping the list, a row or a row's dict sees them as they
    were delivered, after later batches."""
    log = _compare(SUM, _steady(5), KEEP[what])
    kept = log[-2][1]
    delivered = [rows for _, rows in log[:5]]
    expected = {"list": delivered, "row": [rows[0] for rows in delivered],
                "dict": [rows[-1] for rows in delivered], "nothing": [None] * 5}[what]
    assert kept == expected

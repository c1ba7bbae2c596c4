"""Interval algebra in EPL (Esper's date-time methods on events and timestamps), with and
without thresholds; the intersection of lifetimes for joins."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from apptime_support import listen

from engine import Engine
from engine.apptime import intersection, relate, row_lifetime
from engine.bean import EventBean
from epl.errors import EPLValidationError

# (method, left, right, params, expected): Esper's definitions
CASES = [
    ("before", (0, 10), (11, 20), (), True),
    ("before", (0, 10), (10, 20), (), False),
    ("before", (0, 10), (15, 20), (5,), True),
    ("before", (0, 10), (14, 20), (5,), False),
    ("before", (0, 10), (15, 20), (1, 5), True),
    ("before", (0, 10), (16, 20), (1, 5), False),
    ("before", (0, 10), (15, 20), (5, 1), True),          # range ends swapped
    ("after", (11, 20), (0, 10), (), True),
    ("after", (10, 20), (0, 10), (), False),
    ("after", (15, 20), (0, 10), (5, 6), True),
    ("coincides", (0, 10), (0, 10), (), True),
    ("coincides", (0, 10), (1, 10), (), False),
    ("coincides", (0, 10), (1, 12), (1, 2), True),
    ("coincides", (0, 10), (1, 12), (2,), True),
    ("coincides", (0, 10), (1, 13), (2,), False),
    ("during", (2, 8), (0, 10), (), True),
    ("during", (0, 8), (0, 10), (), False),
    ("during", (2, 8), (0, 10), (2,), True),
    ("during", (3, 8), (0, 10), (2,), False),
    ("during", (2, 8), (0, 10), (2, 3), True),
    ("during", (0, 8), (0, 10), (0, 3), False),            # start distance at least 1
    ("during", (2, 10), (0, 10), (0, 3), True),            # (Esper bounds only the start by 1)
    ("during", (2, 10), (0, 12), (1, 2, 2, 2), True),
    ("includes", (0, 10), (2, 8), (), True),
    ("includes", (0, 10), (2, 8), (1,), False),
    ("finishes", (5, 10), (0, 10), (), True),
    ("finishes", (5, 11), (0, 10), (1,), True),
    ("finishes", (0, 10), (0, 10), (), False),
    ("finishedBy", (0, 10), (5, 10), (), True),
    ("finishedBy", (0, 10), (5, 12), (2,), True),
    ("meets", (0, 10), (10, 20), (), True),
    ("meets", (0, 10), (12, 20), (2,), True),
    ("meets", (0, 10), (13, 20), (2,), False),
    ("metBy", (10, 20), (0, 10), (), True),
    ("metBy", (11, 20), (0, 10), (1,), True),
    ("overlaps", (0, 10), (5, 20), (), True),
    ("overlaps", (0, 10), (10, 20), (), False),
    ("overlaps", (0, 10), (5, 20), (5,), True),
    ("overlaps", (0, 10), (5, 20), (4,), False),
    ("overlaps", (0, 10), (5, 20), (5, 6), True),
    ("overlappedBy", (5, 20), (0, 10), (), True),
    ("overlappedBy", (5, 20), (0, 10), (3, 4), False),
    ("starts", (0, 5), (0, 10), (), True),
    ("starts", (1, 5), (0, 10), (1,), True),
    ("starts", (0, 10), (0, 10), (), False),
    ("startedBy", (0, 10), (0, 5), (), True),
    ("startedBy", (0, 10), (2, 5), (1,), False),
]


@pytest.mark.parametrize("method,left,right,params,expected", CASES)
def test_relations(method, left, right, params, expected) -> None:
    assert relate(method, left, right, *params) is expected


def _engine() -> Engine:
    engine = Engine(time="simulated")
    engine.epl("create schema Iv(id int, s long, e long) starttimestamp s endtimestamp e")
    return engine


@pytest.mark.parametrize("method,left,right,params,expected", CASES)
def test_relations_in_epl_joins(method, left, right, params, expected) -> None:
    engine = _engine()
    args = "".join(f", {p}" for p in params)
    rec = listen(engine, f"select a.{method}(b{args}) as r from Iv(id = 1)#lastevent as a, "
                         f"Iv(id = 2)#lastevent as b")
    engine.send({"id": 1, "s": left[0], "e": left[1]}, "Iv")
    engine.send({"id": 2, "s": right[0], "e": right[1]}, "Iv")
    assert rec.calls[-1][1] == [{"r": expected}]


def test_time_period_thresholds_and_expressions() -> None:
    engine = _engine()
    rec = listen(engine, "select a.before(b, 1 sec) as p, a.before(b, b.id * 1000) as q, "
                         "a.before(b, 1 sec, 2 sec) as r from Iv(id = 1)#lastevent as a, "
                         "Iv(id >= 2)#lastevent as b")
    engine.send({"id": 1, "s": 0, "e": 1000}, "Iv")
    engine.send({"id": 2, "s": 2500, "e": 3000}, "Iv")
    assert rec.calls[-1][1] == [{"p": True, "q": False, "r": True}]
    engine.send({"id": 3, "s": 4000, "e": 5000}, "Iv")
    assert rec.calls[-1][1] == [{"p": True, "q": True, "r": False}]


def test_timestamps_and_events_mix() -> None:
    engine = _engine()
    rec = listen(engine, "select a.after(b.e) as x, a.s.during(b) as y, a.s.before(b.s) as z "
                         "from Iv(id = 1)#lastevent as a, Iv(id = 2)#lastevent as b")
    engine.send({"id": 2, "s": 0, "e": 100}, "Iv")
    engine.send({"id": 1, "s": 50, "e": 150}, "Iv")
    assert rec.calls[-1][1] == [{"x": False, "y": True, "z": False}]


def test_single_stream_filter_and_where_with_datetimes() -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema D(id int, s object, e object) starttimestamp s endtimestamp e")
    rec = listen(engine, "select id from D where D.before(e)")   # the event vs its own end
    rec2 = listen(engine, "select id from D where s.before(e)")
    t0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
    t1 = datetime(2024, 1, 2, tzinfo=timezone.utc)
    engine.send({"id": 1, "s": t0, "e": t1}, "D")
    assert rec.calls == []                     # [t0, t1] ends at t1, not before it
    assert rec2.calls == [(0, [{"id": 1}], [])]


def test_nulls_give_null() -> None:
    engine = _engine()
    rec = listen(engine, "select a.before(b) as r, a.before(b, b.id) as q from Iv(id = 1)#lastevent as a, "
                         "Iv(id is null)#lastevent as b")
    engine.send({"id": 1, "s": 0, "e": 10}, "Iv")
    engine.send({"id": None, "s": None, "e": 20}, "Iv")
    assert rec.calls[-1][1] == [{"r": None, "q": None}]


def test_point_types_are_zero_length_intervals() -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema P(id int, t long) starttimestamp t")
    rec = listen(engine, "select a.meets(b) as m, a.coincides(b) as c from P(id = 1)#lastevent as a, "
                         "P(id = 2)#lastevent as b")
    engine.send({"id": 1, "t": 5}, "P")
    engine.send({"id": 2, "t": 5}, "P")
    assert rec.calls[-1][1] == [{"m": True, "c": True}]


@pytest.mark.parametrize("expr,message", [
    ("a.meets(b, -1)", "does not allow negative threshold"),
    ("a.starts(b, 1, 2)", "threshold parameter"),
    ("a.during(b, 1, 2, 3)", "threshold parameter"),
    ("a.before()", "requires an event or timestamp"),
    ("a.before(b, 'x')", "numeric threshold"),
])
def test_validation_errors(expr: str, message: str) -> None:
    engine = _engine()
    with pytest.raises(EPLValidationError, match=message):
        engine.epl(f"select {expr} from Iv#lastevent as a, Iv#lastevent as b")


def test_intersection_of_join_lifetimes() -> None:
    engine = _engine()
    it = engine.event_type("Iv")
    a = EventBean(it, {"id": 1, "s": 0, "e": 10})
    b = EventBean(it, {"id": 2, "s": 5, "e": 20})
    c = EventBean(it, {"id": 3, "s": 10, "e": 20})
    assert row_lifetime((a, b)) == (5, 10)
    assert row_lifetime((a, c)) is None               # [0, 10) and [10, 20) do not overlap
    assert row_lifetime((a, None)) == (0, 10)         # an outer-join null does not constrain
    assert intersection((0, 10), (2, 8), (4, 30)) == (4, 8)

"""The interval window `#interval()` on its own: lifetimes from types, expressions and
input beans; deferred starts, end changes, iteration, stop, joins."""
from __future__ import annotations

import pytest
from apptime_support import Recorder, listen

from engine import Engine
from engine.apptime import INFINITY, Shape, TimedBean
from epl.errors import EPLValidationError
from views import SimulatedViewContext
from views.interval import IntervalWindow


def _engine() -> Engine:
    engine = Engine(time="simulated")
    engine.epl("create schema Iv(id int, s long, e long) starttimestamp s endtimestamp e")
    engine.epl("create schema Raw(id int, a long, b long)")
    return engine


def test_lifetime_from_expressions() -> None:
    engine = _engine()
    rec = listen(engine, "select irstream id from Raw#interval(a, a + b)")
    engine.send({"id": 1, "a": 0, "b": 30}, "Raw")
    engine.send({"id": 2, "a": 0, "b": 10}, "Raw")
    engine.advance_time_span(100)
    assert rec.calls == [(0, [{"id": 1}], []), (0, [{"id": 2}], []), (10, [], [{"id": 2}]),
                         (30, [], [{"id": 1}])]


def test_events_without_timestamps_are_points_at_arrival() -> None:
    engine = _engine()
    rec = listen(engine, "select irstream id from Raw#interval()")
    engine.advance_time(5)
    engine.send({"id": 1, "a": 0, "b": 0}, "Raw")
    engine.advance_time_span(10)
    assert rec.calls == [(5, [{"id": 1}], []), (6, [], [{"id": 1}])]


def test_past_and_empty_lifetimes() -> None:
    engine = _engine()
    rec = listen(engine, "select irstream id from Iv#interval()")
    engine.advance_time(100)
    engine.send({"id": 1, "s": 10, "e": 20}, "Iv")     # over already: in and out at once
    engine.send({"id": 2, "s": 50, "e": 50}, "Iv")     # empty: never enters
    assert rec.calls == [(100, [{"id": 1}], [{"id": 1}])]


def test_iteration_holds_the_valid_events_in_arrival_order() -> None:
    engine = _engine()
    stmt = engine.epl("select * from Iv#interval()")
    for i, (s, e) in enumerate([(0, 50), (0, 20), (10, 40)], 1):
        engine.send({"id": i, "s": s, "e": e}, "Iv")
    assert [r["id"] for r in stmt] == [1, 2]           # 3 starts at 10
    engine.advance_time_span(25)
    assert [r["id"] for r in stmt] == [1, 3]


def test_stop_cancels_schedules() -> None:
    engine = _engine()
    stmt = engine.epl("select * from Iv#interval()")
    engine.send({"id": 1, "s": 0, "e": 50}, "Iv")
    engine.send({"id": 2, "s": 10, "e": 50}, "Iv")
    assert engine.schedule_count() == 2
    stmt.stop()
    assert engine.schedule_count() == 0


def test_a_bean_end_change_reschedules_and_removes() -> None:
    engine = _engine()
    ctx = SimulatedViewContext()
    window = IntervalWindow(ctx, lambda b: (b.start, b.end))
    rec = Recorder(engine)
    window.child = type("Sink", (), {"update": lambda self, n, o: rec.calls.append(
        (ctx.now(), [b.underlying["id"] for b in n or ()], [b.underlying["id"] for b in o or ()]))})()
    et = engine.event_type("Iv")
    a = TimedBean(et, {"id": 1}, 0, INFINITY, Shape.EDGE)
    b = TimedBean(et, {"id": 2}, 0, 100, Shape.INTERVAL)
    window.update([a, b], None)
    a.set_end(30)
    b.set_end(20)
    ctx.advance_span(25)
    assert rec.calls == [(0, [1, 2], []), (20, [], [2])]
    ctx.advance_span(40)
    assert rec.calls[-1] == (30, [], [1])
    a.set_end(10)                                      # no longer held: nothing happens
    assert a._watchers is None and len(window) == 0


def test_parameter_errors() -> None:
    engine = _engine()
    with pytest.raises(EPLValidationError, match="interval"):
        engine.epl("select * from Iv#interval(s)")


def test_joins_of_interval_windows_see_only_valid_events() -> None:
    engine = _engine()
    rec = listen(engine, "select a.id as aid, b.id as bid from Iv(id < 10)#interval() as a, "
                         "Iv(id >= 10)#interval() as b")
    inp = engine.input("Iv")
    for i, s, e in [(1, 0, 10), (10, 5, 15), (2, 12, 20), (11, 30, 40)]:
        inp.enqueue({"id": i, "s": s, "e": e})
    inp.close(final_cti=True)
    assert [(t, r["aid"], r["bid"]) for t, r in rec.inserts()] == [(5, 1, 10), (12, 2, 10)]

"""Arithmetic on time periods keeps their unit wherever a period is taken (pattern guards
and timers, data windows): `a.v * 30 msec` is 30 msec per unit of v, `500 msec + 500 msec`
one second; a sum of a period and a plain number, or a product of two periods, is refused."""
from __future__ import annotations

import re

import pytest

from engine import Engine
from epl.errors import EPLValidationError
from engine.fastpath_switch import set_fast_paths


def _engine() -> Engine:
    engine = Engine(time="simulated")
    engine.epl("create schema A(id int, v int)")
    engine.epl("create schema B(id int)")
    return engine


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("period", ["a.v * 30 msec", "30 msec * a.v", "a.v * 60 msec / 2",
                                    "a.v * 20 msec + 10 msec", "(a.v * 3) * 10 msec"])
def test_a_within_period_computed_from_the_a_event(fast, period):
    engine = _engine()
    set_fast_paths(engine, fast)
    out: list = []
    stmt = engine.epl(f"select * from pattern [every a=A -> b=B(id = a.id) where timer:within({period})]")
    stmt.add_listener(lambda new, old: out.extend((r.underlying["a"].underlying["v"], engine.now) for r in new))
    engine.send({"id": 1, "v": 1}, "A")         # 30 msec: until 30
    engine.send({"id": 2, "v": 2}, "A")         # 60 msec: until 60
    engine.advance_time(29)
    engine.send({"id": 1}, "B")
    engine.advance_time(45)
    engine.send({"id": 2}, "B")
    engine.send({"id": 3, "v": 1}, "A")         # until 75
    engine.advance_time(75)
    engine.send({"id": 3}, "B")                 # the guard ended at 75
    assert out == [(1, 29), (2, 45)]


@pytest.mark.parametrize("period, at", [("1 sec + 500 msec", 1500),
                                        ("4 sec / 2 sec", 2000)])   # a ratio: seconds
def test_a_timer_interval_of_period_arithmetic(period, at):
    engine = _engine()
    fired: list = []
    engine.epl(f"select * from pattern [timer:interval({period})]").add_listener(
        lambda new, old: fired.append(engine.now))
    engine.advance_time(at - 1)
    assert fired == []
    engine.advance_time(at)
    assert fired == [at]


def test_a_time_window_of_a_product_keeps_milliseconds():
    engine = _engine()
    old_rows: list = []
    engine.epl("select irstream id from A#time(2 * 500 msec)").add_listener(
        lambda new, old: old_rows.extend((r["id"], engine.now) for r in old or ()))
    engine.send({"id": 1, "v": 0}, "A")
    engine.advance_time(999)
    assert old_rows == []
    engine.advance_time(1000)
    assert old_rows == [(1, 1000)]


@pytest.mark.parametrize("period, message", [
    ("30 msec + 2", "Operator '+' cannot combine a time period and a number"),
    ("2 - 1 sec", "Operator '-' cannot combine a time period and a number"),
    ("1 / 30 msec", "Operator '/' cannot combine a time period and a number"),
    ("30 msec * 2 sec", "Operator '*' cannot combine two time periods"),
])
def test_a_period_mixed_with_a_plain_number_is_refused(period, message):
    engine = _engine()
    with pytest.raises(EPLValidationError, match=re.escape(message)):
        engine.epl(f"select * from pattern [every a=A -> B where timer:within({period})]")

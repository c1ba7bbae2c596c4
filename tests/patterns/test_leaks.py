"""Bounded state: ended instances leave no filters or schedules behind after long runs."""
from __future__ import annotations

import random

import pytest

from engine.fastpath_switch import set_fast_paths
from engine.patterns import pattern_limit


def _long_run(engine, epl: str, n: int = 5000, within_ms: int = 1000) -> tuple:
    base = (engine.filter_count(), engine.schedule_count())
    stmt = engine.epl(epl)
    matches = []
    stmt.add_listener(lambda new, old: matches.extend(new))
    started = (engine.filter_count(), engine.schedule_count())
    rnd = random.Random(7)
    t = engine.now
    peak = 0
    for _ in range(n):
        t += rnd.randint(0, 40)
        engine.advance_time(t)
        engine.send({"id": rnd.randint(0, 50), "v": 0}, rnd.choice("AB"))
        peak = max(peak, engine.filter_count())
    engine.advance_time(t + within_ms)
    return base, started, (engine.filter_count(), engine.schedule_count()), peak, stmt, matches


@pytest.mark.parametrize("fast", [False, True])
def test_within_run_returns_to_baseline(engine, fast):
    set_fast_paths(engine, fast)
    base, started, end, peak, stmt, matches = _long_run(
        engine, "select * from pattern [every a=A -> b=B(id = a.id) where timer:within(1 sec)]")
    if fast:        # the keyed fast path: one filter per type, whatever is pending
        assert matches and peak == started[0]
        assert end == started == (base[0] + 2, base[1])
    else:           # the state machines: a filter per pending instance
        assert matches and peak > started[0] + 10
        assert end == started == (base[0] + 1, base[1])
    assert pattern_limit(engine).count == 0
    stmt.destroy()
    assert (engine.filter_count(), engine.schedule_count()) == base


@pytest.mark.parametrize("pattern", [
    "every a=A -> (timer:interval(500 msec) and not B(id = a.id))",
    "every a=A -> (b=B(id = a.id) or timer:interval(1 sec))",
    "every (a=A -> [2] b=B(id = a.id) where timer:within(1 sec))",
    "every a=A -> (b=B(id = a.id) until timer:interval(1 sec))",
    "every-distinct(a.id, 1 sec) a=A -> b=B(id = a.id) where timer:within(1 sec)",
    "(every a=A -> b=B(id = a.id) where timer:within(1 sec)) where timer:within(1 hour)",
])
def test_operators_release_state(engine, pattern):
    base, started, end, peak, stmt, matches = _long_run(engine, f"select * from pattern [{pattern}]", n=1500)
    assert matches
    assert end[1] <= started[1] and end[0] <= started[0] + 1
    stmt.destroy()
    assert (engine.filter_count(), engine.schedule_count()) == base
    assert pattern_limit(engine).count == 0

"""rate(N) over engine time and rate(ts[, v]) over a data window, against their models."""
from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aggtest_models import _esper_running as esper_running
from engine.aggregation import NOT_CONSTANT, AggregationError, make_factory
from engine.epl_types import DOUBLE, LONG, STRING

SETTINGS = settings(max_examples=120, deadline=None)


def java_divide(a: float, b: float) -> float:
    if b == 0:
        return math.nan if a == 0 else math.copysign(math.inf, a)
    return a / b


def same(got, want) -> bool:
    if want is None:
        return got is None
    if math.isnan(want):
        return math.isnan(got)
    return got == want


class Clock:
    def __init__(self) -> None:
        self.t = 0

    def __call__(self) -> int:
        return self.t


@SETTINGS
@given(seconds=st.sampled_from([1, 2, 5, 0.5]),
       steps=st.lists(st.tuples(st.integers(0, 1500), st.sampled_from(["enter", "enter", "clear"])),
                      max_size=40))
def test_rate_over_seconds(seconds, steps) -> None:
    clock = Clock()
    agg = make_factory("rate", [DOUBLE if isinstance(seconds, float) else LONG],
                       constants=[seconds], named={"time_source": clock}).make()
    interval = round(seconds * 1000)
    points: list[int] = []
    for dt, op in steps:
        clock.t += dt
        if op == "clear":
            agg.clear()
            points = []
        else:
            agg.enter(None)
            agg.leave(None)             # ignored: this form needs no data window
            points.append(clock.t)
        if points and points[-1] - points[0] >= interval:
            want = sum(1 for p in points if points[-1] - p < interval) * 1000 / interval
        else:
            want = None
        assert same(agg.value(), want)


@SETTINGS
@given(size=st.integers(1, 6),
       rows=st.lists(st.tuples(st.integers(0, 500), st.one_of(st.none(), st.floats(-1e6, 1e6))),
                     max_size=30),
       summed=st.booleans(), clear_at=st.integers(0, 40))
def test_rate_over_window(size, rows, summed, clear_at) -> None:
    types = [LONG, DOUBLE] if summed else [LONG]
    agg = make_factory("rate", types).make()
    present: list = []
    latest = oldest = 0
    is_set = False
    ts = 1_000
    history: list = []          # the value sum is Esper's running double sum
    for i, (dt, v) in enumerate(rows):
        if i == clear_at:
            agg.clear()
            present, latest, oldest, is_set, history = [], 0, 0, False, []
        ts += dt
        row = (ts, v) if summed else ts
        agg.enter(row)
        present.append((ts, v))
        history.append((1, v))
        latest = ts
        if len(present) > size:
            old = present.pop(0)
            history.append((-1, old[1]))
            agg.leave((old[0], old[1]) if summed else old[0])
            oldest, is_set = old[0], True
        if not is_set:
            want = None
        else:
            if summed:
                acc = esper_running(history)[1]
            else:
                acc = float(len(present))
            want = java_divide(acc * 1000, float(latest - oldest))
        assert same(agg.value(), want)


def test_rate_microseconds() -> None:
    clock = Clock()
    agg = make_factory("rate", [LONG], constants=[1],
                       named={"time_source": clock, "one_second": 1_000_000}).make()
    for t in (0, 400_000, 800_000, 1_200_000):
        clock.t = t
        agg.enter(None)
    assert agg.value() == 3.0        # 400_000, 800_000, 1_200_000 within the last second


@pytest.mark.parametrize("kwargs, message", [
    ({"arg_types": []}, "minimally requires a numeric constant"),
    ({"arg_types": [LONG], "constants": [10]}, "needs the engine time"),
    ({"arg_types": [STRING], "constants": ["x"], "named": {"time_source": Clock()}},
     "requires a numeric constant or time period"),
    ({"arg_types": [STRING]}, "non-constant long-type value"),
    ({"arg_types": [LONG, STRING]}, "numeric value to accumulate"),
    ({"arg_types": [LONG], "distinct": True}, "does not allow distinct"),
])
def test_rate_errors(kwargs, message) -> None:
    with pytest.raises(AggregationError, match=message):
        make_factory("rate", **kwargs)


def test_rate_ignores_not_constant_marker() -> None:
    f = make_factory("rate", [LONG], constants=[NOT_CONSTANT])
    assert str(f.result_type()) == "double"

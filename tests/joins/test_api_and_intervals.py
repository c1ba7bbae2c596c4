"""The public names of engine.joins, and the interval-intersection hook for temporal joins."""
from __future__ import annotations

import engine.joins as joins
from engine import Engine


def test_public_api_is_pinned():
    assert sorted(joins.__all__) == [
        "Access", "EventStore", "HashIndex", "IndexSpec", "InnerPlan", "JoinExecutor",
        "JoinFlushHandle", "JoinPlan", "JoinStreamHandle", "OuterPlan", "SortedIndex", "Step",
        "event_interval", "install", "row_interval",
    ]
    for name in joins.__all__:
        assert hasattr(joins, name)


def test_row_interval_is_the_intersection():
    engine = Engine(time="simulated")
    engine.epl("create schema Iv(id int, s long, e long) starttimestamp s endtimestamp e")
    engine.epl("create schema P(id int)")
    iv = engine.event_type("Iv")
    p = engine.event_type("P")
    from engine.bean import EventBean
    a = EventBean(iv, {"id": 1, "s": 0, "e": 100})
    b = EventBean(iv, {"id": 2, "s": 50, "e": 150})
    c = EventBean(iv, {"id": 3, "s": 100, "e": 200})
    plain = EventBean(p, {"id": 4})
    assert joins.row_interval((a, b)) == (50, 100)
    assert joins.row_interval((a, None, b, plain)) == (50, 100)
    assert joins.row_interval((a, c)) is None            # [0,100) and [100,200) do not meet
    assert joins.row_interval((plain,)) is None
    assert joins.row_interval((b, plain), point_time=lambda bean: 70) == (70, 71)

"""A fused statement that reads nothing of an event in its window but the aggregated
property and the group-by value keeps those two values, not the event, in the beans its
batch loop makes (engine/fused.py KeptLoopBean): the user's dicts are not kept alive by
the window, where the general chain keeps every event in it. What the statement delivers,
iterates and checkpoints is the general chain's (test_fused_bean_reuse.py compares them on
random scripts); here, what stays alive, and what a window's bean shows."""
from __future__ import annotations

import sys

import pytest

from engine import Engine

SCHEMA = "create schema T(sym string, v double, i int)"
N = 3


def _events() -> list[dict]:
    return [{"sym": "ab"[k % 2], "v": k * 0.5, "i": k} for k in range(20)]


def _kept_alive(text: str, fusion: bool, context: bool = False) -> int:
    """How many references to the events the engine holds after `send_many`."""
    engine = Engine(time="simulated")
    engine.fusion = fusion
    engine.epl(SCHEMA)
    if context:
        engine.epl("create context C partition by sym from T")
        text = "context C " + text
    engine.epl(text).add_listener(lambda new, old: None)
    events = _events()
    before = [sys.getrefcount(e) for e in events]
    engine.send_many(events, "T")
    after = [sys.getrefcount(e) for e in events]
    return sum(after) - sum(before)


@pytest.mark.parametrize("text, context, window", [
    (f"select sym, avg(v) from T#groupwin(sym)#length({N}) group by sym", False, 2 * N),
    (f"select sym, sum(v), count(*) from T#groupwin(sym)#length({N}) group by sym", False, 2 * N),
    (f"select avg(v) from T#length({N})", False, N),
    (f"select sum(i) from T#groupwin(sym)#length({N})", False, 2 * N),
    (f"select avg(v) from T#length({N})", True, 2 * N),
])
def test_a_batch_loop_window_keeps_values_not_events(text: str, context: bool, window: int) -> None:
    assert _kept_alive(text, fusion=False, context=context) == window
    assert _kept_alive(text, fusion=True, context=context) == 0


def test_a_window_that_reads_two_properties_keeps_its_events() -> None:
    # (both aggregated properties are read again when an event leaves: from the event)
    assert _kept_alive(f"select sum(v), sum(i) from T#length({N})", fusion=True) == N


def test_a_kept_bean_shows_the_properties_the_statement_reads() -> None:
    engine = Engine(time="simulated")
    engine.epl(SCHEMA)
    stmt = engine.epl(f"select sym, avg(v) as a from T#groupwin(sym)#length({N}) group by sym")
    stmt.add_listener(lambda new, old: None)
    engine.send_many(_events(), "T")
    window = stmt._instances[0].handles[0].namespace["_wins"]["a"][0]
    assert [b.underlying for b in window] == [{"sym": "a", "v": k * 0.5} for k in (14, 16, 18)]
    assert [b.get("v") for b in window] == [7.0, 8.0, 9.0]
    assert all(b.event_type.name == "T" for b in window)

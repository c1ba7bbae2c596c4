"""send_many's times and types: what it refuses, and where it stops."""
from __future__ import annotations

import pytest

from engine import Engine
from engine.contracts.errors import EventTypeError, TimeError

W3 = "select k, sum(v) as s from T#time_batch(1 sec) group by k"


def _engine(text: str = W3, fusion: bool = True) -> tuple[Engine, list]:
    engine = Engine(time="simulated")
    engine.fusion = fusion
    engine.epl("create schema T(k string, v int)")
    engine.epl("create schema A(id int)")
    seen: list = []
    engine.epl(text).add_listener(lambda new, old: seen.append((engine.now, [r.to_dict() for r in new or ()])))
    return engine, seen


@pytest.mark.parametrize("fusion", [True, False])
def test_time_moving_backwards_raises_at_that_event_after_the_earlier_ones(fusion: bool) -> None:
    engine, seen = _engine(fusion=fusion)
    events = [{"k": "a", "v": 1}, {"k": "a", "v": 2}, {"k": "b", "v": 4}, {"k": "b", "v": 8}]
    with pytest.raises(TimeError, match="Time cannot move backwards: current time is 1500, requested 1400"):
        engine.send_many(events, "T", times=[0, 1500, 1400, 1600])
    assert engine.now == 1500
    assert seen == [(1500, [{"k": "a", "s": 1}])]       # the batch's end fires at the jump
    engine.advance_time(2000)       # the second event is in the batch, the others never came
    assert seen[-1] == (2000, [{"k": "a", "s": 2}])


def test_lengths_that_differ_are_refused_before_anything_is_processed() -> None:
    engine, seen = _engine()
    with pytest.raises(ValueError, match="2 times for 3 events"):
        engine.send_many([{"k": "a", "v": 1}] * 3, "T", times=[0, 1])
    with pytest.raises(ValueError, match="1 types for 2 events"):
        engine.send_many(({"k": "a", "v": 1} for _ in range(2)), types=iter(["T"]), times=[5, 6])
    engine.advance_time(5000)
    assert seen == [] and engine.now == 5000


def test_type_name_and_types_are_exclusive() -> None:
    engine, _ = _engine()
    with pytest.raises(ValueError, match="type_name or types"):
        engine.send_many([{"k": "a", "v": 1}], "T", types=["T"])
    with pytest.raises(ValueError, match="one type name per event"):
        engine.send_many([{"k": "a", "v": 1}], types="T")


def test_a_system_time_engine_refuses_times() -> None:
    engine = Engine()
    try:
        engine.epl("create schema T(k string, v int)")
        with pytest.raises(TimeError, match="time='simulated'"):
            engine.send_many([{"k": "a", "v": 1}], "T", times=[1])
        seen: list = []
        engine.epl("select k from T").add_listener(lambda new, old: seen.extend(new))
        engine.send_many([{"k": "a", "v": 1}, {"k": "b", "v": 1}], types=["T", "T"])   # types alone: fine
        assert [b.get("k") for b in seen] == ["a", "b"]
    finally:
        engine.close()


@pytest.mark.parametrize("fusion", [True, False])
def test_a_refused_event_stops_the_batch_at_its_time(fusion: bool) -> None:
    engine, seen = _engine(fusion=fusion)
    with pytest.raises(EventTypeError):
        engine.send_many([{"k": "a", "v": 1}, {"k": "a", "v": 2}, {"k": "a", "v": "x"}, {"k": "a", "v": 4}],
                         "T", times=[0, 1200, 1300, 1400])
    assert engine.now == 1300
    engine.advance_time(3000)
    assert seen == [(1200, [{"k": "a", "s": 1}]), (3000, [{"k": "a", "s": 2}])]


def test_mixed_types_with_times_match_calls_one_by_one() -> None:
    text = "select * from pattern [every a=A -> b=T(v = a.id) where timer:within(1 sec)]"
    events = [{"id": 1}, {"k": "x", "v": 1}, {"id": 2}, {"k": "y", "v": 2}, {"id": 3}, {"k": "z", "v": 3}]
    types = ["A", "T"] * 3
    times = [0, 999, 1000, 2000, 2000, 2999]
    logs = []
    for batched in (False, True):
        engine = Engine(time="simulated")
        engine.epl("create schema T(k string, v int)")
        engine.epl("create schema A(id int)")
        log: list = []
        engine.epl(text).add_listener(lambda new, old, _e=engine, _l=log: _l.append(
            (_e.now, [(r.get("a").get("id"), r.get("b").get("k")) for r in new])))
        if batched:
            engine.send_many(events, times=times, types=types)
        else:
            for t, e, tn in zip(times, events, types):
                engine.advance_time(t)
                engine.send(e, tn)
        logs.append((log, engine.now))
    assert logs[0] == logs[1] == ([(999, [(1, "x")]), (2999, [(3, "z")])], 2999)


def test_a_listener_batch_with_times_runs_as_the_calls_would_inside_it() -> None:
    """send_many from a listener: its events are queued as the sends would be, its time
    steps made as advance_time's would be."""
    engine = Engine(time="simulated")
    engine.epl("create schema T(k string, v int)")
    engine.epl("create schema A(id int)")
    got: list = []
    engine.epl("select id from A").add_listener(
        lambda new, old: engine.send_many([{"k": "in", "v": 1}], "T", times=[engine.now + 10]))
    engine.epl("select k from T").add_listener(lambda new, old: got.append((engine.now, new[0].get("k"))))
    engine.send_many([{"id": 1}], "A", times=[100])
    assert got == [(110, "in")] and engine.now == 110


def test_times_alone_with_objects_of_registered_classes() -> None:
    from dataclasses import dataclass

    @dataclass
    class P:
        n: int
    engine = Engine(time="simulated")
    engine.register_type(P)
    seen: list = []
    engine.epl("select sum(n) as s from P#time_batch(10 msec)").add_listener(
        lambda new, old: seen.append((engine.now, new[0].get("s"))))
    engine.send_many([P(1), P(2), P(3)], times=[0, 5, 12])
    assert seen == [(12, 3)] and engine.now == 12


def test_beans_the_caller_holds_are_never_reused() -> None:
    """The fused time batch reuses the beans of batches that left the window (send_many's
    loops): only those nothing else references. Beans sent as such stay as they were."""
    from engine.contracts.bean import EventBean
    engine, seen = _engine()
    et = engine.event_type("T")
    mine = [EventBean(et, {"k": "m", "v": i}) for i in range(3)]
    t = 0
    for rnd in range(6):
        events: list = [{"k": "a", "v": 1} for _ in range(20)]
        if rnd == 1:
            events[5:5] = mine
        engine.send_many(events, "T", times=[t + 10 * j for j in range(len(events))])
        t += 1000
    assert [b.underlying for b in mine] == [{"k": "m", "v": 0}, {"k": "m", "v": 1}, {"k": "m", "v": 2}]
    assert all(b.event_type is et for b in mine)
    assert any({"k": "m", "s": 3} in rows for _, rows in seen)


@pytest.mark.parametrize("text", [W3, "select k, avg(v) as a from T#time(300 msec) group by k"])
def test_a_checkpoint_between_timed_batches_continues_the_same(text: str) -> None:
    """State the fused loops keep (the batch's reusable beans, the left batch) survives a
    checkpoint: a restored engine goes on as the original."""
    events = [{"k": "ab"[j % 2], "v": j} for j in range(40)]
    times = [25 * j for j in range(40)]
    engine, seen = _engine(text)
    engine.send_many(events[:25], "T", times=times[:25])
    data = engine.checkpoint()
    engine.send_many(events[25:], "T", times=times[25:])
    engine.advance_time(5000)
    restored = Engine.restore(data)
    again: list = []
    restored.statements[-1].add_listener(
        lambda new, old: again.append((restored.now, [r.to_dict() for r in new or ()])))
    restored.send_many(events[25:], "T", times=times[25:])
    restored.advance_time(5000)
    cut = next(i for i, (t, _) in enumerate(seen) if t >= times[25])
    assert again == seen[cut:]


def test_dataframes_thread_safe_false_and_generators_take_times() -> None:
    pd = pytest.importorskip("pandas")
    for kw in ({}, {"thread_safe": False}):
        engine = Engine(time="simulated", **kw)
        engine.epl("create schema T(k string, v int)")
        seen: list = []
        engine.epl(W3).add_listener(lambda new, old: seen.append((engine.now, [r.to_dict() for r in new])))
        engine.send_many(pd.DataFrame({"k": ["a", "a", "b"], "v": [1, 2, 3]}), "T", times=(t for t in (0, 500, 1000)))
        assert seen == [(1000, [{"k": "a", "s": 3}])] and engine.now == 1000

"""engine.state snapshots: an engine restored mid-stream goes on exactly as the original."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from engine import Engine
from engine.errors import EngineError
from engine.state import next_schedule_time, restore, snapshot
from pipeline.partitioning import statement_texts
from pipeline.runner import EngineRunner, plan_job

from _pipeline_helpers import MODULE, keyed_events

CONTEXT = ("create context ByK partition by k from T;\n"
           "@name('ctx') context ByK select k, count(*) as c, sum(v) as total from T#length(2)")
TIMED = "@name('tw') select irstream k, avg(v) as a from T#time(700 msec) group by k"


def _job(module: str, start: int):
    return plan_job(statement_texts(module), "T", start, None)


@settings(max_examples=60, deadline=None)
@given(events=keyed_events(), cut=st.floats(0, 1), module=st.sampled_from(
    [MODULE, f"{MODULE};\n{TIMED}", f"{MODULE};\n{CONTEXT}"]))
def test_restored_engine_continues_like_the_original(events, cut, module):
    job = _job(module, events[0]["ts"])
    end = events[-1]["ts"] + 10_000
    times = [e["ts"] for e in events]
    n = int(len(events) * cut)

    whole = EngineRunner(job)
    whole.feed(times, events)
    whole.advance(end)
    want = whole.take_rows()

    first = EngineRunner(job)
    first.feed(times[:n], events[:n])
    got = first.take_rows()
    data = snapshot(first.engine)
    second = EngineRunner.adopt(job, restore(data))
    second.feed(times[n:], events[n:])
    second.advance(end)
    got += second.take_rows()
    assert got == want


def test_snapshot_keeps_event_types_identical_and_usable():
    e = Engine(time="simulated")
    e.epl("create schema T(a int)")
    s = e.epl("select a from T#length(2)")
    e.send({"a": 1}, "T")
    e2 = restore(snapshot(e))
    t = e2.event_type("T")
    assert e2.statements[1].plan.streams[0].event_type is t
    seen = []
    e2.statements[1].add_listener(lambda new, old: seen.extend(b.to_dict() for b in new))
    e2.send({"a": 2}, "T")
    assert seen == [{"a": 2}] and [r["a"] for r in e2.statements[1]] == [1, 2]
    assert [r["a"] for r in s] == [1]        # the original is untouched


def test_engine_signals_are_fresh_after_restore():
    e = Engine(time="simulated")
    got = []
    e.signals.statement_created.connect(lambda *a, **k: got.append(1), weak=False)
    e2 = restore(snapshot(e))
    e2.epl("create schema T(a int)")
    assert got == []


def test_next_schedule_time():
    e = Engine(time="simulated", start_time=100)
    e.epl("create schema T(a int)")
    e.epl("select * from T#time(1 sec)")
    assert next_schedule_time(e) is None
    e.send({"a": 1}, "T")
    assert next_schedule_time(e) == 1100


def test_only_simulated_time_engines():
    e = Engine()
    try:
        with pytest.raises(EngineError, match="simulated"):
            snapshot(e)
    finally:
        e.close()
    with pytest.raises(EngineError, match="Not an engine snapshot"):
        import pickle
        restore(pickle.dumps(1))


def test_doctests():
    import doctest

    import engine.state
    assert doctest.testmod(engine.state).failed == 0

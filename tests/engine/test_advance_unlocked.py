"""`advance_time` with nothing due stores the time without the lock when nobody holds it
(engine/lean_send.py): another thread's event or time step in progress never sees the time
change under it (the advance waits for it), the time it sets is the one later steps start
from, and whatever falls due still fires at its time, thread-safe or not."""
from __future__ import annotations

import threading
import time

import pytest
from hypothesis import given, settings, strategies as st

from engine import Engine

WAIT = 0.3      # how long a listener keeps its event or time step in progress


def _blocking_listener(engine: Engine, started: threading.Event, seen: list):
    """Records the engine's time before and after a pause in which another thread advances."""
    def listen(new, old):
        seen.append(engine.now)
        started.set()
        time.sleep(WAIT)
        seen.append(engine.now)
    return listen


def _advance_meanwhile(engine: Engine, started: threading.Event, work, t: int) -> None:
    """`work` on another thread; once its listener started, advance this thread to t."""
    other = threading.Thread(target=work)
    other.start()
    assert started.wait(5)
    engine.advance_time(t)
    assert engine.now == t
    other.join(5)


def test_an_advance_with_nothing_due_waits_for_another_threads_event():
    engine = Engine(time="simulated")
    engine.epl("create schema T(a int)")
    started, seen = threading.Event(), []
    engine.epl("select a from T").add_listener(_blocking_listener(engine, started, seen))
    # nothing due at 5000: the advance still waits for the event in progress
    _advance_meanwhile(engine, started, lambda: engine.send({"a": 1}, "T"), 5000)
    assert seen == [0, 0]


def test_an_advance_with_nothing_due_waits_for_another_threads_time_step():
    engine = Engine(time="simulated")
    engine.epl("create schema T(a int)")
    started, seen = threading.Event(), []
    stmt = engine.epl("select count(*) as n from T#time_batch(1 sec)")
    stmt.add_listener(_blocking_listener(engine, started, seen))
    engine.send({"a": 1}, "T")
    # the batch ends at 1000 on the other thread; the next ends at 2000: nothing due at 1500
    _advance_meanwhile(engine, started, lambda: engine.advance_time(1000), 1500)
    assert seen == [1000, 1000]


@pytest.fixture(params=[True, False], ids=["gil", "no-gil"])
def gil(request, monkeypatch):
    """Each engine made under it as on CPython with the GIL (the unlocked test first) or
    as on an interpreter without one (always the lock)."""
    import engine.lean_send as lean_send
    monkeypatch.setattr(lean_send, "GIL_SWITCHES_AT_CALLS", request.param)
    return request.param


def test_an_advance_waits_while_another_thread_holds_the_engine_lock(gil):
    engine = Engine(time="simulated")
    engine.epl("create schema T(a int)")
    holding, seen = threading.Event(), []

    def hold():
        with engine.lock:
            holding.set()
            seen.append(engine.now)
            time.sleep(WAIT)
            seen.append(engine.now)
    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(5)
    engine.advance_time(7)
    holder.join(5)
    assert seen == [0, 0] and engine.now == 7


def test_time_cannot_move_backwards_on_the_unlocked_path_either():
    from engine.errors import TimeError
    engine = Engine(time="simulated")
    engine.advance_time(100)
    with pytest.raises(TimeError):
        engine.advance_time(99)
    assert engine.now == 100


def _plain(row) -> dict:
    """A row's columns, a pattern's tagged events as their dicts."""
    return {k: getattr(v, "underlying", v) for k, v in row.underlying.items()}


@settings(max_examples=100, deadline=None)
@given(steps=st.lists(st.tuples(st.integers(0, 700), st.booleans()), min_size=1, max_size=40),
       thread_safe=st.booleans(), int_subclass=st.booleans())
def test_time_steps_give_the_same_rows_as_the_general_advance(steps, thread_safe, int_subclass):
    """Random gaps, an event after some steps: the same rows as Engine.advance_time (the
    class's own method, always locked), with plain ints and with an int subclass as time."""
    class Ms(int):
        pass

    def run(front: bool) -> list:
        engine = Engine(time="simulated", thread_safe=thread_safe)
        engine.epl("create schema T(a int)")
        out: list = []
        for epl in ("select count(*) as n, sum(a) as s from T#time_batch(1 sec)",
                    "select sum(a) as s from T#time(500 msec)",
                    "select * from pattern [every x=T -> timer:interval(300 msec)]"):
            stmt = engine.epl(epl)
            stmt.add_listener(lambda new, old, tag=epl: out.append(
                (tag, engine.now, [_plain(r) for r in new or ()], [_plain(r) for r in old or ()])))
        advance = engine.advance_time if front else Engine.advance_time.__get__(engine)
        t = 0
        for i, (gap, send) in enumerate(steps):
            t += gap
            advance(Ms(t) if int_subclass else t)
            if send:
                engine.send({"a": i}, "T")
        return out

    assert run(True) == run(False)


def test_what_falls_due_fires_at_its_time_with_or_without_the_gil(gil):
    engine = Engine(time="simulated")
    engine.epl("create schema T(a int)")
    rows = []
    engine.epl("select count(*) as n from T#time_batch(1 sec)").add_listener(
        lambda new, old: rows.append((engine.now, new[0]["n"])))
    for t in range(0, 3000, 250):
        engine.advance_time(t)
        engine.send({"a": t}, "T")
    engine.advance_time(3000)
    assert rows == [(1000, 4), (2000, 4), (3000, 4)]

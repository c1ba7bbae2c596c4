"""`send_many(events, times=..., types=...)` against the calls one by one
(`advance_time(t); send(e, tn)`): random statements (time batches, time windows, grouped and
not, patterns with timer:within, output rate limiting, a statement reading the time, insert
into), random events and time steps, listeners that send events or raise, fusion on and off
(and EPL_FUSION=0): the same deliveries in the same order at the same engine times, the same
final time, the same error at the same event."""
from __future__ import annotations

import os
from typing import Any, Optional

from hypothesis import given, settings, strategies as st

from engine import Engine
from engine.fused import is_fused

STATEMENTS = [
    "select k, sum(v) from T#time_batch(1 sec) group by k",
    "select irstream k, sum(v) as s, count(*) as c from T#time_batch(500 msec) group by k",
    "select sum(v) as s, count(*) as c from T#time_batch(300 msec)",
    "select k, avg(x) as a from T#time(1 sec) group by k",
    "select irstream count(*) as c, sum(x) as s from T#time(250 msec)",
    "select k, sum(v) as s from T#length(3) group by k",
    "select k, count(*) as c from T group by k output every 1 sec",
    "select v, current_timestamp() as now from T(v > 5)",
    "select * from pattern [every a=A -> b=B(id = a.id) where timer:within(1 sec)]",
    "select * from pattern [every a=A -> b=B(id = a.id)]",
    "select * from pattern [every timer:interval(400 msec)]",
    "insert into U select count(*) as n from T#time_batch(700 msec)",
    "select n from U",
]

SCHEMAS = ["create schema T(k string, v int, x double)", "create schema A(id int, seq int)",
           "create schema B(id int, seq int)", "create schema U(n long)"]


def _rows(beans: Any) -> Any:
    if beans is None:
        return None
    out = []
    for b in beans:
        d = b.to_dict()
        out.append(sorted((k, repr(v.to_dict()) if hasattr(v, "to_dict") else repr(v)) for k, v in d.items()))
    return out


def build(statements: list[str], fusion: Optional[bool], extras: set[str], start: int = 0) -> tuple[Engine, list]:
    engine = Engine(time="simulated", start_time=start)
    if fusion is not None:
        engine.fusion = fusion
    for s in SCHEMAS:
        engine.epl(s)
    log: list = []
    for n, text in enumerate(statements):
        stmt = engine.epl(f"@name('s{n}') {text}")
        stmt.add_listener(lambda new, old, _n=n, _e=engine: log.append((_n, _e.now, _rows(new), _rows(old))))
        if "send" in extras and n == 0:
            # a listener sending an event: processed before the call that caused it returns
            stmt.add_listener(lambda new, old, _e=engine: _e.send({"id": len(new or ()), "seq": -1}, "B"))
        if "raise" in extras and n == len(statements) - 1:
            stmt.add_listener(_raiser)
        if "create" in extras and n == 0:
            made: list = []

            def create(new: Any, old: Any, _e: Engine = engine, _made: list = made) -> None:
                _made.append(None)
                if len(_made) == 3:     # a statement created from a listener, on the same types
                    late = _e.epl("@name('late') select count(*) as c from T#time_batch(200 msec)")
                    late.add_listener(lambda nw, od: log.append(("late", _e.now, _rows(nw), _rows(od))))
            stmt.add_listener(create)
        if "zero" in extras and n == 0:
            # a listener scheduling a callback due at once (the scheduler directly: no EPL
            # construct schedules with no delay): it fires at the next time step, even one
            # to the same time (advance_time's rule)
            def zero(new: Any, old: Any, _e: Engine = engine) -> None:
                _e.scheduler.schedule(_e.now, (10**9,), lambda: log.append(("zero", _e.now)))
            stmt.add_listener(zero)
    return engine, log


def _raiser(new: Any, old: Any) -> None:
    raise RuntimeError("listener fails")


def one_by_one(engine: Engine, events: list, times: list, types: list) -> Optional[str]:
    try:
        for t, e, tn in zip(times, events, types):
            engine.advance_time(t)
            engine.send(e, tn)
    except Exception as exc:
        return type(exc).__name__
    return None


def batched(engine: Engine, events: list, times: list, types: list, chunk: int, single: bool) -> Optional[str]:
    try:
        for a in range(0, len(events), chunk):
            if single:
                engine.send_many(iter(events[a:a + chunk]), types[0], times=iter(times[a:a + chunk]))
            else:
                engine.send_many(events[a:a + chunk], times=times[a:a + chunk], types=types[a:a + chunk])
    except Exception as exc:
        return type(exc).__name__
    return None


STEPS = st.sampled_from([0, 0, 0, 1, 1, 3, 10, 99, 100, 250, 299, 300, 301, 999, 1000, 1001, 2500])


@st.composite
def scenario(draw: Any) -> tuple:
    statements = draw(st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=3, unique=True))
    only_t = draw(st.booleans())
    n = draw(st.integers(0, 40))
    events, times, types = [], [], []
    t = draw(st.sampled_from([0, 5, 1000]))
    for i in range(n):
        t += draw(STEPS)
        if draw(st.integers(0, 30)) == 0:
            t -= draw(st.integers(1, 50))        # backwards: a TimeError at this event
        tn = "T" if only_t else draw(st.sampled_from(["T", "T", "A", "B"]))
        if tn == "T":
            ev: Any = {"k": draw(st.sampled_from(["a", "b", "c"])), "v": draw(st.integers(0, 9)),
                       "x": draw(st.sampled_from([0.1, 0.2, 1.5, 3.0]))}
            if draw(st.integers(0, 40)) == 0:
                ev["v"] = "bad"                  # send's type check refuses it
        else:
            ev = {"id": draw(st.integers(0, 3)), "seq": i}
        events.append(ev)
        times.append(t)
        types.append(tn)
    extras = set(draw(st.lists(st.sampled_from(["send", "raise", "create", "zero"]), max_size=2)))
    chunk = draw(st.sampled_from([1, 3, 7, 1000]))
    return statements, events, times, types, extras, chunk, only_t


def compare(fusion: Optional[bool], sc: tuple) -> None:
    statements, events, times, types, extras, chunk, only_t = sc
    e1, log1 = build(statements, fusion, extras)
    err1 = one_by_one(e1, events, times, types)
    e2, log2 = build(statements, fusion, extras)
    err2 = batched(e2, events, times, types, chunk, only_t and bool(events))
    assert err1 == err2
    assert log1 == log2
    assert e1.now == e2.now
    # what is still due fires the same afterwards
    e1.advance_time(e1.now + 5000)
    e2.advance_time(e2.now + 5000)
    assert log1 == log2


@settings(max_examples=150, deadline=None)
@given(scenario())
def test_send_many_with_times_equals_calls_one_by_one(sc: tuple) -> None:
    compare(True, sc)


@settings(max_examples=80, deadline=None)
@given(scenario())
def test_send_many_with_times_equals_calls_one_by_one_general_chain(sc: tuple) -> None:
    compare(False, sc)


@settings(max_examples=30, deadline=None)
@given(scenario())
def test_send_many_with_times_under_epl_fusion_0(sc: tuple) -> None:
    os.environ["EPL_FUSION"] = "0"
    try:
        compare(None, sc)
    finally:
        del os.environ["EPL_FUSION"]


WINDOWED = STATEMENTS[:5]
GRID = st.sampled_from([0, 0, 1, 50, 100, 100, 250, 250, 500, 1000])


@st.composite
def windowed_scenario(draw: Any) -> tuple:
    """One fused window statement alone on T: its own timed loop takes the events; steps on
    the windows' grid, so that events land exactly on a batch's end or an expiry."""
    statements = [draw(st.sampled_from(WINDOWED))]
    n = draw(st.integers(1, 60))
    t = draw(st.sampled_from([0, 7]))
    events, times = [], []
    for i in range(n):
        t += draw(GRID)
        if draw(st.integers(0, 60)) == 0:
            t -= 1
        ev: Any = {"k": draw(st.sampled_from(["a", "b", "c"])), "v": draw(st.integers(0, 9)),
                   "x": draw(st.sampled_from([0.1, 0.2, 1.5, 3.0, 2]))}   # (an int passes as a double)
        if draw(st.integers(0, 80)) == 0:
            ev = draw(st.sampled_from([{"k": "a", "v": 1.5, "x": 1.0}, {"k": "a", "v": 1, "x": True},
                                       ["not", "a", "dict"]]))
        elif draw(st.integers(0, 20)) == 0:
            del ev[draw(st.sampled_from(["k", "v", "x"]))]     # a missing property is null
        events.append(ev)
        times.append(t)
    extras = set(draw(st.lists(st.sampled_from(["send", "raise", "create", "zero"]), max_size=1)))
    chunk = draw(st.sampled_from([5, 1000]))
    return statements, events, times, ["T"] * n, extras, chunk, True


@settings(max_examples=150, deadline=None)
@given(windowed_scenario())
def test_fused_window_loops_with_times_equal_calls_one_by_one(sc: tuple) -> None:
    compare(True, sc)


def test_the_time_batch_statement_runs_fused() -> None:
    """The W3 shape is fused, so the equivalence above covers its timed loop."""
    engine, _ = build([STATEMENTS[0]], True, set())
    assert is_fused(engine.statement("s0"))


def test_a_refused_event_after_a_fired_expiry_leaves_what_the_expiry_scheduled_waiting() -> None:
    """The time window's loop fires its expiry in place; a listener of that delivery
    schedules a callback due at once; the next event is refused: the callback still waits
    for the next time step, as with the calls one by one."""
    sc = (["select irstream count(*) as c, sum(x) as s from T#time(250 msec)"],
          [{"k": "a", "v": 1, "x": 0.5}, {"k": "a", "v": 2, "x": 0.5}, ["not", "a", "dict"]],
          [0, 5, 300], ["T"] * 3, {"zero"}, 1000, True)
    compare(True, sc)


def test_a_statement_created_by_a_listener_takes_the_next_events() -> None:
    """The time window's loop calls the listener at once; the statement it creates on the
    same type takes every later event (the loop looks at the routing after each event)."""
    sc = (["select k, avg(x) as a from T#time(1 sec) group by k"],
          [{"k": "a", "v": 1, "x": 0.5}] * 6, [0, 1, 2, 3, 4, 5], ["T"] * 6, {"create"}, 1000, True)
    compare(True, sc)


def test_a_statement_failing_at_an_expiry_fails_as_with_the_calls_one_by_one() -> None:
    """Unchecked events (check_events=False): a value the average cannot take fails the
    statement on arrival and again when the time window's expiry leaves it (the window
    schedules no further expiry then, until the next arrival); the other events go on."""
    text = "select k, avg(x) as a from T#time(100 msec) group by k"
    evs = [{"k": "a", "v": 1, "x": 0.5}, {"k": "a", "v": 1, "x": "bad"}, {"k": "a", "v": 1, "x": 1.0},
           {"k": "a", "v": 1, "x": 2.0}, {"k": "b", "v": 1, "x": 3.0}, {"k": "b", "v": 1, "x": 4.0},
           {"k": "b", "v": 1, "x": 5.0}]
    times = [0, 10, 15, 20, 100, 110, 130]      # each expiry alone, at its own step
    logs = []
    for batched_run in (False, True):
        engine = Engine(time="simulated", check_events=False)
        engine.epl("create schema T(k string, v int, x double)")
        log: list = []
        engine.signals.statement_error.connect(lambda sender, **kw: log.append(("failed", engine.now)), weak=False)
        engine.epl(text).add_listener(lambda new, old, _e=engine, _l=log: _l.append((_e.now, _rows(new))))
        if batched_run:
            engine.send_many(evs, "T", times=times)
        else:
            for t, e in zip(times, evs):
                engine.advance_time(t)
                engine.send(e, "T")
        engine.advance_time(1000)
        logs.append((log, engine.schedule_count(), engine.now))
    assert logs[0] == logs[1]
    assert ("failed", 10) in logs[0][0] and ("failed", 110) in logs[0][0]

"""send_many's timed loop of a fused grouped `#time` window: rows go at once to the one
listener (its `_deliver_now`), and the expiry it fires in place schedules the next with the
same handle. Against the calls one by one: a subscriber the listener sets while a row is
delivered gets that row, listeners added and removed midway, the schedules left behind."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from engine import Engine
from engine.fused import is_fused

TEXT = "select k, avg(x) as a from T#time(100 msec) group by k"


class _Sub:
    def __init__(self, log: list) -> None:
        self.log = log

    def update(self, *row: Any) -> None:
        self.log.append(("sub", row))


def _run(batched: bool, change: str) -> tuple:
    engine = Engine(time="simulated")
    engine.epl("create schema T(k string, v int, x double)")
    stmt = engine.epl(TEXT)
    assert is_fused(stmt)
    log: list = []
    calls = [0]

    def listener(new: Any, old: Any) -> None:
        calls[0] += 1
        log.append(("l", engine.now, [r.to_dict() for r in new]))
        if calls[0] == 5 and change == "subscriber":
            stmt.subscriber = _Sub(log)
        elif calls[0] == 5 and change == "second":
            stmt.add_listener(lambda n, o: log.append(("second", engine.now, len(n))))
        elif calls[0] == 9 and change == "second":
            stmt.remove_all_listeners()
            stmt.add_listener(listener)
    stmt.add_listener(listener)
    evs = [{"k": "ab"[i % 2], "v": i, "x": float(i)} for i in range(40)]
    times = [i * 7 for i in range(40)]
    if batched:
        engine.send_many(evs, "T", times=times)
    else:
        for t, e in zip(times, evs):
            engine.advance_time(t)
            engine.send(e, "T")
    engine.advance_time(engine.now + 50)
    return log, engine.schedule_count()


@pytest.mark.parametrize("change", ["none", "subscriber", "second"])
def test_direct_rows_as_the_calls_one_by_one(change: str) -> None:
    batched, single = _run(True, change), _run(False, change)
    assert batched == single
    if change == "subscriber":
        assert any(e[0] == "sub" for e in batched[0])


# -- per-event sends: the arrival's row and the expiry's rows go to the listeners at once
# (expiry.py _arrival_emit, _expire_source) when the drain would do just that --------

SCHEMAS = ["create schema T(k string, v int, x double)", "create schema T2(extra int) inherits T",
           "create schema U(n int)"]
GROUPED = ["select k, avg(x) as a from T#time(100 msec) group by k",
           "select k, sum(v) as s, count(*) as c from T#time(50 msec) group by k",
           "select irstream k, avg(x) as a from T#time(100 msec) group by k",
           "select k, avg(x) as a from T#time(100 msec) where v > 1 group by k",
           "select sum(v) as s, avg(x) as a from T#time(100 msec)"]
# statements beside it: another on T or its subtype (two handles), a timer of its own, an
# insert into T
BESIDE = [None, None, "select count(*) as n from T", "select count(*) as n from T2", "select count(*) as n from U#time(30 msec)",
          "insert into T select 'z' as k, n as v, 1.5 as x from U"]
EV = st.fixed_dictionaries({"k": st.sampled_from("abc"), "v": st.sampled_from((0, 1, 2, 5, None)),
                            "x": st.sampled_from((0.5, -1.0, 2.25, None))})
OPS = st.lists(st.one_of(
    st.tuples(st.just("send"), st.sampled_from((0, 0, 1, 7, 30, 60, 100, 250)), EV),
    st.tuples(st.just("sub_send"), st.sampled_from((0, 10)), EV),          # a T2 event
    st.tuples(st.just("u"), st.sampled_from((0, 20)), st.integers(0, 3)),   # a U event
    st.tuples(st.just("advance"), st.sampled_from((1, 40, 100, 300)), st.none()),
    st.tuples(st.sampled_from(("iter", "checkpoint", "stop", "start", "add", "drop", "raise",
                               "resend", "timer", "sub")), st.just(0), st.none())), min_size=1, max_size=30)


def _rows(beans: Any) -> Any:
    return None if beans is None else [sorted(b.to_dict().items()) for b in beans]


def _per_event(text: str, beside: "str | None", ops: list, fusion: bool, thread_safe: bool) -> list:
    engine = Engine(time="simulated", thread_safe=thread_safe)
    engine.fusion = fusion
    for s in SCHEMAS:
        engine.epl(s)
    log: list = []
    state = {"n": 0}

    def named(name: str) -> Any:
        return next((s for s in engine.statements if s.name == name), None)

    def snapshot() -> list:
        # what a listener sees of every statement when it is called
        return [(s.name, sorted(repr(sorted(r.items())) for r in s.rows())) for s in engine.statements
                if s.name in ("s", "b") and s.is_started]

    def listener(name: str) -> Any:
        def listen(new: Any, old: Any) -> None:
            log.append((name, engine.now, _rows(new), _rows(old), snapshot()))
        return listen
    stmt = engine.epl(f"@name('s') {text}")
    stmt.add_listener(listener("s"))
    if fusion:
        assert is_fused(stmt)
    if beside is not None:
        engine.epl(f"@name('b') {beside}").add_listener(listener("b"))
    for op, dt, arg in ops:
        stmt = named("s")
        if op in ("send", "sub_send", "u"):
            engine.advance_time(engine.now + dt)
            if op == "u":
                engine.send({"n": arg}, "U")
            else:
                engine.send(dict(arg, **({"extra": 1} if op == "sub_send" else {})), "T2" if op == "sub_send" else "T")
        elif op == "advance":
            engine.advance_time(engine.now + dt)
        elif op == "iter":
            log.append(("iter", snapshot()))
        elif op == "checkpoint":
            names = [s.name for s in engine.statements if s.name in ("s", "b")]
            engine = Engine.restore(engine.checkpoint(), listeners={n: listener(n) for n in names})
        elif op == "stop":
            stmt.stop()
        elif op == "start":
            stmt.start()
        elif op == "add" and named("t") is None:     # a second handle on T
            engine.epl("@name('t') select k from T").add_listener(listener("t"))
        elif op == "drop" and named("t") is not None:
            named("t").destroy()
        elif op == "raise":
            stmt.add_listener(lambda new, old: (_ for _ in ()).throw(RuntimeError("listener fails")))
        elif op == "resend":        # a listener sending T (routed back into the statement) once
            def resend(new: Any, old: Any, _e: Engine = engine) -> None:
                if state["n"] < 3:
                    state["n"] += 1
                    _e.send({"k": "r", "v": 2, "x": 1.0}, "T")
            stmt.add_listener(resend)
        elif op == "timer":         # a listener creating a statement with a timer
            def timer(new: Any, old: Any, _e: Engine = engine) -> None:
                if not any(s.name == "w" for s in _e.statements):
                    _e.epl("@name('w') select count(*) as n from T#time(20 msec)").add_listener(listener("w"))
            stmt.add_listener(timer)
        elif op == "sub":
            stmt.subscriber = _Sub(log)
    engine.advance_time(engine.now + 1000)
    log.append(("end", engine.schedule_count(), snapshot()))
    return log


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(GROUPED), st.sampled_from(BESIDE), OPS, st.booleans())
def test_per_event_sends_as_the_general_chain(text: str, beside: "str | None", ops: list,
                                              thread_safe: bool) -> None:
    """`advance_time` + `send` per event into a fused #time statement against fusion off:
    the same deliveries at the same times, each listener seeing the same state of every
    statement, with other statements on the type, timers of others, routed events,
    subtypes, listeners that send, raise, create statements or set a subscriber, stop and
    start, checkpoints."""
    assert repr(_per_event(text, beside, ops, True, thread_safe)) == \
        repr(_per_event(text, beside, ops, False, thread_safe))


def test_expiry_reuses_its_handle_and_delivers_at_once() -> None:
    """Per-event steps of W9's shape: one live schedule throughout (the expiry's handle
    reused), the rows as with fusion off."""
    logs = []
    for fusion in (True, False):
        engine = Engine(time="simulated")
        engine.fusion = fusion
        engine.epl("create schema T(k string, v int, x double)")
        stmt = engine.epl(TEXT)
        log: list = []
        stmt.add_listener(lambda new, old, _l=log, _e=engine: _l.append((_e.now, [r.to_dict() for r in new])))
        counts = set()
        for i in range(60):
            engine.advance_time(i * 7)
            engine.send({"k": "ab"[i % 2], "v": i, "x": float(i)}, "T")
            counts.add(engine.schedule_count())
        engine.advance_time(1000)
        logs.append(log)
        assert counts == {1}
    assert logs[0] == logs[1]


_FIXED = [("send", 0, {"k": "a", "v": 2, "x": 0.5}), ("send", 30, {"k": "b", "v": 5, "x": 2.25}),
          ("sub_send", 10, {"k": "a", "v": 1, "x": -1.0}), ("u", 20, 2), ("send", 60, {"k": "a", "v": 2, "x": None}),
          ("advance", 40, None), ("send", 0, {"k": "c", "v": None, "x": 0.5}), ("advance", 100, None),
          ("send", 7, {"k": "b", "v": 2, "x": 2.25}), ("advance", 300, None)]


@pytest.mark.parametrize("beside", BESIDE[1:])
@pytest.mark.parametrize("text", GROUPED)
def test_each_shape_beside_each_statement(text: str, beside: "str | None") -> None:
    """Every statement shape beside each other statement (one script): a listener called
    at once sees what it would see called by the drain."""
    assert repr(_per_event(text, beside, _FIXED, True, True)) == repr(_per_event(text, beside, _FIXED, False, True))

"""send's generated front (engine/lean_send.py) against the general path: random statements
over two map types, random events (some of the wrong type), listeners that send, create and
destroy statements or raise mid-stream; the same deliveries in the same order, the same
errors, with and without the lock, however soon the front inlines a type's routing."""
from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings, strategies as st

import engine.engine as engine_module
from engine import Engine
from engine.contracts.bean import EventBean
from engine.errors import EventTypeError

SCHEMAS = ("create schema T(sym string, v double, i int)", "create schema U(sym string, i int)")

FILTERS = ["sym = 'a'", "v > 2.5", "i in (1, 2)", "sym = 'a' or i = 2", "v between 1 and 3",
           "sym != 'b'", "sym = 'a' and v > 1", "i = 3 or v < 1", "sym in ('a', 'c') and i != 1"]
STATEMENTS = (
    [f"select * from T({f})" for f in FILTERS]
    + ["select * from T", "select * from U", "select * from U(i = 2)",
       "select count(*) as c from T(sym = 'a')", "select sym, sum(v) as s from T#length(3) group by sym",
       "insert into U select sym, i from T(v > 3)",
       "select * from pattern [every a=T -> b=U(i = a.i)]",
       "select * from pattern [every a=T(sym='a') -> b=T(sym='b')]"])



class _Int(int):
    """An int subclass: the checker's isinstance path, not its exact-type one."""


MISSING = object()      # the property left out of the event

events = st.tuples(
    st.sampled_from(["T", "T", "T", "U"]),
    st.sampled_from(["a", "b", "c", "c", None, MISSING, 7]),
    # floats take the checkers' exact-type test, the rest their per-property tests
    st.sampled_from([0.5, 1.5, 2.0, 3.5, 4.0, 0.5, 2.0, 2, None, MISSING, "x"]),
    st.sampled_from([0, 1, 2, 3, 0, 1, 2, "bad", None, MISSING, True, _Int(2), 2.0]),
    st.sampled_from([None, None, None, None, "send", "create", "destroy", "raise"]))


def _general(engine: Engine, ev: dict, type_name: str) -> None:
    """The general path: the event as a bean (filters.match, then feed)."""
    engine.send(EventBean(engine.event_type(type_name), ev))


def _run(stmts: list[int], evs: list[tuple], *, lean: bool, thread_safe: bool) -> list:
    engine = Engine(time="simulated", thread_safe=thread_safe)
    for s in SCHEMAS:
        engine.epl(s)
    send = engine.send if lean else (lambda ev, t: _general(engine, ev, t))
    out: list = []
    made: list = []

    def listener_for(name: str, action_box: list):
        def listen(new, old):
            out.append((name, [_row(e) for e in new or ()], [_row(e) for e in old or ()]))
            action = action_box[0]
            if action is None:
                return
            action_box[0] = None            # once per sent event
            if action == "send":
                send({"sym": "c", "i": 2}, "U")
            elif action == "create":
                made.append(engine.epl("select * from T(sym = 'b')"))
                made[-1].add_listener(listener_for(f"made{len(made)}", [None]))
            elif action == "destroy" and made:
                made.pop().destroy()
            elif action == "raise":
                raise RuntimeError("listener fails")
        return listen

    box: list = [None]
    for k, i in enumerate(stmts):
        engine.epl(STATEMENTS[i]).add_listener(listener_for(f"s{k}", box))
    for type_name, sym, v, i, action in evs:
        box[0] = action
        ev = {"sym": sym, "v": v, "i": i} if type_name == "T" else {"sym": sym, "i": i}
        ev = {k: x for k, x in ev.items() if x is not MISSING}
        try:
            send(ev, type_name)
            out.append("ok")
        except EventTypeError as exc:
            out.append(("error", str(exc)))
    return out


def _row(e):
    u = e.underlying
    if isinstance(u, dict):
        return tuple(sorted((k, _row(x) if hasattr(x, "underlying") else x) for k, x in u.items()))
    return repr(u)


@pytest.mark.parametrize("stable", [1, 3])
@pytest.mark.parametrize("thread_safe", [True, False])
@settings(max_examples=100, deadline=None)
@given(stmts=st.lists(st.integers(0, len(STATEMENTS) - 1), min_size=1, max_size=4),
       evs=st.lists(events, min_size=1, max_size=30))
def test_the_front_delivers_what_the_general_path_delivers(stable, thread_safe, stmts, evs):
    saved = engine_module.STABLE_SENDS
    engine_module.STABLE_SENDS = stable          # inline early and often
    try:
        got = _run(stmts, evs, lean=True, thread_safe=thread_safe)
    finally:
        engine_module.STABLE_SENDS = saved
    assert got == _run(stmts, evs, lean=False, thread_safe=thread_safe)


def test_a_removed_type_is_no_longer_routed_by_the_front():
    engine = Engine(time="simulated")
    schema = engine.epl("create schema V(x int)")
    got: list = []
    engine.epl("select * from V(x = 1)").add_listener(lambda new, old: got.append(new[0]["x"]))
    for _ in range(20):
        engine.send({"x": 1}, "V")
    assert len(got) == 20 and engine._lean.gen >= 1
    for s in engine.statements:
        s.destroy()
    schema.destroy()
    with pytest.raises(EventTypeError):
        engine.send({"x": 1}, "V")
    engine.epl("create schema V(x string)")
    again: list = []
    engine.epl("select * from V(x = 'y')").add_listener(lambda new, old: again.append(new[0]["x"]))
    for _ in range(20):
        engine.send({"x": "y"}, "V")
    assert again == ["y"] * 20


def test_a_second_thread_waits_for_the_lock_while_the_front_processes():
    """The front holds the engine's lock while it processes an event: a send from another
    thread waits until the listener running for the first one returns."""
    engine = Engine(time="simulated")
    engine.epl("create schema T(sym string, v double, i int)")
    inside, release = threading.Event(), threading.Event()
    order: list = []

    def listen(new, old):
        order.append(("start", new[0]["i"]))
        if new[0]["i"] == 100:
            inside.set()
            release.wait(5)
        order.append(("end", new[0]["i"]))
    engine.epl("select * from T(sym = 'a')").add_listener(listen)
    for k in range(20):                           # the front inlines T's routing
        engine.send({"sym": "a", "v": 1.0, "i": k}, "T")
    del order[:]
    t = threading.Thread(target=lambda: engine.send({"sym": "a", "v": 1.0, "i": 100}, "T"))
    t.start()
    assert inside.wait(5)
    other = threading.Thread(target=lambda: engine.send({"sym": "a", "v": 1.0, "i": 200}, "T"))
    other.start()
    other.join(0.2)
    assert other.is_alive()                       # waits for the lock
    release.set()
    t.join(5)
    other.join(5)
    assert order == [("start", 100), ("end", 100), ("start", 200), ("end", 200)]


def test_concurrent_senders_are_serialized():
    engine = Engine(time="simulated")
    engine.epl("create schema T(sym string, v double, i int)")
    active = [0]
    overlaps = [0]
    count = [0]

    def listen(new, old):
        active[0] += 1
        if active[0] > 1:
            overlaps[0] += 1
        count[0] += 1
        active[0] -= 1
    engine.epl("select * from T(sym = 'a')").add_listener(listen)

    def feed():
        for k in range(3000):
            engine.send({"sym": "a" if k % 2 else "b", "v": 1.0, "i": k}, "T")
    threads = [threading.Thread(target=feed) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert count[0] == 4500 and overlaps[0] == 0


TIMED = ["select sum(v) as s from T#time_batch(1 sec)", "select count(*) as c from T#time(500 msec)",
         "select * from pattern [every a=T -> b=U(i = a.i) where timer:within(300 msec)]",
         "select * from pattern [every timer:interval(250 msec)]",
         "select sym, count(*) as c from T#time(1 sec) group by sym output every 400 msec"]

steps = st.one_of(
    # steps that land on due times; below 0 goes back (refused)
    st.tuples(st.just("time"), st.sampled_from([-100, 0, 50, 100, 150, 250, 300, 400, 500, 1000])),
    st.tuples(st.just("send"), events))


@pytest.mark.parametrize("thread_safe", [True, False])
@settings(max_examples=100, deadline=None)
@given(stmts=st.lists(st.integers(0, len(TIMED) - 1), min_size=1, max_size=3),
       script=st.lists(steps, min_size=1, max_size=30))
def test_the_advance_time_front_does_what_engine_advance_time_does(thread_safe, stmts, script):
    def run(front: bool) -> list:
        engine = Engine(time="simulated", thread_safe=thread_safe)
        for s in SCHEMAS:
            engine.epl(s)
        out: list = []
        for k, i in enumerate(stmts):
            engine.epl(TIMED[i]).add_listener(
                lambda new, old, k=k: out.append((k, engine.now, [_row(e) for e in new or ()],
                                                  [_row(e) for e in old or ()])))
        advance = engine.advance_time if front else (lambda t: Engine.advance_time(engine, t))
        t = 0
        for kind, arg in script:
            if kind == "time":
                t += arg
                try:
                    advance(t)
                    out.append(("now", engine.now))
                except Exception as exc:
                    out.append(("error", type(exc).__name__, engine.now))
                    t = engine.now
            else:
                type_name, sym, v, i, _ = arg
                ev = {"sym": sym, "v": v, "i": i} if type_name == "T" else {"sym": sym, "i": i}
                ev = {k: x for k, x in ev.items() if x is not MISSING}
                try:
                    engine.send(ev, type_name)
                except EventTypeError as exc:
                    out.append(("bad", str(exc)))
        return out
    assert run(True) == run(False)


def test_the_advance_time_front_looks_like_engine_advance_time():
    engine = Engine(time="simulated")
    assert engine.advance_time.__doc__ == Engine.advance_time.__doc__
    assert engine.advance_time.__qualname__ == "Engine.advance_time"
    system = Engine(time="system", resolution_ms=1000)
    try:
        assert "advance_time" not in vars(system)       # the method: it refuses
    finally:
        system.close()


def test_a_raw_batch_append_waits_while_another_thread_holds_the_lock():
    """The front's append to a fused time batch without the lock (engine/lean_send.py, "Raw
    appends") is not taken while the lock is held: an event from another thread waits, and
    joins the batch after the holder's own events."""
    engine = Engine(time="simulated")
    engine.epl("create schema T(sym string, v double, i int)")
    stmt = engine.epl("select sym, sum(i) as s from T#time_batch(1 sec) group by sym")
    window = stmt._instances[0].views[0][0]
    assert type(window).__name__ == "RawBatchWindow"
    for k in range(20):                           # the front inlines T's routing
        engine.advance_time(k)
        engine.send({"sym": "a", "v": 1.0, "i": k}, "T")
    other = threading.Thread(target=lambda: engine.send({"sym": "b", "v": 1.0, "i": 200}, "T"))
    with engine.lock:
        other.start()
        other.join(0.2)
        assert other.is_alive()                   # waits for the lock
        engine.send({"sym": "a", "v": 1.0, "i": 100}, "T")
        assert len(window._batch) == 21
    other.join(5)
    assert [b.underlying["i"] for b in window][-2:] == [100, 200]
    got: list = []
    stmt.add_listener(lambda new, old: got.extend(sorted((r["sym"], r["s"]) for r in new)))
    engine.advance_time(1000)
    assert got == [("a", sum(range(20)) + 100), ("b", 200)]

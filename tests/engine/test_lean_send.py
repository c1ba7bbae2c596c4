"""The lean paths of `engine.send` for dict events of a map type and of `advance_time` when
nothing is due (issue 17 item 4): few Python frames, the same behaviour as the general path."""
from __future__ import annotations

import inspect
import sys

import pytest

from engine import Engine
from engine.lean_send import STABLE_SENDS
from engine.errors import EventTypeError, TimeError

SCHEMA = "create schema Tick(symbol string, price double, volume long)"


def _python_frames(fn) -> list[str]:
    """Names of the Python functions called while `fn()` runs (C calls not counted)."""
    names: list[str] = []

    def prof(frame, event, arg):
        if event == "call":
            names.append(frame.f_code.co_name)
    sys.setprofile(prof)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return names[1:]         # the lambda itself


def _engine() -> tuple[Engine, list]:
    engine = Engine(time="simulated")
    engine.epl(SCHEMA)
    seen: list = []
    engine.epl("select * from Tick(symbol='S7' and price > 50)").add_listener(
        lambda new, old: seen.extend({"symbol": e["symbol"], "price": e["price"]} for e in new))
    return engine, seen


def test_a_discarded_event_costs_one_frame_once_the_routing_is_inlined():
    engine, seen = _engine()
    engine.send({"symbol": "S7", "price": 60.0}, "Tick")          # routing code built
    # until the route has stayed the same for a few sends: the front, Engine.send, the route
    frames = _python_frames(lambda: engine.send({"symbol": "S1", "price": 60.0}, "Tick"))
    assert frames == ["send", "send", "_f"]
    for _ in range(STABLE_SENDS):
        engine.send({"symbol": "S2", "price": 60.0}, "Tick")
    frames = _python_frames(lambda: engine.send({"symbol": "S1", "price": 60.0}, "Tick"))
    assert frames == ["send"]                 # the front with the routing code inlined
    assert seen == [{"symbol": "S7", "price": 60.0}]
    # a filter added: the front calls Engine.send and the new route until it is inlined again
    engine.epl("select * from Tick(symbol='S1')")
    frames = _python_frames(lambda: engine.send({"symbol": "S3", "price": 60.0}, "Tick"))
    assert frames[:2] == ["send", "send"]


def test_the_front_looks_like_engine_send():
    engine, _ = _engine()
    assert engine.send.__doc__ == Engine.send.__doc__
    assert engine.send.__qualname__ == "Engine.send"
    assert str(inspect.signature(engine.send)) == str(inspect.signature(engine.__class__.send.__get__(engine)))
    send = engine.send
    for _ in range(2 * STABLE_SENDS):
        engine.send({"symbol": "S1", "price": 60.0}, "Tick")
    assert engine.send is send                # callers may keep it


def test_a_wanted_event_is_checked_and_delivered():
    engine, seen = _engine()
    engine.send({"symbol": "S7", "price": 70.0}, "Tick")
    with pytest.raises(EventTypeError):
        engine.send({"symbol": "S7", "price": 75.0, "volume": "many"}, "Tick")
    engine.send({"symbol": "S1", "price": 75.0, "volume": "unchecked: no filter wants it"}, "Tick")
    assert seen == [{"symbol": "S7", "price": 70.0}]
    engine.send({"symbol": "S7", "price": 80.0}, "Tick")       # the engine goes on after an error
    assert seen[-1] == {"symbol": "S7", "price": 80.0}


def test_an_unknown_type_and_a_non_dict_are_refused():
    engine, _ = _engine()
    with pytest.raises(EventTypeError):
        engine.send({"symbol": "S7"}, "Nope")
    with pytest.raises(EventTypeError):
        engine.send(["S7", 1.0], "Tick")


def test_sends_from_a_listener_are_processed_after_the_event():
    engine, _ = _engine()
    engine.epl("create schema Echo(n int)")
    order: list = []
    engine.epl("select * from Tick(symbol='S7' and price > 50)").add_listener(
        lambda new, old: (order.append(("tick", new[0]["price"])), engine.send({"n": 1}, "Echo"),
                          order.append("after send")))
    engine.epl("select * from Echo").add_listener(lambda new, old: order.append("echo"))
    engine.send({"symbol": "S7", "price": 99.0}, "Tick")
    assert order == [("tick", 99.0), "after send", "echo"]


def test_filters_added_between_sends_see_the_next_event():
    engine, seen = _engine()
    engine.send({"symbol": "S9", "price": 1.0}, "Tick")
    late: list = []
    stmt = engine.epl("select * from Tick(symbol='S9')")
    stmt.add_listener(lambda new, old: late.extend(e["price"] for e in new))
    engine.send({"symbol": "S9", "price": 2.0}, "Tick")
    stmt.destroy()
    engine.send({"symbol": "S9", "price": 3.0}, "Tick")
    assert late == [2.0]


def test_the_sent_event_is_not_kept_by_the_engine():
    engine, _ = _engine()
    ev = {"symbol": "S1", "price": 1.0}
    engine.send(ev, "Tick")
    for _ in range(STABLE_SENDS + 1):
        engine.send(ev, "Tick")
    assert all(entry.probe.underlying is not ev for entry in engine._lean.routes.values())


def test_advance_time_with_nothing_due_is_one_frame():
    engine = Engine(time="simulated")
    engine.epl(SCHEMA)
    engine.epl("select sum(price) from Tick#time_batch(1 sec)").add_listener(lambda n, o: None)
    engine.advance_time(10)
    engine.send({"symbol": "S1", "price": 1.0}, "Tick")
    assert _python_frames(lambda: engine.advance_time(20)) == ["advance_time"]
    assert engine.now == 20


def test_advance_time_fires_what_is_due_and_refuses_going_back():
    engine = Engine(time="simulated")
    engine.epl(SCHEMA)
    got: list = []
    engine.epl("select sum(price) as s from Tick#time_batch(1 sec)").add_listener(
        lambda new, old: got.append(new[0]["s"]))
    engine.send({"symbol": "S1", "price": 1.5}, "Tick")
    engine.advance_time(999)
    assert got == []
    engine.advance_time(1000)
    assert got == [1.5]
    with pytest.raises(TimeError):
        engine.advance_time(500)
    assert engine.now == 1000


def test_advance_time_is_for_simulated_engines():
    engine = Engine(time="system", resolution_ms=1000)
    try:
        with pytest.raises(TimeError):
            engine.advance_time(engine.now + 1)
    finally:
        engine.close()
    with pytest.raises(TimeError):
        engine.advance_time(engine.now + 1)       # still refused once closed


def test_an_engine_has_few_enough_attributes_for_cpython_to_share_their_keys():
    """Measured on CPython 3.11: an object with 29 instance attributes keeps them in the
    class's shared keys; from the 30th on it gets a plain dict and every attribute access
    (`engine.pending`, `engine._depth`, ... on every event) costs about a third more. Add
    state to an object the engine holds, not to the engine."""
    assert len(vars(Engine(time="simulated"))) <= 29
    assert len(vars(Engine(time="simulated", thread_safe=False))) <= 29


def test_a_subclass_overriding_send_or_advance_time_keeps_its_override():
    calls: list = []

    class Logged(Engine):
        def send(self, event, type_name=None):
            calls.append(("send", type_name))
            super().send(event, type_name)

        def advance_time(self, t):
            calls.append(("time", t))
            super().advance_time(t)
    engine = Logged(time="simulated")
    engine.epl(SCHEMA)
    got: list = []
    engine.epl("select * from Tick(symbol='S7')").add_listener(lambda new, old: got.append(new[0]["price"]))
    for k in range(12):
        engine.send({"symbol": "S7", "price": float(k)}, "Tick")
    engine.advance_time(5)
    assert calls == [("send", "Tick")] * 12 + [("time", 5)]
    assert got == [float(k) for k in range(12)] and engine.now == 5


def test_type_names_never_reach_the_fronts_source():
    """The front compares type names with constants of its namespace, never with source text."""
    engine = Engine(time="simulated")
    name = "Odd'\"\nname\\"
    engine.register_type(name, {"x": "int"})
    engine.epl("create schema Plain(x int)")
    got: list = []
    engine.epl("select * from Plain(x > 1)").add_listener(lambda new, old: got.append(new[0]["x"]))
    for k in range(20):
        engine.send({"x": k}, name)
        engine.send({"x": k}, "Plain")
    assert got == list(range(2, 20))
    assert set(engine._lean.routes) == {name, "Plain"}
    assert _python_frames(lambda: engine.send({"x": 0}, "Plain")) == ["send"]


def test_the_front_keeps_no_old_generations():
    """Each new front drops the constants of the older ones (they hold old routes and the
    handles of destroyed statements)."""
    engine, seen = _engine()
    sizes = []
    for k in range(30):
        stmt = engine.epl(f"select * from Tick(symbol='X{k}')")
        for _ in range(STABLE_SENDS + 2):
            engine.send({"symbol": "S1", "price": 1.0}, "Tick")
        stmt.destroy()
        for _ in range(STABLE_SENDS + 2):
            engine.send({"symbol": "S7", "price": 99.0}, "Tick")
        sizes.append(len(engine._lean.ns))
    assert engine._lean.gen >= 60
    assert sizes[-1] == sizes[5] and len(engine._lean.names) == 1
    assert len(seen) == 30 * (STABLE_SENDS + 2)

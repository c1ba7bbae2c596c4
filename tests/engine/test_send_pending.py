"""The public "anything waits" check of the runtime contract (`Runtime.pending`, `Runtime.drain`)
and the per-event `send` (issue 17 item 4, issue 16): per-event sends, with and without the
lock (`Engine(thread_safe=False)`), deliver what `send_many` and the general chain deliver, in
the same order, through fused statements, insert-into chains and named-window consumers."""
from __future__ import annotations

import threading
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from engine import Engine
from engine.errors import EventTypeError
from engine.fused import is_fused
from tests.lock_holder import holding_the_lock

SCHEMA = "create schema T(sym string, v double, i int)"


def test_pending_is_set_by_what_queues_and_cleared_by_drain():
    engine = Engine(time="simulated")
    engine.epl(SCHEMA)
    engine.epl("create schema U(n int)")
    got: list = []
    engine.epl("select n from U").add_listener(lambda new, old: got.append(new[0]["n"]))
    assert engine.pending is False
    seen: list = []

    def action() -> None:
        engine.route({"n": 1}, "U")
        seen.append(engine.pending)
        engine.drain()                      # what a per-event loop does when pending is set
        seen.append((engine.pending, list(got)))
    engine.run(action)
    assert seen == [True, (False, [1])]
    assert engine.pending is False and got == [1]


def test_a_fused_loop_drains_through_the_public_members_in_order():
    """A fused statement alone on its type takes send_many's batch in its generated loop; what
    its listener routes is processed (pending, drain) before the loop takes the next event."""
    engine = Engine(time="simulated")
    engine.epl(SCHEMA)
    engine.epl("create schema U(n int)")
    order: list = []
    fused = engine.epl("select count(*) as c from T#length(2)")
    assert is_fused(fused)
    fused.add_listener(lambda new, old: (order.append(("c", new[0]["c"])),
                                         engine.route({"n": new[0]["c"]}, "U")))
    engine.epl("select n from U").add_listener(lambda new, old: order.append(("u", new[0]["n"])))
    engine.send_many([{"sym": "a", "v": 1.0, "i": 1}] * 3, "T")
    assert order == [("c", 1), ("u", 1), ("c", 2), ("u", 2), ("c", 2), ("u", 2)]
    assert engine.pending is False


def test_an_isolated_runtime_drains_through_its_own_filters():
    engine = Engine(time="simulated")
    engine.epl("create schema U(n int)")
    got: list = []
    inside = engine.epl("@name('in') select n from U")
    inside.add_listener(lambda new, old: got.append(("in", new[0]["n"])))
    engine.epl("@name('out') select n from U").add_listener(
        lambda new, old: got.append(("out", new[0]["n"])))
    iso = engine.isolated("i")
    iso.add(inside)
    runtime = iso.runtime

    def action() -> None:
        runtime.route({"n": 5}, "U")
        assert runtime.pending
        runtime.drain()
    engine.run(action, runtime.process)
    assert got == [("in", 5)]


def test_a_type_declared_again_under_its_name_is_the_one_send_uses():
    engine = Engine(time="simulated")
    schema = engine.epl("create schema T(a int)")
    engine.epl("select a from T").add_listener(lambda new, old: None)
    engine.send({"a": 1}, "T")
    for s in engine.statements:
        s.destroy()
    with pytest.raises(EventTypeError):
        engine.send({"a": 2}, "T")              # no type T any more
    assert schema.is_destroyed
    engine.epl("create schema T(b string)")
    got: list = []
    engine.epl("select b from T").add_listener(lambda new, old: got.append(new[0]["b"]))
    engine.send({"b": "x"}, "T")
    with pytest.raises(EventTypeError):
        engine.send({"b": 3}, "T")              # checked against the new type
    assert got == ["x"]


def test_thread_safe_false_needs_simulated_time():
    with pytest.raises(ValueError, match="thread_safe=False"):
        Engine(time="system", thread_safe=False)
    engine = Engine(time="simulated", thread_safe=False)
    assert engine.thread_safe is False and Engine(time="simulated").thread_safe is True


def test_an_unlocked_engine_still_queues_sends_from_listeners_and_refuses_bad_events():
    engine = Engine(time="simulated", thread_safe=False)
    engine.epl(SCHEMA)
    engine.epl("create schema U(n int)")
    order: list = []
    engine.epl("select * from T(v > 1)").add_listener(
        lambda new, old: (order.append("t"), engine.send({"n": 1}, "U"), order.append("sent")))
    engine.epl("select * from U").add_listener(lambda new, old: order.append("u"))
    engine.send({"sym": "a", "v": 2.0, "i": 1}, "T")
    with pytest.raises(EventTypeError):
        engine.send({"sym": "a", "v": 2.5, "i": "no"}, "T")
    engine.send({"sym": "a", "v": 3.0, "i": 1}, "T")
    assert order == ["t", "sent", "u"] * 2


def test_the_default_engine_serializes_sends_from_several_threads():
    engine = Engine(time="simulated")
    engine.epl(SCHEMA)
    engine.epl("create schema U(n int)")
    counts = {"T": 0, "U": 0}
    engine.epl("insert into U select i as n from T(v > 0)")

    def count_t(new: Any, old: Any) -> None:
        counts["T"] += len(new)      # not atomic: lost updates unless sends are serialized

    def count_u(new: Any, old: Any) -> None:
        counts["U"] += len(new)
    engine.epl("select * from T").add_listener(count_t)
    engine.epl("select * from U").add_listener(count_u)

    def feed() -> None:
        for k in range(2000):
            engine.send({"sym": "a", "v": 1.0 if k % 2 else -1.0, "i": k}, "T")
    threads = [threading.Thread(target=feed) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counts == {"T": 8000, "U": 4000}
    assert engine.pending is False and not engine.processing


# -- per-event send against send_many and the general chain -------------------------------------

STATEMENTS = (
    "@name('fused') insert into Out select count(*) as c, sum(v) as s from T#length(3)",
    "@name('grouped') select sym, avg(v) as a from T#groupwin(sym)#length(2) group by sym",
    "@name('f') select * from T(v > 1)",
    "@name('out') select c, s from Out",
    "create window W#length(3) as (sym string, v double)",
    "@name('into_w') insert into W select sym, v from T(i > 0)",
    "@name('w') select irstream sym, v from W",
    "@name('wcount') select count(*) as n from W",
    "@name('u') select n from U",
)
SYMS = ("a", "b")
events = st.fixed_dictionaries({"sym": st.sampled_from(SYMS),
                                "v": st.sampled_from((0.5, 1.5, 2.0, -1.0, None)),
                                "i": st.sampled_from((0, 1, 2, None))})


def _rows(beans: Any) -> Any:
    return None if beans is None else [sorted(b.to_dict().items()) for b in beans]


def _run(batches: list, how: str, relay: bool) -> list:
    engine = Engine(time="simulated", thread_safe=how != "send_unlocked")
    engine.fusion = how != "chain"
    engine.epl(SCHEMA)
    engine.epl("create schema U(n int)")
    log: list = []
    for text in STATEMENTS:
        stmt = engine.epl(text)
        stmt.add_listener(lambda new, old, _n=stmt.name: log.append((_n, _rows(new), _rows(old))))
    if relay:       # listeners sending and routing events while one is processed
        engine.statement("f").add_listener(lambda new, old: engine.send({"n": len(new)}, "U"))
        engine.statement("out").add_listener(lambda new, old: engine.route({"n": -1}, "U"))
    if how != "chain":
        assert is_fused(engine.statement("fused"))
    for batch in batches:
        if how in ("many", "chain"):
            engine.send_many(batch, "T")
        else:
            for e in batch:
                engine.send(e, "T")
        log.append("|")
    assert engine.pending is False
    return log


@settings(max_examples=120, deadline=None)
@given(st.lists(st.lists(events, max_size=6), min_size=1, max_size=5), st.booleans())
def test_per_event_send_delivers_what_send_many_and_the_general_chain_deliver(batches, relay):
    want = _run(batches, "chain", relay)
    assert _run(batches, "many", relay) == want
    assert _run(batches, "send", relay) == want
    assert _run(batches, "send_unlocked", relay) == want


@pytest.mark.parametrize("thread_safe", [True, False])
def test_send_waits_for_the_lock_unless_the_engine_is_not_thread_safe(thread_safe):
    engine = Engine(time="simulated", thread_safe=thread_safe)
    engine.epl(SCHEMA)
    got: list = []
    engine.epl("select v from T(v > 1)").add_listener(lambda new, old: got.append(new[0]["v"]))
    engine.send({"sym": "a", "v": 2.0, "i": 1}, "T")           # the type's first send
    holder, release = holding_the_lock(engine)
    sender = threading.Thread(target=lambda: (engine.send({"sym": "a", "v": 3.0, "i": 1}, "T"),
                                              engine.advance_time(5)))
    sender.start()
    sender.join(0.3)
    assert sender.is_alive() is thread_safe         # blocked behind the other thread's lock
    assert got == ([2.0] if thread_safe else [2.0, 3.0])
    release.set()
    holder.join()
    sender.join(10)
    assert got == [2.0, 3.0] and engine.now == 5

"""A fused grouped time batch summing one property (epl/compiler/fused/windows_sink.py
_values_end) whose batch is filled by per-event sends: send's front (without the lock) and
the statement's `on_event` (with it) keep the batch's split by group as they append, so
the batch end takes the split and does not split the batch itself; an event that does not
pass send's check on its fast path stays out of the split, and a batch whose split is
short of it is split at its end as before. Against the general chain (fusion off): per-event
sends mixed with send_many (with and without times), odd events (bools, floats in an int
column, str and int subclasses, missing keys, nulls, a subtype's events), listeners that
send, stop and start, iteration mid-batch, checkpoints, the lock held by the sender or by
another thread, and senders on two threads."""
from __future__ import annotations

import enum
import sys
import threading
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import engine.engine as engine_module
from engine import Engine
from tests.lock_holder import holding_the_lock
from tests.raw_batch_setup import count_calls, counted_acquires, rows as _rows, schema_engine as _engine

W3 = "select k, sum(v) as s from T#time_batch(100 msec) group by k"
STATEMENTS = [
    W3,
    "select k, count(*) as c, sum(v) as s, count(v) as cv from T#time_batch(100 msec) group by k",
    "select k, sum(v) as s, count(n) as cn from T#time_batch(100 msec) group by k",
    "select count(*) as c, k, sum(v) as s from T#time_batch(100 msec, 30) group by k",
    # an int key; the key summed (send's front keeps no split then: on_event and the loop do)
    "select v, sum(n) as s, count(*) as c from T#time_batch(100 msec) group by v",
    "select v, sum(v) as s from T#time_batch(100 msec) group by v",
]
KEYS = ("a", "b", "c", "d", "e")


class Text(str):
    """A str subclass: passes the check, not on its fast path."""


class Level(enum.IntEnum):
    """An int subclass: passes the check of an int column, not on its fast path."""
    ONE = 1


def _sink(stmt: Any) -> dict:
    """The fused statement's generated namespace."""
    return stmt._instances[0].handles[0].namespace


def _count_c_splits(stmt: Any) -> list:
    """Counts the batch ends that split the batch themselves (the C split's new dict)."""
    return count_calls(_sink(stmt), "_split")


def _send_batches(engine: Engine, batches: int, size: int, start: int = 0) -> None:
    for b in range(batches):
        for i in range(size):
            engine.advance_time(start + b * 100 + i)
            engine.send({"k": KEYS[(i * 7 + b) % len(KEYS)], "v": i, "n": 1, "x": 0.5}, "T")
    engine.advance_time(start + batches * 100 + 100)


@pytest.mark.parametrize("thread_safe", [True, False])
def test_a_batch_of_per_event_sends_arrives_split_by_group(thread_safe: bool) -> None:
    """No batch end splits a batch filled by per-event sends of checked events; the rows
    are the general chain's."""
    logs = []
    for fusion in (True, False):
        engine = _engine(fusion, thread_safe=thread_safe)
        log: list = []
        stmt = engine.epl(W3)
        stmt.add_listener(lambda new, old, _l=log: _l.append(_rows(new)))
        if fusion:
            splits = _count_c_splits(stmt)
        _send_batches(engine, 6, 40)
        if fusion:
            assert splits[0] == 0
        logs.append(log)
    assert logs[0] == logs[1] and len(logs[0]) == 6


def test_groups_new_in_a_batch_take_no_lock() -> None:
    """Only the first event of each batch takes the lock: a group's first event of the batch
    takes the front's spare list."""
    engine = _engine(True)
    stmt = engine.epl(W3)
    got: list = []
    stmt.add_listener(lambda new, old: got.append(sorted((r["k"], r["s"]) for r in new)))
    _send_batches(engine, 1, 20)            # (the front inlines T)
    with counted_acquires(engine) as count:
        _send_batches(engine, 3, 40, 1000)
    assert count[0] == 3
    assert got[-1] == [(k, sum(i for i in range(40) if KEYS[(i * 7 + 2) % 5] == k)) for k in KEYS]


ODD = [True, 2.5, Level.ONE, None, "missing", "T2"]


@pytest.mark.parametrize("odd", ODD)
@pytest.mark.parametrize("where", ["key", "value"])
def test_an_odd_event_leaves_the_split_short_and_the_batch_end_splits(odd: Any, where: str) -> None:
    """An event not on the check's fast path (unchecked: a bool, a float in the int column;
    checked too: an int or str subclass, a null, a missing key, a subtype's event) does not
    join the split: that batch's end splits it (C or the general steps); the next batch is
    split as it fills again."""
    if where == "key" and odd in (2.5, Level.ONE):
        odd = Text("b")
    checked = not (odd is True or odd == 2.5) or isinstance(odd, (Text, Level))
    logs = []
    for fusion in (True, False):
        engine = _engine(fusion, check_events=checked)
        log: list = []
        stmt = engine.epl(W3)
        stmt.add_listener(lambda new, old, _l=log: _l.append(repr(_rows(new))))
        if fusion:
            splits = _count_c_splits(stmt)
        for i in range(60):
            ev = {"k": KEYS[i % 3], "v": i, "n": 1, "x": 0.5}
            type_name = "T"
            if i == 17:
                if odd == "missing":
                    del ev["k" if where == "key" else "v"]
                elif odd == "T2":
                    ev["extra"], type_name = 1, "T2"
                else:
                    ev["k" if where == "key" else "v"] = odd
            engine.advance_time(i * 5)
            engine.send(ev, type_name)
            if i == 30:
                log.append(("iter", sorted(repr(sorted(r.items())) for r in stmt.rows())))
        engine.advance_time(1000)
        if fusion:
            # (the batch holding the odd event is split at its end, or takes the general steps)
            assert splits[0] <= 1
        logs.append(log)
    assert logs[0] == logs[1]


def test_events_sent_while_the_lock_is_held_keep_the_split() -> None:
    """Per-event sends holding the lock (locked `on_event`), from another thread while this
    one holds it, and from a listener: the split is kept the same way."""
    logs = []
    for fusion in (True, False):
        engine = _engine(fusion)
        log: list = []
        stmt = engine.epl(W3)
        echo = [0]

        def listener(new: Any, old: Any, _l: list = log, _e: Engine = engine) -> None:
            _l.append(_rows(new))
            if echo[0]:
                echo[0] -= 1
                _e.send({"k": "z", "v": 5, "n": 1, "x": 0.5}, "T")
        stmt.add_listener(listener)
        if fusion:
            splits = _count_c_splits(stmt)
        _send_batches(engine, 1, 20)
        with engine.lock:
            for i in range(30):
                engine.advance_time(200 + i)
                engine.send({"k": KEYS[i % 4], "v": i, "n": 1, "x": 0.5}, "T")
        t, release = holding_the_lock(engine)
        senders = [threading.Thread(target=engine.send, args=({"k": "q", "v": j, "n": 1, "x": 0.5}, "T"))
                   for j in range(3)]
        for s in senders:
            s.start()
        release.set()
        t.join()
        for s in senders:
            s.join()
        echo[0] = 2
        engine.advance_time(300)        # (the listener sends into the next batch)
        for i in range(10):
            engine.advance_time(310 + i)
            engine.send({"k": KEYS[i % 2], "v": i, "n": 1, "x": 0.5}, "T")
        engine.advance_time(500)
        if fusion:
            assert splits[0] == 0
        logs.append(sorted(map(repr, log)))
    assert logs[0] == logs[1]


def _summing(engine: Engine, period: str) -> list:
    """The (key, sum, count) rows of a grouped sum and count over `#time_batch(period)`."""
    stmt = engine.epl(f"select k, sum(v) as s, count(*) as c from T#time_batch({period}) group by k")
    got: list = []
    stmt.add_listener(lambda new, old: got.extend((r["k"], r["s"], r["c"]) for r in new))
    return got


def _totals(rows: Any) -> dict:
    """Sum and count by key of (key, value, count) rows; a null sum (a group of the batch
    before alone) adds nothing."""
    total = {k: [0, 0] for k in KEYS}
    for k, v, c in rows:
        total[k][0] += v or 0
        total[k][1] += c
    return total


def _sent_by(engine: Engine, events: dict[int, list]) -> list[threading.Thread]:
    """A thread per list of events, each sending its list through `engine.send`."""
    def sender(evs: list) -> None:
        send = engine.send
        for ev in evs:
            send(ev, "T")
    return [threading.Thread(target=sender, args=(evs,)) for evs in events.values()]


def test_senders_on_two_threads_sum_every_event() -> None:
    """Two threads sending into one batch through the lock-free front: the batch end sums
    every event once (its split whole, or the batch split at its end)."""
    engine = _engine(True)
    got = _summing(engine, "1 sec")
    engine.advance_time(0)
    events = {base: [{"k": KEYS[i % 5], "v": base + i % 3, "n": 1, "x": 0.5} for i in range(4000)]
              for base in (0, 10)}
    threads = _sent_by(engine, events)
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    engine.advance_time(1000)
    expect = _totals((e["k"], e["v"], 1) for evs in events.values() for e in evs)
    assert sorted(got) == sorted((k, s, c) for k, (s, c) in expect.items())


def test_batch_ends_while_two_threads_send_count_every_event_once() -> None:
    """Two threads sending through the lock-free front while a third moves time (batch
    ends between a front's append and its value, a split short of its batch): every event
    is counted and summed in exactly one batch."""
    engine = _engine(True)
    got = _summing(engine, "10 msec")
    engine.advance_time(0)
    events = {base: [{"k": KEYS[(i * 3 + base) % 5], "v": base + i % 7, "n": 1, "x": 0.5}
                     for i in range(6000)] for base in (1, 20)}
    done = threading.Event()

    def ticker() -> None:
        t = 0
        while not done.is_set():
            t += 1
            engine.advance_time(t)
    senders = _sent_by(engine, events)
    clock = threading.Thread(target=ticker)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)         # (threads switched as often as the interpreter can)
    try:
        clock.start()
        for t in senders:
            t.start()
        for t in senders:
            t.join()
    finally:
        done.set()
        clock.join()
        sys.setswitchinterval(interval)
    engine.advance_time(engine.now + 100)
    assert _totals(got) == _totals((e["k"], e["v"], 1) for evs in events.values() for e in evs)


def test_stop_start_and_a_checkpoint_mid_batch() -> None:
    """A statement stopped and started mid-batch, and an engine restored from a checkpoint
    mid-batch, go on as the general chain."""
    logs = []
    for fusion in (True, False):
        engine = _engine(fusion)
        log: list = []

        def listener(new: Any, old: Any, _l: list = log) -> None:
            _l.append(_rows(new))
        stmt = engine.epl(f"@name('s') {W3}")
        stmt.add_listener(listener)
        _send_batches(engine, 1, 30)
        for i in range(20):
            engine.advance_time(300 + i)
            engine.send({"k": KEYS[i % 3], "v": i, "n": 1, "x": 0.5}, "T")
        stmt.stop()
        stmt.start()
        for i in range(20):
            engine.advance_time(320 + i)
            engine.send({"k": KEYS[i % 4], "v": i, "n": 1, "x": 0.5}, "T")
        engine = Engine.restore(engine.checkpoint(), listeners={"s": listener})
        for i in range(20):
            engine.advance_time(340 + i)
            engine.send({"k": KEYS[i % 5], "v": i, "n": 1, "x": 0.5}, "T")
        log.append(sorted(repr(sorted(r.items())) for r in engine.statement("s").rows()))
        engine.advance_time(1000)
        logs.append(log)
    assert logs[0] == logs[1]


def _value() -> Any:
    return st.one_of(st.sampled_from((1, 2, -3, 0, 2**63 - 1, None, Level.ONE)),
                     st.integers(-5, 5))


@st.composite
def _event(draw: Any) -> tuple:
    ev = {"k": draw(st.sampled_from(KEYS[:3] + (Text("a"),))), "v": draw(_value()), "n": draw(_value()),
          "x": draw(st.sampled_from((0.5, 1, None)))}
    if draw(st.integers(0, 15)) == 0:
        del ev[draw(st.sampled_from(("k", "v", "n", "x")))]
    type_name = "T2" if draw(st.integers(0, 15)) == 0 else "T"
    return ev, type_name


def _ops() -> Any:
    timed = st.lists(st.tuples(st.sampled_from((0, 1, 1, 5, 40, 100)), _event()), max_size=30)
    return st.lists(st.one_of(
        st.tuples(st.just("ones"), timed),
        st.tuples(st.just("many_t"), timed),
        st.tuples(st.just("many"), timed),
        st.tuples(st.just("locked"), timed),
        st.tuples(st.sampled_from(("iter", "stopstart", "echo", "checkpoint")), st.just(None)),
        st.tuples(st.just("advance"), st.sampled_from((1, 60, 100, 250)))), min_size=1, max_size=8)


def _script(text: str, ops: list, fusion: bool, thread_safe: bool) -> list:
    saved = engine_module.STABLE_SENDS
    engine_module.STABLE_SENDS = 1      # send's front inlines T early and again soon after a change
    try:
        return _play(text, ops, fusion, thread_safe)
    finally:
        engine_module.STABLE_SENDS = saved


def _play(text: str, ops: list, fusion: bool, thread_safe: bool) -> list:
    engine = _engine(fusion, thread_safe=thread_safe)
    log: list = []
    echo = [0]
    box: list = [engine]

    def listener(new: Any, old: Any) -> None:
        log.append((box[0].now, repr(_rows(new)), repr(_rows(old))))
        if echo[0]:
            echo[0] -= 1
            box[0].send({"k": "e", "v": 1, "n": 1, "x": 0.5}, "T")
    stmt = engine.epl(f"@name('s') {text}")
    stmt.add_listener(listener)
    for op, arg in ops:
        if op in ("ones", "locked"):
            lock = engine.lock if op == "locked" and thread_safe else None
            if lock is not None:
                lock.acquire()
            try:
                for dt, (ev, tn) in arg:
                    engine.advance_time(engine.now + dt)
                    engine.send(dict(ev), tn)
            finally:
                if lock is not None:
                    lock.release()
        elif op in ("many_t", "many"):
            evs = [dict(ev) for _, (ev, _tn) in arg]
            if op == "many":
                engine.send_many(evs, "T")
            else:
                now, times = engine.now, []
                for dt, _ in arg:
                    now += dt
                    times.append(now)
                engine.send_many(evs, "T", times=times)
        elif op == "advance":
            engine.advance_time(engine.now + arg)
        elif op == "iter":
            log.append(("iter", sorted(repr(sorted(r.items())) for r in stmt.rows())))
        elif op == "stopstart":
            stmt.stop()
            stmt.start()
        elif op == "echo":
            echo[0] += 2
        elif op == "checkpoint":
            engine = box[0] = Engine.restore(engine.checkpoint(), listeners={"s": listener})
            stmt = engine.statement("s")
    engine.advance_time(engine.now + 1000)
    log.append(("end", sorted(repr(sorted(r.items())) for r in stmt.rows())))
    return log


@pytest.mark.parametrize("thread_safe", [True, False])
@settings(max_examples=120, deadline=None)
@given(st.sampled_from(STATEMENTS), _ops())
def test_per_event_sends_as_the_general_chain(thread_safe: bool, text: str, ops: list) -> None:
    """Random mixtures of per-event sends (with and without the lock held), send_many with
    and without times, odd events, listeners sending, stop/start, checkpoints and iteration:
    the same deliveries in the same order as the general chain."""
    assert _script(text, ops, True, thread_safe) == _script(text, ops, False, thread_safe)

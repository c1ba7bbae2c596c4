"""A fused grouped time batch without a where clause (engine/fused_windows.py
RawBatchWindow, epl/compiler/fused/windows_sink.py holds_raw): its batches hold the later
events as their dicts, send_many's timed loop splits each batch by group as it fills it,
and the batch end sums checked batches in C in one pass over the groups (a batch filled by
per-event sends is split in C at its end). Against the general chain (fusion off): random
grouped time-batch statements and scripts mixing timed and untimed batches, per-event sends
(single ones and whole batches), time steps, iteration mid-batch, checkpoint and restore,
events of a subtype, nulls, missing properties and, unchecked, values of another type give
the same deliveries in the same order and the same iteration results. With and without the
lock, also while send's front appends a steady batch's events without the lock
(engine/lean_send.py, "Raw appends") and as that is switched off and on: other statements
on T or its subtype created and destroyed, the statement stopped and started, a listener
sending from inside. Rows a listener keeps (their list, a row, a row's dict) never change
afterwards (the batch end reuses the beans of its last rows when nothing holds them)."""
from __future__ import annotations

from typing import Any

import threading

import pytest
from hypothesis import given, settings, strategies as st

import engine.engine as engine_module
from engine import Engine
from engine.fused import is_fused
from tests.raw_batch_setup import counted_acquires, rows as _rows, schema_engine as _engine

STATEMENTS = [
    "select k, sum(v) as s from T#time_batch(100 msec) group by k",
    "select k, count(*) as c, sum(n) as s, count(v) as cv from T#time_batch(250 msec) group by k",
    "select count(*) as c, k, sum(v) as s from T(k != 'd')#time_batch(100 msec, 30) group by k",
    "select k, sum(v) as s from T#time_batch(100 msec, 'FORCE_UPDATE') group by k",
    "select irstream k, sum(v) as s, count(*) as c from T#time_batch(100 msec) group by k",
    "select rstream k, sum(n) as s from T#time_batch(100 msec) group by k",
    "select k, avg(x) as a, sum(v) as s from T#time_batch(100 msec) group by k",
    # a double key: 0.0 and -0.0 are one group, shown as its last event has it
    "select x, sum(v) as s, count(*) as c from T#time_batch(100 msec) group by x",
    "select k, sum(v) as s, sum(n) as t from T#time_batch(100 msec) group by k",
]
KEYS = ("a", "b", "c", "d")
V = st.sampled_from((1, 2, 5, -3, 0, None, 2**31 - 1))


@st.composite
def event(draw: Any, checked: bool) -> dict:
    ev = {"k": draw(st.sampled_from(KEYS)), "v": draw(V), "n": draw(V),
          "x": draw(st.sampled_from((0.5, 0.0, -0.0, None)))}
    odd = draw(st.integers(0, 12))
    if odd == 0:
        del ev[draw(st.sampled_from(("k", "v", "n", "x")))]   # a missing property is null
    elif odd == 1 and not checked:
        ev["v"] = draw(st.sampled_from((2.5, True, -1.0)))    # unchecked: another type
    elif odd == 3 and not checked:
        ev["k"] = draw(st.sampled_from((1, True, 1.0)))          # unchecked: equal keys of other types
    elif odd == 2:
        ev["extra"] = 1                                        # (sent as a T2 below)
    return ev


def script(checked: bool) -> Any:
    ev = event(checked)
    timed = st.lists(st.tuples(st.sampled_from((0, 0, 1, 7, 30, 70, 100, 250)), ev), max_size=40)
    return st.lists(st.one_of(
        st.tuples(st.just("many_t"), timed),
        st.tuples(st.just("one"), st.sampled_from((0, 10, 100)), ev),
        # whole batches through advance_time + send per event (the batch end splits them in C)
        st.tuples(st.just("ones"), timed),
        st.tuples(st.just("many"), st.lists(ev, max_size=8)),
        st.tuples(st.sampled_from(("iter", "checkpoint", "destroy", "stopstart", "echo")), st.just(None)),
        # the listener keeps the next delivery's list, its first row, or that row's dict
        st.tuples(st.just("keep"), st.sampled_from(("list", "bean", "dict"))),
        st.tuples(st.just("stmt"), st.sampled_from(OTHERS)),
        st.tuples(st.just("advance"), st.sampled_from((1, 99, 100, 300)))), min_size=1, max_size=10)


# other statements beside the one under test (the front's raw append off while one lives)
OTHERS = ("select k, v from T(k = 'a')", "select * from T2", "select count(*) as c from T",
          "insert into T select k, v, n, x from T2(v = 5)", "select k from T#length(2)")


def run(text: str, ops: list, fusion: bool, checked: bool, thread_safe: bool = True) -> list:
    saved = engine_module.STABLE_SENDS
    engine_module.STABLE_SENDS = 1      # send's front inlines T early and again soon after a change
    try:
        return _run(text, ops, fusion, checked, thread_safe)
    finally:
        engine_module.STABLE_SENDS = saved


def _run(text: str, ops: list, fusion: bool, checked: bool, thread_safe: bool) -> list:
    engine = _engine(fusion, check_events=checked, thread_safe=thread_safe)
    log: list = []
    others: list = []
    echo = [0]
    keep: list = []         # what the listener is to keep of its next delivery
    kept: list = []         # (rows a listener keeps never change: looked at again at the end)

    def listener(new: Any, old: Any) -> None:
        log.append((engine.now, _rows(new), _rows(old)))
        if keep and new:
            what = keep.pop()
            kept.append((what, new if what == "list" else new[0] if what == "bean" else new[0].underlying,
                         _rows(new)))
        if echo[0]:
            echo[0] -= 1        # a send from inside the delivery (the batch's end)
            engine.send({"k": "e", "v": 1, "n": 1, "x": 0.5}, "T")
            # (queued: not in the window before the delivery returns)
            log.append(("echo", sorted(repr(sorted(r.items())) for r in box[0].rows())))
    box: list = []
    stmt = engine.epl(f"@name('s') {text}")
    box.append(stmt)
    stmt.add_listener(listener)
    if fusion and text == STATEMENTS[0]:
        assert is_fused(stmt)
    for op, a, *b in ops:
        if op == "many_t":
            now, times = engine.now, []
            for dt, _ in a:
                now += dt
                times.append(now)
            evs = [dict(e) for _, e in a]
            types = ["T2" if "extra" in e else "T" for e in evs]
            if "T2" in types:
                engine.send_many(evs, times=times, types=types)
            else:       # (one type: the fused loop's case)
                engine.send_many(evs, "T", times=times)
        elif op == "one":
            engine.advance_time(engine.now + a)
            engine.send(dict(b[0]), "T2" if "extra" in b[0] else "T")
        elif op == "ones":
            for dt, e in a:
                engine.advance_time(engine.now + dt)
                engine.send(dict(e), "T2" if "extra" in e else "T")
        elif op == "many":
            engine.send_many([dict(e) for e in a if "extra" not in e], "T")
        elif op == "advance":
            engine.advance_time(engine.now + a)
        elif op == "stmt":
            others.append(engine.epl(a))
            others[-1].add_listener(lambda new, old, _n=len(others): log.append((_n, _rows(new), _rows(old))))
        elif op == "destroy":
            if others:
                others.pop(0).destroy()
        elif op == "stopstart":
            stmt.stop()
            stmt.start()
        elif op == "echo":
            echo[0] += 2
        elif op == "keep":
            keep[:] = [a]
        elif op == "iter":
            log.append(("iter", sorted(repr(sorted(r.items())) for r in stmt.rows())))
        elif op == "checkpoint":
            engine = Engine.restore(engine.checkpoint(), listeners={"s": listener})
            stmt = box[0] = engine.statement("s")
            others = []     # (their listeners were not restored)
    engine.advance_time(engine.now + 1000)
    log.append(("end", sorted(repr(sorted(r.items())) for r in stmt.rows())))
    # the groups' state the statement keeps: groups that left are dropped
    aggs = stmt._instances[0].processor.aggs
    log.append(("groups", sorted(map(repr, aggs.refcounts.items())), sorted(map(repr, aggs.groups))))
    for what, obj, rows in kept:
        now = _rows(obj) if what == "list" else _rows([obj]) if what == "bean" else [sorted(obj.items())]
        assert now == (rows if what == "list" else rows[:1]), what
    log.append(("kept", len(kept)))
    return log


@pytest.mark.parametrize("thread_safe", [True, False])
@settings(max_examples=120, deadline=None)
@given(st.sampled_from(STATEMENTS), script(True))
def test_grouped_time_batch_as_the_general_chain(thread_safe: bool, text: str, ops: list) -> None:
    assert run(text, ops, True, True, thread_safe) == run(text, ops, False, True, thread_safe)


@pytest.mark.parametrize("thread_safe", [True, False])
@settings(max_examples=60, deadline=None)
@given(st.sampled_from(STATEMENTS), script(False))
def test_grouped_time_batch_unchecked_as_the_general_chain(thread_safe: bool, text: str, ops: list) -> None:
    # (repr: equal keys of other types, 1 and True, told apart)
    assert repr(run(text, ops, True, False, thread_safe)) == repr(run(text, ops, False, False, thread_safe))


def _batch(n: int, start: int = 0) -> tuple[list, list]:
    evs = [{"k": KEYS[i % 3], "v": i, "n": 2 * i, "x": 0.5} for i in range(n)]
    return evs, list(range(start, start + n))


def test_iteration_mid_batch_shows_the_batch() -> None:
    """The batch holds dicts: iteration makes events of them (its first event's type)."""
    seen = []
    for fusion in (True, False):
        engine = _engine(fusion)
        stmt = engine.epl("select k, sum(v) as s, count(*) as c from T#time_batch(1 sec) group by k")
        evs, times = _batch(10)
        engine.send_many(evs[:4], "T", times=times[:4])
        engine.advance_time(1000)       # (a batch posted: the aggregates hold it)
        engine.send_many(evs, "T", times=[t + 1000 for t in times])
        window = stmt._instances[0].views[0][0]
        assert [b.underlying for b in window] == evs
        assert {b.event_type.name for b in window} == {"T"}
        assert (type(window).__name__ == "RawBatchWindow") is fusion
        seen.append(sorted((r["k"], r["s"], r["c"]) for r in stmt.rows()))
    assert seen[0] == seen[1] == [("a", 3, 2), ("b", 1, 1), ("c", 2, 1)]


def test_events_sent_one_by_one_join_the_split_in_order() -> None:
    """Events that joined the batch through send between two timed batches are split when
    the timed loop starts again (and not summed as checked ones): each group's sums and
    last event as with the general chain."""
    logs = []
    for fusion in (True, False):
        engine = _engine(fusion)
        log: list = []
        engine.epl("select k, sum(v) as s from T#time_batch(1 sec) group by k").add_listener(
            lambda new, old, _l=log: _l.append(_rows(new)))
        evs, times = _batch(6)
        engine.send_many(evs[:3], "T", times=times[:3])
        engine.send({"k": "a", "v": 100, "n": 1, "x": 0.5}, "T")
        engine.send({"k": "z", "v": 7, "n": 1, "x": 0.5}, "T")
        engine.send({"k": "b", "v": None, "n": 1, "x": 0.5}, "T")     # (a null: summed as the chain does)
        engine.send_many(evs[3:], "T", times=times[3:])
        engine.advance_time(2500)
        logs.append(log)
    assert logs[0] == logs[1]
    assert sorted(map(repr, logs[0][0])) == sorted(map(repr, [[("k", "a"), ("s", 103)], [("k", "b"), ("s", 5)],
                                                              [("k", "c"), ("s", 7)], [("k", "z"), ("s", 7)]]))


def test_a_batch_begun_by_a_subtype_event_keeps_beans() -> None:
    """A batch whose first event is of a subtype: the loops leave it to send's path, so
    every event keeps its own type when iterated."""
    engine = _engine(True)
    stmt = engine.epl("select k, sum(v) as s from T#time_batch(1 sec) group by k")
    got: list = []
    stmt.add_listener(lambda new, old: got.extend((r["k"], r["s"]) for r in new))
    engine.send({"k": "a", "v": 1, "n": 1, "x": 0.5, "extra": 3}, "T2")
    evs, times = _batch(4, 1)
    engine.send_many(evs, "T", times=times)
    engine.send_many(evs, "T")
    window = stmt._instances[0].views[0][0]
    assert [b.event_type.name for b in window] == ["T2"] + ["T"] * 8
    engine.advance_time(1000)
    assert sorted(got) == [("a", 7), ("b", 2), ("c", 4)]


@pytest.mark.parametrize("aggs", ["sum(v) as s", "count(*) as c, sum(v) as s, sum(n) as t"])
def test_a_double_key_shows_its_groups_last_event(aggs: str) -> None:
    """0.0 and -0.0 are one group: its row shows the key as the group's last event in the
    update has it (the old batch's, for a group in both), as the general chain does."""
    logs = []
    for fusion in (True, False):
        engine = _engine(fusion)
        log: list = []
        engine.epl(f"select x, {aggs} from T#time_batch(100 msec) group by x").add_listener(
            lambda new, old, _l=log: _l.append([repr(r["x"]) for r in new or ()]))
        xs = [0.0, -0.0, 0.0, 0.0, -0.0, 0.5]
        evs = [{"k": "a", "v": 1, "n": 1, "x": x} for x in xs]
        engine.send_many(evs, "T", times=[0, 1, 100, 101, 250, 300])
        engine.advance_time(500)
        logs.append(log)
    # (a group in both batches: the old batch's last event; one that left: a null row)
    assert logs[0] == logs[1] == [["-0.0"], ["-0.0"], ["0.0"], ["0.5", "-0.0"]]


@pytest.mark.parametrize("odd", [None, {"k": True}, {"k": 1.0}, {"v": None}, {"v": 2.5}, {"v": True},
                                 {"extra": 1}, "missing k", "missing v"])
def test_a_batch_of_per_event_sends_as_the_general_chain(odd: Any) -> None:
    """A batch filled through advance_time + send alone (its end splits it in C when every
    event is a dict holding the key and the value, each of its usual type exactly; else the
    general steps): one odd event among them, unchecked, against fusion off (repr: 1 and
    True told apart)."""
    logs = []
    for fusion in (True, False):
        engine = _engine(fusion, check_events=False)
        log: list = []
        stmt = engine.epl("select k, sum(v) as s from T#time_batch(100 msec) group by k")
        stmt.add_listener(lambda new, old, _l=log: _l.append(_rows(new)))
        for i in range(30):
            ev = {"k": (1, "a", "b")[i % 3], "v": i, "n": 1, "x": 0.5}
            if i == 27 and odd is not None:     # (the last event of its batch in its group)
                if isinstance(odd, str):
                    del ev[odd[-1]]
                else:
                    ev.update(odd)
            engine.advance_time(i * 9)
            engine.send(ev, "T2" if "extra" in ev else "T")
            if i == 20:
                log.append(("iter", sorted(repr(sorted(r.items())) for r in stmt.rows())))
        engine.advance_time(1000)
        logs.append(repr(log))
    assert logs[0] == logs[1]


def _locked_sends(engine: Engine, evs: list, start: int) -> int:
    """How many of these per-event sends took the engine's lock in send's front."""
    with counted_acquires(engine) as count:
        for i, ev in enumerate(evs):
            engine.advance_time(start + i)
            engine.send(dict(ev), "T")
    return count[0]


def test_a_steady_batch_is_appended_without_the_lock_until_its_state_changes() -> None:
    """send's front appends the later events of a batch without the lock only while that is
    all their processing does: the first event of each batch, a second statement on T, a
    statement on the subtype, events the check does not pass on its fast path and events
    sent while the lock is held take it; the results are the general chain's."""
    results = []
    for fusion in (True, False):
        engine = _engine(fusion)
        got: list = []
        stmt = engine.epl("select k, sum(v) as s from T#time_batch(1 sec) group by k")
        stmt.add_listener(lambda new, old: got.append(sorted((r["k"], r["s"]) for r in new)))
        evs = [{"k": KEYS[i % 3], "v": i, "n": 1, "x": 0.5} for i in range(40)]
        _locked_sends(engine, evs, 0)                  # (the front inlines T)
        counts = [_locked_sends(engine, evs, 1000)]     # a new batch: its first event locked
        sub = engine.epl("select count(*) as c from T2")       # (T events do not reach it)
        counts.append(_locked_sends(engine, evs, 1100))
        other = engine.epl("select count(*) as c from T")
        counts.append(_locked_sends(engine, evs, 2000))
        other.destroy()
        sub.destroy()
        counts.append(_locked_sends(engine, evs, 3000))     # (inlined again after a few sends)
        counts.append(_locked_sends(engine, [dict(evs[0], v=None)] * 5, 3100))   # (not the fast path)
        with engine.lock:
            counts.append(_locked_sends(engine, evs[:5], 3200))
        engine.advance_time(5000)
        if fusion:
            assert counts[0] == 1 and counts[1] <= 2 and counts[2] == 40 and counts[3] <= 12 \
                and counts[4:] == [5, 5], counts
        results.append(got)
    assert results[0] == results[1]

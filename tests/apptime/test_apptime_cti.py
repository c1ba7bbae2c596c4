"""CTIs: by hand, generated every N events or every time span with a delay, imported from
another input, the final CTI; application time as the minimum over inputs."""
from __future__ import annotations

from datetime import timedelta

import pytest
from apptime_support import listen

from engine import Engine
from engine.apptime import CtiGeneration, ShiftEventTime, clock


def _engine() -> Engine:
    engine = Engine(time="simulated")
    engine.epl("create schema P(id int, t long) starttimestamp t")
    engine.epl("create schema L(k string, t long) starttimestamp t")
    return engine


def test_events_are_held_until_a_cti_commits_them_and_released_in_start_order() -> None:
    engine = _engine()
    rec = listen(engine, "select id from P")
    inp = engine.input("P")
    for i, t in [(1, 30), (2, 10), (3, 20), (4, 10)]:
        inp.enqueue({"id": i, "t": t})
    assert rec.calls == []
    inp.enqueue_cti(25)          # commits what lies strictly before 25
    assert rec.calls == [(10, [{"id": 2}], []), (10, [{"id": 4}], []), (20, [{"id": 3}], [])]
    assert engine.now == 25
    inp.enqueue_cti(31)
    assert rec.calls[-1] == (30, [{"id": 1}], [])
    assert engine.now == 31


def test_a_cti_every_10_events_with_a_5_second_delay() -> None:
    # AdvanceTimeGenerationSettings(10, TimeSpan.FromSeconds(5), true)
    engine = _engine()
    rec = listen(engine, "select id from P")
    inp = engine.input("P", generate=CtiGeneration(every_events=10, delay=timedelta(seconds=5),
                                                   final_cti=True))
    for i in range(1, 10):
        inp.enqueue({"id": i, "t": i * 1000})
    assert inp.cti == 0 and rec.calls == []
    inp.enqueue({"id": 10, "t": 10_000})            # the 10th event: CTI at 10 s - 5 s
    assert inp.cti == 5_000
    assert [r["id"] for _, r in rec.inserts()] == [1, 2, 3, 4]
    assert inp.enqueue({"id": 11, "t": 6_000})      # 4 s late: within the grace period
    assert not inp.enqueue({"id": 12, "t": 4_000})  # 6 s late: violates the CTI, dropped
    assert inp.violations.dropped == 1
    for i in range(13, 21):
        inp.enqueue({"id": i, "t": i * 1000})       # the 20th event (id 20) -> CTI 15 s
    assert inp.cti == 15_000
    assert [r["id"] for _, r in rec.inserts()] == [1, 2, 3, 4, 5, 6, 11, 7, 8, 9, 10, 13, 14]
    inp.close()                                      # the final CTI flushes the rest
    assert [r["id"] for _, r in rec.inserts()][-6:] == [15, 16, 17, 18, 19, 20]
    assert all(t == r["id"] * 1000 or r["id"] == 11 for t, r in rec.inserts())


def test_result_liveliness_needs_a_cti_one_tick_after_each_point() -> None:
    def run(delay: int) -> list:
        engine = _engine()
        rec = listen(engine, "select irstream id from P#interval()")
        inp = engine.input("P", generate=CtiGeneration(every_events=1, delay=delay))
        seen = []
        for i, t in [(1, 100), (2, 200), (3, 300)]:
            inp.enqueue({"id": i, "t": t})
            seen.append([r["id"] for _, r in rec.inserts()])
        return seen

    # delay 0: the CTI equals the point's start, which it does not commit: one event behind
    assert run(0) == [[], [1], [1, 2]]
    # delay -1 tick: each point is committed as soon as it is enqueued
    assert run(-1) == [[1], [1, 2], [1, 2, 3]]


def test_cti_every_time_span() -> None:
    engine = _engine()
    inp = engine.input("P", generate=CtiGeneration(every_span=10_000, delay=1_000))
    inp.enqueue({"id": 1, "t": 5_000})
    inp.enqueue({"id": 2, "t": 14_000})
    assert inp.cti == 0
    inp.enqueue({"id": 3, "t": 15_000})      # 10 s after the first
    assert inp.cti == 14_000
    inp.enqueue({"id": 4, "t": 24_000})
    assert inp.cti == 14_000
    inp.enqueue({"id": 5, "t": 25_500})
    assert inp.cti == 24_500


def test_application_time_is_the_minimum_cti_of_all_inputs() -> None:
    engine = _engine()
    rec = listen(engine, "select * from P")
    recl = listen(engine, "select * from L")
    p, lk = engine.input("P"), engine.input("L")
    p.enqueue({"id": 1, "t": 10})
    lk.enqueue({"k": "x", "t": 20})
    p.enqueue_cti(100)
    assert rec.calls == [] and engine.now == 0      # L has had no CTI: nothing is committed
    lk.enqueue_cti(50)
    assert [t for t, _, _ in rec.calls + recl.calls] == [10, 20]
    assert engine.now == 50 == clock(engine).application_time
    lk.enqueue_cti(200)
    assert engine.now == 100


def test_a_slow_input_imports_the_ctis_of_a_fast_one() -> None:
    engine = _engine()
    rec = listen(engine, "select * from L")
    fast = engine.input("P", generate=CtiGeneration(every_events=1, delay=-1))
    slow = engine.input("L", import_from=fast, policy="adjust")
    slow.enqueue({"k": "ref", "t": 0})
    for i in range(1, 4):
        fast.enqueue({"id": i, "t": i * 10})
    assert slow.cti == 31 and engine.now == 31
    assert rec.calls == [(0, [{"k": "ref", "t": 0}], [])]
    # a reference point older than the imported CTI violates it
    assert not slow.enqueue({"k": "late", "t": 5})
    assert slow.violations.dropped == 1
    slow.enqueue({"k": "next", "t": 35})
    fast.enqueue({"id": 4, "t": 40})
    assert rec.calls[-1] == (35, [{"k": "next", "t": 35}], [])


def test_closing_without_a_final_cti_keeps_holding_application_time() -> None:
    engine = _engine()
    rec = listen(engine, "select * from P")
    p, lk = engine.input("P"), engine.input("L")
    p.enqueue({"id": 1, "t": 10})
    p.enqueue_cti(5)
    p.close()
    lk.enqueue_cti(1_000)
    assert rec.calls == [] and engine.now == 5
    with pytest.raises(RuntimeError):
        p.enqueue({"id": 2, "t": 20})


def test_ctis_never_move_backwards() -> None:
    engine = _engine()
    inp = engine.input("P")
    inp.enqueue_cti(100)
    inp.enqueue_cti(50)
    assert inp.cti == 100 and engine.now == 100


def test_a_new_input_starts_at_the_engine_time() -> None:
    engine = _engine()
    engine.advance_time(1_000)
    inp = engine.input("P")
    assert inp.cti == 1_000
    assert not inp.enqueue({"id": 1, "t": 999})
    assert inp.enqueue({"id": 2, "t": 1_000})


def test_shift_event_time_shifts_events_and_ctis() -> None:
    engine = _engine()
    rec = listen(engine, "select id from P")
    inp = engine.input("P", lifetime=[ShiftEventTime(1_000)])
    inp.enqueue({"id": 1, "t": 10})
    inp.enqueue_cti(11)
    assert rec.calls == [(1_010, [{"id": 1}], [])]
    assert engine.now == 1_011


def test_engine_time_is_at_each_event_start_while_it_is_processed() -> None:
    engine = _engine()
    stmt = engine.epl("select id, t, current_timestamp() as now from P")
    rows = []
    stmt.add_listener(lambda new, old: rows.extend(e.to_dict() for e in new))
    inp = engine.input("P")
    for i, t in [(1, 7), (2, 3), (3, 5)]:
        inp.enqueue({"id": i, "t": t})
    inp.enqueue_cti(10)
    assert [(r["t"], r["now"]) for r in rows] == [(3, 3), (5, 5), (7, 7)]


def test_inputs_need_simulated_time() -> None:
    engine = Engine()
    try:
        engine.epl("create schema P(id int, t long) starttimestamp t")
        with pytest.raises(ValueError):
            engine.input("P")
    finally:
        engine.close()

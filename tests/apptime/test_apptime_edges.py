"""Edge events: the start/end sequence of StreamInsight's reference, (1,10), (3,6), (5,20),
in arrival order and fully ordered."""
from __future__ import annotations

import pytest
from apptime_support import Recorder

from engine import Engine
from engine.apptime import INFINITY, Snapshot

EDGES = [("a", 1, 10), ("b", 3, 6), ("c", 5, 20)]


def _engine():
    engine = Engine(time="simulated")
    engine.epl("create schema Proc(name string)")
    stmt = engine.epl("select irstream name from Proc#interval()")
    rec = Recorder(engine)
    stmt.add_listener(rec)
    counts = Snapshot(engine.epl("select irstream count(*) as n from Proc#interval()"))
    return engine, rec, counts, engine.input("Proc", shape="edge")


def _run(steps) -> tuple[list, list]:
    engine, rec, counts, inp = _engine()
    payload = {name: {"name": name} for name, _, _ in EDGES}
    for kind, name, t in steps:
        if kind == "start":
            assert inp.enqueue_start(payload[name], t)
        elif kind == "end":
            start = next(s for n, s, _ in EDGES if n == name)
            assert inp.enqueue_end({"name": name}, t, start=start)   # an equal payload matches
        else:
            inp.enqueue_cti(t)
    inp.close(final_cti=True)
    # count(*) over an empty window is 0 (not null): no snapshot of StreamInsight's
    return rec.calls, [(r.start, r.end, r.values["n"]) for r in counts.rows() if r.values["n"]]


EXPECTED_COUNTS = [(1, 3, 1), (3, 5, 2), (5, 6, 3), (6, 10, 2), (10, 20, 1)]
EXPECTED_CALLS = [
    (1, [{"name": "a"}], []), (3, [{"name": "b"}], []), (5, [{"name": "c"}], []),
    (6, [], [{"name": "b"}]), (10, [], [{"name": "a"}]), (20, [], [{"name": "c"}]),
]


def test_edges_in_arrival_order_1_10_3_6_5_20() -> None:
    calls, counts = _run([("start", "a", 1), ("cti", None, 1), ("end", "a", 10),
                          ("start", "b", 3), ("cti", None, 3), ("end", "b", 6),
                          ("start", "c", 5), ("cti", None, 5), ("end", "c", 20)])
    assert calls == EXPECTED_CALLS
    assert counts == EXPECTED_COUNTS


def test_edges_fully_ordered_1_3_5_6_10_20() -> None:
    calls, counts = _run([("start", "a", 1), ("cti", None, 1), ("start", "b", 3),
                          ("cti", None, 3), ("start", "c", 5), ("cti", None, 5),
                          ("end", "b", 6), ("cti", None, 6), ("end", "a", 10),
                          ("cti", None, 10), ("end", "c", 20), ("cti", None, 20)])
    assert calls == EXPECTED_CALLS
    assert counts == EXPECTED_COUNTS


def test_a_start_edge_is_valid_until_further_notice() -> None:
    engine, rec, counts, inp = _engine()
    inp.enqueue_start({"name": "a"}, 1)
    inp.enqueue_cti(1_000_000)
    assert rec.calls == [(1, [{"name": "a"}], [])]
    assert [(r.start, r.end) for r in counts.rows()] == [(1, INFINITY)]
    inp.enqueue_end({"name": "a"}, 2_000_000, start=1)
    inp.enqueue_cti(3_000_000)
    assert rec.calls[-1] == (2_000_000, [], [{"name": "a"}])


def test_end_edge_checked_on_its_end_time() -> None:
    engine, rec, counts, inp = _engine()
    inp.enqueue_start({"name": "a"}, 1)
    inp.enqueue_start({"name": "b"}, 2)
    inp.enqueue_cti(50)
    assert inp.enqueue_end({"name": "a"}, 60, start=1)      # ends after the CTI: fine
    assert not inp.enqueue_end({"name": "b"}, 40, start=2)  # ends before it: dropped
    assert inp.violations.dropped == 1
    inp.enqueue_cti(100)
    assert rec.removes() == [(60, {"name": "a"})]           # b stays open


def test_unmatched_end_edges_are_counted() -> None:
    engine, rec, counts, inp = _engine()
    assert not inp.enqueue_end({"name": "z"}, 10, start=1)
    assert inp.violations.unmatched_end_edges == 1


def test_end_edges_do_not_count_for_cti_generation() -> None:
    from engine.apptime import CtiGeneration
    engine = Engine(time="simulated")
    engine.epl("create schema Proc(name string)")
    inp = engine.input("Proc", shape="edge", generate=CtiGeneration(every_events=2))
    inp.enqueue_start({"name": "a"}, 1)
    inp.enqueue_end({"name": "a"}, 5, start=1)
    inp.enqueue_end({"name": "a"}, 5, start=1)               # unmatched now: still no count
    assert inp.cti == 0
    inp.enqueue_start({"name": "b"}, 7)
    assert inp.cti == 7


def test_edge_inputs_refuse_point_calls_and_vice_versa() -> None:
    engine, rec, counts, inp = _engine()
    with pytest.raises(ValueError):
        inp.enqueue({"name": "a"}, 1)
    point = engine.input("Proc", shape="point")
    with pytest.raises(ValueError):
        point.enqueue_start({"name": "a"}, 1)

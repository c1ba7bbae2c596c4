"""CTI violation policies on the same late events: drop versus adjust; counts and the
engine's cti_violation signal."""
from __future__ import annotations

import pytest
from apptime_support import Recorder

from engine import Engine
from engine.apptime.violations import ViolationPolicy, judge

LATE = [  # (id, start, end) after a CTI at 100
    (1, 50, 150),    # reaches past the CTI: adjust moves its start to 100
    (2, 50, 100),    # ends exactly at the CTI: nothing left to keep
    (3, 80, 90),     # wholly before the CTI
    (4, 120, 130),   # on time
]


def _run(policy: str):
    engine = Engine(time="simulated")
    engine.epl("create schema Iv(id int, s long, e long) starttimestamp s endtimestamp e")
    engine.epl("create schema Pt(id int, s long) starttimestamp s")
    stmt = engine.epl("select irstream id from Iv#interval()")
    rec = Recorder(engine)
    stmt.add_listener(rec)
    signals = []
    engine.signals.cti_violation.connect(
        lambda sender, **kw: signals.append((kw["event"]["id"], kw["action"], kw["input"].name)),
        weak=False)
    iv, pt = engine.input("Iv", policy=policy), engine.input("Pt", policy=policy)
    iv.enqueue_cti(100)
    pt.enqueue_cti(100)
    accepted = [iv.enqueue({"id": i, "s": s, "e": e}) for i, s, e in LATE]
    accepted.append(pt.enqueue({"id": 9, "s": 99}))       # a late point ends at 100: dropped
    iv.close(final_cti=True)
    pt.close(final_cti=True)
    return rec.calls, accepted, iv.violations, pt.violations, signals


def test_drop_policy_drops_every_late_event() -> None:
    calls, accepted, iv, pt, signals = _run("drop")
    assert accepted == [False, False, False, True, False]
    assert (iv.dropped, iv.adjusted, pt.dropped) == (3, 0, 1)
    assert calls == [(120, [{"id": 4}], []), (130, [], [{"id": 4}])]
    assert signals == [(1, "dropped", "Iv"), (2, "dropped", "Iv"), (3, "dropped", "Iv"),
                       (9, "dropped", "Pt")]


def test_adjust_policy_moves_the_start_to_the_cti_when_the_event_reaches_past_it() -> None:
    calls, accepted, iv, pt, signals = _run("adjust")
    assert accepted == [True, False, False, True, False]
    assert (iv.dropped, iv.adjusted, pt.dropped) == (2, 1, 1)
    assert calls == [(100, [{"id": 1}], []), (120, [{"id": 4}], []), (130, [], [{"id": 4}]),
                     (150, [], [{"id": 1}])]
    assert signals == [(1, "adjusted", "Iv"), (2, "dropped", "Iv"), (3, "dropped", "Iv"),
                       (9, "dropped", "Pt")]


def test_adjusted_start_edges_start_at_the_cti() -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema Proc(name string)")
    rec = Recorder(engine)
    engine.epl("select irstream name from Proc#interval()").add_listener(rec)
    inp = engine.input("Proc", shape="edge", policy="adjust")
    inp.enqueue_cti(100)
    assert inp.enqueue_start({"name": "a"}, 40)
    assert inp.enqueue_end({"name": "a"}, 160, start=40)    # matched on its original start
    inp.close(final_cti=True)
    assert rec.calls == [(100, [{"name": "a"}], []), (160, [], [{"name": "a"}])]
    assert inp.violations.adjusted == 1


def test_judge_rules() -> None:
    assert judge(ViolationPolicy.DROP, 100, 150, 100) == (None, 100)
    assert judge(ViolationPolicy.DROP, 99, 150, 100) == ("dropped", 99)
    assert judge(ViolationPolicy.ADJUST, 99, 101, 100) == ("adjusted", 100)
    assert judge(ViolationPolicy.ADJUST, 99, 100, 100) == ("dropped", 99)
    assert judge(ViolationPolicy.ADJUST, 10, 99, 100, end_edge=True) == ("dropped", 10)
    assert judge(ViolationPolicy.ADJUST, 10, 100, 100, end_edge=True) == (None, 10)


def test_unknown_policy_is_refused() -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema Pt(id int, s long) starttimestamp s")
    with pytest.raises(ValueError):
        engine.input("Pt", policy="ignore")

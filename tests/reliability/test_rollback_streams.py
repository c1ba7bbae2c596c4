"""Rollback beyond plain event streams: a statement calling a registered aggregation that
raises skips the event whole when its stream is a pattern or a named window, and when the
failure comes from an event waiting in a batch window (the batch is processed when it posts,
and the event that raised leaves the batch). In each case its output equals that of a run
without the failing events."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine
from tests.reliability.rollback_model import (Fragile, failed_positions, failures, quiet_logs, record, run,
                                              steps)  # noqa: F401

STEPS = steps(max_size=14)
pytestmark = pytest.mark.usefixtures("quiet_logs")


@pytest.mark.parametrize("window", ["#length_batch(3)", "#groupwin(g)#length_batch(2)",
                                    "#time_batch(2 sec, 0L)"])
@settings(max_examples=40, deadline=None)
@given(steps=STEPS)
def test_event_failing_when_its_batch_posts_leaves_the_batch(window, steps):
    """A time batch keeps the timing the failing event gave it (it started the batch's
    timer): the comparison uses a reference point, which fixes batch ends to the clock."""
    epl = f"select irstream g, fragile(v) as f, count(*) as c from S{window} group by g"
    out, rows, bad, timer_faults = run(epl, steps)
    assert timer_faults == 0            # the failing event is found in the batch
    out2, rows2, bad2, _ = run(epl, steps, skip=set(bad))
    assert bad2 == []
    assert out == out2
    if "groupwin" in window:     # the event made its group's window first: iteration order
        rows, rows2 = sorted(map(repr, rows)), sorted(map(repr, rows2))
    assert rows == rows2


def test_batch_does_not_stay_stuck_on_an_early_failing_event():
    """Before, an event failing when its batch posted kept the batch pending for good: every
    later batch end failed on it again."""
    out, _rows, bad, timer_faults = run("select fragile(v) as f from S#length_batch(2)",
                                        [(0, 3, "a"), (0, 1, "a"), (0, 2, "a"), (0, 4, "a"),
                                         (0, 5, "a")])
    assert bad == [0] and timer_faults == 0
    assert out == [([{"f": 3}], []), ([{"f": 9}], [])]


PATTERNS = ["every a=A -> b=B(id = a.id)",
            "every a=A -> b=B(id = a.id) where timer:within(2 sec)",
            "every (a=A and b=B(id = a.id))",
            "every a=A -> (b=B(id = a.id) and not A(id = a.id))"]
PATTERN_STEPS = st.lists(st.tuples(st.integers(0, 1500), st.sampled_from("AB"),
                                   st.integers(0, 2), st.integers(0, 20)), max_size=14)


def run_pattern(pattern: str, steps, skip=()):
    eng = Engine(time="simulated")
    eng.register_aggregation("fragile", Fragile)
    eng.epl("create schema A(id int, v int)")
    eng.epl("create schema B(id int, v int)")
    stmt = eng.epl(f"select a.id as id, fragile(b.v) as f, count(*) as c from pattern[{pattern}]")
    out = record(stmt)
    failed = failures(eng)
    sent: list = []
    now = 0
    eng.advance_time(0)
    for i, (gap, kind, key, v) in enumerate(steps):
        now += gap
        eng.advance_time(now)
        e = {"id": key, "v": v}
        sent.append(e)
        if i not in skip:
            eng.send(e, kind)
    eng.advance_time(now + 5000)
    bad = failed_positions(sent, failed)
    return out, bad, sum(1 for f in failed if f is None)


@pytest.mark.parametrize("pattern", PATTERNS)
@settings(max_examples=60, deadline=None)
@given(steps=PATTERN_STEPS)
def test_pattern_statement_skips_the_failing_event_whole(pattern, steps):
    """The pattern's own state (waiting instances, their filters, `within` timers) goes back
    too: the instances a failing B would have completed still wait."""
    out, bad, timer_faults = run_pattern(pattern, steps)
    assert timer_faults == 0
    out2, bad2, _ = run_pattern(pattern, steps, skip=set(bad))
    assert bad2 == []
    assert out == out2


def run_consumer(window: str, steps, skip=()):
    eng = Engine(time="simulated")
    eng.register_aggregation("fragile", Fragile)
    eng.epl("create schema S(v int, g string)")
    eng.epl(f"create window W{window} as S")
    eng.epl("insert into W select * from S")
    stmt = eng.epl("select irstream g, fragile(v) as f, count(*) as c from W group by g")
    other = eng.epl("select count(*) as n from W")
    out = record(stmt, old=True)
    counts: list = []
    other.add_listener(lambda new, old: counts.append(new[0].get("n")))
    failed = failures(eng)
    sent: list = []
    for i, (_gap, v, g) in enumerate(steps):
        e = {"v": v, "g": g}
        sent.append(e)
        if i not in skip:
            eng.send(e, "S")
    bad = failed_positions(sent, failed)
    return out, bad, counts


@settings(max_examples=60, deadline=None)
@given(steps=STEPS)
def test_named_window_consumer_skips_the_failing_change(steps):
    """A consumer of a named window that raises on a change skips that change alone: the
    window keeps the event (it is not the consumer's state), other consumers see it, and
    the send does not raise."""
    out, bad, counts = run_consumer("#keepall", steps)
    assert counts == list(range(1, len(steps) + 1))
    out2, bad2, _ = run_consumer("#keepall", steps, skip=set(bad))
    assert bad2 == []
    assert out == out2


def run_subquery(steps, skip=()):
    eng = Engine(time="simulated")
    eng.register_aggregation("fragile", Fragile)
    eng.epl("create schema S(v int, g string)")
    eng.epl("create schema T(g string)")
    stmt = eng.epl("select g, (select fragile(v) from S#length(3)) as f, "
                   "(select count(*) from S#length(3)) as c from T")
    out = record(stmt)
    failed = failures(eng)
    sent: list = []
    for i, (_gap, v, g) in enumerate(steps):
        e = {"v": v, "g": g}
        sent.append(e)
        if i not in skip:
            eng.send(e, "S")
        eng.send({"g": g}, "T")
    bad = failed_positions(sent, failed)
    return out, bad


@settings(max_examples=60, deadline=None)
@given(steps=STEPS)
def test_subquery_window_skips_the_failing_event(steps):
    out, bad = run_subquery(steps)
    out2, bad2 = run_subquery(steps, skip=set(bad))
    assert bad2 == []
    assert out == out2

"""Properties of application time (hypothesis):
- any arrival order that respects the declared slack gives the output of the ordered input
  (intervals and edges);
- the snapshot over point events altered to duration w equals `#time(w)`, and both equal a
  brute-force snapshot;
- every CTI violation is either dropped or adjusted, counted and signalled, never lost.
"""
from __future__ import annotations

from apptime_support import Recorder
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine
from engine.apptime import AlterEventDuration, CtiGeneration, Snapshot, snapshot_rows
from engine.apptime.violations import ViolationPolicy, judge

SETTINGS = settings(max_examples=120, deadline=None)

interval_events = st.lists(
    st.tuples(st.integers(0, 300), st.integers(1, 80), st.integers(0, 9)),   # start, length, v
    min_size=1, max_size=20)


@st.composite
def slack_orders(draw, events_strategy=interval_events):
    """Events, a slack D, and an arrival order in which no event is more than D late."""
    events = draw(events_strategy)
    slack = draw(st.integers(0, 60))
    jitter = [draw(st.integers(0, max(slack - 1, 0))) for _ in events]
    order = sorted(range(len(events)), key=lambda i: events[i][0] + jitter[i])
    return events, slack, order


def _interval_run(events, order, slack, every):
    engine = Engine(time="simulated")
    engine.epl("create schema E(id int, v int, s long, e long) starttimestamp s endtimestamp e")
    recs = []
    for epl in ("select irstream id from E#interval()",
                "select irstream count(*) as n, sum(v) as total from E#interval()",
                "select irstream id, v from E#time(40)"):
        rec = Recorder(engine)
        engine.epl(epl).add_listener(rec)
        recs.append(rec)
    inp = engine.input("E", generate=CtiGeneration(every_events=every, delay=slack, final_cti=True))
    for i in order:
        s, length, v = events[i]
        assert inp.enqueue({"id": i, "v": v, "s": s, "e": s + length})
    inp.close()
    assert inp.violations.total == 0
    return [r.calls for r in recs], engine.now


@SETTINGS
@given(slack_orders(), st.integers(1, 5))
def test_any_order_within_the_slack_gives_the_ordered_output(case, every) -> None:
    events, slack, order = case
    ordered = sorted(order, key=lambda i: events[i][0])     # stable: ties keep arrival order
    assert _interval_run(events, order, slack, every) == _interval_run(events, ordered, slack, every)


def _edge_run(steps, slack, every):
    engine = Engine(time="simulated")
    engine.epl("create schema P(id int)")
    rec = Recorder(engine)
    engine.epl("select irstream id from P#interval()").add_listener(rec)
    counts = Snapshot(engine.epl("select irstream count(*) as n from P#interval()"))
    inp = engine.input("P", shape="edge",
                       generate=CtiGeneration(every_events=every, delay=slack, final_cti=True))
    for kind, i, start, end in steps:
        if kind == "start":
            assert inp.enqueue_start({"id": i}, start)
        else:
            assert inp.enqueue_end({"id": i}, end, start=start)
    inp.close()
    assert inp.violations.total == 0
    return rec.calls, counts.rows()


@SETTINGS
@given(interval_events, st.integers(0, 60), st.integers(1, 4), st.data())
def test_edges_in_any_order_within_the_slack_give_the_ordered_output(events, slack, every, data) -> None:
    steps = []      # (arrival key, kind, id, start, end)
    for i, (s, length, _) in enumerate(events):
        ks = s + data.draw(st.integers(0, max(slack - 1, 0)))
        ke = max(s + length + data.draw(st.integers(0, max(slack - 1, 0))), ks + 0.5)
        steps.append((ks, "start", i, s, s + length))
        steps.append((ke, "end", i, s, s + length))
    arrival = [x[1:] for x in sorted(steps, key=lambda x: x[0])]
    ordered = sorted(arrival, key=lambda x: x[2] if x[0] == "start" else x[3])
    assert _edge_run(arrival, slack, every) == _edge_run(ordered, slack, every)


points = st.lists(st.tuples(st.integers(0, 400), st.integers(0, 9)), min_size=1, max_size=25)


def _brute_force(readings, w):
    bounds = sorted({t for t, _ in readings} | {t + w for t, _ in readings})
    rows = []
    for a, b in zip(bounds, bounds[1:]):
        live = [v for t, v in readings if t <= a < t + w]
        if live:
            rows.append((a, b, len(live), sum(live)))
    return _coalesce(rows)


def _coalesce(rows):
    out = []
    for r in rows:
        if out and out[-1][1] == r[0] and out[-1][2:] == r[2:]:
            out[-1] = (out[-1][0], r[1]) + r[2:]
        else:
            out.append(r)
    return out


@SETTINGS
@given(points, st.integers(1, 120))
def test_snapshot_over_altered_durations_equals_time_window(readings, w) -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema P(v int, t long) starttimestamp t")
    engine.epl("create schema Q(v int, t long) starttimestamp t")
    recs, snaps = [], []
    for epl in (f"select irstream count(*) as n, sum(v) as total from P#time({w} msec)",
                "select irstream count(*) as n, sum(v) as total from Q#interval()"):
        stmt = engine.epl(epl)
        rec = Recorder(engine)
        stmt.add_listener(rec)
        recs.append(rec)
        snaps.append(Snapshot(stmt))
    gen = CtiGeneration(every_events=1, delay=0, final_cti=True)   # ties stay on time
    p = engine.input("P", generate=gen)
    q = engine.input("Q", generate=gen, lifetime=[AlterEventDuration(w)])
    for t, v in sorted(readings, key=lambda r: r[0]):
        p.enqueue({"v": v, "t": t})
        q.enqueue({"v": v, "t": t})
    p.close()
    q.close()
    assert p.violations.total == q.violations.total == 0
    assert recs[0].calls == recs[1].calls
    rows = [_coalesce([(r.start, r.end, r.values["n"], r.values["total"])
                       for r in s.rows() if r.values["n"]]) for s in snaps]
    assert rows[0] == rows[1] == _brute_force(readings, w)


@SETTINGS
@given(st.lists(st.one_of(
           st.tuples(st.just("cti"), st.integers(0, 200)),
           st.tuples(st.just("ev"), st.integers(0, 200), st.integers(1, 50))), max_size=30),
       st.sampled_from(["drop", "adjust"]))
def test_every_violation_is_dropped_or_adjusted_never_lost(script, policy) -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema E(id int, s long, e long) starttimestamp s endtimestamp e")
    rec = Recorder(engine)
    engine.epl("select irstream id from E#interval()").add_listener(rec)
    signalled = []
    engine.signals.cti_violation.connect(lambda sender, **kw: signalled.append(kw["action"]),
                                         weak=False)
    inp = engine.input("E", policy=policy)
    cti, expected_start, dropped, adjusted, n = 0, {}, 0, 0, 0
    for step in script:
        if step[0] == "cti":
            inp.enqueue_cti(step[1])
            cti = max(cti, step[1])
            continue
        _, s, length = step
        action, start = judge(ViolationPolicy(policy), s, s + length, cti)   # the model
        accepted = inp.enqueue({"id": n, "s": s, "e": s + length})
        assert accepted == (action != "dropped")
        if accepted:
            expected_start[n] = start
        dropped += action == "dropped"
        adjusted += action == "adjusted"
        n += 1
    inp.close(final_cti=True)
    released = {r["id"]: t for t, r in rec.inserts()}
    assert released == expected_start                      # adjusted ones start at the CTI
    assert len(released) + dropped == n
    assert (inp.violations.dropped, inp.violations.adjusted) == (dropped, adjusted)
    assert sorted(signalled) == sorted(["dropped"] * dropped + ["adjusted"] * adjusted)
    assert {r["id"] for _, r in rec.removes()} == set(released)   # and each one ends
    assert not any(r.is_open for r in snapshot_rows(rec.calls))      # nothing left open

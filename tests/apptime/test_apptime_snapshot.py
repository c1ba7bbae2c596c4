"""Snapshot windows: aggregation over the interval window, the three-minute sliding average
over altered durations (StreamInsight), and `#time(w)` as its Odysseus equivalent."""
from __future__ import annotations

from apptime_support import listen

from engine import Engine
from engine.apptime import INFINITY, AlterEventDuration, CtiGeneration, Snapshot, SnapshotRow, snapshot_rows

MIN = 60_000


def _sliding(values: list[tuple[int, int]], epl: str, lifetime=(), until=None) -> Snapshot:
    engine = Engine(time="simulated")
    engine.epl("create schema Reading(value double, t long) starttimestamp t")
    snap = Snapshot(engine.epl(epl))
    inp = engine.input("Reading", lifetime=lifetime,
                       generate=CtiGeneration(every_events=1, delay=-1, final_cti=True))
    for t, v in values:
        inp.enqueue({"value": v, "t": t})
    if until is not None:
        inp.enqueue_cti(until)
    inp.close()
    return snap


READINGS = [(0, 3), (1 * MIN, 1), (2 * MIN, 2)]
SLIDING_AVG = [(0, MIN, 3.0), (MIN, 2 * MIN, 2.0), (2 * MIN, 3 * MIN, 2.0),
               (3 * MIN, 4 * MIN, 1.5), (4 * MIN, 5 * MIN, 2.0)]


def test_three_minute_sliding_average_by_snapshot_over_altered_durations() -> None:
    # inputStream.AlterEventDuration(e => TimeSpan.FromMinutes(3)).SnapshotWindow() / Avg
    snap = _sliding(READINGS, "select irstream avg(value) as average from Reading#interval()",
                    lifetime=[AlterEventDuration(3 * MIN)])
    rows = [(r.start, r.end, r.values["average"]) for r in snap.rows()]
    assert rows == SLIDING_AVG
    # the fourth row: 1.5 from when the 3 falls out until right before the 1 does
    assert rows[3] == (3 * MIN, 4 * MIN, 1.5)


def test_the_same_sliding_average_with_a_time_window_over_points() -> None:
    # the final CTI moves time to the last known lifetime end (a point's): a time window
    # needs time to pass, here a CTI at 10 minutes
    snap = _sliding(READINGS, "select irstream avg(value) as average from Reading#time(3 min)",
                    until=10 * MIN)
    assert [(r.start, r.end, r.values["average"]) for r in snap.rows()] == SLIDING_AVG


def test_coalesce_merges_adjacent_equal_rows() -> None:
    snap = _sliding(READINGS, "select irstream avg(value) as average from Reading#interval()",
                    lifetime=[AlterEventDuration(3 * MIN)])
    assert [(r.start, r.end, r.values["average"]) for r in snap.rows(coalesce=True)] == \
        [(0, MIN, 3.0), (MIN, 3 * MIN, 2.0), (3 * MIN, 4 * MIN, 1.5), (4 * MIN, 5 * MIN, 2.0)]


def test_grouped_snapshot_rows() -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema M(meter string, kw int, s long, e long) starttimestamp s endtimestamp e")
    snap = Snapshot(engine.epl("select irstream meter, sum(kw) as total from M#interval() group by meter"))
    inp = engine.input("M")
    for m, kw, s, e in [("a", 1, 0, 10), ("b", 5, 2, 6), ("a", 2, 4, 8)]:
        inp.enqueue({"meter": m, "kw": kw, "s": s, "e": e})
    inp.enqueue_cti(20)
    rows = sorted((r.values["meter"], r.start, r.end, r.values["total"])
                  for r in snap.rows(key=["meter"]))
    assert rows == [("a", 0, 4, 1), ("a", 4, 8, 3), ("a", 8, 10, 1), ("b", 2, 6, 5)]


def test_snapshot_rows_options() -> None:
    updates = [(0, [{"n": 1}], [{"n": None}]), (5, [{"n": 2}], [{"n": 1}]),
               (5, [{"n": 3}], [{"n": 2}]), (9, [{"n": None}], [{"n": 3}])]
    assert snapshot_rows(updates) == [SnapshotRow(0, 5, {"n": 1}), SnapshotRow(5, 9, {"n": 3})]
    assert snapshot_rows(updates, keep_null=True)[-1] == SnapshotRow(9, INFINITY, {"n": None})
    assert snapshot_rows(updates[:2], include_open=False) == [SnapshotRow(0, 5, {"n": 1})]
    keyed = [(0, [{"k": "a", "n": 1}], None), (3, [{"k": "a", "n": 2}], [{"k": "a", "n": 9}])]
    assert snapshot_rows(keyed, key=["k"]) == [SnapshotRow(0, 3, {"k": "a", "n": 1}),
                                               SnapshotRow(3, INFINITY, {"k": "a", "n": 2})]


def test_un_aggregated_rows_of_the_window() -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema Iv(id int, s long, e long) starttimestamp s endtimestamp e")
    rec = listen(engine, "select irstream id from Iv#interval()")
    snap = Snapshot(engine.statements[-1])
    inp = engine.input("Iv")
    inp.enqueue({"id": 1, "s": 5, "e": 9})
    inp.enqueue({"id": 2, "s": 1, "e": 7})
    inp.enqueue_cti(10)
    assert [(r.start, r.end, r.values["id"]) for r in snap.rows()] == [(1, 7, 2), (5, 9, 1)]
    assert len(rec.calls) == 4

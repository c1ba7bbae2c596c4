"""The power-meter streams of StreamInsight's event-structure reference as interval, point
and clipped point events, with datetime timestamps."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from apptime_support import listen, ms, utc

from engine import Engine
from engine.apptime import INFINITY, AlterEventDuration, Clip, Snapshot

# Event Kind | Start | End | Payload (Consumption)
TABLE = [
    ("2009-07-15 09:13:33.317", "2009-07-15 09:14:09.270", 100),
    ("2009-07-15 09:14:09.270", "2009-07-15 09:14:22.255", 200),
    ("2009-07-15 09:14:22.255", "2009-07-15 09:15:04.987", 100),
]


def _engine() -> Engine:
    engine = Engine(time="simulated")
    engine.epl("create schema Meter(consumption int, s long, e long) starttimestamp s endtimestamp e")
    engine.epl("create schema Reading(consumption int, s long) starttimestamp s")
    return engine


def test_interval_events_live_exactly_from_start_to_end() -> None:
    engine = _engine()
    stmt = engine.epl("select irstream consumption from Meter#interval()")
    snap = Snapshot(stmt)
    inp = engine.input("Meter")
    for start, end, c in TABLE:
        inp.enqueue({"consumption": c, "s": utc(start), "e": utc(end)})
    assert snap.rows() == []                       # nothing without a CTI
    inp.close(final_cti=True)
    assert [(r.start, r.end, r.values["consumption"]) for r in snap.rows()] == \
        [(ms(s), ms(e), c) for s, e, c in TABLE]
    assert engine.now == ms(TABLE[-1][1])


def test_point_events_live_one_tick() -> None:
    engine = _engine()
    snap = Snapshot(engine.epl("select irstream consumption from Reading#interval()"))
    inp = engine.input("Reading")
    assert inp.shape.value == "point"
    for start, _, c in TABLE:
        inp.enqueue({"consumption": c, "s": utc(start)})
    inp.close(final_cti=True)
    assert [(r.start, r.end, r.values["consumption"]) for r in snap.rows()] == \
        [(ms(s), ms(s) + 1, c) for s, _, c in TABLE]


def test_point_readings_clipped_to_the_next_become_the_interval_stream() -> None:
    engine = _engine()
    snap = Snapshot(engine.epl("select irstream consumption from Reading#interval()"))
    total = Snapshot(engine.epl("select irstream sum(consumption) as total from Reading#interval()"))
    inp = engine.input("Reading", lifetime=[AlterEventDuration(INFINITY), Clip()])
    for start, _, c in TABLE:
        inp.enqueue({"consumption": c, "s": utc(start)})
    inp.enqueue_cti(utc("2009-07-15 09:15:04.987"))
    expected = [(ms(s), ms(e), c) for s, e, c in TABLE]
    expected[-1] = (expected[-1][0], INFINITY, expected[-1][2])     # still open
    assert [(r.start, r.end, r.values["consumption"]) for r in snap.rows()] == expected
    # at every instant exactly one reading is valid: the sum is that reading
    assert [(r.start, r.end, r.values["total"]) for r in total.rows()] == expected


def test_clip_by_key_clips_only_the_same_meter() -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema R(meter string, kw int, s long) starttimestamp s")
    snap = Snapshot(engine.epl("select irstream meter, kw from R#interval()"))
    inp = engine.input("R", lifetime=[AlterEventDuration(1000), Clip("meter")])
    for m, kw, s in [("a", 1, 0), ("b", 2, 100), ("a", 3, 300), ("b", 4, 2000)]:
        inp.enqueue({"meter": m, "kw": kw, "s": s})
    inp.enqueue_cti(5000)
    assert [(r.start, r.end, r.values["kw"]) for r in snap.rows()] == \
        [(0, 300, 1), (100, 1100, 2), (300, 1300, 3), (2000, 3000, 4)]


@dataclass
class PowerReading:
    meter: str
    consumption: int
    start: datetime
    end: datetime


def test_dataclass_events_carry_their_interval() -> None:
    engine = Engine(time="simulated")
    engine.register_type(PowerReading, start_timestamp="start", end_timestamp="end")
    rec = listen(engine, "select irstream consumption from PowerReading#interval()")
    inp = engine.input(PowerReading)
    assert inp.shape.value == "interval"
    for start, end, c in reversed(TABLE):                      # any arrival order
        inp.enqueue(PowerReading("m1", c, utc(start), utc(end)))
    inp.enqueue_cti(utc("2009-07-15 09:20:00"))
    assert rec.calls == [
        (ms(TABLE[0][0]), [{"consumption": 100}], []),
        (ms(TABLE[0][1]), [], [{"consumption": 100}]),
        (ms(TABLE[1][0]), [{"consumption": 200}], []),
        (ms(TABLE[1][1]), [], [{"consumption": 200}]),
        (ms(TABLE[2][0]), [{"consumption": 100}], []),
        (ms(TABLE[2][1]), [], [{"consumption": 100}]),
    ]


def test_window_reads_declared_timestamps_of_events_sent_directly() -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema Iv(id int, s long, e long) starttimestamp s endtimestamp e")
    rec = listen(engine, "select irstream id from Iv#interval()")
    engine.send({"id": 1, "s": 0, "e": 100}, "Iv")
    engine.send({"id": 2, "s": 50, "e": 80}, "Iv")          # starts later: enters at 50
    assert rec.calls == [(0, [{"id": 1}], [])]
    engine.advance_time_span(200)
    assert rec.calls == [(0, [{"id": 1}], []), (50, [{"id": 2}], []), (80, [], [{"id": 2}]),
                         (100, [], [{"id": 1}])]

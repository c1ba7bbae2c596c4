"""`timer:at` on the engine: Esper's next-instant rule (at least a minute, or a second when
seconds are given, after now, keeping now's milliseconds) and the crontab forms.
1970-01-01 was a Thursday."""
from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings, strategies as st

from engine.output.crontab import parse_crontab, next_occurrence

MIN = 60_000
HOUR = 60 * MIN
DAY = 24 * HOUR


def at(*fields):
    return int(dt.datetime(*fields, tzinfo=dt.timezone.utc).timestamp() * 1000)


def first_fire(engine, crontab: str, start: int = 0, horizon: int = 3 * 366 * DAY):
    engine.advance_time(start)
    stmt = engine.epl(f"select * from pattern [timer:at({crontab})]")
    times = []
    stmt.add_listener(lambda new, old: times.append(engine.now))
    engine.advance_time_span(engine.now + horizon)
    assert engine.schedule_count() == 0
    return times


@pytest.mark.parametrize("crontab, start, expected", [
    ("*, *, *, *, *", 0, MIN),
    ("*, *, *, *, *", 500, MIN + 500),
    ("*, *, *, *, *", MIN - 1, MIN + 999),
    ("0, 12, *, *, *", 0, 12 * HOUR),
    ("*, *, *, *, *, 30", 0, 30_000),
    ("*/15, *, *, *, *", 0, 15 * MIN),
    ("0, 0, *, *, 1", 0, 4 * DAY),
    ("0, 0, last, *, *", 0, 30 * DAY),
    ("0, 0, *, *, 5 last", 0, at(1970, 1, 30)),
    ("0, 0, lastweekday, 2, *", 0, at(1970, 2, 27)),
    ("0, 0, 1 weekday, 2, *", 0, at(1970, 2, 2)),
    ("0, 0, 29, 2, *", 0, at(1972, 2, 29)),
    ("[10, 40], *, *, *, *", 15 * MIN, 40 * MIN),
    ("10:12, 1, *, *, *", HOUR + 11 * MIN, HOUR + 12 * MIN),
    ("0, 9, *, *, *, *, 'America/New_York'", 0, 14 * HOUR),
])
def test_first_fire(engine, crontab, start, expected):
    assert first_fire(engine, crontab, start) == [expected]


def _scan(minutes, hours, now):
    t = (now // MIN + 1) * MIN
    while True:
        d = dt.datetime.fromtimestamp(t / 1000, dt.timezone.utc)
        if (minutes is None or d.minute in minutes) and (hours is None or d.hour in hours):
            return t + now % 1000
        t += MIN


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.none(), st.sets(st.integers(0, 59), min_size=1, max_size=4)),
       st.one_of(st.none(), st.sets(st.integers(0, 23), min_size=1, max_size=3)),
       st.integers(0, 10 * DAY))
def test_next_instant_against_a_scan(minutes, hours, now):
    spec = parse_crontab((tuple(sorted(minutes)) if minutes else "*",
                          tuple(sorted(hours)) if hours else "*", "*", "*", "*"))
    assert next_occurrence(spec, now) == _scan(minutes, hours, now)

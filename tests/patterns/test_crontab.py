"""Crontab schedules: parameter forms and the next instant (1970-01-01 was a Thursday)."""
from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings, strategies as st

from engine.patterns.crontab import (ANY, CrontabError, Every, Last, LastWeekday, Range, Weekday,
                                     crontab, next_occurrence)

MIN = 60_000
HOUR = 60 * MIN
DAY = 24 * HOUR


def at(*fields):
    return dt.datetime(*fields, tzinfo=dt.timezone.utc).timestamp() * 1000


@pytest.mark.parametrize("params, now, expected", [
    ((ANY, ANY, ANY, ANY, ANY), 0, MIN),
    ((ANY, ANY, ANY, ANY, ANY), 500, MIN + 500),             # now's milliseconds are kept
    ((ANY, ANY, ANY, ANY, ANY), MIN - 1, MIN + 999),           # the next minute, ms kept
    ((0, 12, ANY, ANY, ANY), 0, 12 * HOUR),
    ((0, 12, ANY, ANY, ANY), 12 * HOUR, 12 * HOUR + DAY),
    ((ANY, ANY, ANY, ANY, ANY, 30), 0, 30_000),
    ((ANY, ANY, ANY, ANY, ANY, 30), 30_000, 90_000),
    ((Every(15), ANY, ANY, ANY, ANY), 0, 15 * MIN),
    ((0, 0, ANY, ANY, 1), 0, 4 * DAY),                        # next Monday
    ((0, 0, Last(), ANY, ANY), 0, 30 * DAY),                  # January 31
    ((0, 0, ANY, 3, ANY), 0, at(1970, 3, 1)),
    ((Range(10, 12), 1, ANY, ANY, ANY), HOUR + 11 * MIN, HOUR + 12 * MIN),
    ((0, 0, 15, ANY, 5), 0, 1 * DAY),                         # Friday the 2nd before the 15th
    ((0, 0, ANY, ANY, Last(5)), 0, at(1970, 1, 30)),         # last Friday of January
    ((0, 0, LastWeekday(), 2, ANY), 0, at(1970, 2, 27)),     # Feb 28 1970 was a Saturday
    ((0, 0, Weekday(1), 2, ANY), 0, at(1970, 2, 2)),         # Feb 1 1970 was a Sunday
    ((0, 0, 29, 2, ANY), 0, at(1972, 2, 29)),
    (((0, 30), ANY, ANY, ANY, ANY), 0, 30 * MIN),
])
def test_next_occurrence(params, now, expected):
    assert next_occurrence(crontab(params), now) == expected


def test_timezone():
    spec = crontab((0, 9, ANY, ANY, ANY), timezone="America/New_York")
    assert next_occurrence(spec, 0) == 14 * HOUR          # 09:00 EST is 14:00 UTC


@pytest.mark.parametrize("params", [
    (60, ANY, ANY, ANY, ANY), (ANY, 24, ANY, ANY, ANY), (ANY, ANY, 0, ANY, ANY),
    (ANY, ANY, ANY, 13, ANY), (ANY, ANY, ANY, ANY, 7), (ANY, ANY, ANY, ANY),
    (Every(0), ANY, ANY, ANY, ANY), (ANY, ANY, ANY, Last(), ANY),
])
def test_invalid(params):
    with pytest.raises(CrontabError):
        crontab(params)


def _brute(minutes, hours, now):
    """Scan minute by minute from the minute after now."""
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
def test_minutes_and_hours_against_a_scan(minutes, hours, now):
    spec = crontab((tuple(sorted(minutes)) if minutes else ANY,
                    tuple(sorted(hours)) if hours else ANY, ANY, ANY, ANY))
    assert next_occurrence(spec, now) == _brute(minutes, hours, now)

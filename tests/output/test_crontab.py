"""Crontab parsing and next-occurrence computation (Esper's rules; UTC unless a zone is given)."""
from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings, strategies as st

from engine.output import (
    WILDCARD as W,
    CrontabError,
    Every,
    Keyword,
    Range,
    next_occurrence,
    parse_crontab,
)


def ms(*args: int) -> int:
    return int(dt.datetime(*args, tzinfo=dt.timezone.utc).timestamp() * 1000)


def utc(t: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(t / 1000, dt.timezone.utc)


def test_wildcards_are_none_and_full_ranges_collapse() -> None:
    spec = parse_crontab([W, W, W, W, W])
    assert spec.minutes is None and spec.days_of_week is None and not spec.seconds_given
    assert parse_crontab([Range(0, 59), W, W, W, W]).minutes is None


def test_values_ranges_frequencies_lists() -> None:
    spec = parse_crontab([Every(15), Range(9, 11), (1, 15), W, W, (0, 30)])
    assert spec.minutes == {0, 15, 30, 45}
    assert spec.hours == {9, 10, 11}
    assert spec.days_of_month == {1, 15}
    assert spec.seconds == {0, 30} and spec.seconds_given


@pytest.mark.parametrize("params, message", [
    ([W, W, W, W], "number of crontab parameters"),
    ([60, W, W, W, W], "between 0 and 59"),
    ([W, 24, W, W, W], "between 0 and 23"),
    ([W, W, 0, W, W], "between 1 and 31"),
    ([W, W, W, 13, W], "between 1 and 12"),
    ([W, W, W, W, 7], "between 0 and 6"),
    ([Keyword("last"), W, W, W, W], "Invalid use of 'last'"),
    ([W, W, W, W, Keyword("weekday")], "Invalid use of 'weekday'"),
    ([W, W, W, W, W, W, "Mars/Olympus"], "Unknown time zone"),
    ([Every(0), W, W, W, W], "Invalid frequency"),
])
def test_invalid_parameters(params, message) -> None:
    with pytest.raises(CrontabError, match=message):
        parse_crontab(params)


def test_next_minute_keeps_milliseconds() -> None:
    spec = parse_crontab([W, W, W, W, W])
    # Esper: at least a minute later, on a minute boundary, milliseconds of the current time
    assert next_occurrence(spec, 200) == 60_200
    assert next_occurrence(spec, 59_900) == 60_900
    assert next_occurrence(spec, 60_000) == 120_000


def test_seconds_resolution() -> None:
    spec = parse_crontab([W, W, W, W, W, Every(10)])
    assert next_occurrence(spec, 0) == 10_000
    assert next_occurrence(spec, 10_000) == 20_000
    assert next_occurrence(spec, 9_999) == 10_999


def test_hours_and_days_roll_over() -> None:
    spec = parse_crontab([30, 9, W, W, W])
    assert utc(next_occurrence(spec, ms(2024, 3, 10, 9, 30))) == dt.datetime(2024, 3, 11, 9, 30, tzinfo=dt.timezone.utc)
    assert utc(next_occurrence(spec, ms(2024, 3, 10, 8, 0))) == dt.datetime(2024, 3, 10, 9, 30, tzinfo=dt.timezone.utc)
    spec = parse_crontab([0, 0, 31, W, W])     # only months with 31 days
    assert utc(next_occurrence(spec, ms(2024, 4, 1))) == dt.datetime(2024, 5, 31, tzinfo=dt.timezone.utc)
    spec = parse_crontab([0, 0, 29, 2, W])     # leap day
    assert utc(next_occurrence(spec, ms(2024, 3, 1))) == dt.datetime(2028, 2, 29, tzinfo=dt.timezone.utc)


def test_days_of_month_or_days_of_week() -> None:
    # 2024-06-01 is a Saturday; Monday is 1
    spec = parse_crontab([0, 0, 15, W, 1])
    got = utc(next_occurrence(spec, ms(2024, 6, 1)))
    assert got == dt.datetime(2024, 6, 3, tzinfo=dt.timezone.utc)          # the Monday comes first
    got = utc(next_occurrence(spec, ms(2024, 6, 11)))
    assert got == dt.datetime(2024, 6, 15, tzinfo=dt.timezone.utc)         # the 15th (a Saturday)


def test_last_keywords() -> None:
    last_day = parse_crontab([0, 0, Keyword("last"), W, W])
    assert utc(next_occurrence(last_day, ms(2024, 2, 3))).day == 29
    last_friday = parse_crontab([0, 0, W, W, Keyword("last", 5)])
    assert utc(next_occurrence(last_friday, ms(2024, 6, 1))) == dt.datetime(2024, 6, 28, tzinfo=dt.timezone.utc)
    saturday = parse_crontab([0, 0, W, W, Keyword("last")])
    assert utc(next_occurrence(saturday, ms(2024, 6, 3))).weekday() == 5
    last_weekday = parse_crontab([0, 0, Keyword("lastweekday"), W, W])   # 2024-06-30 is a Sunday
    assert utc(next_occurrence(last_weekday, ms(2024, 6, 1))) == dt.datetime(2024, 6, 28, tzinfo=dt.timezone.utc)


def test_nearest_weekday() -> None:
    spec = parse_crontab([0, 0, Keyword("weekday", 15), W, W])
    # 2024-06-15 is a Saturday: the Friday before
    assert utc(next_occurrence(spec, ms(2024, 6, 1))) == dt.datetime(2024, 6, 14, tzinfo=dt.timezone.utc)
    # 2024-09-15 is a Sunday: the Monday after
    assert utc(next_occurrence(spec, ms(2024, 9, 1))) == dt.datetime(2024, 9, 16, tzinfo=dt.timezone.utc)


def test_time_zone() -> None:
    spec = parse_crontab([0, 9, W, W, W, W, "America/New_York"])
    got = utc(next_occurrence(spec, ms(2024, 1, 10)))
    assert got == dt.datetime(2024, 1, 10, 14, 0, tzinfo=dt.timezone.utc)   # 9:00 EST


field = st.one_of(st.just(W), st.lists(st.integers(0, 5), min_size=1, max_size=3).map(tuple))


@settings(max_examples=150, deadline=None)
@given(minutes=st.one_of(st.just(W), st.lists(st.integers(0, 59), min_size=1, max_size=4).map(tuple)),
       hours=st.one_of(st.just(W), st.lists(st.integers(0, 23), min_size=1, max_size=3).map(tuple)),
       dows=st.one_of(st.just(W), st.lists(st.integers(0, 6), min_size=1, max_size=3).map(tuple)),
       now=st.integers(0, 4 * 365 * 86_400_000))
def test_next_occurrence_matches_brute_force(minutes, hours, dows, now) -> None:
    spec = parse_crontab([minutes, hours, W, W, dows])
    got = next_occurrence(spec, now)

    def matches(t: dt.datetime) -> bool:
        return ((minutes == W or t.minute in minutes) and (hours == W or t.hour in hours)
                and (dows == W or (t.weekday() + 1) % 7 in dows))

    start = (now // 60_000 + 1) * 60_000
    assert got % 60_000 == now % 1000 and got >= start
    assert matches(utc(got - now % 1000))
    # nothing earlier matches: step minute by minute from the start (bounded by a week)
    t = start
    while t < got - now % 1000:
        assert not matches(utc(t))
        t += 60_000

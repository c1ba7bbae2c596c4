"""Date-time methods on long timestamps and datetimes, against Esper's reference semantics
(Java Calendar: months 0-11, Sunday = 1) and against Python's datetime computed apart."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine
from epl.errors import EPLValidationError

UTC = timezone.utc


def ms(*args) -> int:
    return int(datetime(*args, tzinfo=UTC).timestamp() * 1000)


def select(exprs: str, ts, engine: Engine | None = None, schema: str = "ts long") -> dict:
    engine = engine or Engine(time="simulated")
    engine.epl(f"create schema E({schema})")
    stmt = engine.epl(f"select {exprs} from E")
    got = []
    stmt.add_listener(lambda new, old: got.extend(b.to_dict() for b in new))
    engine.send({"ts": ts}, "E")
    return got[-1]


GETTERS = ("ts.getYear() as y, ts.getMonthOfYear() as mo, ts.getDayOfMonth() as d, "
           "ts.getHourOfDay() as h, ts.getMinuteOfHour() as mi, ts.getSecondOfMinute() as s, "
           "ts.getMillisOfSecond() as ms, ts.getDayOfWeek() as dow, ts.getDayOfYear() as doy")


def expected_getters(d: datetime) -> dict:
    return {"y": d.year, "mo": d.month - 1, "d": d.day, "h": d.hour, "mi": d.minute,
            "s": d.second, "ms": d.microsecond // 1000,
            "dow": d.isoweekday() % 7 + 1, "doy": d.timetuple().tm_yday}


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=-2_000_000_000_000, max_value=4_000_000_000_000))
def test_getters_match_python_datetime(t):
    d = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=t)
    assert select(GETTERS, t) == expected_getters(d)


def test_getters_on_datetime_values_and_zone():
    row = select(GETTERS, datetime(2024, 2, 29, 23, 30, 5, 7000, tzinfo=UTC),
                 schema="ts datetime")
    assert row == expected_getters(datetime(2024, 2, 29, 23, 30, 5, 7000))
    # the engine's zone: 23:30 UTC is 00:30 next day in Berlin (winter, +1)
    berlin = Engine(time="simulated", time_zone="Europe/Berlin")
    row = select("ts.getHourOfDay() as h, ts.getDayOfMonth() as d", ms(2024, 2, 29, 23, 30), berlin)
    assert row == {"h": 0, "d": 1}


def test_get_field_and_week_year():
    row = select("ts.get('month') as m, ts.get('hour') as h, ts.getWeekyear() as wy, "
                 "ts.get('weekyear') as wy2", ms(2023, 12, 31, 10))
    # Dec 31 2023 is a Sunday: its US week holds January 1 2024
    assert row == {"m": 11, "h": 10, "wy": 2024, "wy2": 2024}
    assert select("ts.getWeekyear() as wy", ms(2023, 12, 30))["wy"] == 2023


def test_plus_minus_time_periods_and_millis():
    t = ms(2024, 1, 31, 12)
    row = select("ts.plus(1 month) as a, ts.minus(2 hours) as b, ts.plus(1500) as c, "
                 "ts.plus(1 year 1 day) as d, ts.minus(1 week 30 sec) as e", t)
    assert row == {"a": ms(2024, 2, 29, 12), "b": ms(2024, 1, 31, 10), "c": t + 1500,
                   "d": ms(2025, 2, 1, 12), "e": ms(2024, 1, 24, 11, 59, 30)}


def test_chain_with_time_plus_to_millisec():
    t = ms(2024, 3, 5, 17, 45, 12, 345000)
    row = select("ts.withTime(0, 0, 0, 0).plus(1 day).toMillisec() as x", t)
    assert row == {"x": ms(2024, 3, 6)}


def test_rounding_as_esper():
    t = ms(2002, 3, 28, 13, 45, 1, 231000)
    row = select("ts.roundFloor('hour') as f, ts.roundCeiling('hour') as c, ts.roundHalf('hour') as h, "
                 "ts.roundHalf('min') as hm, ts.roundFloor('day') as fd, ts.roundHalf('month') as hmo, "
                 "ts.roundFloor('year') as fy", t)
    assert row == {"f": ms(2002, 3, 28, 13), "c": ms(2002, 3, 28, 14), "h": ms(2002, 3, 28, 14),
                   "hm": ms(2002, 3, 28, 13, 45), "fd": ms(2002, 3, 28), "hmo": ms(2002, 4, 1),
                   "fy": ms(2002, 1, 1)}
    assert select("ts.roundHalf('hour') as h", ms(2002, 3, 28, 13, 29, 59, 999000))["h"] == ms(2002, 3, 28, 13)


def test_set_with_date_with_max_min():
    t = ms(2024, 1, 31, 10, 20, 30, 400000)
    row = select("ts.set('hour', 5) as a, ts.withDate(2020, 1, 15) as b, ts.withMax('day') as c, "
                 "ts.withMin('month') as d, ts.withMax('sec') as e, ts.set('month', 1) as f", t)
    assert row == {"a": ms(2024, 1, 31, 5, 20, 30, 400000), "b": ms(2020, 2, 15, 10, 20, 30, 400000),
                   "c": ms(2024, 1, 31, 10, 20, 30, 400000), "d": ms(2024, 1, 31, 10, 20, 30, 400000),
                   "e": ms(2024, 1, 31, 10, 20, 59, 400000),
                   # Calendar.set(MONTH, FEBRUARY) on the 31st is lenient: March 2 (2024 is leap)
                   "f": ms(2024, 3, 2, 10, 20, 30, 400000)}


def test_methods_keep_datetime_values():
    d = datetime(2024, 5, 6, 7, 8, 9, tzinfo=UTC)
    row = select("ts.plus(1 day) as p, ts.toMillisec() as m, ts.roundFloor('day') as f", d,
                 schema="ts datetime")
    assert row == {"p": d + timedelta(days=1), "m": ms(2024, 5, 6, 7, 8, 9),
                   "f": datetime(2024, 5, 6, tzinfo=UTC)}


def test_format_with_and_without_pattern():
    t = ms(2023, 11, 14, 22, 13, 20, 123000)
    row = select("ts.format('yyyy-MM-dd HH:mm:ss.SSS') as a, ts.format() as b, "
                 "ts.format(\"EEE, d MMM yy h:mm a 'at' z\") as c", t)
    assert row == {"a": "2023-11-14 22:13:20.123", "b": "11/14/23, 10:13 PM",
                   "c": "Tue, 14 Nov 23 10:13 PM at UTC"}


def test_between_and_interval_algebra_on_timestamps():
    eng = Engine(time="simulated")
    eng.epl("create schema R(a long, b long, c long)")
    stmt = eng.epl("select a.between(b, c) as bt, a.between(b, c, false, false) as bx, "
                   "a.before(b) as bf, a.after(b, 1 sec) as af, a.coincides(a) as co from R")
    got = []
    stmt.add_listener(lambda new, old: got.extend(x.to_dict() for x in new))
    eng.send({"a": 1000, "b": 1000, "c": 5000}, "R")
    eng.send({"a": 3000, "b": 1000, "c": 0}, "R")
    assert got == [{"bt": True, "bx": False, "bf": False, "af": False, "co": True},
                   {"bt": False, "bx": False, "bf": False, "af": True, "co": True}]


def test_current_timestamp_both_forms():
    eng = Engine(time="simulated", start_time=ms(2024, 1, 1, 8))
    row = select("current_timestamp() as a, current_timestamp as b, "
                 "current_timestamp.getHourOfDay() as h", 0, eng)
    assert row == {"a": ms(2024, 1, 1, 8), "b": ms(2024, 1, 1, 8), "h": 8}


def test_null_timestamp_gives_null():
    assert select("ts.getYear() as y, ts.plus(1 day) as p", None) == {"y": None, "p": None}


def test_unknown_field_is_a_validation_error():
    with pytest.raises(EPLValidationError, match="date-time field"):
        select("ts.roundFloor('fortnight') as x", 0)


def test_unknown_time_zone_is_refused():
    with pytest.raises(ValueError, match="time zone"):
        Engine(time="simulated", time_zone="Mars/Olympus")


def test_methods_on_events_with_a_start_timestamp():
    eng = Engine(time="simulated")
    eng.epl("create schema M(id string, startts long, endts long) starttimestamp startts endtimestamp endts")
    stmt = eng.epl("select a.getHourOfDay() as h, a.withTime(0, 0, 0, 0) as d0, a.before(b) as bf "
                   "from M#lastevent as a, M#keepall as b where a.id != b.id")
    got = []
    stmt.add_listener(lambda new, old: got.extend(x.to_dict() for x in new))
    eng.send({"id": "1", "startts": ms(2024, 1, 2, 5), "endts": ms(2024, 1, 2, 6)}, "M")
    eng.send({"id": "2", "startts": ms(2024, 1, 2, 7), "endts": ms(2024, 1, 2, 8)}, "M")
    assert got == [{"h": 7, "d0": ms(2024, 1, 2), "bf": False}]


def test_calendar_days_keep_wall_time_across_dst():
    berlin = Engine(time="simulated", time_zone="Europe/Berlin")
    # 2024-03-30 12:00 CET (UTC+1); the clocks move forward on March 31
    t = ms(2024, 3, 30, 11)
    row = select("ts.plus(1 day).getHourOfDay() as d, ts.plus(24 hours).getHourOfDay() as h, "
                 "ts.plus(1 day) - ts as span", t, berlin)
    assert row == {"d": 12, "h": 13, "span": 23 * 3_600_000}


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=4_000_000_000_000), st.sampled_from(["sec", "min", "hour", "day"]))
def test_round_floor_against_python(t, field):
    d = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=t)
    cut = {"sec": dict(microsecond=0), "min": dict(second=0, microsecond=0),
           "hour": dict(minute=0, second=0, microsecond=0),
           "day": dict(hour=0, minute=0, second=0, microsecond=0)}[field]
    want = int(d.replace(**cut).timestamp() * 1000)
    assert select(f"ts.roundFloor('{field}') as f", t)["f"] == want

"""Crontab schedules (`timer:at(minutes, hours, days of month, months, days of week[, seconds
[, timezone]])`, also usable by `output at`): the parameter forms and the next instant.

Parameter values: `*` (any), a number, `a:b` (inclusive range), `*/n` (every n-th value from
the unit's minimum), a list of those, and for days `last` (last day of month, or with a
weekday `5 last`: last Friday), `lastweekday`, `n weekday` (weekday nearest day n).
Days of week run 0 (Sunday) to 6. When days of month and days of week are both given, a day
matching either qualifies.

Next instant (Esper's rule): the earliest matching wall-clock second (minute when no seconds
are given, with seconds 0) at least one second (one minute) after now, keeping now's
milliseconds. Wall-clock fields are read in the given timezone, UTC by default.
"""
from __future__ import annotations

import calendar
import datetime as _dt
from dataclasses import dataclass
from typing import Iterable, Optional, Union

MINUTES, HOURS, DAYS_OF_MONTH, MONTHS, DAYS_OF_WEEK, SECONDS = range(6)
UNIT_RANGES = ((0, 59), (0, 23), (1, 31), (1, 12), (0, 6), (0, 59))
UNIT_NAMES = ("minutes", "hours", "days of month", "months", "days of week", "seconds")


class CrontabError(ValueError):
    """A crontab parameter out of range or of the wrong form."""


@dataclass(frozen=True)
class Any_:
    """`*`."""


ANY = Any_()


@dataclass(frozen=True)
class Range:
    low: int
    high: int


@dataclass(frozen=True)
class Every:
    """`*/n`."""

    step: int


@dataclass(frozen=True)
class Last:
    """`last` or `n last` (n a weekday, in the days-of-week position)."""

    value: Optional[int] = None


@dataclass(frozen=True)
class LastWeekday:
    """`lastweekday`: the last Monday-to-Friday day of the month."""


@dataclass(frozen=True)
class Weekday:
    """`n weekday`: the Monday-to-Friday day nearest day n of the month."""

    day: int


Param = Union[Any_, int, Range, Every, Last, LastWeekday, Weekday, tuple]


@dataclass(frozen=True)
class CrontabSpec:
    """Allowed values per unit (None: any) and the special day rule, if one."""

    minutes: Optional[frozenset]
    hours: Optional[frozenset]
    days_of_month: Optional[frozenset]
    months: Optional[frozenset]
    days_of_week: Optional[frozenset]
    seconds: Optional[frozenset] = None
    has_seconds: bool = False
    day_rule: Optional[tuple] = None      # ('last',) | ('lastweekday',) | ('weekday', n) | ('lastdow', d)
    timezone: Optional[str] = None


def crontab(params: Iterable[Param], timezone: Optional[str] = None) -> CrontabSpec:
    """Build a spec from 5 or 6 parameters (minutes, hours, days of month, months, days of
    week[, seconds])."""
    ps = list(params)
    if len(ps) not in (5, 6):
        raise CrontabError(f"A crontab needs 5 or 6 parameters (minutes, hours, days of month, "
                           f"months, days of week[, seconds]), got {len(ps)}")
    sets: list[Optional[frozenset]] = []
    day_rule = None
    for unit, p in enumerate(ps):
        special = _special(unit, p)
        if special is not None:
            day_rule = special
            sets.append(None)
            continue
        sets.append(_values(unit, p))
    while len(sets) < 6:
        sets.append(None)
    return CrontabSpec(sets[0], sets[1], sets[2], sets[3], sets[4], sets[5],
                       has_seconds=len(ps) == 6, day_rule=day_rule, timezone=timezone)


def _special(unit: int, p: Param) -> Optional[tuple]:
    if isinstance(p, Last):
        if unit == DAYS_OF_MONTH and p.value is None:
            return ("last",)
        if unit == DAYS_OF_WEEK:
            return ("lastdow", 6 if p.value is None else _check(unit, p.value))
    elif isinstance(p, LastWeekday) and unit == DAYS_OF_MONTH:
        return ("lastweekday",)
    elif isinstance(p, Weekday) and unit == DAYS_OF_MONTH:
        return ("weekday", _check(unit, p.day))
    elif isinstance(p, (Last, LastWeekday, Weekday)):
        raise CrontabError(f"'{type(p).__name__.lower()}' is not allowed for {UNIT_NAMES[unit]}")
    return None


def _check(unit: int, v: int) -> int:
    lo, hi = UNIT_RANGES[unit]
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise CrontabError(f"Invalid value {v!r} for {UNIT_NAMES[unit]}: expected {lo} to {hi}")
    return v


def _values(unit: int, p: Param) -> Optional[frozenset]:
    lo, hi = UNIT_RANGES[unit]
    if isinstance(p, Any_):
        return None
    if isinstance(p, Every):
        if p.step <= 0:
            raise CrontabError(f"Invalid frequency */{p.step} for {UNIT_NAMES[unit]}")
        vals = frozenset(range(lo, hi + 1, p.step))
    elif isinstance(p, Range):
        a, b = _check(unit, p.low), _check(unit, p.high)
        vals = frozenset(range(a, b + 1)) if a <= b else frozenset(range(a, hi + 1)) | frozenset(range(lo, b + 1))
    elif isinstance(p, tuple):
        out: set = set()
        for item in p:
            v = _values(unit, item)
            if v is None:
                return None
            out |= v
        vals = frozenset(out)
    else:
        vals = frozenset((_check(unit, p),))
    return None if vals == frozenset(range(lo, hi + 1)) else vals


# -- next occurrence -------------------------------------------------------------------------

def _zone(name: Optional[str]) -> _dt.tzinfo:
    if name is None:
        return _dt.timezone.utc
    from zoneinfo import ZoneInfo
    return ZoneInfo(name)


def next_occurrence(spec: CrontabSpec, now_ms: int) -> int:
    """The next instant (epoch milliseconds) the crontab matches, strictly after now."""
    tz = _zone(spec.timezone)
    step = 1000 if spec.has_seconds else 60_000
    remainder = now_ms % 1000
    after = _dt.datetime.fromtimestamp((now_ms + step - remainder) / 1000, tz)
    if not spec.has_seconds:
        after = after.replace(second=0)
    seconds = sorted(spec.seconds) if spec.seconds is not None else (list(range(60)) if spec.has_seconds else [0])
    minutes = sorted(spec.minutes) if spec.minutes is not None else list(range(60))
    hours = sorted(spec.hours) if spec.hours is not None else list(range(24))
    day = after.date()
    first = True
    for _ in range(366 * 30):
        if _day_matches(spec, day):
            t = _first_time(hours, minutes, seconds,
                            (after.hour, after.minute, after.second) if first else None)
            if t is not None:
                local = _dt.datetime(day.year, day.month, day.day, t[0], t[1], t[2], tzinfo=tz)
                return int(local.timestamp()) * 1000 + remainder
        day += _dt.timedelta(days=1)
        first = False
    raise CrontabError("The crontab never matches")


def _first_time(hours: list, minutes: list, seconds: list,
                floor: Optional[tuple[int, int, int]]) -> Optional[tuple[int, int, int]]:
    if floor is None:
        return hours[0], minutes[0], seconds[0]
    fh, fm, fs = floor
    for h in hours:
        if h < fh:
            continue
        for m in minutes:
            if h == fh and m < fm:
                continue
            for s in seconds:
                if h == fh and m == fm and s < fs:
                    continue
                return h, m, s
    return None


def _day_matches(spec: CrontabSpec, day: _dt.date) -> bool:
    if spec.months is not None and day.month not in spec.months:
        return False
    rule = spec.day_rule
    if rule is not None:
        return _special_day(rule, day)
    dom, dow = spec.days_of_month, spec.days_of_week
    weekday = (day.weekday() + 1) % 7          # Sunday = 0
    if dom is None and dow is None:
        return True
    if dow is None:
        return day.day in dom
    if dom is None:
        return weekday in dow
    return day.day in dom or weekday in dow


def _special_day(rule: tuple, day: _dt.date) -> bool:
    last = calendar.monthrange(day.year, day.month)[1]
    kind = rule[0]
    if kind == "last":
        return day.day == last
    if kind == "lastdow":
        return (day.weekday() + 1) % 7 == rule[1] and day.day + 7 > last
    if kind == "lastweekday":
        d = last
        while _dt.date(day.year, day.month, d).weekday() >= 5:
            d -= 1
        return day.day == d
    if kind == "weekday":
        target = min(rule[1], last)
        wd = _dt.date(day.year, day.month, target).weekday()
        if wd == 5:          # Saturday: the Friday before, or the Monday after on the 1st
            target = target - 1 if target > 1 else target + 2
        elif wd == 6:        # Sunday: the Monday after, or the Friday before at month end
            target = target + 1 if target < last else target - 2
        return day.day == target
    return False

"""Crontab schedules (`output at (...)`, `timer:at(...)`): the parsed spec and its next occurrence.

Parameters, in order: minutes, hours, days of month, months, days of week (0 = Sunday), then
optionally seconds and a time zone name. Each is `*`, a number, a range `low:high`, a frequency
`*/n`, a list of those, or a keyword: `last` (last day of the month; alone among days of week it
means Saturday, `5 last` the last Friday of the month), `lastweekday` (last weekday of the month),
`15 weekday` (the weekday nearest the 15th). When both days of month and days of week are
restricted, a day matching either one matches (Esper's rule).

The next occurrence follows Esper: it is at least one unit (a second if seconds are given, else a
minute) after the current time, and keeps the current time's milliseconds.
"""
from __future__ import annotations

import calendar
import datetime as _dt
from typing import Iterable, Optional, Union
from zoneinfo import ZoneInfo

from engine.contracts.frozen import frozen_dataclass

DEFAULT_TIMEZONE = "UTC"

# (name, min, max) per field, in parameter order
_FIELDS = (("minutes", 0, 59), ("hours", 0, 23), ("days of month", 1, 31), ("months", 1, 12),
           ("days of week", 0, 6), ("seconds", 0, 59))


class CrontabError(ValueError):
    """An invalid crontab parameter (message says which and why)."""


@frozen_dataclass(slots=True)
class Every:
    """`*/n` (or `*/n` restricted to nothing else): every n-th value from the field's minimum."""

    step: int


@frozen_dataclass(slots=True)
class Range:
    low: int
    high: int


@frozen_dataclass(slots=True)
class Keyword:
    """`last`, `weekday`, `lastweekday`, optionally applied to a day (`5 last`, `15 weekday`)."""

    word: str
    day: Optional[int] = None


WILDCARD = "*"
Param = Union[str, int, Every, Range, Keyword, tuple]   # a tuple is a list of params


@frozen_dataclass(slots=True)
class DayOperator:
    """A keyword on days of month or days of week; it alone decides which days match."""

    word: str                      # 'last' | 'lastweekday' | 'weekday'
    day: Optional[int]
    of_week: bool


@frozen_dataclass(slots=True)
class CrontabSpec:
    """Allowed values per field; None means any value (wildcard)."""

    minutes: Optional[frozenset[int]]
    hours: Optional[frozenset[int]]
    days_of_month: Optional[frozenset[int]]
    months: Optional[frozenset[int]]
    days_of_week: Optional[frozenset[int]]
    seconds: Optional[frozenset[int]] = None
    seconds_given: bool = False
    day_operator: Optional[DayOperator] = None
    timezone: Optional[str] = None

    def next_after(self, now_ms: int, timezone: Optional[str] = None) -> int:
        """The next time (epoch ms) this schedule fires after `now_ms`."""
        return next_occurrence(self, now_ms, timezone)


def parse_crontab(params: Iterable[Param]) -> CrontabSpec:
    """Build a spec from parameters already reduced to Python values (see the module doc)."""
    params = list(params)
    if not 5 <= len(params) <= 7:
        raise CrontabError(f"Invalid number of crontab parameters, expecting between 5 and 7 "
                           f"parameters, received {len(params)}")
    tz = None
    if len(params) == 7:
        tz = params[6]
        if not isinstance(tz, str) or tz == WILDCARD:
            raise CrontabError("Invalid time zone parameter for crontab schedule, expecting a string")
        try:
            ZoneInfo(tz)
        except (LookupError, ValueError, OSError):   # not found, not a key, not a zone file
            raise CrontabError(f"Unknown time zone '{tz}' in crontab schedule") from None
    values: list[Optional[frozenset[int]]] = []
    day_op: Optional[DayOperator] = None
    for i, p in enumerate(params[:6]):
        name, lo, hi = _FIELDS[i]
        if isinstance(p, Keyword):
            if i not in (2, 4):
                raise CrontabError(f"Invalid use of '{p.word}' in the {name} parameter of a crontab schedule")
            op = _day_operator(p, of_week=(i == 4))
            if day_op is not None:
                raise CrontabError("Invalid crontab schedule: only one of days of month and days of "
                                   "week may use last, weekday or lastweekday")
            day_op = op
            values.append(None)
            continue
        values.append(_field_values(p, name, lo, hi))
    seconds_given = len(params) >= 6
    if len(values) < 6:
        values.append(None)
    return CrontabSpec(values[0], values[1], values[2], values[3], values[4], values[5],
                       seconds_given, day_op, tz)


def _day_operator(k: Keyword, of_week: bool) -> DayOperator:
    word = k.word.lower()
    if word not in ("last", "weekday", "lastweekday"):
        raise CrontabError(f"Unknown crontab keyword '{k.word}'")
    if of_week and word != "last":
        raise CrontabError(f"Invalid use of '{word}' in the days of week parameter of a crontab schedule")
    if k.day is not None:
        if word == "weekday" and not 1 <= k.day <= 31:
            raise CrontabError("The day of a weekday operator must be in range 1 to 31")
        if word != "weekday" and not 0 <= k.day <= 7:
            raise CrontabError("Last xx day of the month has to be a day of week (0-7)")
    return DayOperator(word, k.day, of_week)


def _field_values(p: Param, name: str, lo: int, hi: int) -> Optional[frozenset[int]]:
    out: set[int] = set()

    def add(item: Param) -> bool:
        """Adds the values of one item; False when the item is a wildcard."""
        if item == WILDCARD:
            return False
        if isinstance(item, bool):
            raise CrontabError(f"Invalid value {item!r} in the {name} parameter of a crontab schedule")
        if isinstance(item, int):
            _check(item, name, lo, hi)
            out.add(item)
        elif isinstance(item, Range):
            _check(item.low, name, lo, hi)
            _check(item.high, name, lo, hi)
            if item.low <= item.high:
                out.update(range(item.low, item.high + 1))
            else:   # a wrapping range, e.g. hours 22:2
                out.update(range(item.low, hi + 1))
                out.update(range(lo, item.high + 1))
        elif isinstance(item, Every):
            if item.step <= 0:
                raise CrontabError(f"Invalid frequency {item.step} in the {name} parameter of a crontab schedule")
            out.update(range(lo, hi + 1, item.step))
        else:
            raise CrontabError(f"Invalid value {item!r} in the {name} parameter of a crontab schedule")
        return True

    items = p if isinstance(p, tuple) else (p,)
    for item in items:
        if not add(item):
            return None
    if len(out) == hi - lo + 1:
        return None
    return frozenset(out)


def _check(v: int, name: str, lo: int, hi: int) -> None:
    if not lo <= v <= hi:
        raise CrontabError(f"Invalid value {v} for the {name} parameter of a crontab schedule, "
                           f"expecting a value between {lo} and {hi}")


# -- next occurrence -----------------------------------------------------------------------

_MAX_DAYS = 10_000     # Esper's bound on the search for special day operators


def next_occurrence(spec: CrontabSpec, now_ms: int, timezone: Optional[str] = None) -> int:
    """The first matching time at least one unit after `now_ms`, keeping its milliseconds."""
    tz = ZoneInfo(spec.timezone or timezone or DEFAULT_TIMEZONE)
    unit = 1000 if spec.seconds_given else 60_000
    ms_part = now_ms % 1000
    start_ms = (now_ms // unit) * unit + unit
    start = _dt.datetime.fromtimestamp(start_ms / 1000, tz).replace(tzinfo=None)
    day = start.date()
    first_tod = (start.hour, start.minute, start.second)
    for _ in range(_MAX_DAYS):
        if _day_matches(spec, day):
            tod = _time_in_day(spec, first_tod if day == start.date() else (0, 0, 0))
            if tod is not None:
                local = _dt.datetime(day.year, day.month, day.day, *tod)
                return int(local.replace(tzinfo=tz).timestamp()) * 1000 + ms_part
        day += _dt.timedelta(days=1)
    raise CrontabError("Invalid crontab schedule: failed to find a matching day")


def _time_in_day(spec: CrontabSpec, earliest: tuple[int, int, int]) -> Optional[tuple[int, int, int]]:
    secs = spec.seconds if spec.seconds_given else frozenset((0,))
    for h in _values(spec.hours, 0, 23, earliest[0]):
        m_from = earliest[1] if h == earliest[0] else 0
        for m in _values(spec.minutes, 0, 59, m_from):
            s_from = earliest[2] if (h, m) == earliest[:2] else 0
            for s in _values(secs, 0, 59, s_from):
                return h, m, s
    return None


def _values(allowed: Optional[frozenset[int]], lo: int, hi: int, start: int) -> list[int]:
    if allowed is None:
        return list(range(max(lo, start), hi + 1))
    return sorted(v for v in allowed if v >= start)


def _day_matches(spec: CrontabSpec, d: _dt.date) -> bool:
    if spec.months is not None and d.month not in spec.months:
        return False
    dow = (d.weekday() + 1) % 7          # Python: Monday=0; crontab: Sunday=0
    op = spec.day_operator
    if op is not None:
        return _operator_fits(op, d, dow)
    dom_set, dow_set = spec.days_of_month, spec.days_of_week
    if dom_set is None and dow_set is None:
        return True
    if dow_set is None:
        return d.day in dom_set
    if dom_set is None:
        return dow in dow_set
    return d.day in dom_set or dow in dow_set


def _operator_fits(op: DayOperator, d: _dt.date, dow: int) -> bool:
    last = calendar.monthrange(d.year, d.month)[1]
    weekday = 1 <= dow <= 5
    if op.word == "last":
        if op.of_week:
            if op.day is None:
                return dow == 6                       # `last` among days of week: Saturday
            return dow == op.day % 7 and d.day > last - 7
        if op.day is not None and dow != op.day % 7:
            return False
        return d.day == last
    if op.word == "lastweekday":
        if op.day is not None and dow != op.day % 7:
            return False
        if not weekday:
            return False
        return d.day == last or (d.day >= last - 2 and dow == 5)
    # weekday: any weekday, or the weekday nearest the given day of month
    if not weekday:
        return False
    if op.day is None:
        return True
    return d.day == _nearest_weekday(d.year, d.month, op.day, last)


def _nearest_weekday(year: int, month: int, day: int, last: int) -> int:
    target = min(day, last)
    dow = (_dt.date(year, month, target).weekday() + 1) % 7
    if 1 <= dow <= 5:
        return target
    if dow == 6:                                    # Saturday: the Friday before, or Monday
        return target - 1 if target > 1 else target + 2
    return target - 2 if target == last else target + 1   # Sunday

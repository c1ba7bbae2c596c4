"""Date-time values for Esper's date-time methods: millisecond `long` timestamps and Python
datetimes, read and changed as Java's Calendar does (Esper's semantics for long, Date and
Calendar values), in the engine's time zone (UTC unless `Engine(time_zone=...)`).

Calendar conventions kept from Esper: months are 0-11 (`getMonthOfYear`, `get('month')`,
`set('month', m)`, `withDate(y, m, d)`), days of the week 1-7 from Sunday, week years and
weeks as in the US locale (weeks start on Sunday; week 1 holds January 1). A method keeps
the kind of value it was given: an int in, an int (milliseconds) out; a datetime in, a
datetime out (a naive datetime is read as wall time in the engine's zone and stays naive).
"""
from __future__ import annotations

import calendar
from datetime import date, datetime, timedelta, timezone, tzinfo
from typing import Any, Callable, Optional

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MS = timedelta(milliseconds=1)

# Esper's field names (DateTimeFieldEnum) -> our field
FIELDS = {
    "msec": "msec", "millisecond": "msec", "milliseconds": "msec", "millis": "msec",
    "sec": "sec", "second": "sec", "seconds": "sec",
    "min": "min", "minute": "min", "minutes": "min",
    "hour": "hour", "hours": "hour",
    "day": "day", "days": "day",
    "month": "month", "months": "month",
    "week": "week", "weeks": "week",
    "year": "year", "years": "year",
    "weekyear": "weekyear",
}


def field_name(text: Any) -> Optional[str]:
    return FIELDS.get(str(text).strip().lower()) if text is not None else None


# -- conversion ---------------------------------------------------------------------------

def is_utc(tz: Any) -> bool:
    return tz is timezone.utc or getattr(tz, "key", None) in ("UTC", "Etc/UTC", "GMT", "Etc/GMT")


def to_local(value: Any, tz: tzinfo) -> Optional[datetime]:
    """The value as a datetime in the zone: wall time for the calendar fields."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        try:
            d = EPOCH + timedelta(milliseconds=value)
            return d if is_utc(tz) else d.astimezone(tz)
        except OverflowError:
            return None
    if isinstance(value, datetime):
        if value.tzinfo is None:
            return value.replace(tzinfo=tz)
        return value.astimezone(tz)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=tz)
    if isinstance(value, float) and value.is_integer():
        return to_local(int(value), tz)
    return None


def to_millis(value: Any, tz: tzinfo) -> Optional[int]:
    """Milliseconds since the epoch (a naive datetime is wall time in the zone)."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    d = to_local(value, tz)
    return None if d is None else (d - EPOCH) // _MS


def like(original: Any, d: Optional[datetime], tz: tzinfo) -> Any:
    """`d` in the kind of value the method was given."""
    if d is None:
        return None
    if isinstance(original, bool) or original is None:
        return None
    if isinstance(original, int):
        return (d - EPOCH) // _MS
    if isinstance(original, datetime):
        if original.tzinfo is None:
            return d.replace(tzinfo=None)
        return d.astimezone(original.tzinfo)
    if isinstance(original, date):
        return d.date()
    return (d - EPOCH) // _MS


def _normalize(d: datetime) -> datetime:
    """Re-resolve a wall time in its zone (after arithmetic on the wall clock)."""
    tz = d.tzinfo
    if tz is None or tz is timezone.utc:     # no daylight saving to resolve
        return d
    return d.replace(tzinfo=None).replace(tzinfo=tz).astimezone(timezone.utc).astimezone(tz)


# -- getters ------------------------------------------------------------------------------

def day_of_week(d: datetime) -> int:
    """Java Calendar: Sunday = 1 ... Saturday = 7."""
    return (d.weekday() + 1) % 7 + 1


def week_year(d: datetime) -> int:
    """US week year: the Sunday-to-Saturday week holding January 1 is week 1."""
    start = d.date() - timedelta(days=day_of_week(d) - 1)   # the week's Sunday
    end = start + timedelta(days=6)
    return end.year if end.year != start.year else d.year


def week_of_year(d: datetime) -> int:
    wy = week_year(d)
    jan1 = date(wy, 1, 1)
    first_sunday = jan1 - timedelta(days=(jan1.weekday() + 1) % 7)
    start = d.date() - timedelta(days=day_of_week(d) - 1)
    return (start - first_sunday).days // 7 + 1


def week_of_month(d: datetime) -> int:
    first = date(d.year, d.month, 1)
    offset = (first.weekday() + 1) % 7     # days from the first's Sunday
    return (d.day + offset - 1) // 7 + 1


GETTERS: dict[str, Callable[[datetime], int]] = {
    "getyear": lambda d: d.year,
    "getmonthofyear": lambda d: d.month - 1,
    "getdayofmonth": lambda d: d.day,
    "getdayofweek": day_of_week,
    "getdayofyear": lambda d: d.timetuple().tm_yday,
    "gethourofday": lambda d: d.hour,
    "getminuteofhour": lambda d: d.minute,
    "getsecondofminute": lambda d: d.second,
    "getmillisofsecond": lambda d: d.microsecond // 1000,
    "getweekyear": week_year,
    "getera": lambda d: 1,
}

FIELD_GETTERS: dict[str, Callable[[datetime], int]] = {
    "msec": GETTERS["getmillisofsecond"], "sec": GETTERS["getsecondofminute"],
    "min": GETTERS["getminuteofhour"], "hour": GETTERS["gethourofday"],
    "day": GETTERS["getdayofmonth"], "month": GETTERS["getmonthofyear"],
    "year": GETTERS["getyear"], "weekyear": week_year, "week": week_of_year,
}


# -- arithmetic ---------------------------------------------------------------------------

def add_months(d: datetime, months: int) -> datetime:
    """Calendar.add(MONTH, n): the day is clamped to the target month's length."""
    total = d.year * 12 + (d.month - 1) + months
    y, m = divmod(total, 12)
    if not 1 <= y <= 9999:
        raise OverflowError("year out of range")
    day = min(d.day, calendar.monthrange(y, m + 1)[1])
    return _normalize(d.replace(year=y, month=m + 1, day=day))


def add_field(d: datetime, field: str, amount: int) -> datetime:
    """Calendar.add(field, amount): calendar fields move the wall clock, time fields the
    instant."""
    if field == "year":
        return add_months(d, 12 * amount)
    if field == "month":
        return add_months(d, amount)
    if field == "week":
        return _normalize(d + timedelta(days=7 * amount))
    if field == "day":
        return _normalize(d + timedelta(days=amount))
    ms = {"hour": 3_600_000, "min": 60_000, "sec": 1000, "msec": 1}[field]
    if d.tzinfo is None:
        return d + timedelta(milliseconds=amount * ms)
    tz = d.tzinfo
    return (d.astimezone(timezone.utc) + timedelta(milliseconds=amount * ms)).astimezone(tz)


# (field, amount) pairs of a time period, applied in Esper's order: years to milliseconds
PERIOD_ORDER = ("year", "month", "week", "day", "hour", "min", "sec", "msec")


def add_period(d: datetime, parts: dict[str, int], sign: int) -> datetime:
    for f in PERIOD_ORDER:
        n = parts.get(f)
        if n:
            d = add_field(d, f, sign * n)
    return d


def set_field(d: datetime, field: str, value: int) -> datetime:
    """Calendar.set(field, value), lenient: out-of-range values roll into the next field."""
    if field == "year":
        return with_date(d, value, None, None)
    if field == "month":
        return with_date(d, None, value, None)
    if field == "day":
        return _normalize(d.replace(day=1) + timedelta(days=value - 1))
    if field == "hour":
        return _normalize(d.replace(hour=0) + timedelta(hours=value))
    if field == "min":
        return _normalize(d.replace(minute=0) + timedelta(minutes=value))
    if field == "sec":
        return _normalize(d.replace(second=0) + timedelta(seconds=value))
    if field == "msec":
        return _normalize(d.replace(microsecond=0) + timedelta(milliseconds=value))
    if field == "week":
        return _normalize(d + timedelta(days=7 * (value - week_of_year(d))))
    raise ValueError(field)


def with_date(d: datetime, year: Optional[int], month0: Optional[int], day: Optional[int]) -> datetime:
    """Calendar.set(year, month, day): the fields are set together, then resolved leniently."""
    y = d.year if year is None else year
    m0 = d.month - 1 if month0 is None else month0
    dd = d.day if day is None else day
    yy, mm = divmod(y * 12 + m0, 12)
    first = d.replace(year=yy, month=mm + 1, day=1)
    return _normalize(first + timedelta(days=dd - 1))


def with_time(d: datetime, hour: Optional[int], minute: Optional[int], second: Optional[int],
              msec: Optional[int]) -> datetime:
    if hour is not None and minute is not None and second is not None and msec is not None and \
            0 <= hour < 24 and 0 <= minute < 60 and 0 <= second < 60 and 0 <= msec < 1000:
        return _normalize(d.replace(hour=hour, minute=minute, second=second, microsecond=msec * 1000))
    for f, v in (("hour", hour), ("min", minute), ("sec", second), ("msec", msec)):
        if v is not None:
            d = set_field(d, f, v)
    return d


def with_max(d: datetime, field: str) -> datetime:
    if field == "msec":
        return d.replace(microsecond=999_000)
    if field == "sec":
        return d.replace(second=59)
    if field == "min":
        return d.replace(minute=59)
    if field == "hour":
        return _normalize(d.replace(hour=23))
    if field == "day":
        return _normalize(d.replace(day=calendar.monthrange(d.year, d.month)[1]))
    if field == "month":
        return _normalize(d.replace(month=12, day=min(d.day, 31)))
    if field == "year":
        return _normalize(d.replace(year=9999))
    raise ValueError(field)


def with_min(d: datetime, field: str) -> datetime:
    if field == "msec":
        return d.replace(microsecond=0)
    if field == "sec":
        return d.replace(second=0)
    if field == "min":
        return d.replace(minute=0)
    if field == "hour":
        return _normalize(d.replace(hour=0))
    if field == "day":
        return _normalize(d.replace(day=1))
    if field == "month":
        return _normalize(d.replace(month=1, day=min(d.day, 31)))
    if field == "year":
        return _normalize(d.replace(year=1))
    raise ValueError(field)


# -- rounding (Esper rounds as Apache Commons' DateUtils) ------------------------------------

# (field, its offset from the minimum, (max - min) of the field) below each rounding target
_LEVELS = ("msec", "sec", "min", "hour", "day", "month", "year")


def _offset(d: datetime, f: str) -> tuple[int, int]:
    if f == "msec":
        return d.microsecond // 1000, 999
    if f == "sec":
        return d.second, 59
    if f == "min":
        return d.minute, 59
    if f == "hour":
        return d.hour, 23
    if f == "day":
        return d.day - 1, calendar.monthrange(d.year, d.month)[1] - 1
    if f == "month":
        return d.month - 1, 11
    raise ValueError(f)


def _truncate(d: datetime, f: str) -> datetime:
    if f == "msec":
        return d.replace(microsecond=0)
    if f == "sec":
        return d.replace(second=0)
    if f == "min":
        return d.replace(minute=0)
    if f == "hour":
        return _normalize(d.replace(hour=0))
    if f == "day":
        return _normalize(d.replace(day=1))
    if f == "month":
        return _normalize(d.replace(month=1))
    raise ValueError(f)


def round_to(d: datetime, field: str, mode: str) -> datetime:
    """mode 'floor' truncates below the field; 'ceiling' truncates and adds one unit of the
    field; 'half' adds it when the next smaller field is past its half."""
    if field not in _LEVELS:
        raise ValueError(field)
    d = d.replace(microsecond=d.microsecond - d.microsecond % 1000)
    round_up = False
    for f in _LEVELS[:_LEVELS.index(field)]:
        off, span = _offset(d, f)
        round_up = off > span // 2
        d = _truncate(d, f)
    if mode == "ceiling" or (mode == "half" and round_up):
        d = add_field(d, field, 1)
    return d


def between(v: Optional[int], lo: Optional[int], hi: Optional[int], inc_lo: bool = True,
            inc_hi: bool = True) -> Optional[bool]:
    if v is None or lo is None or hi is None:
        return None
    if lo > hi:
        lo, hi = hi, lo
        inc_lo, inc_hi = inc_hi, inc_lo
    return (lo <= v if inc_lo else lo < v) and (v <= hi if inc_hi else v < hi)

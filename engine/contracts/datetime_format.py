"""Java SimpleDateFormat patterns (`yyyy-MM-dd HH:mm:ss.SSS`) for Esper's `format(...)`
date-time method and `cast(s, long dateformat: '...')`, formatting and parsing, in the US
locale; patterns are compiled once per statement."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone, tzinfo
from typing import Callable, Optional

from engine.contracts.datetime_ops import week_of_month, week_of_year, week_year

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

# Esper's format() without a pattern on long, Date and Calendar: `new SimpleDateFormat()`
DEFAULT_PATTERN = "M/d/yy, h:mm a"


class PatternError(ValueError):
    """A pattern letter SimpleDateFormat does not know."""


def tokenize(pattern: str) -> list[tuple[str, object]]:
    """('lit', text) and ('field', (letter, count)) in order."""
    out: list[tuple[str, object]] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "'":
            if i + 1 < n and pattern[i + 1] == "'":
                out.append(("lit", "'"))
                i += 2
                continue
            j = i + 1
            buf = []
            while j < n:
                if pattern[j] == "'":
                    if j + 1 < n and pattern[j + 1] == "'":
                        buf.append("'")
                        j += 2
                        continue
                    break
                buf.append(pattern[j])
                j += 1
            out.append(("lit", "".join(buf)))
            i = j + 1
            continue
        if c.isascii() and c.isalpha():
            j = i
            while j < n and pattern[j] == c:
                j += 1
            if c not in _FORMATTERS:
                raise PatternError(f"Illegal pattern character '{c}'")
            out.append(("field", (c, j - i)))
            i = j
            continue
        out.append(("lit", c))
        i += 1
    return out


def _num(v: int, count: int) -> str:
    return str(v).zfill(count) if v >= 0 else "-" + str(-v).zfill(count)


def _year(v: int, count: int) -> str:
    return _num(v % 100, 2) if count == 2 else _num(v, count)


def _month(d: datetime, count: int) -> str:
    if count >= 4:
        return _MONTHS[d.month - 1]
    if count == 3:
        return _MONTHS[d.month - 1][:3]
    return _num(d.month, count)


def _zone_offset(d: datetime) -> timedelta:
    off = d.utcoffset()
    return off if off is not None else timedelta(0)


def _rfc_zone(d: datetime, count: int) -> str:
    total = int(_zone_offset(d).total_seconds()) // 60
    sign = "-" if total < 0 else "+"
    h, m = divmod(abs(total), 60)
    return f"{sign}{h:02d}{m:02d}"


def _iso_zone(d: datetime, count: int) -> str:
    total = int(_zone_offset(d).total_seconds()) // 60
    if total == 0:
        return "Z"
    sign = "-" if total < 0 else "+"
    h, m = divmod(abs(total), 60)
    if count == 1:
        return f"{sign}{h:02d}"
    if count == 2:
        return f"{sign}{h:02d}{m:02d}"
    return f"{sign}{h:02d}:{m:02d}"


def _zone_name(d: datetime, count: int) -> str:
    name = d.tzname() or "UTC"
    return name


_FORMATTERS: dict[str, Callable[[datetime, int], str]] = {
    "G": lambda d, c: "AD",
    "y": lambda d, c: _year(d.year, c),
    "Y": lambda d, c: _year(week_year(d), c),
    "M": _month,
    "L": _month,
    "w": lambda d, c: _num(week_of_year(d), c),
    "W": lambda d, c: _num(week_of_month(d), c),
    "D": lambda d, c: _num(d.timetuple().tm_yday, c),
    "d": lambda d, c: _num(d.day, c),
    "F": lambda d, c: _num((d.day - 1) // 7 + 1, c),
    "E": lambda d, c: _DAYS[d.weekday()] if c >= 4 else _DAYS[d.weekday()][:3],
    "u": lambda d, c: _num(d.weekday() + 1, c),
    "a": lambda d, c: "AM" if d.hour < 12 else "PM",
    "H": lambda d, c: _num(d.hour, c),
    "k": lambda d, c: _num(d.hour or 24, c),
    "K": lambda d, c: _num(d.hour % 12, c),
    "h": lambda d, c: _num(d.hour % 12 or 12, c),
    "m": lambda d, c: _num(d.minute, c),
    "s": lambda d, c: _num(d.second, c),
    "S": lambda d, c: _num(d.microsecond // 1000, c),
    "z": _zone_name,
    "Z": _rfc_zone,
    "X": _iso_zone,
}


def formatter(pattern: str) -> Callable[[datetime], str]:
    """A function formatting a datetime (in its own zone) with the pattern."""
    parts = []
    for kind, v in tokenize(pattern):
        if kind == "lit":
            parts.append((None, v, 0))
        else:
            letter, count = v          # type: ignore[misc]
            parts.append((_FORMATTERS[letter], None, count))

    def fmt(d: datetime) -> str:
        return "".join(text if f is None else f(d, c) for f, text, c in parts)
    return fmt


# -- parsing ------------------------------------------------------------------------------

_NUMERIC = {"y": "year", "Y": "year", "M": "month", "L": "month", "d": "day", "H": "hour",
            "k": "hour24", "K": "hour12_0", "h": "hour12", "m": "minute", "s": "second",
            "S": "msec", "D": "yday", "u": None, "w": None, "W": None, "F": None}


def parser(pattern: str, tz: tzinfo) -> Callable[[str], Optional[datetime]]:
    """A function parsing text with the pattern into an aware datetime (zone `tz` unless
    the text names an offset); None when the text does not match."""
    rx = []
    groups: list[tuple[str, str]] = []
    for kind, v in tokenize(pattern):
        if kind == "lit":
            rx.append(re.escape(v))            # type: ignore[arg-type]
            continue
        letter, count = v                      # type: ignore[misc]
        name = f"g{len(groups)}"
        if letter in ("M", "L") and count >= 3:
            rx.append(f"(?P<{name}>[A-Za-z]+)")
            groups.append((name, "monthname"))
        elif letter == "E":
            rx.append(f"(?P<{name}>[A-Za-z]+)")
            groups.append((name, "skip"))
        elif letter == "a":
            rx.append(f"(?P<{name}>[AaPp][Mm])")
            groups.append((name, "ampm"))
        elif letter == "G":
            rx.append(f"(?P<{name}>AD|BC)")
            groups.append((name, "skip"))
        elif letter in ("Z", "X", "z"):
            rx.append(f"(?P<{name}>Z|[+-]\\d{{2}}:?(?:\\d{{2}})?|[A-Za-z/_]+)")
            groups.append((name, "zone"))
        else:
            digits = f"\\d{{{count}}}" if count > 1 and letter != "y" else "\\d+"
            if letter == "y" and count == 2:
                digits = "\\d{2}"
            rx.append(f"(?P<{name}>-?{digits})")
            groups.append((name, _NUMERIC.get(letter) or "skip"))
    compiled = re.compile("".join(rx))

    def parse(text: str) -> Optional[datetime]:
        m = compiled.fullmatch(text.strip()) if isinstance(text, str) else None
        if m is None:
            return None
        f = {"year": 1970, "month": 1, "day": 1, "hour": 0, "minute": 0, "second": 0, "msec": 0}
        pm = None
        hour12 = None
        zone: Optional[tzinfo] = None
        yday = None
        for name, what in groups:
            s = m.group(name)
            if what == "skip":
                continue
            if what == "monthname":
                low = s.lower()
                hit = [i for i, mn in enumerate(_MONTHS) if mn.lower().startswith(low[:3])]
                if not hit:
                    return None
                f["month"] = hit[0] + 1
            elif what == "ampm":
                pm = s.lower() == "pm"
            elif what == "zone":
                zone = _parse_zone(s)
            elif what == "hour24":
                f["hour"] = int(s) % 24
            elif what in ("hour12", "hour12_0"):
                hour12 = int(s) % 12
            elif what == "yday":
                yday = int(s)
            else:
                f[what] = int(s)
        if hour12 is not None:
            f["hour"] = hour12 + (12 if pm else 0)
        elif pm and f["hour"] < 12:
            f["hour"] += 12
        try:
            d = datetime(f["year"], 1, 1) + timedelta(days=yday - 1) if yday is not None else \
                datetime(f["year"], 1, 1) + _month_delta(f["year"], f["month"]) + timedelta(days=f["day"] - 1)
            d = d.replace(hour=0) + timedelta(hours=f["hour"], minutes=f["minute"], seconds=f["second"],
                                              milliseconds=f["msec"])
        except (ValueError, OverflowError):
            return None
        return d.replace(tzinfo=zone if zone is not None else tz)
    return parse


def _month_delta(year: int, month: int) -> timedelta:
    """Lenient months: month 13 is January of the next year."""
    y, m = divmod((month - 1), 12)
    return datetime(year + y, m + 1, 1) - datetime(year, 1, 1)


def _parse_zone(s: str) -> Optional[tzinfo]:
    if s == "Z":
        return timezone.utc
    if s[0] in "+-":
        digits = s[1:].replace(":", "")
        h = int(digits[:2])
        m = int(digits[2:4]) if len(digits) >= 4 else 0
        off = timedelta(hours=h, minutes=m)
        return timezone(-off if s[0] == "-" else off)
    try:
        from zoneinfo import ZoneInfo
        return ZoneInfo("UTC" if s in ("GMT", "UTC") else s)
    except (LookupError, ValueError, OSError):   # an unknown zone name parses as the engine's zone
        return None


def parse_iso(text: str, tz: tzinfo) -> Optional[datetime]:
    """ISO-8601 date-time text (Esper's dateformat-less casts of strings to date-times)."""
    if not isinstance(text, str):
        return None
    try:
        d = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return d if d.tzinfo is not None else d.replace(tzinfo=tz)

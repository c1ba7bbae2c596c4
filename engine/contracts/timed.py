"""Event shapes of application time (StreamInsight): point, interval and edge lifetimes
[start, end) on integer engine time, and the bean that carries a lifetime.

Rules:
- Timestamps are int milliseconds since the epoch or timezone-aware datetimes; a datetime is
  converted once, when the event enters an input (`to_ms`). Naive datetimes are refused:
  their instant is ambiguous.
- A point event at t lives [t, t + TICK): valid for the single instant t.
- An interval event lives [start, end); start inclusive, end exclusive.
- An edge event is a start edge, valid [start, INFINITY) until further notice, and later an
  end edge carrying the real end, which fixes the lifetime to [start, end).
"""
from __future__ import annotations

import enum
import numbers
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Optional

from engine.contracts.bean import EventBean
from engine.contracts.event_types import EventType

TICK = 1                 # the smallest unit of engine time (one millisecond)
INFINITY = 2 ** 63 - 1   # "valid until further notice" (DateTimeOffset.MaxValue, Long.MAX)
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MS = timedelta(milliseconds=1)


class Shape(enum.Enum):
    POINT = "point"
    INTERVAL = "interval"
    EDGE = "edge"


def to_ms(value: Any) -> int:
    """An application timestamp as integer milliseconds since the epoch.

    >>> to_ms(1500)
    1500
    >>> to_ms(datetime(1970, 1, 1, 0, 0, 1, 500000, tzinfo=timezone.utc))
    1500
    """
    if isinstance(value, bool):
        raise TypeError("A timestamp must be an int (milliseconds) or an aware datetime, not a bool")
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, datetime):
        if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
            raise ValueError(f"Timestamp {value!r} is a naive datetime: give it a timezone")
        return (value - _EPOCH) // _MS
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise TypeError(f"A timestamp must be an int (milliseconds) or an aware datetime, got "
                    f"{type(value).__name__}")


def to_span(value: Any) -> int:
    """A duration (delay, window length, shift) as integer milliseconds: an int or a timedelta."""
    if isinstance(value, timedelta):
        return value // _MS
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    raise TypeError(f"A duration must be an int (milliseconds) or a timedelta, got {type(value).__name__}")


EndWatcher = Callable[["TimedBean"], None]


class TimedBean(EventBean):
    """An event released by an application-time input, carrying its lifetime [start, end)
    as int engine time. The end of an edge event (or of an event clipped by a later one) is
    set when it becomes known; windows holding the bean `watch` it to hear of that."""

    __slots__ = ("start", "end", "shape", "_watchers")

    def __init__(self, event_type: EventType, underlying: Any, start: int, end: int,
                 shape: Shape) -> None:
        super().__init__(event_type, underlying)
        self.start = start
        self.end = end
        self.shape = shape
        self._watchers: Optional[list[EndWatcher]] = None

    def watch(self, watcher: EndWatcher) -> None:
        if self._watchers is None:
            self._watchers = []
        self._watchers.append(watcher)

    def unwatch(self, watcher: EndWatcher) -> None:
        ws = self._watchers
        if ws:
            for i, w in enumerate(ws):
                if w == watcher:
                    del ws[i]
                    break
            if not ws:
                self._watchers = None

    def set_end(self, end: int) -> None:
        """Fix (or shorten) the end of the lifetime and tell the windows holding the bean."""
        self.end = end
        if self._watchers:
            for w in list(self._watchers):
                w(self)

    def __repr__(self) -> str:
        end = "inf" if self.end >= INFINITY else self.end
        return f"TimedBean({self.event_type.name}, [{self.start}, {end}), {self.underlying!r})"

    def __reduce__(self):  # pickled engine state keeps the lifetime, not the watchers
        return (_rebuild, (self.event_type, self.underlying, self.start, self.end, self.shape))


def _rebuild(event_type: EventType, underlying: Any, start: int, end: int, shape: Shape) -> TimedBean:
    return TimedBean(event_type, underlying, start, end, shape)


def declared_shape(event_type: EventType) -> Optional[Shape]:
    """The shape a type declares with `starttimestamp`/`endtimestamp`: interval when both are
    declared, point when only the start is; None when neither."""
    if not event_type.start_timestamp:
        return None
    return Shape.INTERVAL if event_type.end_timestamp else Shape.POINT


def lifetime_of(bean: EventBean) -> Optional[tuple[int, int]]:
    """[start, end) of an event as windows see it: the lifetime a TimedBean carries, else the
    type's declared timestamps (a type with only a start timestamp is a point event); None
    when the event has neither or a timestamp is null."""
    if isinstance(bean, TimedBean):
        return bean.start, bean.end
    et = bean.event_type
    if not et.start_timestamp:
        return None
    s = bean.get(et.start_timestamp)
    if s is None:
        return None
    start = to_ms(s)
    if not et.end_timestamp:
        return start, start + TICK
    e = bean.get(et.end_timestamp)
    return (start, INFINITY if e is None else to_ms(e))

"""`#time_order(timestamp, period)` and `#timetolive(timestamp)`: events ordered by a
timestamp they carry, each leaving when engine time reaches its timestamp plus the period."""
from __future__ import annotations

import itertools
import math
from typing import Any, Callable, ClassVar, Iterator, Optional, Sequence

from sortedcontainers import SortedList

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._util import check_count, fail, period_msec, to_units
from .base import Events, View, ViewArg, ViewContext


class TimeOrderWindow(View):
    """Esper's time-order window. An event with timestamp ts is kept while now < ts + period
    and leaves at the instant ts + period; events leave in timestamp order, equal timestamps
    in arrival order. An event that arrives already expired (ts + period <= now) is posted as
    both new and old in the same update. One callback is scheduled, for the earliest expiry,
    and moved earlier when an event with an older timestamp arrives."""

    __slots__ = ("_ctx", "_period", "_ts", "_sorted", "_entries", "_seq", "_handle", "_handle_at",
                 "_expire_cb", "_expiry")

    def __init__(self, ctx: ViewContext, period: int, ts: Callable[[EventBean], Any],
                 add_period: Optional[Callable[[int], int]] = None) -> None:
        super().__init__()
        self._ctx = ctx
        self._period = period
        # when an event with timestamp ts leaves: ts + period, or by the calendar (`1 month`)
        self._expiry: Callable[[Any], Any] = add_period if add_period is not None \
            else (lambda ts, _p=period: ts + _p)
        self._ts = ts
        self._sorted = SortedList()                 # (timestamp, arrival, bean)
        self._entries: dict[int, tuple] = {}        # id(bean) -> entry, for removals
        self._seq = itertools.count()
        self._handle: Any = None
        self._handle_at = 0
        self._expire_cb = self._expire

    def update(self, new: Events, old: Events) -> None:
        removed = None
        if old:
            for e in old:
                entry = self._entries.pop(id(e), None)
                if entry is not None:
                    self._sorted.remove(entry)
                    if removed is None:
                        removed = []
                    removed.append(e)
        if new:
            now = self._ctx.now()
            expiry = self._expiry
            for e in new:
                ts = self._ts(e)
                if ts is None or expiry(ts) <= now:
                    if removed is None:
                        removed = []
                    removed.append(e)
                    continue
                entry = (ts, next(self._seq), e)
                self._sorted.add(entry)
                self._entries[id(e)] = entry
            self._reschedule()
        if new or removed:
            self.child.update(new or None, removed)

    def _reschedule(self) -> None:
        if not self._sorted:
            return
        due = self._expiry(self._sorted[0][0])
        if self._handle is not None:
            if self._handle_at <= due:
                return
            self._ctx.cancel(self._handle)
        self._handle_at = due
        self._handle = self._ctx.schedule(due, self._expire_cb)

    def _expire(self) -> None:
        self._handle = None
        now = self._ctx.now()
        expiry = self._expiry
        srt = self._sorted
        out = []
        while srt and expiry(srt[0][0]) <= now:
            e = srt.pop(0)[2]
            del self._entries[id(e)]
            out.append(e)
        self._reschedule()
        if out:
            self.child.update(None, out)

    def __iter__(self) -> Iterator[EventBean]:
        return (entry[2] for entry in self._sorted)

    def __len__(self) -> int:
        return len(self._sorted)

    def stop(self) -> None:
        if self._handle is not None:
            self._ctx.cancel(self._handle)
            self._handle = None
        self._sorted.clear()
        self._entries.clear()


def _timestamp(view: str, arg: ViewArg) -> Callable[[EventBean], Any]:
    rt = arg.result_type
    if rt is not None and getattr(rt, "is_numeric", True) is False:
        raise fail(view, f"invalid parameter '{arg.text}', the timestamp expression must return "
                         f"a long-typed value but returns {rt}")
    ev = arg.evaluate

    def ts(bean: EventBean, _ev=ev) -> Any:
        v = _ev(bean)
        if v is None or isinstance(v, bool):
            return None
        if isinstance(v, float):
            return None if math.isnan(v) else v
        return v
    return ts


@frozen_dataclass(slots=True)
class TimeOrderWindowFactory:
    ts: Callable[[EventBean], Any]
    period_msec: float
    add_period: Optional[Callable[[int], int]] = None
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "TimeOrderWindowFactory":
        check_count(view, args, 2, 2, "two parameters (a timestamp expression and a time period)")
        return cls(_timestamp(view, args[0]), period_msec(view, args[1]),
                   getattr(args[1], "add_period", None))

    def make(self, ctx: ViewContext) -> TimeOrderWindow:
        return TimeOrderWindow(ctx, to_units(self.period_msec, ctx), self.ts, self.add_period)


@frozen_dataclass(slots=True)
class TimeToLiveWindowFactory:
    """`#timetolive(ts)`: a time-order window with no period: each event stays until engine
    time reaches its timestamp."""

    ts: Callable[[EventBean], Any]
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "TimeToLiveWindowFactory":
        check_count(view, args, 1, 1, "one parameter (a timestamp expression)")
        return cls(_timestamp(view, args[0]))

    def make(self, ctx: ViewContext) -> TimeOrderWindow:
        return TimeOrderWindow(ctx, 0, self.ts)

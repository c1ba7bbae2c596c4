"""`#time(period)`: a sliding window of the events that arrived within the last period of
engine time."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, ClassVar, Iterator, Sequence

from engine.contracts.bean import EventBean

from ._util import check_count, period_msec, to_units
from .base import Events, View, ViewArg, ViewContext


class TimeWindow(View):
    """An event arriving at t is kept while now < t + period and leaves at the instant
    t + period. One callback is scheduled, for the oldest event's expiry; when it fires
    (possibly late, after a time jump) every due event leaves in one update, oldest first."""

    __slots__ = ("_ctx", "_period", "_times", "_events", "_handle", "_expire_cb")

    def __init__(self, ctx: ViewContext, period: int) -> None:
        super().__init__()
        self._ctx = ctx
        self._period = period
        self._times: deque[int] = deque()
        self._events: deque[EventBean] = deque()
        self._handle: Any = None
        self._expire_cb = self._expire

    def update(self, new: Events, old: Events) -> None:
        expired = None
        if old:
            expired = self._remove(old)
        if new:
            now = self._ctx.now()
            if self._handle is None:
                self._handle = self._ctx.schedule(now + self._period, self._expire_cb)
            times = self._times
            events = self._events
            for e in new:
                times.append(now)
                events.append(e)
        if new or expired:
            self.child.update(new or None, expired)

    def _remove(self, old: list) -> Any:
        removed = None
        times, events = self._times, self._events
        for e in old:
            for i, x in enumerate(events):
                if x is e:
                    del events[i]
                    del times[i]
                    if removed is None:
                        removed = []
                    removed.append(e)
                    break
        return removed

    def _expire(self) -> None:
        self._handle = None
        times, events = self._times, self._events
        horizon = self._ctx.now() - self._period   # events at or before it have expired
        if times and times[0] <= horizon:
            out = []
            while times and times[0] <= horizon:
                times.popleft()
                out.append(events.popleft())
            self.child.update(None, out)
        if times and self._handle is None:
            self._handle = self._ctx.schedule(times[0] + self._period, self._expire_cb)

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self._events)

    def indexable(self) -> Sequence[EventBean]:
        """The contents oldest first, indexable (random access for `prev`)."""
        return self._events

    def __len__(self) -> int:
        return len(self._events)

    def stop(self) -> None:
        if self._handle is not None:
            self._ctx.cancel(self._handle)
            self._handle = None
        self._times.clear()
        self._events.clear()


@dataclass(frozen=True, slots=True)
class TimeWindowFactory:
    period_msec: float
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "TimeWindowFactory":
        check_count(view, args, 1, 1, "one parameter (a time period)")
        return cls(period_msec(view, args[0]))

    def make(self, ctx: ViewContext) -> TimeWindow:
        return TimeWindow(ctx, to_units(self.period_msec, ctx))

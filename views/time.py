"""`#time(period)`: a sliding window of the events that arrived within the last period of
engine time."""
from __future__ import annotations

from collections import deque
from typing import Any, ClassVar, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._factories import PeriodFactory
from ._held import Stamped, cancel_timer
from .base import Events, ViewContext


class TimeWindow(Stamped):
    """An event arriving at t is kept while now < t + period and leaves at the instant
    t + period. One callback is scheduled, for the oldest event's expiry; when it fires
    (possibly late, after a time jump) every due event leaves in one update, oldest first."""

    __slots__ = ("_ctx", "_period", "_handle", "_expire_cb")

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
            expired = self._remove(old, None)
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

    def indexable(self) -> Sequence[EventBean]:
        """The contents oldest first, indexable (random access for `prev`)."""
        return self._events

    def stop(self) -> None:
        cancel_timer(self._ctx, self._handle)
        self._handle = None
        Stamped.stop(self)


@frozen_dataclass(slots=True)
class TimeWindowFactory(PeriodFactory):
    period_msec: float
    window: ClassVar = TimeWindow

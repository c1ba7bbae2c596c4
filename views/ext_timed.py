"""`#ext_timed(timestamp expression, period)`: a sliding time window whose clock is the
events' own timestamps, not engine time."""
from __future__ import annotations

from collections import deque
from typing import Callable, ClassVar, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._held import Stamped
from ._util import check_count, check_numeric, period_msec, to_units
from .base import Events, ViewArg, ViewContext


class ExtTimedWindow(Stamped):
    """Each arriving event moves the window's clock to its timestamp T: events leave, in
    the same update, from the oldest arrival on while their timestamp is at or before
    T - period. As in Esper the scan stops at the first event still inside, so timestamps
    are expected to ascend; a late event stays until the events before it have left."""

    __slots__ = ("_timestamp", "_period")

    def __init__(self, timestamp: Callable[[EventBean], object], period: int) -> None:
        super().__init__()
        self._timestamp = timestamp
        self._period = period
        self._times: deque[int] = deque()
        self._events: deque[EventBean] = deque()

    def update(self, new: Events, old: Events) -> None:
        times, events = self._times, self._events
        expired = None
        if new:
            ts_of = self._timestamp
            # an event without a timestamp has no place on the timeline: it stays out
            new = [e for e in new if isinstance(ts_of(e), (int, float)) and ts_of(e) == ts_of(e)]
        if new:
            ts = 0
            for e in new:
                ts = int(ts_of(e))  # type: ignore[arg-type]
                times.append(ts)
                events.append(e)
            horizon = ts - self._period
            if times[0] <= horizon:
                expired = []
                while times and times[0] <= horizon:
                    times.popleft()
                    expired.append(events.popleft())
        if old:
            expired = self._remove(old, expired)
        if new or expired:
            self.child.update(new or None, expired)



@frozen_dataclass(slots=True)
class ExtTimedWindowFactory:
    timestamp: Callable[[EventBean], object]
    period_msec: float
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "ExtTimedWindowFactory":
        check_count(view, args, 2, 2, "a timestamp expression and a time period")
        check_numeric(view, args[0], "the timestamp expression")
        return cls(args[0].evaluate, period_msec(view, args[1]))

    def make(self, ctx: ViewContext) -> ExtTimedWindow:
        return ExtTimedWindow(self.timestamp, to_units(self.period_msec, ctx))

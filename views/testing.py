"""SimulatedViewContext: a ViewContext on simulated time over engine.scheduler.Scheduler,
for tests and for callers that drive views without an engine."""
from __future__ import annotations

from typing import Any, Callable, Optional

from engine.contracts.scheduler import ScheduleHandle, Scheduler, Slot


class SimulatedViewContext:
    """Time, a fixed schedule slot and the scheduler, with Esper's two ways to move time:
    `advance_to(t)` jumps (every callback due at or before t fires with `now()` already t)
    and `advance_span(t)` steps through each due instant (each callback fires at its own
    time)."""

    __slots__ = ("scheduler", "slot", "msec_per_unit")

    def __init__(self, start: int = 0, scheduler: Optional[Scheduler] = None, slot: Slot = 0,
                 msec_per_unit: float = 1.0) -> None:
        self.scheduler = scheduler if scheduler is not None else Scheduler(start)
        self.slot = slot
        self.msec_per_unit = msec_per_unit

    def now(self) -> int:
        return self.scheduler.now

    def schedule(self, at: int, callback: Callable[[], None]) -> ScheduleHandle:
        return self.scheduler.schedule(at, self.slot, callback)

    def cancel(self, handle: Any) -> None:
        self.scheduler.cancel(handle)

    def advance_to(self, t: int) -> None:
        """Esper's advanceTime: jump to t, then fire everything due at or before t."""
        self.scheduler.set_time(t)
        self._fire_due(t)

    def _fire_due(self, t: int) -> None:
        s = self.scheduler
        collect = getattr(s, "collect_due", None)
        if collect is not None:
            # callbacks scheduled while these fire wait for the next advance, as in Esper
            for h in collect(t):
                s.fire(h)
            return
        while True:
            h = s.pop_due(t)
            if h is None:
                return
            h.callback()

    def advance_span(self, t: int) -> None:
        """Esper's advanceTimeSpan: visit each scheduled instant up to t in order."""
        s = self.scheduler
        if t < s.now:
            s.set_time(t)  # raises TimeError
        while True:
            nxt = s.next_time()
            if nxt is None or nxt > t:
                break
            if nxt > s.now:
                s.set_time(nxt)
            self._fire_due(s.now)
        s.set_time(t)

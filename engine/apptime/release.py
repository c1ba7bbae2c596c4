"""The application clock of one engine: the reorder buffer shared by its application-time
inputs, releasing committed events in time order and moving engine time with them.

Rules:
- Engine application time is the minimum CTI over all inputs (each shifted by its input's
  ShiftEventTime); an input that has had no CTI yet holds it at the engine time the input
  was opened. Nothing after it is released.
- Committed items (those before application time) are released in time order: a point,
  interval or start edge at its start, an end edge at its end; at the same instant end
  edges come first (a lifetime [s, t) is over when one starting at t begins), then ties in
  arrival order across all inputs.
- Before an item, engine time moves to its time; after the committed items, to
  application time. Time moves as Esper's advanceTimeSpan: every schedule in between
  fires at its own instant, so the output does not depend on where the CTIs fell.
- A CTI at infinity (every input closed with a final CTI) releases everything and moves
  engine time to the latest finite instant any released lifetime reaches, so that every
  known end is processed; periodic timers are not run forever. (A `#time` window over
  points keeps its own expiries: a finite CTI, or advance_time_span, lets them pass.)
- Inputs are fed from application code, not from inside statement listeners; a CTI that
  arrives while the clock is releasing is taken into account before it returns.
"""
from __future__ import annotations

import heapq
import itertools
from typing import TYPE_CHECKING

from engine.contracts.timed import INFINITY, TimedBean

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime
    from .input import ApplicationInput

# schedule slot for end changes: before any statement's slot at the same instant
_SLOT = (-(2 ** 62),)

INSERT = 1      # rank of point, interval and start-edge items
END = 0         # rank of end-edge items (earlier at the same instant)


class ApplicationClock:
    """One per engine (engine.services.apptime), created by the first input."""

    def __init__(self, engine: "Runtime") -> None:
        self.engine = engine
        self.inputs: list["ApplicationInput"] = []
        self._heap: list[tuple[int, int, int, TimedBean, "ApplicationInput"]] = []
        self._seq = itertools.count()
        self._pumping = False
        self._again = False
        self._latest = engine.now     # latest finite instant of any released lifetime

    @property
    def application_time(self) -> int:
        """The committed time: the minimum (shifted) CTI of all inputs."""
        if not self.inputs:
            return self.engine.now
        return min(inp.effective_cti for inp in self.inputs)

    def pending_count(self) -> int:
        return len(self._heap)

    def push(self, time: int, rank: int, bean: TimedBean, inp: "ApplicationInput") -> None:
        heapq.heappush(self._heap, (time, rank, next(self._seq), bean, inp))

    def pump(self) -> None:
        """Release whatever the inputs' CTIs commit."""
        if self._pumping:
            self._again = True
            return
        engine = self.engine
        if engine.processing:
            raise RuntimeError("Application-time inputs cannot be fed from inside a statement "
                               "listener; enqueue from application code")
        self._pumping = True
        try:
            while True:
                self._again = False
                horizon = self.application_time
                heap = self._heap
                while heap and heap[0][0] < horizon:
                    time, rank, _, bean, inp = heapq.heappop(heap)
                    if rank == END:
                        self._release_end(time, bean)
                    else:
                        self._release_insert(time, bean, inp)
                target = horizon if horizon < INFINITY else self._latest
                self._move_to(target)
                if not self._again:
                    return
        finally:
            self._pumping = False

    # -- releasing ------------------------------------------------------------------------
    def _move_to(self, t: int) -> None:
        engine = self.engine
        if t > engine.now:
            engine.advance_time_span(t)

    def _note(self, t: int) -> None:
        if t < INFINITY and t > self._latest:
            self._latest = t

    def _release_insert(self, time: int, bean: TimedBean, inp: "ApplicationInput") -> None:
        self._move_to(time)
        inp._before_release(bean)
        self._note(bean.start)
        self._note(bean.end)
        inp.released += 1
        self.engine.send(bean)

    def _release_end(self, time: int, bean: TimedBean) -> None:
        self._move_to(time)
        self.set_end(bean, time)

    def set_end(self, bean: TimedBean, end: int) -> None:
        """Fix a released bean's end now, inside the engine's processing so that the
        windows' output is dispatched before the next item."""
        self._note(end)
        engine = self.engine
        if not bean._watchers:
            bean.set_end(end)
            return
        now = engine.now
        engine.scheduler.schedule(now, _SLOT, lambda: bean.set_end(end))
        engine.advance_time_span(now)

"""`#time_accum(period)`: accumulates events while they keep arriving within the period of
each other; after a quiet period all leave at once."""
from __future__ import annotations

from typing import Any, ClassVar

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._factories import PeriodFactory
from ._held import Held, cancel_timer
from ._util import remove_identical
from .base import Events, ViewContext


class TimeAccumWindow(Held):
    """Each arriving event is posted as new at once; the window empties (one update, old =
    every event, oldest first) when engine time reaches last arrival + period."""

    __slots__ = ("_ctx", "_period", "_handle", "_due", "_fire_cb")

    def __init__(self, ctx: ViewContext, period: int) -> None:
        super().__init__()
        self._ctx = ctx
        self._period = period
        self._events: list[EventBean] = []
        self._handle: Any = None
        self._due = 0
        self._fire_cb = self._fire

    def update(self, new: Events, old: Events) -> None:
        removed = remove_identical(self._events, old) if old else None
        if new:
            due = self._ctx.now() + self._period
            if self._handle is not None and self._due != due:
                self._ctx.cancel(self._handle)
                self._handle = None
            if self._handle is None:
                self._handle = self._ctx.schedule(due, self._fire_cb)
                self._due = due
            self._events.extend(new)
        if new or removed:
            self.child.update(new or None, removed)

    def _fire(self) -> None:
        self._handle = None
        out = self._events
        if out:
            self._events = []
            self.child.update(None, out)

    def stop(self) -> None:
        cancel_timer(self._ctx, self._handle)
        self._handle = None
        Held.stop(self)


@frozen_dataclass(slots=True)
class TimeAccumWindowFactory(PeriodFactory):
    period_msec: float
    window: ClassVar = TimeAccumWindow

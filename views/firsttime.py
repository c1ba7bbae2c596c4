"""`#firsttime(period)`: keeps the events arriving within the period from the view's
creation and ignores later ones."""
from __future__ import annotations

from typing import Any, ClassVar

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._factories import PeriodFactory
from ._held import Held, cancel_timer
from ._util import remove_identical
from .base import Events, ViewContext


class FirstTimeWindow(Held):
    """As in Esper the period starts when the view is created (statement start), not at the
    first event: a callback at creation + period closes the window; events arriving before
    it are posted as new and kept forever (unless removed upstream)."""

    __slots__ = ("_ctx", "_closed", "_handle")

    def __init__(self, ctx: ViewContext, period: int) -> None:
        super().__init__()
        self._ctx = ctx
        self._events: list[EventBean] = []
        self._closed = False
        self._handle: Any = ctx.schedule(ctx.now() + period, self._close)

    def _close(self) -> None:
        self._handle = None
        self._closed = True

    def update(self, new: Events, old: Events) -> None:
        removed = remove_identical(self._events, old) if old else None
        added = None
        if new and not self._closed:
            added = new
            self._events.extend(new)
        if added or removed:
            self.child.update(added, removed)

    def stop(self) -> None:
        cancel_timer(self._ctx, self._handle)
        self._handle = None
        Held.stop(self)


@frozen_dataclass(slots=True)
class FirstTimeWindowFactory(PeriodFactory):
    period_msec: float
    window: ClassVar = FirstTimeWindow

"""What the two timer-driven batch windows (time_batch, time_length_batch) share: the current
and previous batch, the pending timer, the post at a batch end, iteration and stop (their
factories share views/_factories.py TimedBatchFactory)."""
from __future__ import annotations

from typing import Any

from engine.contracts.bean import EventBean

from ._held import BatchHeld
from .base import ViewContext


class TimedBatch(BatchHeld):
    """A batch posts new=current batch, old=previous batch; with both empty it posts only
    under FORCE_UPDATE (`update(None, None)`, as Esper passes nulls). After a post the timer
    is scheduled again (`_schedule`, the subclass's grid); without one it stops until the
    next event."""

    __slots__ = ("_ctx", "_period", "_force", "_handle", "_fire_cb")

    def __init__(self, ctx: ViewContext, period: int, force_update: bool) -> None:
        super().__init__()
        self._ctx = ctx
        self._period = period
        self._force = force_update
        self._batch: list[EventBean] = []
        self._last: list[EventBean] = []
        self._handle: Any = None
        self._fire_cb = self._fire

    def _schedule(self) -> None:
        raise NotImplementedError

    def _fire(self) -> None:
        self._handle = None
        self._post()

    def _post(self) -> None:
        batch, last = self._batch, self._last
        if batch or last or self._force:
            self.child.update(batch or None, last or None)
            self._schedule()
        self._last = batch
        self._batch = []

    def stop(self) -> None:
        if self._handle is not None:
            self._ctx.cancel(self._handle)
            self._handle = None
        self._batch = []
        self._last = []

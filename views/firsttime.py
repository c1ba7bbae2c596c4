"""`#firsttime(period)`: keeps the events arriving within the period from the view's
creation and ignores later ones."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Iterator, Sequence

from engine.contracts.bean import EventBean

from ._util import check_count, period_msec, remove_identical, to_units
from .base import Events, View, ViewArg, ViewContext


class FirstTimeWindow(View):
    """As in Esper the period starts when the view is created (statement start), not at the
    first event: a callback at creation + period closes the window; events arriving before
    it are posted as new and kept forever (unless removed upstream)."""

    __slots__ = ("_ctx", "_events", "_closed", "_handle")

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

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self._events)

    def stop(self) -> None:
        if self._handle is not None:
            self._ctx.cancel(self._handle)
            self._handle = None
        self._events = []


@dataclass(frozen=True, slots=True)
class FirstTimeWindowFactory:
    period_msec: float
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "FirstTimeWindowFactory":
        check_count(view, args, 1, 1, "one parameter (a time period)")
        return cls(period_msec(view, args[0]))

    def make(self, ctx: ViewContext) -> FirstTimeWindow:
        return FirstTimeWindow(ctx, to_units(self.period_msec, ctx))

"""`#time_accum(period)`: accumulates events while they keep arriving within the period of
each other; after a quiet period all leave at once."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Iterator, Sequence

from engine.contracts.bean import EventBean

from ._util import check_count, period_msec, remove_identical, to_units
from .base import Events, View, ViewArg, ViewContext


class TimeAccumWindow(View):
    """Each arriving event is posted as new at once; the window empties (one update, old =
    every event, oldest first) when engine time reaches last arrival + period."""

    __slots__ = ("_ctx", "_period", "_events", "_handle", "_due", "_fire_cb")

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

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self._events)

    def stop(self) -> None:
        if self._handle is not None:
            self._ctx.cancel(self._handle)
            self._handle = None
        self._events = []


@dataclass(frozen=True, slots=True)
class TimeAccumWindowFactory:
    period_msec: float
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "TimeAccumWindowFactory":
        check_count(view, args, 1, 1, "one parameter (a time period)")
        return cls(period_msec(view, args[0]))

    def make(self, ctx: ViewContext) -> TimeAccumWindow:
        return TimeAccumWindow(ctx, to_units(self.period_msec, ctx))

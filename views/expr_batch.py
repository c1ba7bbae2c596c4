"""`#expr_batch(expression[, include triggering event])`: a tumbling window that posts its
batch when the expression becomes true."""
from __future__ import annotations

from typing import Any, ClassVar, Optional, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._held import BatchHeld
from ._util import check_count, fail, remove_identical
from .base import Events, ViewArg, ViewContext
from .expr import BUILTIN_NAMES, ExpiryFn, compile_expiry


class ExprBatchWindow(BatchHeld):
    """Esper's expression batch. Each arriving event is added and the expression evaluated
    against it (current_count includes it; expired_count is 0; oldest/newest event and
    timestamps describe the batch). When true the view posts new=batch, old=previous batch;
    with include_triggering_event false the triggering event stays to start the next batch.
    Events removed upstream leave the batch silently and trigger an evaluation without an
    event (the expression then sees a null event)."""

    __slots__ = ("_ctx", "_fn", "_include", "_values", "_oldest_event", "_newest_event", "_oldest_ts",
                 "_newest_ts")

    def __init__(self, ctx: ViewContext, fn: ExpiryFn, include_triggering: bool = True) -> None:
        super().__init__()
        self._ctx = ctx
        self._fn = fn
        self._include = include_triggering
        self._batch: list[EventBean] = []
        self._last: Optional[list[EventBean]] = None
        self._values: dict[str, Any] = dict.fromkeys(BUILTIN_NAMES)
        self._values["view_reference"] = self
        self._values["expired_count"] = 0
        self._oldest_event: Optional[EventBean] = None
        self._newest_event: Optional[EventBean] = None
        self._oldest_ts = 0
        self._newest_ts = 0

    def _true(self, arriving: Optional[EventBean]) -> bool:
        v = self._values
        v["current_count"] = len(self._batch)
        v["oldest_timestamp"] = self._oldest_ts
        v["newest_timestamp"] = self._newest_ts
        v["oldest_event"] = self._oldest_event
        v["newest_event"] = self._newest_event
        return bool(self._fn(arriving, v))

    def update(self, new: Events, old: Events) -> None:
        fire = False
        batch = self._batch
        if old:
            remove_identical(batch, old)
            self._oldest_event = batch[0] if batch else None
            fire = self._true(None)
        keep = -1   # events of the batch to post; -1: all
        if new:
            now = self._ctx.now()
            if not batch:
                self._oldest_ts = now
            self._newest_ts = now
            if self._oldest_event is None:
                self._oldest_event = new[0]
            for e in new:
                batch.append(e)
                self._newest_event = e
                if not fire:
                    fire = self._true(e)
                    if fire and not self._include:
                        keep = len(batch) - 1
        if fire:
            self._release(keep)

    def _release(self, keep: int) -> None:
        batch = self._batch
        if keep < 0 or keep == len(batch):
            posted, self._batch = batch, []
            self._oldest_event = self._newest_event = None
        else:
            posted, self._batch = batch[:keep], batch[keep:]
            # as in Esper, the oldest timestamp is only reset when an event enters an
            # empty batch
            self._oldest_event = self._batch[0]
        last = self._last
        self._last = posted
        if posted or last:
            self.child.update(posted or None, last or None)

    def reevaluate(self) -> None:
        """Evaluate the expression without an event (e.g. after a variable changed)."""
        if self._true(None):
            self._release(len(self._batch))



@frozen_dataclass(slots=True)
class ExprBatchWindowFactory:
    fn: ExpiryFn
    include_triggering: bool = True
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "ExprBatchWindowFactory":
        check_count(view, args, 1, 2, "an expression and an optional include-triggering-event "
                                      "flag")
        include = True
        if len(args) == 2:
            a = args[1]
            if not (a.is_constant and isinstance(a.value, bool)):
                raise fail(view, f"invalid parameter '{a.text}', expected a boolean constant "
                                 f"(include triggering event)")
            include = a.value
        return cls(compile_expiry(view, args[0]), include)

    def make(self, ctx: ViewContext) -> ExprBatchWindow:
        return ExprBatchWindow(ctx, self.fn, self.include_triggering)

"""`#ext_timed_batch(timestamp expression, period[, reference point])`: a tumbling window
whose intervals are measured on the events' own timestamps."""
from __future__ import annotations

from typing import Callable, ClassVar, Optional, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._held import BatchHeld
from ._util import check_count, check_numeric, period_msec, reference_point, to_units, without
from .base import Events, ViewArg, ViewContext


class ExtTimedBatchWindow(BatchHeld):
    """Esper's externally-timed batch. Intervals lie on the grid reference + k*period
    (reference: the optional reference point, else the first event's timestamp). The batch
    ends with the first event whose timestamp reaches the end of the interval holding the
    batch's oldest timestamp: the view then posts new=batch, old=previous batch, and that
    event starts the next batch. Time only moves with events, so an empty interval posts
    nothing. Events removed upstream leave the batch and are posted as old."""

    __slots__ = ("_timestamp", "_period", "_ref", "_oldest")

    def __init__(self, timestamp: Callable[[EventBean], object], period: int,
                 reference: Optional[int] = None) -> None:
        super().__init__()
        self._timestamp = timestamp
        self._period = period
        self._ref = reference
        self._oldest: Optional[int] = None
        self._batch: list[EventBean] = []
        self._last: Optional[list[EventBean]] = None

    def update(self, new: Events, old: Events) -> None:
        removed = None
        if old:
            kept = without(self._batch, old)
            if len(kept) != len(self._batch):
                ids = {id(e) for e in kept}
                removed = [e for e in self._batch if id(e) not in ids]
                self._batch = kept
                self._oldest = int(self._timestamp(kept[0])) if kept else None  # type: ignore[arg-type]
        posted = None
        if new:
            period = self._period
            ts_of = self._timestamp
            # an event without a timestamp has no place on the timeline: it stays out
            new = [e for e in new if isinstance(ts_of(e), (int, float)) and ts_of(e) == ts_of(e)]
            for e in new:
                ts = int(ts_of(e))  # type: ignore[arg-type]
                if self._ref is None:
                    self._ref = ts
                oldest = self._oldest
                if oldest is None:
                    self._oldest = ts
                else:
                    ref = self._ref
                    end = ref + ((oldest - ref) // period + 1) * period
                    if ts >= end:
                        posted = self._batch if posted is None else posted + self._batch
                        self._batch = []
                        self._oldest = ts
                self._batch.append(e)
        if posted is not None:
            last = self._last
            self._last = posted
            self.child.update(posted, last or None)
        if removed:
            self.child.update(None, removed)



@frozen_dataclass(slots=True)
class ExtTimedBatchWindowFactory:
    timestamp: Callable[[EventBean], object]
    period_msec: float
    reference: Optional[int] = None
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "ExtTimedBatchWindowFactory":
        check_count(view, args, 2, 3, "a timestamp expression, a time period and an optional "
                                      "reference point")
        check_numeric(view, args[0], "the timestamp expression")
        reference = reference_point(view, args[2]) if len(args) == 3 else None
        return cls(args[0].evaluate, period_msec(view, args[1]), reference)

    def make(self, ctx: ViewContext) -> ExtTimedBatchWindow:
        return ExtTimedBatchWindow(self.timestamp, to_units(self.period_msec, ctx), self.reference)

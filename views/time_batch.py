"""`#time_batch(period[, reference point][, 'FORCE_UPDATE, START_EAGER'])`: a tumbling
window that posts its batch at the end of each interval."""
from __future__ import annotations

from typing import ClassVar, Optional, Sequence

from engine.contracts.frozen import frozen_dataclass
from ._util import batch_flags, check_count, fail, is_string, period_msec, reference_point
from ._factories import TimedBatchFactory
from ._timed_batch import TimedBatch
from .base import Events, ViewArg, ViewContext


def next_boundary(now: int, reference: int, period: int) -> int:
    """The first instant reference + k*period strictly after now (k may be negative)."""
    return reference + ((now - reference) // period + 1) * period


class TimeBatchWindow(TimedBatch):
    """Esper's time batch.

    - Intervals lie on the grid reference + k*period. The reference is the optional
      reference point, else the first event's arrival time (START_EAGER: view creation,
      which then schedules the first interval at once).
    - At each interval end the view posts new=current batch, old=previous batch; an empty
      interval after a non-empty one posts new=None, old=previous batch; an interval with
      both empty posts nothing and schedules nothing more until the next event, except with
      FORCE_UPDATE, where the child gets `update(None, None)` (Esper passes nulls) so that
      aggregations post, and the view keeps its schedule.
    - One callback per interval end: after a time jump over several ends it fires once, at
      the jump time, and the next end is computed from there (Esper's advanceTime).
    - Events removed upstream leave the current batch silently (Esper).
    """

    __slots__ = ("_init_ref", "_ref")

    def __init__(self, ctx: ViewContext, period: int, reference: Optional[int] = None,
                 force_update: bool = False, start_eager: bool = False) -> None:
        super().__init__(ctx, period, force_update)
        self._init_ref = reference
        self._ref: Optional[int] = None
        if start_eager:
            # Esper starts eager batches at creation time, whatever the reference point
            self._ref = ctx.now()
            self._schedule()

    def update(self, new: Events, old: Events) -> None:
        # (written out in each batch window: one call less per event than a shared prelude)
        if old:
            self._drop(old)
        if not new:
            return
        if not self._batch:
            if self._ref is None:
                self._ref = self._init_ref if self._init_ref is not None else self._ctx.now()
            if self._handle is None:
                self._schedule()
        self._batch.extend(new)

    def _schedule(self) -> None:
        at = next_boundary(self._ctx.now(), self._ref, self._period)  # type: ignore[arg-type]
        self._handle = self._ctx.schedule(at, self._fire_cb)


@frozen_dataclass(slots=True)
class TimeBatchWindowFactory(TimedBatchFactory):
    reference: Optional[int] = None
    window: ClassVar = TimeBatchWindow

    @property
    def own_parameter(self) -> Optional[int]:
        return self.reference

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "TimeBatchWindowFactory":
        check_count(view, args, 1, 3, "a time period, an optional reference point and optional "
                                      "flow-control keywords")
        period = period_msec(view, args[0])
        reference = None
        force = eager = False
        rest = list(args[1:])
        if rest and not is_string(rest[0]):
            reference = reference_point(view, rest.pop(0))
        if rest:
            force, eager = batch_flags(view, rest.pop(0))
        if rest:
            raise fail(view, f"invalid parameter '{rest[0].text}', expected the reference point "
                             f"before the flow-control keywords")
        return cls(period, reference, force_update=force, start_eager=eager)

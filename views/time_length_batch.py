"""`#time_length_batch(period, n[, 'FORCE_UPDATE, START_EAGER'])`: a tumbling window that
posts when n events have arrived or the period has passed, whichever comes first."""
from __future__ import annotations

from typing import ClassVar, Sequence

from engine.contracts.frozen import frozen_dataclass
from ._util import batch_flags, check_count, period_msec
from ._factories import TimedBatchFactory
from ._timed_batch import TimedBatch
from .base import Events, ViewArg, ViewContext


class TimeLengthBatchWindow(TimedBatch):
    """Esper's time-length batch: the timer starts when an event arrives and none is
    pending (START_EAGER: at creation). When the batch reaches n events it posts at once and
    the timer restarts from now; when the timer fires it posts what it has. Posts are
    new=current batch, old=previous batch; with both empty nothing is posted (FORCE_UPDATE:
    `update(None, None)`) and the timer stops until the next event unless FORCE_UPDATE."""

    __slots__ = ("_size",)

    def __init__(self, ctx: ViewContext, period: int, size: int, force_update: bool = False,
                 start_eager: bool = False) -> None:
        super().__init__(ctx, period, force_update)
        self._size = size
        if start_eager:
            self._schedule()

    def update(self, new: Events, old: Events) -> None:
        if old:
            self._drop(old)
        if not new:
            return
        self._batch.extend(new)
        if len(self._batch) < self._size:
            if self._handle is None:
                self._schedule()
            return
        if self._handle is not None:
            self._ctx.cancel(self._handle)
            self._handle = None
        self._post()

    def _schedule(self) -> None:
        self._handle = self._ctx.schedule(self._ctx.now() + self._period, self._fire_cb)


@frozen_dataclass(slots=True)
class TimeLengthBatchWindowFactory(TimedBatchFactory):
    size: int
    window: ClassVar = TimeLengthBatchWindow

    @property
    def own_parameter(self) -> int:
        return self.size

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "TimeLengthBatchWindowFactory":
        check_count(view, args, 2, 3, "a time period, a number of events and optional "
                                      "flow-control keywords")
        force = eager = False
        if len(args) == 3:
            force, eager = batch_flags(view, args[2])
        return cls(period_msec(view, args[0]), args[1].integer(view), force_update=force,
                   start_eager=eager)

"""`#length_batch(n)`: a tumbling window that posts its batch when n events have arrived."""
from __future__ import annotations

from typing import ClassVar, Optional

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._factories import SizeFactory
from ._held import BatchHeld
from .base import Events


class LengthBatchWindow(BatchHeld):
    """Collects events; when the batch reaches `size` it posts new=batch, old=previous batch.
    Events removed upstream leave the current batch silently (Esper)."""

    __slots__ = ("_size",)

    def __init__(self, size: int) -> None:
        super().__init__()
        self._size = size
        self._batch: list[EventBean] = []
        self._last: Optional[list[EventBean]] = None

    def update(self, new: Events, old: Events) -> None:
        if old:
            self._drop(old)
        if not new:
            return
        batch = self._batch
        batch.extend(new)
        if len(batch) >= self._size:
            last = self._last
            self._last = batch
            self._batch = []
            self.child.update(batch, last or None)


@frozen_dataclass(slots=True)
class LengthBatchWindowFactory(SizeFactory):
    size: int
    window: ClassVar = LengthBatchWindow
    usage: ClassVar[str] = "one parameter (the batch size)"

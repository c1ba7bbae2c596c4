"""`#length_batch(n)`: a tumbling window that posts its batch when n events have arrived."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Iterator, Optional, Sequence

from engine.contracts.bean import EventBean

from ._util import check_count, without
from .base import Events, View, ViewArg, ViewContext


class LengthBatchWindow(View):
    """Collects events; when the batch reaches `size` it posts new=batch, old=previous batch.
    Events removed upstream leave the current batch silently (Esper)."""

    __slots__ = ("_size", "_batch", "_last")

    def __init__(self, size: int) -> None:
        super().__init__()
        self._size = size
        self._batch: list[EventBean] = []
        self._last: Optional[list[EventBean]] = None

    def update(self, new: Events, old: Events) -> None:
        if old:
            # removed upstream: out of the current batch silently; an event of the previous
            # batch still leaves with it at the next post (Esper)
            self._batch = without(self._batch, old)
        if not new:
            return
        batch = self._batch
        batch.extend(new)
        if len(batch) >= self._size:
            last = self._last
            self._last = batch
            self._batch = []
            self.child.update(batch, last or None)

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self._batch)

    def stop(self) -> None:
        self._batch = []
        self._last = None


@dataclass(frozen=True, slots=True)
class LengthBatchWindowFactory:
    size: int
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "LengthBatchWindowFactory":
        check_count(view, args, 1, 1, "one parameter (the batch size)")
        return cls(args[0].integer(view))

    def make(self, ctx: ViewContext) -> LengthBatchWindow:
        return LengthBatchWindow(self.size)

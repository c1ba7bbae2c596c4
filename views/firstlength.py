"""`#firstlength(n)`: keeps the first n events and ignores later ones."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Iterator, Sequence

from engine.contracts.bean import EventBean

from ._util import check_count, remove_identical
from .base import Events, View, ViewArg, ViewContext


class FirstLengthWindow(View):
    """Posts arriving events as new while fewer than n are held; later events are ignored.
    An event removed upstream leaves (posted as old) and frees its place."""

    __slots__ = ("_size", "_events")

    def __init__(self, size: int) -> None:
        super().__init__()
        self._size = size
        self._events: list[EventBean] = []

    def update(self, new: Events, old: Events) -> None:
        events = self._events
        removed = remove_identical(events, old) if old else None
        added = None
        if new:
            room = self._size - len(events)
            if room > 0:
                added = new if len(new) <= room else list(new[:room])
                events.extend(added)
        if added or removed:
            self.child.update(added, removed)

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self._events)

    def stop(self) -> None:
        self._events = []


@dataclass(frozen=True, slots=True)
class FirstLengthWindowFactory:
    size: int
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "FirstLengthWindowFactory":
        check_count(view, args, 1, 1, "one parameter (the number of events)")
        return cls(args[0].integer(view))

    def make(self, ctx: ViewContext) -> FirstLengthWindow:
        return FirstLengthWindow(self.size)

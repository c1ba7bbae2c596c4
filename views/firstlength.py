"""`#firstlength(n)`: keeps the first n events and ignores later ones."""
from __future__ import annotations

from typing import ClassVar

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._factories import SizeFactory
from ._held import Held
from ._util import remove_identical
from .base import Events


class FirstLengthWindow(Held):
    """Posts arriving events as new while fewer than n are held; later events are ignored.
    An event removed upstream leaves (posted as old) and frees its place."""

    __slots__ = ("_size",)

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


@frozen_dataclass(slots=True)
class FirstLengthWindowFactory(SizeFactory):
    size: int
    window: ClassVar = FirstLengthWindow
    usage: ClassVar[str] = "one parameter (the number of events)"

"""`#keepall()`: a data window that keeps every event until it is removed upstream (e.g.
a named window's on-delete)."""
from __future__ import annotations

from typing import ClassVar

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._factories import NoParameterFactory
from ._held import KeyedHeld
from .base import Events


class KeepAllWindow(KeyedHeld):
    """Posts every arriving event as new; keeps them by identity so removals are O(1)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__()
        self._events: dict[int, EventBean] = {}

    def update(self, new: Events, old: Events) -> None:
        events = self._events
        removed = None
        if old:
            for e in old:
                if events.pop(id(e), None) is not None:
                    if removed is None:
                        removed = []
                    removed.append(e)
        if new:
            for e in new:
                events[id(e)] = e
        if new or removed:
            self.child.update(new or None, removed)


@frozen_dataclass(slots=True)
class KeepAllWindowFactory(NoParameterFactory):
    window: ClassVar = KeepAllWindow

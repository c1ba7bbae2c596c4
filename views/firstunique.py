"""`#firstunique(expr[, expr...])`: keeps the first event per unique key."""
from __future__ import annotations

from typing import Any, Callable, ClassVar

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._factories import UniqueKeyFactory
from ._held import UniqueKeyed
from .base import Events


class FirstUniqueWindow(UniqueKeyed):
    """An event whose key is already held is ignored (nothing is posted); an event removed
    upstream frees its key."""

    __slots__ = ()

    def update(self, new: Events, old: Events) -> None:
        events = self._events
        key = self._key
        removed = None
        if old:
            removed = self._leave(old, key, removed)
        added = None
        if new:
            for e in new:
                k = key(e)
                if k not in events:
                    events[k] = e
                    if added is None:
                        added = []
                    added.append(e)
        if added or removed:
            self.child.update(new if added is not None and len(added) == len(new) else added, removed)


@frozen_dataclass(slots=True)
class FirstUniqueWindowFactory(UniqueKeyFactory):
    key: Callable[[EventBean], Any]
    window: ClassVar = FirstUniqueWindow

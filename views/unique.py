"""`#unique(expr[, expr...])`: keeps the most recent event per unique key."""
from __future__ import annotations

from typing import Any, Callable, ClassVar

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._factories import UniqueKeyFactory
from ._held import UniqueKeyed
from .base import Events


class UniqueWindow(UniqueKeyed):
    """An arriving event replaces the event with the same key, which leaves in the same
    update (new=[e], old=[previous]). Iteration is by arrival of the retained events."""

    __slots__ = ()

    def update(self, new: Events, old: Events) -> None:
        events = self._events
        if not old and new and len(new) == 1:   # the hot path
            e = new[0]
            k = self._key(e)
            prev = events.pop(k, None)
            events[k] = e
            self.child.update(new, None if prev is None else [prev])
            return
        removed = None
        if new:
            key = self._key
            for e in new:
                k = key(e)
                prev = events.pop(k, None)
                events[k] = e
                if prev is not None:
                    if removed is None:
                        removed = []
                    removed.append(prev)
        if old:
            removed = self._leave(old, self._key, removed)
        if new or removed:
            self.child.update(new or None, removed)


@frozen_dataclass(slots=True)
class UniqueWindowFactory(UniqueKeyFactory):
    key: Callable[[EventBean], Any]
    window: ClassVar = UniqueWindow

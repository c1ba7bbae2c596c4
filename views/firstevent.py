"""`#firstevent()`: keeps the very first event and ignores all later ones."""
from __future__ import annotations

from typing import ClassVar

from engine.contracts.frozen import frozen_dataclass
from ._factories import NoParameterFactory
from ._held import OneHeld
from .base import Events


class FirstEventWindow(OneHeld):
    """Posts the first event as new; later events are ignored. If the held event is removed
    upstream it leaves (posted as old) and the next arriving event is kept."""

    __slots__ = ()

    def update(self, new: Events, old: Events) -> None:
        removed = None
        if old and self._event is not None:
            for e in old:
                if e is self._event:
                    removed = [e]
                    self._event = None
                    break
        added = None
        if new and self._event is None:
            self._event = new[0]
            added = new if len(new) == 1 else [new[0]]
        if added or removed:
            self.child.update(added, removed)


@frozen_dataclass(slots=True)
class FirstEventWindowFactory(NoParameterFactory):
    window: ClassVar = FirstEventWindow

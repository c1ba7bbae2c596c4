"""`#lastevent()`: keeps only the most recent event."""
from __future__ import annotations

from typing import ClassVar

from engine.contracts.frozen import frozen_dataclass
from ._factories import NoParameterFactory
from ._held import OneHeld
from .base import Events


class LastEventWindow(OneHeld):
    """An arriving event replaces the held one, which leaves in the same update
    (new=[e], old=[previous]); of several events arriving together all but the last leave
    at once (Esper)."""

    __slots__ = ()

    def update(self, new: Events, old: Events) -> None:
        removed = None
        if new:
            prev = self._event
            if len(new) == 1:
                removed = None if prev is None else [prev]
            else:
                removed = ([] if prev is None else [prev]) + list(new[:-1])
            self._event = new[-1]
        if old and self._event is not None:
            for e in old:
                if e is self._event:
                    removed = [e] if removed is None else removed + [e]
                    self._event = None
                    break
        if new or removed:
            self.child.update(new or None, removed)


@frozen_dataclass(slots=True)
class LastEventWindowFactory(NoParameterFactory):
    window: ClassVar = LastEventWindow

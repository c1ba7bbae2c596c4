"""`#length(n)`: a sliding window of the last n events."""
from __future__ import annotations

from collections import deque
from typing import ClassVar, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._factories import SizeFactory
from ._held import Held
from ._util import remove_identical
from .base import Events


class LengthWindow(Held):
    """Keeps the last `size` events: an arriving event pushes the oldest out once the window
    is full, both in the same update (new=[e], old=[oldest])."""

    __slots__ = ("_size",)

    def __init__(self, size: int) -> None:
        super().__init__()
        self._size = size
        self._events: deque[EventBean] = deque()

    def update(self, new: Events, old: Events) -> None:
        events = self._events
        if not old:
            if not new:
                return
            if len(new) == 1:   # the hot path: one event from the stream
                events.append(new[0])
                if len(events) > self._size:
                    self.child.update(new, [events.popleft()])
                else:
                    self.child.update(new, None)
                return
            expired = None
        else:
            # events removed upstream (named-window deletes) leave here too
            expired = remove_identical(events, old)
        if new:
            events.extend(new)
            over = len(events) - self._size
            if over > 0:
                pushed = [events.popleft() for _ in range(over)]
                expired = pushed if expired is None else expired + pushed
        if new or expired:
            self.child.update(new or None, expired)

    def indexable(self) -> Sequence[EventBean]:
        """The contents oldest first, indexable (random access for `prev`)."""
        return self._events


@frozen_dataclass(slots=True)
class LengthWindowFactory(SizeFactory):
    size: int
    window: ClassVar = LengthWindow
    usage: ClassVar[str] = "one parameter (the window size)"

"""`#lastevent()`: keeps only the most recent event."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Iterator, Optional, Sequence

from engine.contracts.bean import EventBean

from ._util import check_count
from .base import Events, View, ViewArg, ViewContext


class LastEventWindow(View):
    """An arriving event replaces the held one, which leaves in the same update
    (new=[e], old=[previous]); of several events arriving together all but the last leave
    at once (Esper)."""

    __slots__ = ("_event",)

    def __init__(self) -> None:
        super().__init__()
        self._event: Optional[EventBean] = None

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

    def __iter__(self) -> Iterator[EventBean]:
        return iter(() if self._event is None else (self._event,))

    def stop(self) -> None:
        self._event = None


@dataclass(frozen=True, slots=True)
class LastEventWindowFactory:
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "LastEventWindowFactory":
        check_count(view, args, 0, 0, "no parameters")
        return cls()

    def make(self, ctx: ViewContext) -> LastEventWindow:
        return LastEventWindow()

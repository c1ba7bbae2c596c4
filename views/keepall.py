"""`#keepall()`: a data window that keeps every event until it is removed upstream (e.g.
a named window's on-delete)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Iterator, Sequence

from engine.contracts.bean import EventBean

from ._util import check_count
from .base import Events, View, ViewArg, ViewContext


class KeepAllWindow(View):
    """Posts every arriving event as new; keeps them by identity so removals are O(1)."""

    __slots__ = ("_events",)

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

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self._events.values())

    def __len__(self) -> int:
        return len(self._events)

    def stop(self) -> None:
        self._events.clear()


@dataclass(frozen=True, slots=True)
class KeepAllWindowFactory:
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "KeepAllWindowFactory":
        check_count(view, args, 0, 0, "no parameters")
        return cls()

    def make(self, ctx: ViewContext) -> KeepAllWindow:
        return KeepAllWindow()

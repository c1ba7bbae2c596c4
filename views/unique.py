"""`#unique(expr[, expr...])`: keeps the most recent event per unique key."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator, Sequence

from engine.contracts.bean import EventBean

from ._util import check_count, key_function
from .base import Events, View, ViewArg, ViewContext


class UniqueWindow(View):
    """An arriving event replaces the event with the same key, which leaves in the same
    update (new=[e], old=[previous]). Iteration is by arrival of the retained events."""

    __slots__ = ("_key", "_events")

    def __init__(self, key: Callable[[EventBean], Any]) -> None:
        super().__init__()
        self._key = key
        self._events: dict[Any, EventBean] = {}

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
            key = self._key
            for e in old:
                k = key(e)
                if events.get(k) is e:
                    del events[k]
                    if removed is None:
                        removed = []
                    removed.append(e)
        if new or removed:
            self.child.update(new or None, removed)

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self._events.values())

    def __len__(self) -> int:
        return len(self._events)

    def stop(self) -> None:
        self._events.clear()


@dataclass(frozen=True, slots=True)
class UniqueWindowFactory:
    key: Callable[[EventBean], Any]
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "UniqueWindowFactory":
        check_count(view, args, 1, None, "one or more unique-key expressions")
        return cls(key_function([a.evaluate for a in args]))

    def make(self, ctx: ViewContext) -> UniqueWindow:
        return UniqueWindow(self.key)

"""`#firstunique(expr[, expr...])`: keeps the first event per unique key."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator, Sequence

from engine.contracts.bean import EventBean

from ._util import check_count, key_function
from .base import Events, View, ViewArg, ViewContext


class FirstUniqueWindow(View):
    """An event whose key is already held is ignored (nothing is posted); an event removed
    upstream frees its key."""

    __slots__ = ("_key", "_events")

    def __init__(self, key: Callable[[EventBean], Any]) -> None:
        super().__init__()
        self._key = key
        self._events: dict[Any, EventBean] = {}

    def update(self, new: Events, old: Events) -> None:
        events = self._events
        key = self._key
        removed = None
        if old:
            for e in old:
                k = key(e)
                if events.get(k) is e:
                    del events[k]
                    if removed is None:
                        removed = []
                    removed.append(e)
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

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self._events.values())

    def __len__(self) -> int:
        return len(self._events)

    def stop(self) -> None:
        self._events.clear()


@dataclass(frozen=True, slots=True)
class FirstUniqueWindowFactory:
    key: Callable[[EventBean], Any]
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "FirstUniqueWindowFactory":
        check_count(view, args, 1, None, "one or more unique-key expressions")
        return cls(key_function([a.evaluate for a in args]))

    def make(self, ctx: ViewContext) -> FirstUniqueWindow:
        return FirstUniqueWindow(self.key)

"""`#sort(n, expr [asc|desc], ...)`: keeps the n events that sort first by the criteria."""
from __future__ import annotations

import itertools
from typing import Any, Callable, ClassVar, Iterator, Sequence

from sortedcontainers import SortedList

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._ordering import sort_key
from ._util import check_count
from .base import Events, View, ViewArg, ViewContext


class SortWindow(View):
    """Esper's sort window. Events order by their sort key, and among equal keys the newest
    first, so that the oldest of equal events leaves first. An arriving event is added, then
    whatever sorts past position n leaves in the same update; an event that sorts out at once
    is posted as both new and old."""

    __slots__ = ("_size", "_key", "_sorted", "_entries", "_seq")

    def __init__(self, size: int, key: Callable[[EventBean], Any]) -> None:
        super().__init__()
        self._size = size
        self._key = key
        self._sorted = SortedList()                 # (key, -arrival, bean)
        self._entries: dict[int, tuple] = {}        # id(bean) -> its entry, for removals
        self._seq = itertools.count()

    def update(self, new: Events, old: Events) -> None:
        srt, entries = self._sorted, self._entries
        if not old and new and len(new) == 1 and len(srt) >= self._size:
            # a full window: an event sorting after the last one enters and leaves at once
            e = new[0]
            entry = (self._key(e), -next(self._seq), e)
            if entry > srt[-1]:
                self.child.update(new, [e])
                return
            srt.add(entry)
            entries[id(e)] = entry
            gone = srt.pop()[2]
            del entries[id(gone)]
            self.child.update(new, [gone])
            return
        removed = None
        if old:
            for e in old:
                entry = entries.pop(id(e), None)
                if entry is not None:
                    srt.remove(entry)
                    if removed is None:
                        removed = []
                    removed.append(e)
        if new:
            key, seq = self._key, self._seq
            for e in new:
                entry = (key(e), -next(seq), e)
                srt.add(entry)
                entries[id(e)] = entry
            while len(srt) > self._size:
                gone = srt.pop()[2]
                del entries[id(gone)]
                if removed is None:
                    removed = []
                removed.append(gone)
        if new or removed:
            self.child.update(new or None, removed)

    def __iter__(self) -> Iterator[EventBean]:
        return (entry[2] for entry in self._sorted)

    def __len__(self) -> int:
        return len(self._sorted)

    def stop(self) -> None:
        self._sorted.clear()
        self._entries.clear()


@frozen_dataclass(slots=True)
class SortWindowFactory:
    size: int
    key: Callable[[EventBean], Any]
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "SortWindowFactory":
        check_count(view, args, 2, None, "a size and one or more sort criteria")
        return cls(args[0].integer(view), sort_key(args[1:]))

    def make(self, ctx: ViewContext) -> SortWindow:
        return SortWindow(self.size, self.key)

"""`#rank(unique expr..., n, sort expr [asc|desc]...)`: the last event per unique key,
ranked by the sort criteria, keeping the first n."""
from __future__ import annotations

import itertools
from typing import Any, Callable, ClassVar, Iterator, Sequence

from sortedcontainers import SortedList

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._ordering import sort_key
from ._util import check_count, fail, key_function
from .base import Events, View, ViewArg, ViewContext


class RankWindow(View):
    """Esper's rank window.

    - An event whose unique key is held replaces the held event (posted as old); with an
      equal sort key it takes the place of the newest among equal keys.
    - Events order by sort key, equal keys oldest first. When the window is full, an
      arriving event that sorts strictly after the last is posted as new and old at once;
      otherwise it is added and the oldest event of the last sort key leaves.
    """

    __slots__ = ("_size", "_unique", "_key", "_sorted", "_by_unique", "_seq")

    def __init__(self, size: int, unique: Callable[[EventBean], Any],
                 key: Callable[[EventBean], Any]) -> None:
        super().__init__()
        self._size = size
        self._unique = unique
        self._key = key
        self._sorted = SortedList()                  # (sort key, arrival, unique key, bean)
        self._by_unique: dict[Any, tuple] = {}
        self._seq = itertools.count()

    def update(self, new: Events, old: Events) -> None:
        srt, by_unique = self._sorted, self._by_unique
        removed: list = []
        if old:
            for e in old:
                u = self._unique(e)
                entry = by_unique.get(u)
                if entry is not None:
                    del by_unique[u]
                    srt.remove(entry)
                    removed.append(entry[3])
        if new:
            for e in new:
                u = self._unique(e)
                k = self._key(e)
                entry = by_unique.get(u)
                if entry is not None:
                    srt.remove(entry)
                    del by_unique[u]
                    removed.append(entry[3])
                    if entry[0] == k:
                        self._add(k, u, e)    # in place: newest among its equals
                        continue
                if len(srt) >= self._size and srt[-1][0] < k:
                    removed.append(e)         # ranks below the last: out at once
                else:
                    self._add(k, u, e)
            size = self._size
            while len(srt) > size:
                last_key = srt[-1][0]
                entry = srt.pop(srt.bisect_left((last_key,)))  # oldest of the last key
                del by_unique[entry[2]]
                removed.append(entry[3])
        if new or removed:
            self.child.update(new or None, removed or None)

    def _add(self, k: Any, u: Any, e: EventBean) -> None:
        entry = (k, next(self._seq), u, e)
        self._sorted.add(entry)
        self._by_unique[u] = entry

    def __iter__(self) -> Iterator[EventBean]:
        return (entry[3] for entry in self._sorted)

    def __len__(self) -> int:
        return len(self._sorted)

    def stop(self) -> None:
        self._sorted.clear()
        self._by_unique.clear()


def _is_size(arg: ViewArg) -> bool:
    return arg.is_constant and isinstance(arg.value, int) and not isinstance(arg.value, bool)


@frozen_dataclass(slots=True)
class RankWindowFactory:
    size: int
    unique: Callable[[EventBean], Any]
    key: Callable[[EventBean], Any]
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "RankWindowFactory":
        check_count(view, args, 3, None, "unique-key expressions, a size and sort criteria")
        at = next((i for i, a in enumerate(args) if i > 0 and _is_size(a)), None)
        if at is None or at == len(args) - 1:
            raise fail(view, "expects one or more unique-key expressions, then the size (a "
                             "constant integer), then one or more sort criteria")
        size = args[at].integer(view)
        return cls(size, key_function([a.evaluate for a in args[:at]]), sort_key(args[at + 1:]))

    def make(self, ctx: ViewContext) -> RankWindow:
        return RankWindow(self.size, self.unique, self.key)

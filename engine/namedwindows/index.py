"""Explicit indexes on named windows (`create [unique] index I on W(col [hash|btree], ...)`):
rows by column values, kept in step with the window's contents, answering the equality
lookups of on-actions; a unique index refuses an insert whose key is already held."""
from __future__ import annotations

import logging
from typing import Any, Iterable, Optional, Sequence

from engine.contracts.bean import EventBean
from epl.plans.namedwindows import unique_violation

log = logging.getLogger(__name__)


class UniqueIndexViolation(Exception):
    """An insert would put a second row under a unique index's key (Esper's message)."""


class ColumnIndex:
    """What a `create index` index of a window (WindowIndex) or a table (TableIndex) is:
    its name, columns, their kinds (hash and btree answer equality the same way; the kinds
    are kept for reporting) and uniqueness; `key(row)` is a row's key (an event or a dict
    of column values): one value for one column, a tuple for several."""

    __slots__ = ("name", "columns", "kinds", "unique")

    def __init__(self, name: str, columns: Sequence[str], kinds: Sequence[str], unique: bool) -> None:
        self.name = name
        self.columns = tuple(columns)
        self.kinds = tuple(kinds)
        self.unique = unique

    def key(self, row: Any) -> Any:
        cols = self.columns
        if len(cols) == 1:
            return row.get(cols[0])
        return tuple(row.get(c) for c in cols)


class WindowIndex(ColumnIndex):
    """A window's rows by key, in insertion order per key."""

    __slots__ = ("_rows",)

    def __init__(self, name: str, columns: Sequence[str], kinds: Sequence[str], unique: bool) -> None:
        super().__init__(name, columns, kinds, unique)
        self._rows: dict[Any, list[EventBean]] = {}

    def add(self, beans: Iterable[EventBean]) -> None:
        for b in beans:
            self._rows.setdefault(self.key(b), []).append(b)

    def remove(self, beans: Iterable[EventBean]) -> None:
        for b in beans:
            k = self.key(b)
            rows = self._rows.get(k)
            if rows is None:
                continue
            for i, r in enumerate(rows):
                if r is b:
                    del rows[i]
                    break
            if not rows:
                del self._rows[k]

    def get(self, key: tuple) -> list[EventBean]:
        k = key[0] if len(self.columns) == 1 else tuple(key)
        return list(self._rows.get(k, ()))

    def check(self, new: Sequence[EventBean], old: Optional[Sequence[EventBean]] = None) -> None:
        """Raise UniqueIndexViolation when `new` (replacing `old`) would duplicate a key."""
        if not self.unique:
            return
        leaving: dict[Any, int] = {}
        for b in old or ():
            k = self.key(b)
            leaving[k] = leaving.get(k, 0) + 1
        seen: set = set()
        for b in new:
            k = self.key(b)
            held = len(self._rows.get(k, ())) - leaving.get(k, 0)
            if held > 0 or k in seen:
                raise UniqueIndexViolation(unique_violation(self.name, k))
            seen.add(k)


def covering(indexes: Iterable[WindowIndex], columns: Iterable[str]) -> Optional[WindowIndex]:
    """The first index whose columns are all among `columns` (equality-bound columns)."""
    cols = set(columns)
    for idx in indexes:
        if set(idx.columns) <= cols:
            return idx
    return None


def make_index(spec: Any) -> Any:
    """A window's index from its `create index` plan (IndexSpec or SpatialIndexSpec)."""
    if spec.spatial:
        from .spatial_index import SpatialIndex
        return SpatialIndex(spec.name, spec.kind, spec.texts, spec.coords, spec.params)
    return WindowIndex(spec.name, spec.columns, spec.kinds, spec.unique)

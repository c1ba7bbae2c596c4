"""Explicit indexes on tables (`create [unique] index I on T(col, ...)`): the primary keys of
the rows by the values of other columns, kept in step with the table's rows, answering the
equality lookups of on-actions and subqueries."""
from __future__ import annotations

from typing import Any, Sequence

from .index import ColumnIndex


class TableIndex(ColumnIndex):
    """Row keys by column values (one value for one column, a tuple for several), in the
    order the rows were indexed."""

    __slots__ = ("_keys",)

    def __init__(self, name: str, columns: Sequence[str], kinds: Sequence[str], unique: bool) -> None:
        super().__init__(name, columns, kinds, unique)
        self._keys: dict[Any, dict[Any, None]] = {}

    value_key = ColumnIndex.key        # of a row's column values (a dict)

    def add(self, row_key: Any, values: dict) -> None:
        self._keys.setdefault(self.value_key(values), {})[row_key] = None

    def remove(self, row_key: Any, values: dict) -> None:
        k = self.value_key(values)
        held = self._keys.get(k)
        if held is not None:
            held.pop(row_key, None)
            if not held:
                del self._keys[k]

    def row_keys(self, key: tuple) -> list:
        k = key[0] if len(self.columns) == 1 else tuple(key)
        return list(self._keys.get(k, ()))

    def clear(self) -> None:
        self._keys.clear()

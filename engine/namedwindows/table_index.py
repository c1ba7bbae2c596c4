"""Explicit indexes on tables (`create [unique] index I on T(col, ...)`): the primary keys of
the rows by the values of other columns, kept in step with the table's rows, answering the
equality lookups of on-actions and subqueries."""
from __future__ import annotations

from typing import Any, Sequence


class TableIndex:
    """Row keys by column values (one value for one column, a tuple for several), in the
    order the rows were indexed."""

    __slots__ = ("name", "columns", "kinds", "unique", "_keys")

    def __init__(self, name: str, columns: Sequence[str], kinds: Sequence[str], unique: bool) -> None:
        self.name = name
        self.columns = tuple(columns)
        self.kinds = tuple(kinds)
        self.unique = unique
        self._keys: dict[Any, dict[Any, None]] = {}

    def value_key(self, values: dict) -> Any:
        cols = self.columns
        if len(cols) == 1:
            return values.get(cols[0])
        return tuple(values.get(c) for c in cols)

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

"""Outer join lookups, SQL-92 left-deep: R0 = S0, Rk = R(k-1) <kind> Sk on Ck. The rows of
the final result that contain one event are built without computing the whole result:

- a row of Rk holding event x of stream j < k extends a row of R(k-1) holding x (matches
  in Sk, or one null-padded row when the join keeps unmatched left rows);
- a row of Rk holding event x of stream k pairs x with the rows of R(k-1) satisfying Ck,
  found through an index on an earlier stream named in Ck, or is x alone (nulls before it)
  when nothing matches and the join keeps unmatched right rows.

This is Esper's outer join behaviour: an event without partners yields the row with nulls
for the missing side; when a partner arrives later, the joined row is posted (the earlier
null row is not retracted)."""
from __future__ import annotations

from typing import Any, Sequence

from engine.contracts.bean import EventBean

from .indexes import EventStore
from epl.plans.joins import OuterPlan, Row

_KEEP_LEFT = ("left", "full")
_KEEP_RIGHT = ("right", "full")


class OuterJoin:
    """Rows of the outer join result that contain a given event."""

    __slots__ = ("plan", "indexes", "stores", "n")

    def __init__(self, plan: OuterPlan, indexes: Sequence[Any], stores: Sequence[EventStore]) -> None:
        self.plan = plan
        self.indexes = indexes
        self.stores = stores
        self.n = len(stores)

    def rows_for(self, stream: int, bean: EventBean) -> list[Row]:
        rows = self._rows_with(self.n - 1, stream, bean)
        where = self.plan.where
        if where is not None:
            rows = [r for r in rows if where(r)]
        return rows

    def all_rows(self) -> list[Row]:
        rows = self._all(self.n - 1)
        where = self.plan.where
        if where is not None:
            rows = [r for r in rows if where(r)]
        return rows

    # -- the recursion ---------------------------------------------------------------
    def _on(self, k: int, row: Row) -> bool:
        for f in self.plan.on_filters[k]:
            if not f(row):
                return False
        return True

    def _extend(self, k: int, row: Row) -> list[Row]:
        """Rows of Rk extending one row of R(k-1)."""
        head, tail = row[:k], row[k + 1:]
        out = []
        access = self.plan.extend[k]
        for cand in access.candidates(self.indexes, self.stores, row):
            r2 = head + (cand,) + tail
            if self._on(k, r2):
                out.append(r2)
        if not out and self.plan.kinds[k] in _KEEP_LEFT:
            out.append(row)
        return out

    def _left_matches(self, k: int, row: Row) -> list[Row]:
        """Rows of R(k-1), completed with the stream-k event of `row`, satisfying Ck."""
        bean = row[k]
        access = self.plan.left[k]
        if access is not None:
            j = access.target
            lefts = []
            for y in access.candidates(self.indexes, self.stores, row):
                lefts.extend(self._rows_with(k - 1, j, y))
        else:
            lefts = self._all(k - 1)
        out = []
        for l in lefts:
            r2 = l[:k] + (bean,) + l[k + 1:]
            if self._on(k, r2):
                out.append(r2)
        return out

    def _rows_with(self, k: int, j: int, bean: EventBean) -> list[Row]:
        """Rows of Rk (positions after k empty) holding `bean` at position j <= k."""
        n = self.n
        if j == k:
            row = (None,) * k + (bean,) + (None,) * (n - k - 1)
            if k == 0:
                return [row]
            out = self._left_matches(k, row)
            if not out and self.plan.kinds[k] in _KEEP_RIGHT:
                out = [row]
            return out
        out = []
        for r in self._rows_with(k - 1, j, bean):
            out.extend(self._extend(k, r))
        return out

    def _all(self, k: int) -> list[Row]:
        """The whole of Rk."""
        n = self.n
        if k == 0:
            return [(b,) + (None,) * (n - 1) for b in self.stores[0]]
        out = []
        for r in self._all(k - 1):
            out.extend(self._extend(k, r))
        if self.plan.kinds[k] in _KEEP_RIGHT:
            for b in self.stores[k]:
                row = (None,) * k + (b,) + (None,) * (n - k - 1)
                if not self._left_matches(k, row):
                    out.append(row)
        return out

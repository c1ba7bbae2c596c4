"""Output batches for fully aggregated, ungrouped statements (Esper's row-for-all): one row.

- `output [all] every`: per update the prior row (remove stream) and the new row; a batch
  without updates outputs the current row (as insert, and as remove with irstream).
- `output last`: the row before the batch's first update (remove stream) and the current row.
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from .rows import Eps, Pair, Rows, finish, keyed


def _current(p: Any) -> list[Pair]:
    p.ctx.row = p.aggs.ungrouped()
    return keyed(p, [()])


def _apply(p: Any, new: Sequence[Eps], old: Sequence[Eps]) -> None:
    aggs = p.aggs
    row = aggs.ungrouped()
    for eps in new:
        aggs.enter(row, eps)
    for eps in old:
        aggs.leave(row, eps)


class RowForAllAll:
    __slots__ = ("p", "new", "old", "updates")

    def __init__(self, p: Any, process: Callable) -> None:
        self.p = p
        self.new: list = []
        self.old: list = []
        self.updates = 0

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        if p.want_old:
            self.old += _current(p)
        _apply(p, new, old)
        if p.want_new:
            self.new += _current(p)
        self.updates += 1

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        if self.updates:
            out = finish(p, self.new), finish(p, self.old)
        else:
            out = (finish(p, _current(p)) if p.want_new else None,
                   finish(p, _current(p)) if p.want_old else None)
        self.new, self.old, self.updates = [], [], 0
        return out


class RowForAllLast:
    __slots__ = ("p", "old", "updates")

    def __init__(self, p: Any, process: Callable) -> None:
        self.p = p
        self.old: Optional[list] = None
        self.updates = 0

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        if p.want_old and not self.old:
            self.old = _current(p)
        _apply(p, new, old)
        self.updates += 1

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        if self.updates:
            new_pairs = _current(p) if p.want_new else []
            old_pairs = self.old or []
        else:
            current = _current(p)
            new_pairs = current if p.want_new else []
            old_pairs = current if p.want_old else []
        self.old, self.updates = None, 0
        return finish(p, new_pairs), finish(p, old_pairs)

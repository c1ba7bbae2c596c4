"""Output batches for aggregated, ungrouped statements with event properties (a row per event
carrying the aggregates as of its update). `output [all] every`: every row of the batch;
`output last`: the last insert row and the last remove row."""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from .rows import Eps, Rows, finish, keyed


def _apply(p: Any, new: Sequence[Eps], old: Sequence[Eps]) -> None:
    aggs = p.aggs
    row = aggs.ungrouped()
    for eps in new:
        aggs.enter(row, eps)
    for eps in old:
        aggs.leave(row, eps)
    p.ctx.row = row


class AggregatedUngroupedAll:
    __slots__ = ("p", "new", "old")

    def __init__(self, p: Any, process: Callable) -> None:
        self.p = p
        self.new: list = []
        self.old: list = []

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        _apply(p, new, old)
        if new and p.want_new:
            self.new += keyed(p, new)
        if old and p.want_old:
            self.old += keyed(p, old)

    def flush(self) -> tuple[Rows, Rows]:
        out = finish(self.p, self.new), finish(self.p, self.old)
        self.new, self.old = [], []
        return out


class AggregatedUngroupedLast:
    """The last insert row and the last remove row as each update produced them."""

    __slots__ = ("process", "last_new", "last_old")

    def __init__(self, p: Any, process: Callable) -> None:
        self.process = process
        self.last_new: Optional[Any] = None
        self.last_old: Optional[Any] = None

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        n, o = self.process(new, old)
        if n:
            self.last_new = n[-1]
        if o:
            self.last_old = o[-1]

    def flush(self) -> tuple[Rows, Rows]:
        out = ([self.last_new] if self.last_new is not None else None,
               [self.last_old] if self.last_old is not None else None)
        self.last_new = self.last_old = None
        return out

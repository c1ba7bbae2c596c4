"""`output [all] every ...` as one policy over a result-kind part (kinds.py): every row each
update produced, in order, ordered as one batch at output; a batch without updates outputs
the kind's idle rows (the current row of a fully aggregated ungrouped statement)."""
from __future__ import annotations

from typing import Any, Sequence

from .rows import Eps, Rows, finish


class EveryUpdate:
    __slots__ = ("p", "kind", "rows", "new", "old", "updates")

    def __init__(self, p: Any, kind: Any) -> None:
        self.p = p
        self.kind = kind
        self.rows = kind.rows
        self.new: list = []
        self.old: list = []
        self.updates = 0

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        n, o = self.rows(new, old)
        if n:
            self.new += n
        if o:
            self.old += o
        self.updates += 1

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        if self.updates:
            out = finish(p, self.new), finish(p, self.old)
        else:
            n, o = self.kind.idle()
            out = finish(p, n), finish(p, o)
        self.new, self.old, self.updates = [], [], 0
        return out

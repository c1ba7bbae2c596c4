"""`output last` for fully aggregated, ungrouped statements (Esper's row-for-all): the row
before the batch's first update (remove stream) and the current row. (`output [all] every` is
every.py over kinds.RowForAllRows.)"""
from __future__ import annotations

from typing import Any, Optional, Sequence

from .kinds import current_row
from .rows import Eps, Rows, apply_ungrouped, finish


class RowForAllLast:
    __slots__ = ("p", "old", "updates")

    def __init__(self, p: Any) -> None:
        self.p = p
        self.old: Optional[list] = None
        self.updates = 0

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        if p.want_old and not self.old:
            self.old = current_row(p)
        apply_ungrouped(p, new, old)
        self.updates += 1

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        if self.updates:
            new_pairs = current_row(p) if p.want_new else []
            old_pairs = self.old or []
        else:
            current = current_row(p)
            new_pairs = current if p.want_new else []
            old_pairs = current if p.want_old else []
        self.old, self.updates = None, 0
        return finish(p, new_pairs), finish(p, old_pairs)

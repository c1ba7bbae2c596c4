"""`output last` for statements without aggregation (Esper's simple result set): the last
insert row and the last remove row. (`output [all] every` is every.py over kinds.SimpleRows.)"""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from .rows import Eps, Rows


class SimpleLast:
    """Keeps the last insert event and the last remove event that pass `having`, and turns them
    into rows when output is due (Esper's last-row helper)."""

    __slots__ = ("p", "process", "last_new", "last_old")

    def __init__(self, p: Any, process: Callable) -> None:
        self.p = p
        self.process = process
        self.last_new: Optional[Eps] = None
        self.last_old: Optional[Eps] = None

    def _last(self, events: Sequence[Eps]) -> Optional[Eps]:
        having = self.p.shaper.having
        if having is None:
            return events[-1] if events else None
        for eps in reversed(events):
            if having(eps) is True:
                return eps
        return None

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        last = self._last(new)
        if last is not None:
            self.last_new = last
        last = self._last(old)
        if last is not None:
            self.last_old = last

    def flush(self) -> tuple[Rows, Rows]:
        if self.last_new is None and self.last_old is None:
            return None, None
        out = self.process([self.last_new] if self.last_new is not None else [],
                           [self.last_old] if self.last_old is not None else [])
        self.last_new = self.last_old = None
        return out

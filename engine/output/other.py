"""Output batches for result-set kinds this package does not know (e.g. rollup and grouping
sets): the rows the processor itself produces per update.

`output [all] every` delivers every row. `output last` delivers the last row of each stream,
or, when the processor offers `keyed_process(new, old) -> (new_pairs, old_pairs)` with
`((level, group key), row)` pairs, Esper's last-per-group: per group its last insert row and
its first remove row of the batch, levels in order, groups in order of first appearance.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from .rows import Rows


class ProcessedBatch:
    __slots__ = ("process", "last", "new", "old")

    def __init__(self, process: Callable, last: bool) -> None:
        self.process = process
        self.last = last
        self.new: list = []
        self.old: list = []

    def add(self, new: Sequence[Any], old: Sequence[Any]) -> None:
        n, o = self.process(new, old)
        if self.last:
            if n:
                self.new = [n[-1]]
            if o:
                self.old = [o[-1]]
        else:
            self.new += n or ()
            self.old += o or ()

    def flush(self) -> tuple[Rows, Rows]:
        out = self.new or None, self.old or None
        self.new, self.old = [], []
        return out


class KeyedLastBatch:
    __slots__ = ("keyed_process", "new", "old")

    def __init__(self, keyed_process: Callable) -> None:
        self.keyed_process = keyed_process
        self.new: dict = {}
        self.old: dict = {}

    def add(self, new: Sequence[Any], old: Sequence[Any]) -> None:
        n, o = self.keyed_process(new, old)
        for gid, row in n or ():
            self.new[gid] = row
        for gid, row in o or ():
            self.old.setdefault(gid, row)

    def flush(self) -> tuple[Rows, Rows]:
        def by_level(d: dict) -> Rows:
            items = sorted(enumerate(d.items()), key=lambda x: (x[1][0][0], x[0]))
            return [row for _, (_, row) in items] or None
        out = by_level(self.new), by_level(self.old)
        self.new, self.old = {}, {}
        return out

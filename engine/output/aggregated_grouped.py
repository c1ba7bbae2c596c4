"""Output batches for grouped statements that also select event properties (Esper's
aggregate-grouped): a row per event, with its group's aggregates as of its update.

- `output every`: every row of the batch.
- `output all every`: every row of the batch, plus for each other group still aggregated a row
  for its latest event with the current aggregates.
- `output last every`: per group, its last insert row and its last remove row of the batch
  (groups in order of first appearance).
- `output first every` (per-group conditions): the rows of events that pass their group's
  condition, insert stream only.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from engine.resultset.java_order import hashmap_order

from .rows import Eps, Rows, finish, keyed_groups


def _apply(p: Any, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[list, list]:
    key_of, aggs = p.key_of, p.aggs
    new_keys = [key_of(eps) for eps in new]
    old_keys = [key_of(eps) for eps in old]
    for k, eps in zip(new_keys, new):
        aggs.enter_group(k, eps)
    for k, eps in zip(old_keys, old):
        aggs.leave_group(k, eps)
    return new_keys, old_keys


class AggregatedGroupedDefault:
    __slots__ = ("p", "new", "old")

    def __init__(self, p: Any, process: Callable) -> None:
        self.p = p
        self.new: list = []
        self.old: list = []

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        new_keys, old_keys = _apply(p, new, old)
        if old and p.want_old:
            self.old += keyed_groups(p, zip(old_keys, old))
        if new and p.want_new:
            self.new += keyed_groups(p, zip(new_keys, new))

    def flush(self) -> tuple[Rows, Rows]:
        out = finish(self.p, self.new), finish(self.p, self.old)
        self.new, self.old = [], []
        return out


class AggregatedGroupedAll:
    __slots__ = ("p", "new", "old", "reps", "touched")

    def __init__(self, p: Any, process: Callable) -> None:
        self.p = p
        self.new: list = []
        self.old: list = []
        self.reps: dict = {}        # key -> latest insert event of the group
        self.touched: set = set()   # groups with insert events in this batch

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        new_keys, old_keys = _apply(p, new, old)
        for k, eps in zip(new_keys, new):
            self.reps[k] = eps
            self.touched.add(k)
        if old and p.want_old:
            self.old += keyed_groups(p, zip(old_keys, old))
        if new and p.want_new:
            self.new += keyed_groups(p, zip(new_keys, new))

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        if p.want_new:
            others = [k for k in self.reps if k not in self.touched]
            if len(others) > 1:
                others = hashmap_order(others, p.key_types)
            self.new += keyed_groups(p, [(k, self.reps[k]) for k in others])
        out = finish(p, self.new), finish(p, self.old)
        self.new, self.old, self.touched = [], [], set()
        # a group whose aggregation ended was output once more (fresh aggregates), as Esper
        # does before it forgets the group
        if p.aggs.reclaim:
            groups = p.aggs.groups
            for k in [k for k in self.reps if k not in groups]:
                del self.reps[k]
        return out


class AggregatedGroupedLast:
    __slots__ = ("p", "new", "old")

    def __init__(self, p: Any, process: Callable) -> None:
        self.p = p
        self.new: dict = {}         # key -> (sort key, row); dicts keep first-insertion order
        self.old: dict = {}

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        new_keys, old_keys = _apply(p, new, old)
        if old and p.want_old:
            for k, eps in zip(old_keys, old):
                rows = keyed_groups(p, [(k, eps)])
                if rows:
                    self.old[k] = rows[0]
        if new and p.want_new:
            for k, eps in zip(new_keys, new):
                rows = keyed_groups(p, [(k, eps)])
                if rows:
                    self.new[k] = rows[0]

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        out = finish(p, list(self.new.values())), finish(p, list(self.old.values()))
        self.new, self.old = {}, {}
        return out


class AggregatedGroupedFirst:
    """Flushed after every update (the statement-level condition is `Always`)."""

    __slots__ = ("p", "polled", "ctx", "conditions", "work")

    def __init__(self, p: Any, process: Callable, polled: Any, ctx: Any) -> None:
        self.p = p
        self.polled = polled
        self.ctx = ctx
        self.conditions: dict = {}
        self.work: dict = {}        # key -> event that passed, latest wins

    def _passes(self, key: Any, n_new: int, n_old: int) -> bool:
        cond = self.conditions.get(key)
        if cond is None:
            cond = self.conditions[key] = self.polled.make(self.ctx)
        return cond.passes(n_new, n_old)

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        key_of, aggs, work = p.key_of, p.aggs, self.work
        having = p.shaper.having
        if having is None:
            old_keys = []
            for eps in new:
                k = key_of(eps)
                if self._passes(k, 1, 0):
                    work[k] = eps
                aggs.enter_group(k, eps)
            for eps in old:
                k = key_of(eps)
                old_keys.append(k)
                if self._passes(k, 0, 1):
                    work[k] = eps
                aggs.leave_group(k, eps)
        else:
            new_keys, old_keys = _apply(p, new, old)
            for keys, events, counts in ((new_keys, new, (1, 0)), (old_keys, old, (0, 1))):
                for k, eps in zip(keys, events):
                    p.ctx.row = aggs.peek(k)
                    if having(eps) is True and self._passes(k, *counts):
                        work[k] = eps
        if aggs.reclaim:
            for k in old_keys:
                if k not in aggs.groups:
                    self.conditions.pop(k, None)

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        new_rows = finish(p, keyed_groups(p, list(self.work.items()))) if p.want_new else None
        self.work = {}
        return new_rows, None


class AggregatedGroupedAllUnordered:
    """`output all` without order by (Esper's non-buffered helper): the batch's rows; after a
    group loses events, a row for its latest insert event; at output, a row for every other
    group still aggregated, in order of first appearance."""

    __slots__ = ("p", "new", "old", "reps", "seen")

    def __init__(self, p: Any, process: Callable) -> None:
        self.p = p
        self.new: list = []
        self.old: list = []
        self.reps: dict = {}
        self.seen: set = set()

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        new_keys, old_keys = _apply(p, new, old)
        for k, eps in zip(new_keys, new):
            self.reps[k] = eps
        self.seen.update(new_keys)
        self.seen.update(old_keys)
        if old and p.want_old:
            self.old += keyed_groups(p, zip(old_keys, old))
        if p.want_new:
            if new:
                self.new += keyed_groups(p, zip(new_keys, new))
            removed = list(dict.fromkeys(old_keys))
            if len(removed) > 1:
                removed = hashmap_order(removed, p.key_types)
            self.new += keyed_groups(p, [(k, self.reps[k]) for k in removed if k in self.reps])

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        if p.aggs.reclaim:
            groups = p.aggs.groups
            for k in [k for k in self.reps if k not in groups]:
                del self.reps[k]
        if p.want_new:
            self.new += keyed_groups(p, [(k, e) for k, e in self.reps.items() if k not in self.seen])
        out = finish(p, self.new), finish(p, self.old)
        self.new, self.old, self.seen = [], [], set()
        return out

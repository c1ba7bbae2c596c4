"""Output batches for fully aggregated, grouped statements (Esper's row-per-group): a row per
group an update touched.

- `output every`: per update, the touched groups' prior rows (remove stream) and new rows.
- `output all every`: every group seen so far (a group whose aggregation ended is output once
  more, with fresh aggregates, then forgotten): its row before the batch
  as remove stream, its current row as insert stream.
- `output last every`: per group touched in the batch, its row before the batch's first update
  of it (remove stream, in order of first touch) and its current row (insert stream).
- `output first every` (per-group conditions, see polled.py): a group's row as soon as one of
  its events passes the group's condition; the remove stream holds its prior row.
Groups come in Java HashMap order where Esper collects them in a HashMap.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from engine.resultset.java_order import hashmap_order

from .rows import Eps, Rows, finish, keyed_groups


def _ordered(p: Any, keys: list) -> list:
    return hashmap_order(keys, p.key_types) if len(keys) > 1 else keys


def _touch(p: Any, reps: dict, k: Any, eps: Eps, prior: Callable[[Any, list], None]) -> None:
    """A group touched by the batch: on its first touch hand its row from before the batch
    (the remove stream) to `prior`; remember the group's latest event."""
    if k not in reps and p.want_old:
        prior(k, keyed_groups(p, [(k, eps)]))
    reps[k] = eps


def _apply(p: Any, reps: dict, new: Sequence[Eps], old: Sequence[Eps],
           prior: Callable[[Any, list], None]) -> None:
    """One view update: touch each event's group, then let the event enter or leave it."""
    key_of, aggs = p.key_of, p.aggs
    for eps in new:
        k = key_of(eps)
        _touch(p, reps, k, eps, prior)
        aggs.enter_group(k, eps)
    for eps in old:
        k = key_of(eps)
        _touch(p, reps, k, eps, prior)
        aggs.leave_group(k, eps)


class RowPerGroupDefault:
    __slots__ = ("p", "new", "old")

    def __init__(self, p: Any, process: Callable) -> None:
        self.p = p
        self.new: list = []
        self.old: list = []

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        key_of, aggs = p.key_of, p.aggs
        reps: dict = {}
        new_keys = [key_of(eps) for eps in new]
        old_keys = [key_of(eps) for eps in old]
        for k, eps in zip(new_keys, new):
            reps[k] = eps
        for k, eps in zip(old_keys, old):
            reps[k] = eps
        items = [(k, reps[k]) for k in _ordered(p, list(reps))]
        if p.want_old:
            self.old += keyed_groups(p, items)
        for k, eps in zip(new_keys, new):
            aggs.enter_group(k, eps)
        for k, eps in zip(old_keys, old):
            aggs.leave_group(k, eps)
        if p.want_new:
            self.new += keyed_groups(p, items)

    def flush(self) -> tuple[Rows, Rows]:
        out = finish(self.p, self.new), finish(self.p, self.old)
        self.new, self.old = [], []
        return out


class RowPerGroupAll:
    __slots__ = ("p", "reps", "old", "started")

    def __init__(self, p: Any, process: Callable) -> None:
        self.p = p
        self.reps: dict = {}          # every group seen: key -> latest event
        self.old: list = []
        self.started = False

    def _forget_removed(self) -> None:
        """After an output: drop the groups whose aggregation ended. Esper outputs such a
        group once more, with fresh (null) aggregates, and forgets it when it next touches
        the group's aggregation."""
        groups = self.p.aggs.groups
        if self.p.aggs.reclaim:
            for k in [k for k in self.reps if k not in groups]:
                del self.reps[k]

    def _all_items(self) -> list:
        return [(k, self.reps[k]) for k in _ordered(self.p, list(self.reps))]

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        if not self.started:
            self.started = True
            if p.want_old:
                self.old += keyed_groups(p, self._all_items())
        _apply(p, self.reps, new, old, self._prior)

    def _prior(self, k: Any, rows: list) -> None:
        self.old += rows

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        if not self.started and p.want_old:
            self.old = keyed_groups(p, self._all_items())
        new_rows = finish(p, keyed_groups(p, self._all_items())) if p.want_new else None
        old_rows = finish(p, self.old)
        self.old, self.started = [], False
        self._forget_removed()
        return new_rows, old_rows


class RowPerGroupLast:
    __slots__ = ("p", "reps", "old")

    def __init__(self, p: Any, process: Callable) -> None:
        self.p = p
        self.reps: dict = {}          # groups touched in this batch: key -> latest event
        self.old: list = []

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        _apply(self.p, self.reps, new, old, self._prior)

    def _prior(self, k: Any, rows: list) -> None:
        self.old += rows

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        new_rows = None
        if p.want_new:
            new_rows = finish(p, keyed_groups(p, [(k, self.reps[k]) for k in _ordered(p, list(self.reps))]))
        old_rows = finish(p, self.old)
        self.reps, self.old = {}, []
        return new_rows, old_rows


class RowPerGroupFirst:
    """Flushed after every update (the statement-level condition is `Always`)."""

    __slots__ = ("p", "polled", "ctx", "conditions", "reps", "old")

    def __init__(self, p: Any, process: Callable, polled: Any, ctx: Any) -> None:
        self.p = p
        self.polled = polled
        self.ctx = ctx
        self.conditions: dict = {}
        self.reps: dict = {}
        self.old: list = []

    def _passes(self, key: Any, n_new: int, n_old: int) -> bool:
        cond = self.conditions.get(key)
        if cond is None:
            cond = self.conditions[key] = self.polled.make(self.ctx)
        return cond.passes(n_new, n_old)

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        key_of, aggs, reps = p.key_of, p.aggs, self.reps
        if p.shaper.having is None:
            old_keys = []
            for eps in new:
                k = key_of(eps)
                if self._passes(k, 1, 0):
                    _touch(p, reps, k, eps, self._prior)
                aggs.enter_group(k, eps)
            for eps in old:
                k = key_of(eps)
                old_keys.append(k)
                if self._passes(k, 0, 1):
                    _touch(p, reps, k, eps, self._prior)
                aggs.leave_group(k, eps)
        else:
            # with having, the update is applied first and each event's group must pass having
            new_keys = [key_of(eps) for eps in new]
            old_keys = [key_of(eps) for eps in old]
            for k, eps in zip(new_keys, new):
                aggs.enter_group(k, eps)
            for k, eps in zip(old_keys, old):
                aggs.leave_group(k, eps)
            for (keys, events, counts) in ((new_keys, new, (1, 0)), (old_keys, old, (0, 1))):
                for k, eps in zip(keys, events):
                    p.ctx.row = aggs.peek(k)
                    if p.shaper.having(eps) is not True:
                        continue
                    if self._passes(k, *counts):
                        _touch(p, reps, k, eps, self._prior)
        if aggs.reclaim:
            # a group whose aggregation ended starts over, as Esper drops its output state
            for k in old_keys:
                if k not in aggs.groups:
                    self.conditions.pop(k, None)

    def _prior(self, k: Any, rows: list) -> None:
        self.old += rows

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        new_rows = finish(p, keyed_groups(p, list(self.reps.items()))) if p.want_new else None
        old_rows = finish(p, self.old)
        self.reps, self.old = {}, []
        return new_rows, old_rows


class RowPerGroupLastUnordered:
    """`output last` without order by (Esper's non-buffered helper, its default): the groups
    touched in the batch in order of first touch, each with its current row (a group whose
    aggregation ended gets fresh aggregates) and, as remove stream, its row before the batch."""

    __slots__ = ("p", "reps", "old")

    def __init__(self, p: Any, process: Callable) -> None:
        self.p = p
        self.reps: dict = {}
        self.old: list = []

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        _apply(self.p, self.reps, new, old, self._prior)

    def _prior(self, k: Any, rows: list) -> None:
        self.old += rows

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        new_rows = finish(p, keyed_groups(p, list(self.reps.items()))) if p.want_new else None
        old_rows = finish(p, self.old)
        self.reps, self.old = {}, []
        return new_rows, old_rows


class RowPerGroupAllUnordered:
    """`output all` without order by (Esper's non-buffered helper): every group ever seen, in
    order of first appearance; the remove stream holds each group's row before the batch."""

    __slots__ = ("p", "reps", "old", "first")

    def __init__(self, p: Any, process: Callable) -> None:
        self.p = p
        self.reps: dict = {}
        self.old: dict = {}
        self.first = False

    def _remove_stream_once(self) -> None:
        p = self.p
        if self.first and p.want_old:
            for k, eps in self.reps.items():
                rows = keyed_groups(p, [(k, eps)])
                if rows:
                    self.old[k] = rows[0]
        self.first = False

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        key_of, aggs, reps = p.key_of, p.aggs, self.reps
        self._remove_stream_once()
        for eps in new:
            k = key_of(eps)
            reps[k] = eps
            if p.want_old and k not in self.old:
                rows = keyed_groups(p, [(k, eps)])
                if rows:
                    self.old[k] = rows[0]
            aggs.enter_group(k, eps)
        for eps in old:
            k = key_of(eps)
            if p.want_old and k not in self.old:
                rows = keyed_groups(p, [(k, eps)])
                if rows:
                    self.old[k] = rows[0]
            aggs.leave_group(k, eps)

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        self._remove_stream_once()
        new_rows = finish(p, keyed_groups(p, list(self.reps.items()))) if p.want_new else None
        old_rows = finish(p, list(self.old.values()))
        self.old, self.first = {}, True
        return new_rows, old_rows

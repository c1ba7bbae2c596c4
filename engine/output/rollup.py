"""Output batches for `group by rollup(...)` (Esper's row-per-group-rollup) that differ from
the per-update rows: `output all` and `output first`. Each (level, group key) is a group of its
own; rows come level by level, as Esper outputs them.

- `output all every`: every group of every level seen so far, with its current aggregates as
  insert stream and its row before the batch as remove stream (a group whose aggregation ended
  is output once more, with fresh aggregates, then forgotten).
- `output first every`: each (level, group) has its own condition; a group's row is output
  when one of its events passes the condition, with its prior row as remove stream.
"""
from __future__ import annotations

from typing import Any, Sequence

from .polled import GroupConditions, PolledFactory
from .row_per_group import RowPerGroupAll
from .rows import Eps, Rows


def _rows(p: Any, entries: list) -> Rows:
    """Rows of ((level, key), sort key, row) entries, level by level, ordered and shaped."""
    if not entries:
        return None
    entries = sorted(entries, key=lambda e: e[0][0])      # stable: first-seen order per level
    pairs = [(sk, row) for _, sk, row in entries]
    if p.levels and p.levels[0].order_keys:
        pairs = p.shaper.order(pairs)
    return p.shaper.finish([r for _, r in pairs])


def _group_rows(p: Any, groups: dict) -> list:
    """Entries for {(level, key): representative event}, read against each group's aggregates."""
    bufs: list[dict] = [{} for _ in p.levels]
    for (li, k), eps in groups.items():
        bufs[li][k] = eps
    return p._keyed_rows(bufs)


class RollupAll(RowPerGroupAll):
    __slots__ = ()

    def _update(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        _, new_keys, old_keys = p._touched(new, old)
        fresh: dict = {}
        for eps, keys in list(zip(new or (), new_keys)) + list(zip(old or (), old_keys)):
            for li, k in enumerate(keys):
                gid = (li, k)           # reps: (level, key) -> latest event, every group seen
                if gid not in self.reps and gid not in fresh:
                    fresh[gid] = eps
                self.reps[gid] = eps
        if fresh and p.want_old:
            self.old += _group_rows(p, fresh)       # their rows before the batch
        p._apply(new, old, new_keys, old_keys)

    def _rows(self) -> list:
        return _group_rows(self.p, self.reps)

    def _finish(self, pairs: list) -> Rows:
        return _rows(self.p, pairs)


class RollupFirst:
    """Flushed after every update (the statement-level condition is `Always`); a condition
    per level and group, as row-per-group `output first` keeps one per group."""

    __slots__ = ("p", "conditions", "reps", "old")

    def __init__(self, p: Any, polled: PolledFactory, ctx: Any) -> None:
        self.p = p
        self.conditions = GroupConditions(polled, ctx)
        self.reps: dict = {}
        self.old: list = []

    def _touch(self, gid: Any, eps: Eps) -> None:
        if gid not in self.reps and self.p.want_old:
            self.old += _group_rows(self.p, {gid: eps})
        self.reps[gid] = eps

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        _, new_keys, old_keys = p._touched(new, old)
        if all(lvl.having is None for lvl in p.levels):
            for eps, keys, counts in [(e, k, (1, 0)) for e, k in zip(new or (), new_keys)] + \
                                     [(e, k, (0, 1)) for e, k in zip(old or (), old_keys)]:
                for li, k in enumerate(keys):
                    if self.conditions.passes((li, k), *counts):
                        self._touch((li, k), eps)
                if counts[0]:
                    p._apply([eps], (), [keys], ())
                else:
                    p._apply((), [eps], (), [keys])
            return
        # with having, the update is applied first and each group must pass its level's having
        p._apply(new, old, new_keys, old_keys)
        for eps, keys, counts in [(e, k, (1, 0)) for e, k in zip(new or (), new_keys)] + \
                                 [(e, k, (0, 1)) for e, k in zip(old or (), old_keys)]:
            for li, k in enumerate(keys):
                p.ctx.row = p.aggs.peek((li, k))
                having = p.levels[li].having
                if having is not None and having(eps) is not True:
                    continue
                if self.conditions.passes((li, k), *counts):
                    if (li, k) not in self.reps and p.want_old:
                        # Esper's remove stream here is the group's row after the update
                        self.old += _group_rows(p, {(li, k): eps})
                    self.reps[(li, k)] = eps

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        new_rows = _rows(p, _group_rows(p, self.reps)) if p.want_new else None
        old_rows = _rows(p, self.old)
        self.reps, self.old = {}, []
        return new_rows, old_rows

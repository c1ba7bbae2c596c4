"""Output batches for grouped statements that also select event properties (Esper's
aggregate-grouped): a row per event, with its group's aggregates as of its update.

- `output every`: every row of the batch (every.py over kinds.EventGroupRows).
- `output all every`: every row of the batch, plus for each other group still aggregated a row
  for its latest event with the current aggregates.
- `output last every`: per group, its last insert row and its last remove row of the batch
  (groups in order of first appearance).
- `output first every` (per-group conditions): the rows of events that pass their group's
  condition, insert stream only.
"""
from __future__ import annotations

from typing import Any, Sequence

from .kinds import EventGroupRows, ordered_groups
from .polled import FirstPerGroup, GroupConditions, PolledFactory
from .rows import Eps, Rows, apply_grouped, finish, forget_ended, keyed_groups


class AggregatedGroupedAll:
    """`output all` with order by (Esper's buffered helper)."""

    __slots__ = ("p", "kind", "new", "old", "reps", "touched")

    def __init__(self, p: Any) -> None:
        self.p = p
        self.kind = EventGroupRows(p)
        self.new: list = []
        self.old: list = []
        self.reps: dict = {}        # key -> latest insert event of the group
        self.touched: set = set()   # groups with insert events in this batch

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        new_keys, old_keys = apply_grouped(self.p, new, old)
        for k, eps in zip(new_keys, new):
            self.reps[k] = eps
            self.touched.add(k)
        n, o = self.kind.applied(new_keys, new, old_keys, old)
        self.new += n
        self.old += o

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        if p.want_new:
            others = ordered_groups(p, [k for k in self.reps if k not in self.touched])
            self.new += keyed_groups(p, [(k, self.reps[k]) for k in others])
        out = finish(p, self.new), finish(p, self.old)
        self.new, self.old, self.touched = [], [], set()
        forget_ended(p, self.reps)
        return out


class AggregatedGroupedLast:
    __slots__ = ("p", "new", "old")

    def __init__(self, p: Any) -> None:
        self.p = p
        self.new: dict = {}         # key -> (sort key, row); dicts keep first-insertion order
        self.old: dict = {}

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        new_keys, old_keys = apply_grouped(p, new, old)
        if old and p.want_old:
            _keep_last(p, self.old, old_keys, old)
        if new and p.want_new:
            _keep_last(p, self.new, new_keys, new)

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        out = finish(p, list(self.new.values())), finish(p, list(self.old.values()))
        self.new, self.old = {}, {}
        return out


def _keep_last(p: Any, last: dict, keys: Sequence[Any], events: Sequence[Eps]) -> None:
    for k, eps in zip(keys, events):
        rows = keyed_groups(p, [(k, eps)])
        if rows:
            last[k] = rows[0]


class AggregatedGroupedFirst(FirstPerGroup):
    """Flushed after every update (the statement-level condition is `Always`)."""

    __slots__ = ("p", "conditions", "work")

    def __init__(self, p: Any, polled: PolledFactory, ctx: Any) -> None:
        self.p = p
        self.conditions = GroupConditions(polled, ctx)
        self.work: dict = {}        # key -> event that passed, latest wins

    def take(self, key: Any, eps: Eps) -> None:
        self.work[key] = eps

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        new_rows = finish(p, keyed_groups(p, list(self.work.items()))) if p.want_new else None
        self.work = {}
        return new_rows, None


class AggregatedGroupedAllUnordered:
    """`output all` without order by (Esper's non-buffered helper): the batch's rows; after a
    group loses events, a row for its latest insert event; at output, a row for every other
    group still aggregated, in order of first appearance."""

    __slots__ = ("p", "kind", "new", "old", "reps", "seen")

    def __init__(self, p: Any) -> None:
        self.p = p
        self.kind = EventGroupRows(p)
        self.new: list = []
        self.old: list = []
        self.reps: dict = {}
        self.seen: set = set()

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        new_keys, old_keys = apply_grouped(p, new, old)
        for k, eps in zip(new_keys, new):
            self.reps[k] = eps
        self.seen.update(new_keys)
        self.seen.update(old_keys)
        n, o = self.kind.applied(new_keys, new, old_keys, old)
        self.old += o
        if p.want_new:
            self.new += n
            removed = ordered_groups(p, list(dict.fromkeys(old_keys)))
            self.new += keyed_groups(p, [(k, self.reps[k]) for k in removed if k in self.reps])

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        forget_ended(p, self.reps)
        if p.want_new:
            self.new += keyed_groups(p, [(k, e) for k, e in self.reps.items() if k not in self.seen])
        out = finish(p, self.new), finish(p, self.old)
        self.new, self.old, self.seen = [], [], set()
        return out

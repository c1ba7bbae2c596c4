"""Output batches for fully aggregated, grouped statements (Esper's row-per-group): a row per
group an update touched.

- `output every`: per update, the touched groups' prior rows (remove stream) and new rows
  (every.py over kinds.GroupRows).
- `output all every`: every group seen so far (a group whose aggregation ended is output once
  more, with fresh aggregates, then forgotten): its row before the batch
  as remove stream, its current row as insert stream.
- `output last every`: per group touched in the batch, its row before the batch's first update
  of it (remove stream, in order of first touch) and its current row (insert stream).
- `output first every` (per-group conditions, see polled.py): a group's row as soon as one of
  its events passes the group's condition; the remove stream holds its prior row.
Groups come in Java HashMap order where Esper collects them in a HashMap (with order by, or
Esper's buffered helpers); its non-buffered helpers keep the order of first touch.
"""
from __future__ import annotations

from typing import Any, Sequence

from .kinds import ordered_groups
from .polled import FirstPerGroup, GroupConditions, PolledFactory
from .rows import Eps, Rows, finish, forget_ended, keyed_groups


class _Touched:
    """The groups a batch touched (key -> latest event) and, as remove stream, each one's row
    from before the batch, taken at its first touch."""

    __slots__ = ("p", "reps", "old")
    ordered = False             # the groups in HashMap order at output, else in order of touch

    def __init__(self, p: Any) -> None:
        self.p = p
        self.reps: dict = {}
        self.old: list = []

    def touch(self, k: Any, eps: Eps) -> None:
        reps = self.reps
        if k not in reps and self.p.want_old:
            self.old += keyed_groups(self.p, [(k, eps)])
        reps[k] = eps

    def apply(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        """One view update: touch each event's group, then let the event enter or leave it."""
        p, touch = self.p, self.touch
        key_of, aggs = p.key_of, p.aggs
        for eps in new:
            k = key_of(eps)
            touch(k, eps)
            aggs.enter_group(k, eps)
        for eps in old:
            k = key_of(eps)
            touch(k, eps)
            aggs.leave_group(k, eps)

    def items(self, ordered: bool) -> list:
        reps = self.reps
        if not ordered:
            return list(reps.items())
        return [(k, reps[k]) for k in ordered_groups(self.p, list(reps))]

    def flush(self) -> tuple[Rows, Rows]:
        """The touched groups' current rows and their rows from before the batch; starts a new
        batch."""
        p = self.p
        new_rows = finish(p, keyed_groups(p, self.items(self.ordered))) if p.want_new else None
        old_rows = finish(p, self.old)
        self.reps, self.old = {}, []
        return new_rows, old_rows


class RowPerGroupLast(_Touched):
    """`output last`: in HashMap order with order by (Esper's buffered helper); without, Esper's
    default non-buffered helper keeps the order of first touch (a group whose aggregation
    ended gets fresh aggregates)."""

    __slots__ = ("ordered",)

    def __init__(self, p: Any, ordered: bool) -> None:
        _Touched.__init__(self, p)
        self.ordered = ordered

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        self.apply(new, old)


class RowPerGroupFirst(_Touched, FirstPerGroup):
    """Flushed after every update (the statement-level condition is `Always`)."""

    __slots__ = ("conditions",)

    def __init__(self, p: Any, polled: PolledFactory, ctx: Any) -> None:
        _Touched.__init__(self, p)
        self.conditions = GroupConditions(polled, ctx)

    take = _Touched.touch


class RowPerGroupAll(_Touched):
    """`output all` over every group seen (Esper's buffered helper), for row-per-group and
    rollup: at the batch's first update every group's row before it is the remove stream, and
    groups first touched in the batch add theirs (`_update`); at output, every group's current
    row; then the groups whose aggregation ended are forgotten. `_rows` reads the groups'
    rows, `_finish` orders and shapes a batch of them."""

    __slots__ = ("started",)

    def __init__(self, p: Any) -> None:
        _Touched.__init__(self, p)          # reps: every group seen, key -> latest event
        self.started = False

    def _update(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        self.apply(new, old)

    def _rows(self) -> list:
        return keyed_groups(self.p, self.items(True))

    def _finish(self, pairs: list) -> Rows:
        return finish(self.p, pairs)

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        if not self.started:
            self.started = True
            if self.p.want_old:
                self.old += self._rows()
        self._update(new, old)

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        if not self.started and p.want_old:
            self.old = self._rows()
        new_rows = self._finish(self._rows()) if p.want_new else None
        old_rows = self._finish(self.old)
        self.old, self.started = [], False
        forget_ended(p, self.reps)
        return new_rows, old_rows


class RowPerGroupAllUnordered:
    """`output all` without order by (Esper's non-buffered helper): every group ever seen, in
    order of first appearance; the remove stream holds each group's row before the batch."""

    __slots__ = ("p", "reps", "old", "first")

    def __init__(self, p: Any) -> None:
        self.p = p
        self.reps: dict = {}
        self.old: dict = {}
        self.first = False

    def _before(self, k: Any, eps: Eps) -> None:
        """The group's row before the batch, once per batch."""
        if k not in self.old:
            rows = keyed_groups(self.p, [(k, eps)])
            if rows:
                self.old[k] = rows[0]

    def _remove_stream_once(self) -> None:
        if self.first and self.p.want_old:
            for k, eps in self.reps.items():
                self._before(k, eps)
        self.first = False

    def add(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        p = self.p
        key_of, aggs, reps = p.key_of, p.aggs, self.reps
        want_old = p.want_old
        self._remove_stream_once()
        for eps in new:
            k = key_of(eps)
            reps[k] = eps
            if want_old:
                self._before(k, eps)
            aggs.enter_group(k, eps)
        for eps in old:
            k = key_of(eps)
            if want_old:
                self._before(k, eps)
            aggs.leave_group(k, eps)

    def flush(self) -> tuple[Rows, Rows]:
        p = self.p
        self._remove_stream_once()
        new_rows = finish(p, keyed_groups(p, list(self.reps.items()))) if p.want_new else None
        old_rows = finish(p, list(self.old.values()))
        self.old, self.first = {}, True
        return new_rows, old_rows

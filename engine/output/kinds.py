"""The result-kind parts of output-limited batches: what one view update produces, as rows
with their order-by keys, for each of Esper's result-set kinds. Output modes (every.py and the
per-kind helpers) combine a part with a policy for which rows a batch keeps.

Every part offers `rows(new, old) -> (insert pairs, remove pairs)`, the aggregation applied,
and `idle() -> (insert pairs, remove pairs)`, the rows of a batch without updates.
"""
from __future__ import annotations

from typing import Any, Sequence

from engine.resultset.java_order import hashmap_order

from .rows import Eps, Pair, apply_grouped, apply_ungrouped, keyed, keyed_groups

Pairs = Sequence[Pair]
NONE: tuple = ((), ())


class SimpleRows:
    """No aggregation (Esper's simple result set): a row per event."""

    __slots__ = ("p",)

    def __init__(self, p: Any) -> None:
        self.p = p

    def rows(self, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[Pairs, Pairs]:
        p = self.p
        return (keyed(p, new) if new and p.want_new else (),
                keyed(p, old) if old and p.want_old else ())

    def idle(self) -> tuple[Pairs, Pairs]:
        return NONE


class UngroupedRows(SimpleRows):
    """Aggregated, ungrouped, with event properties: a row per event carrying the aggregates
    as of its update."""

    __slots__ = ()

    def rows(self, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[Pairs, Pairs]:
        self.p.ctx.row = apply_ungrouped(self.p, new, old)
        return SimpleRows.rows(self, new, old)


def current_row(p: Any) -> list[Pair]:
    """The fully aggregated row as it is now."""
    p.ctx.row = p.aggs.ungrouped()
    return keyed(p, [()])


class RowForAllRows(SimpleRows):
    """Fully aggregated, ungrouped (Esper's row-for-all): per update the prior row (remove
    stream) and the new row; a batch without updates has the current row (as insert, and as
    remove with irstream)."""

    __slots__ = ()

    def rows(self, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[Pairs, Pairs]:
        p = self.p
        before = current_row(p) if p.want_old else ()
        apply_ungrouped(p, new, old)
        return (current_row(p) if p.want_new else ()), before

    def idle(self) -> tuple[Pairs, Pairs]:
        p = self.p
        return (current_row(p) if p.want_new else ()), (current_row(p) if p.want_old else ())


class EventGroupRows(SimpleRows):
    """Grouped with event properties (Esper's aggregate-grouped): a row per event, with its
    group's aggregates as of its update."""

    __slots__ = ()

    def rows(self, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[Pairs, Pairs]:
        new_keys, old_keys = apply_grouped(self.p, new, old)
        return self.applied(new_keys, new, old_keys, old)

    def applied(self, new_keys: Sequence[Any], new: Sequence[Eps], old_keys: Sequence[Any],
                old: Sequence[Eps]) -> tuple[Pairs, Pairs]:
        """The rows of an update already applied to the aggregation, its events' group keys
        given."""
        p = self.p
        removed = keyed_groups(p, zip(old_keys, old)) if old and p.want_old else ()
        return (keyed_groups(p, zip(new_keys, new)) if new and p.want_new else ()), removed


def ordered_groups(p: Any, keys: list) -> list:
    """Group keys in Java HashMap order, where Esper collects them in a HashMap."""
    return hashmap_order(keys, p.key_types) if len(keys) > 1 else keys


class GroupRows(SimpleRows):
    """Fully aggregated, grouped (Esper's row-per-group): per update, a row per group it
    touched, its prior row as remove stream."""

    __slots__ = ()

    def rows(self, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[Pairs, Pairs]:
        p = self.p
        key_of, aggs = p.key_of, p.aggs
        reps: dict = {}
        new_keys = [key_of(eps) for eps in new]
        old_keys = [key_of(eps) for eps in old]
        for k, eps in zip(new_keys, new):
            reps[k] = eps
        for k, eps in zip(old_keys, old):
            reps[k] = eps
        items = [(k, reps[k]) for k in ordered_groups(p, list(reps))]
        before = keyed_groups(p, items) if p.want_old else ()
        for k, eps in zip(new_keys, new):
            aggs.enter_group(k, eps)
        for k, eps in zip(old_keys, old):
            aggs.leave_group(k, eps)
        return (keyed_groups(p, items) if p.want_new else ()), before

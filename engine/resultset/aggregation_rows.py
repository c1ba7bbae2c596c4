"""Aggregation state at runtime: one row of aggregators (ungrouped) or one per group, fed
with the values each event contributes. Compiled aggregate expressions read the current
row through an AggregationContext the processor points at the right group."""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from engine.rollback import blame


class AggregationContext:
    """Which row compiled aggregate expressions read: processors set `row` before
    evaluating select, having and order-by expressions."""

    __slots__ = ("row",)

    def __init__(self) -> None:
        self.row: list = []


class AggEntry:
    """One aggregation of a statement: its factory, how an event becomes the value entered,
    and the optional `filter:` predicate."""

    __slots__ = ("factory", "value_of", "accept")

    def __init__(self, factory: Any, value_of: Callable[[Any], Any],
                 accept: Optional[Callable[[Any], Any]] = None) -> None:
        self.factory = factory
        self.value_of = value_of
        self.accept = accept


class AggregationRows:
    """Ungrouped (`key=None`) or grouped aggregation rows. Grouped rows of windowed streams
    are reference-counted and dropped when no event in the window belongs to them."""

    __slots__ = ("entries", "groups", "refcounts", "reclaim", "_single", "value_ofs", "plain",
                 "value_props", "_shared")

    def __init__(self, entries: Sequence[AggEntry], reclaim: bool = True) -> None:
        self.entries = tuple(entries)
        self.groups: dict[Any, list] = {}
        self.refcounts: dict[Any, int] = {}
        self.reclaim = reclaim
        self._single: Optional[list] = None
        self._shared: Optional[dict] = None
        # what the processors' fused loops need: no entry has a `filter:` predicate
        self.value_ofs = tuple(e.value_of for e in self.entries)
        self.plain = all(e.accept is None for e in self.entries)
        # per entry: the map property its value is (see epl.compiler.compiled), or None
        self.value_props = tuple(getattr(v, "map_property", None) for v in self.value_ofs)

    def new_row(self) -> list:
        # a factory with `shared` (per-aggregation group_by) has one state for all rows
        if self._shared is None:
            self._shared = {i: e.factory.make() for i, e in enumerate(self.entries)
                            if getattr(e.factory, "shared", False)}
        shared = self._shared
        if not shared:
            return [e.factory.make() for e in self.entries]
        return [shared[i] if i in shared else e.factory.make() for i, e in enumerate(self.entries)]

    def ungrouped(self) -> list:
        if self._single is None:
            self._single = self.new_row()
        return self._single

    def group(self, key: Any) -> list:
        row = self.groups.get(key)
        if row is None:
            row = self.new_row()
            self.groups[key] = row
        return row

    def peek(self, key: Any) -> list:
        """The group's row without creating state (a fresh row when the group is unknown)."""
        row = self.groups.get(key)
        return row if row is not None else self.new_row()

    def enter(self, row: list, eps: Any) -> None:
        try:
            for agg, e in zip(row, self.entries):
                if e.accept is None or e.accept(eps) is True:
                    agg.enter(e.value_of(eps))
        except Exception as exc:       # which event it was, for a statement's rollback guard
            blame(exc, eps)
            raise

    def leave(self, row: list, eps: Any) -> None:
        try:
            for agg, e in zip(row, self.entries):
                if e.accept is None or e.accept(eps) is True:
                    agg.leave(e.value_of(eps))
        except Exception as exc:
            blame(exc, eps)
            raise

    def enter_group(self, key: Any, eps: Any) -> None:
        self.enter(self.group(key), eps)
        self.refcounts[key] = self.refcounts.get(key, 0) + 1

    def leave_group(self, key: Any, eps: Any) -> None:
        row = self.groups.get(key)
        if row is None:
            return
        self.leave(row, eps)
        n = self.refcounts.get(key, 0) - 1
        if n <= 0 and self.reclaim:
            del self.groups[key]
            self.refcounts.pop(key, None)
        else:
            self.refcounts[key] = n

    def enter_groups(self, keys: Sequence[Any], eps_list: Sequence[Any]) -> None:
        """`enter_group(k, eps)` for each pair in order, in one loop."""
        if not self.plain:
            for k, eps in zip(keys, eps_list):
                self.enter_group(k, eps)
            return
        groups, refcounts, make = self.groups, self.refcounts, self.new_row
        get, count = groups.get, refcounts.get
        vofs = self.value_ofs
        if len(vofs) == 1:
            prop = self.value_props[0]
            if prop is not None:      # plain map reads: read them all first
                for k, v in zip(keys, [eps[0].underlying.get(prop) for eps in eps_list]):
                    row = get(k)
                    if row is None:
                        row = groups[k] = make()
                    row[0].enter(v)
                    refcounts[k] = count(k, 0) + 1
                return
            vf = vofs[0]
            for k, eps in zip(keys, eps_list):
                row = get(k)
                if row is None:
                    row = groups[k] = make()
                row[0].enter(vf(eps))
                refcounts[k] = count(k, 0) + 1
            return
        for k, eps in zip(keys, eps_list):
            row = get(k)
            if row is None:
                row = groups[k] = make()
            for agg, vf in zip(row, vofs):
                agg.enter(vf(eps))
            refcounts[k] = count(k, 0) + 1

    def leave_groups(self, keys: Sequence[Any], eps_list: Sequence[Any]) -> None:
        """`leave_group(k, eps)` for each pair in order, in one loop."""
        if not self.plain:
            for k, eps in zip(keys, eps_list):
                self.leave_group(k, eps)
            return
        groups, refcounts, reclaim = self.groups, self.refcounts, self.reclaim
        get, count = groups.get, refcounts.get
        vofs = self.value_ofs
        if len(vofs) == 1:
            self._leave_one(keys, eps_list)
            return
        for k, eps in zip(keys, eps_list):
            row = get(k)
            if row is None:
                continue
            for agg, vf in zip(row, vofs):
                agg.leave(vf(eps))
            n = count(k, 0) - 1
            if n <= 0 and reclaim:
                del groups[k]
                refcounts.pop(k, None)
            else:
                refcounts[k] = n

    def _leave_one(self, keys: Sequence[Any], eps_list: Sequence[Any]) -> None:
        """leave_groups for a single aggregation. A value is read only for an event whose
        group exists, as leave_group does."""
        groups, refcounts, reclaim = self.groups, self.refcounts, self.reclaim
        get, count = groups.get, refcounts.get
        prop = self.value_props[0]
        vf = self.value_ofs[0]
        for k, eps in zip(keys, eps_list):
            row = get(k)
            if row is None:
                continue
            row[0].leave(eps[0].underlying.get(prop) if prop is not None else vf(eps))
            n = count(k, 0) - 1
            if n <= 0 and reclaim:
                del groups[k]
                refcounts.pop(k, None)
            else:
                refcounts[k] = n

    def clear(self) -> None:
        for row in self.groups.values():
            for agg in row:
                agg.clear()
        self.groups.clear()
        self.refcounts.clear()
        if self._single is not None:
            for agg in self._single:
                agg.clear()

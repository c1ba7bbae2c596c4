"""Grouped aggregation rows under `@Hint('reclaim_group_aged=N')`: groups not updated for
N seconds are dropped, checked when events arrive at most every `reclaim_group_freq`
seconds (Esper's aged reclaim for group-by over unbounded streams)."""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from epl.plans.aggregation import AggEntry
from .aggregation_rows import AggregationRows


class AgedAggregationRows(AggregationRows):
    """AggregationRows that stamp each group with the time of its last update and sweep
    old groups before entering an event, as Esper does on each arriving event."""

    __slots__ = ("clock", "max_age", "frequency", "updated", "next_sweep")

    def __init__(self, entries: Sequence[AggEntry], reclaim: bool, clock: Callable[[], int],
                 max_age_ms: float, frequency_ms: Optional[float]) -> None:
        super().__init__(entries, reclaim)
        self.clock = clock
        self.max_age = max_age_ms
        self.frequency = frequency_ms if frequency_ms is not None else max_age_ms
        self.updated: dict[Any, int] = {}
        self.next_sweep: Optional[float] = None

    def _sweep(self) -> int:
        now = self.clock()
        if self.next_sweep is None or self.next_sweep <= now:
            self.next_sweep = now + self.frequency
            old = [k for k, t in self.updated.items() if now - t > self.max_age]
            for k in old:
                del self.updated[k]
                self.groups.pop(k, None)
                self.refcounts.pop(k, None)
        return now

    def enter_group(self, key: Any, eps: Any) -> None:
        self.updated[key] = self._sweep()
        super().enter_group(key, eps)

    def enter_groups(self, keys: Sequence[Any], eps_list: Sequence[Any]) -> None:
        for k, eps in zip(keys, eps_list):
            self.enter_group(k, eps)

    def leave_group(self, key: Any, eps: Any) -> None:
        if key in self.groups:
            self.updated[key] = self.clock()
        super().leave_group(key, eps)
        if key not in self.groups:
            self.updated.pop(key, None)

    def leave_groups(self, keys: Sequence[Any], eps_list: Sequence[Any]) -> None:
        for k, eps in zip(keys, eps_list):
            self.leave_group(k, eps)

    def clear(self) -> None:
        super().clear()
        self.updated.clear()
        self.next_sweep = None

"""Inner join lookups: starting from one event, bind the other streams step by step through
their indexes, filtering as soon as a condition's streams are all bound."""
from __future__ import annotations

from typing import Any, Sequence

from engine.contracts.bean import EventBean

from .indexes import EventStore
from epl.plans.joins import InnerPlan, Row


class InnerJoin:
    """Rows of the inner join that contain a given event."""

    __slots__ = ("plan", "indexes", "stores", "n")

    def __init__(self, plan: InnerPlan, indexes: Sequence[Any], stores: Sequence[EventStore]) -> None:
        self.plan = plan
        self.indexes = indexes
        self.stores = stores
        self.n = len(stores)

    def rows_for(self, stream: int, bean: EventBean) -> list[Row]:
        n = self.n
        row = (None,) * stream + (bean,) + (None,) * (n - stream - 1)
        for f in self.plan.start_filters[stream]:
            if not f(row):
                return []
        rows = [row]
        indexes, stores = self.indexes, self.stores
        for step in self.plan.steps[stream]:
            access, filters = step.access, step.filters
            t = access.target
            nxt = []
            for r in rows:
                head, tail = r[:t], r[t + 1:]
                for cand in access.candidates(indexes, stores, r):
                    r2 = head + (cand,) + tail
                    for f in filters:
                        if not f(r2):
                            break
                    else:
                        nxt.append(r2)
            rows = nxt
            if not rows:
                break
        return rows

    def all_rows(self) -> list[Row]:
        """The whole join result (iteration): every row holds exactly one stream-0 event."""
        out: list[Row] = []
        for bean in list(self.stores[0]):
            out.extend(self.rows_for(0, bean))
        return out

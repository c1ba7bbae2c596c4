"""Join plans: what the compiler (epl/compiler/joins.py) decided once per statement about how
each stream's events find their partners: which event indexes to keep, and per lookup step
whether to probe a hash index (equality), a sorted index (range) or, lacking a usable
condition, to scan. The runtime (engine/joins/executor.py, JoinExecutor) makes the indexes
(engine/joins/indexes.py, `make_index`) and runs the plan per statement instance; `Access`
reads the indexes and stores it is handed (subquery closures use it too)."""
from __future__ import annotations

from dataclasses import field
from typing import Any, Callable, Iterable, Optional, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

Row = tuple            # events per stream; None where a stream has no event (outer joins)
RowFn = Callable[[Row], Any]


@frozen_dataclass
class IndexSpec:
    """An index to maintain over one stream: `key_of(bean)` reads the indexed value(s)."""

    kind: str                       # 'hash' | 'sorted'
    stream: int
    key_text: str
    key_of: Callable[[EventBean], Any] = field(compare=False, repr=False)


@frozen_dataclass
class Access:
    """How the events of stream `target` matching a partial row are found.

    - 'hash': `indexes[index].lookup(value(row))`
    - 'sorted': `indexes[index].range(low(row), high(row))`, either bound optional
    - 'scan': every event of the stream (no usable condition)"""

    target: int
    kind: str
    index: int = -1
    value: Optional[RowFn] = field(default=None, compare=False, repr=False)
    low: Optional[RowFn] = field(default=None, compare=False, repr=False)
    low_incl: bool = True
    high: Optional[RowFn] = field(default=None, compare=False, repr=False)
    high_incl: bool = True
    swap: bool = False              # `between`: Esper accepts the endpoints in either order
    text: str = ""

    def candidates(self, indexes: Sequence[Any], stores: Sequence[Any],
                   row: Row) -> Iterable[EventBean]:
        kind = self.kind
        if kind == "hash":
            return indexes[self.index].lookup(self.value(row))
        if kind == "sorted":
            lo = self.low(row) if self.low is not None else None
            hi = self.high(row) if self.high is not None else None
            if self.swap and lo is not None and hi is not None:
                try:
                    if lo > hi:
                        lo, hi = hi, lo
                except TypeError:
                    pass
            found = indexes[self.index].range(lo, self.low_incl, hi, self.high_incl,
                                              self.low is not None, self.high is not None)
            if found is not None:
                return found
        return stores[self.target].scan()

    def describe(self) -> str:
        return f"{self.kind} stream {self.target}" + (f" on {self.text}" if self.text else "")


Predicate = Callable[[Row], bool]


@frozen_dataclass
class Step:
    """Bind one more stream through `access`, then keep rows passing every filter."""

    access: Access
    filters: tuple[Predicate, ...] = field(default=(), compare=False, repr=False)


@frozen_dataclass
class InnerPlan:
    """Inner joins (comma form or `inner join ... on`): per starting stream, the filters on
    the starting event alone and the lookup steps binding the other streams one by one, in
    the order the compiler chose (best index first)."""

    start_filters: tuple[tuple[Predicate, ...], ...] = field(compare=False, repr=False)
    steps: tuple[tuple[Step, ...], ...]


@frozen_dataclass
class OuterPlan:
    """Outer joins, SQL-92 left-deep: stream k joins the result of streams 0..k-1 with
    `kinds[k]` ('inner', 'left', 'right', 'full') under its on-condition `on_filters[k]`.
    `extend[k]` finds stream-k partners of a partial row; `left[k]` finds, for an event of
    stream k, partner events of an earlier stream (None: no usable condition, the earlier
    streams' rows are enumerated)."""

    kinds: tuple[str, ...]
    on_filters: tuple[tuple[Predicate, ...], ...] = field(compare=False, repr=False)
    extend: tuple[Optional[Access], ...]
    left: tuple[Optional[Access], ...]
    where: Optional[Predicate] = field(default=None, compare=False, repr=False)


@frozen_dataclass
class JoinPlan:
    """Everything a join instance needs: streams, indexes, the lookup plan, and which
    streams trigger output (all, or the unidirectional ones)."""

    stream_count: int
    index_specs: tuple[IndexSpec, ...]
    strategy: Any                    # InnerPlan | OuterPlan
    unidirectional: tuple[int, ...] = ()
    filters: tuple[Any, ...] = field(default=(), compare=False, repr=False)  # per stream: filter template or None
    event_types: tuple[Any, ...] = field(default=(), compare=False, repr=False)
    # per stream: the table it reads (tables in the from-clause), or None
    tables: tuple[Any, ...] = field(default=(), compare=False, repr=False)
    # the `unidirectional` keyword: aggregation per triggering event (Esper)
    per_trigger: bool = False

    def describe(self) -> list[str]:
        """Human-readable lookup plan, one line per step (introspection and tests)."""
        out = []
        s = self.strategy
        if isinstance(s, InnerPlan):
            for start, steps in enumerate(s.steps):
                for st in steps:
                    out.append(f"from stream {start}: {st.access.describe()}")
        else:
            for k in range(1, self.stream_count):
                if s.extend[k] is not None:
                    out.append(f"extend to stream {k}: {s.extend[k].describe()}")
                if s.left[k] is not None:
                    out.append(f"stream {k} to earlier: {s.left[k].describe()}")
                else:
                    out.append(f"stream {k} to earlier: enumerate")
        return out

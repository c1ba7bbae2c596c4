"""Subquery plan data: one subquery's window as the compiler (epl/compiler/subqueries.py)
decided it, and the holder through which its compiled expressions reach the running window
(engine/subqueries.py makes and runs the windows per statement instance)."""
from __future__ import annotations

from dataclasses import field
from typing import Any, Callable, Optional, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass


class SubqueryHolder:
    """Where compiled expressions find the running window of their subquery (None while
    the statement is stopped: the subquery then sees no events)."""

    __slots__ = ("state", "context", "by_props")

    def __init__(self) -> None:
        self.state: Any = None          # engine.subqueries.SubqueryRuntime
        # in a context statement: the context holder and each partition's runtime
        self.context: Any = None
        self.by_props: dict[int, Any] = {}

    def current(self) -> Any:
        """The runtime of the running statement instance (its partition's, in a context)."""
        ctx = self.context
        if ctx is None:
            return self.state
        by_props = self.by_props
        rt = by_props.get(id(ctx.properties))
        # no partition registered: an instance outside any partition (it has the only state)
        return rt if rt is not None or by_props else self.state


@frozen_dataclass
class SubqueryPlan:
    """One subquery's window, decided at compile time.

    `gate(eps)` holds the where-conditions on the subquery's own events only: events failing
    it are not stored (the window still holds them). `agg_entries` are set for uncorrelated
    aggregating subqueries, whose aggregation follows the window as events enter and leave.
    `retain` is False for an aggregating subquery without a data window: it aggregates every
    event and keeps none."""

    event_type: Any
    filter: Any                                  # template: bind(bindings) -> FilterSpec
    views: tuple = ()
    index_specs: tuple = ()
    gate: Optional[Callable[[Sequence[Any]], bool]] = field(default=None, compare=False)
    pad: tuple = ()                              # None for each outer stream
    agg_entries: tuple = field(default=(), compare=False)
    retain: bool = True
    holder: SubqueryHolder = field(default_factory=SubqueryHolder, compare=False)
    node: Any = field(default=None, compare=False)   # the AST node (dedup of recompilation)
    signature: tuple = ()
    # the named window or table the subquery reads (None: an ordinary stream); when
    # `partitioned` it is declared with the statement's context (PartitionedInfra) and the
    # subquery reads the partition's own; `accept` is its `W(filter)`
    infra: Any = field(default=None, compare=False)
    accept: Optional[Callable[[EventBean], bool]] = field(default=None, compare=False)
    partitioned: bool = False

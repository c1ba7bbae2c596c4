"""Subquery windows at runtime: each subquery of a statement instance has its own filter
registration, view chain and event store (with the indexes its correlation uses), started
and stopped with the instance.

Esper's order is kept: an event that feeds both a subquery and its statement's own streams
enters the subquery window first (the subquery's filter handle is ordered just before the
statement's), so the outer stream sees the subquery state including that event.

Compiled subquery expressions reach the current window through the plan's `holder`, which
the running instance points at its runtime (`SubqueryGroup.activate`); in a statement of a
context each partition's instance has its own runtime, found by the partition's properties
(what the context holder has in place while the partition runs).

A subquery over a named window reads the window's current contents, as in Esper (for a
window declared with the statement's own context: the partition's window): its store
follows the window as its first consumer (seeded with the contents the window has when the
statement starts), so expiry, on-delete, on-update and on-merge are reflected. A table has
no change feed: such a subquery reads the table's (partition's) rows when evaluated."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from views.registry import make_chain

from engine.contracts.bean import EventBean
from .joins.indexes import EventStore
from .resultset.aggregation_rows import AggregationRows

if TYPE_CHECKING:
    from .instance import SelectInstance
    from engine.contracts.runtime import Runtime


class SubqueryHolder:
    """Where compiled expressions find the running window of their subquery (None while
    the statement is stopped: the subquery then sees no events)."""

    __slots__ = ("state", "context", "by_props")

    def __init__(self) -> None:
        self.state: Optional["SubqueryRuntime"] = None
        # in a context statement: the context holder and each partition's runtime
        self.context: Any = None
        self.by_props: dict[int, "SubqueryRuntime"] = {}

    def current(self) -> Optional["SubqueryRuntime"]:
        """The runtime of the running statement instance (its partition's, in a context)."""
        ctx = self.context
        if ctx is None:
            return self.state
        by_props = self.by_props
        rt = by_props.get(id(ctx.properties))
        # no partition registered: an instance outside any partition (it has the only state)
        return rt if rt is not None or by_props else self.state


@dataclass(frozen=True)
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


class SubqueryHandle:
    """The subquery stream's filter handle, ordered just before its statement's handles."""

    __slots__ = ("target", "statement", "order", "drop")

    def __init__(self, target: Any, statement: Any) -> None:
        self.target = target
        self.statement = statement
        key = tuple(statement._match_key)
        self.order = key[:-1] + (key[-1] - 0.5,)
        self.drop = False

    def on_event(self, bean: EventBean) -> None:
        self.target.update([bean], None)


class SubqueryRuntime:
    """The window, store and (incremental) aggregation of one subquery in one instance."""

    def __init__(self, plan: SubqueryPlan, instance: "SelectInstance") -> None:
        self.plan = plan
        self.instance = instance
        self.indexes = [spec.make() for spec in plan.index_specs]
        self.store = EventStore(self.indexes)
        self.stores = [self.store]
        self.aggs = AggregationRows(plan.agg_entries, reclaim=False) if plan.agg_entries else None
        self.agg_row = self.aggs.ungrouped() if self.aggs is not None else None
        if plan.views:
            first, self.views = make_chain(list(plan.views), instance.ctx, self)
        else:
            first, self.views = self, []
        guard = getattr(instance, "guard", None)
        if guard is not None:           # the statement rolls back (engine/rollback.py)
            first = guard.target(first)
        self.handle = SubqueryHandle(first, instance.statement)
        self.token: Any = None
        self.first = first
        self.attachment: Any = None
        self.source: Any = None        # the window or table read (the partition's, in a context)

    # the end of the view chain
    def update(self, new: Optional[list], old: Optional[list]) -> None:
        plan = self.plan
        gate, pad, store, aggs = plan.gate, plan.pad, self.store, self.aggs
        retain = plan.retain
        for bean in new or ():
            eps = (bean,) + pad
            if gate is not None and not gate(eps):
                continue
            if retain:
                store.add(bean)
            if aggs is not None:
                aggs.enter(self.agg_row, eps)
        for bean in old or ():
            eps = (bean,) + pad
            if gate is not None and not gate(eps):
                continue
            if retain:
                store.remove(bean)
            if aggs is not None:
                aggs.leave(self.agg_row, eps)

    def start(self) -> None:
        infra = self.plan.infra
        if infra is not None:
            self._start_source(infra)
            return
        bindings = self.instance.bindings
        spec = self.plan.filter.bind(bindings)
        narrow = getattr(bindings, "narrow", None)
        if narrow is not None:
            # in a context partition, as Esper: the partition's criteria apply to the
            # subquery's filter too (a keyed partition's key, for a listed event type)
            spec = narrow(spec)
        self.token = self.instance.engine.filters.add(spec, self.handle)

    def _start_source(self, infra: Any) -> None:
        """Read the window or table (the partition's own, in a context); a window: follow
        it, from its current contents on, ahead of its other consumers."""
        if self.plan.partitioned:
            source = infra.instance(self.instance.bindings, self.instance.engine)
        else:
            source = infra
        self.source = source
        if infra.is_table:
            return
        feed = _WindowFeed(self.first, self.plan.accept)
        attach = getattr(source, "attach_first", None) or source.attach
        self.attachment = attach(feed)
        current = list(source)
        if current:
            feed.update(current, None)

    def stop(self) -> None:
        if self.token is not None:
            self.instance.engine.filters.remove(self.token)
            self.token = None
        if self.attachment is not None:
            self.attachment.stop()
            self.attachment = None
        self.source = None
        for v in self.views:
            v.stop()
        self.store.clear()
        if self.aggs is not None:
            self.aggs.clear()
            self.agg_row = self.aggs.ungrouped()


class _WindowFeed:
    """A subquery's consumer of a (partition's) named window: what enters and leaves the
    window and passes the subquery's `W(filter)` goes to the subquery's views or store."""

    __slots__ = ("target", "first", "accept")

    def __init__(self, first: Any, accept: Optional[Callable[[EventBean], bool]]) -> None:
        self.target = self          # what a window calls: `target.update(new, old)`
        self.first = first
        self.accept = accept

    def update(self, new: Optional[list], old: Optional[list]) -> None:
        accept = self.accept
        if accept is not None:
            new = [e for e in new if accept(e)] if new else None
            old = [e for e in old if accept(e)] if old else None
        if new or old:
            self.first.update(new or None, old or None)


class SubqueryGroup:
    """The subqueries of one statement instance."""

    def __init__(self, instance: "SelectInstance", plans: Sequence[SubqueryPlan]) -> None:
        self.instance = instance
        self.runtimes = [SubqueryRuntime(p, instance) for p in plans]

    @property
    def props(self) -> Optional[dict]:
        """A context partition's properties (its runtimes are found by them), else None."""
        return getattr(getattr(self.instance, "bindings", None), "props", None)

    def activate(self) -> None:
        """Point the compiled expressions at this instance's windows."""
        props = self.props
        for rt in self.runtimes:
            holder = rt.plan.holder
            holder.state = rt
            if props is not None and holder.context is not None:
                holder.by_props[id(props)] = rt

    def start(self) -> None:
        self.activate()
        for rt in self.runtimes:
            rt.start()

    def stop(self) -> None:
        props = self.props
        for rt in self.runtimes:
            rt.stop()
            holder = rt.plan.holder
            if holder.state is rt:
                holder.state = None
            if props is not None and holder.by_props.get(id(props)) is rt:
                del holder.by_props[id(props)]


class SubqueryService:
    """`engine.services.subqueries`: builds the subquery windows of an instance."""

    def instantiate(self, instance: "SelectInstance", plans: Sequence[SubqueryPlan]) -> SubqueryGroup:
        return SubqueryGroup(instance, plans)


def install(engine: "Runtime") -> None:
    """The subquery service (epl/compiler/features.py loads the subquery compilers)."""
    engine.services.subqueries = SubqueryService()

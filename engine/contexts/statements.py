"""Statements declared with `context X select ...`: what runs the compiler's plan
(epl/plans/contexts.py, ContextSelectPlan) in the partitions, the statement-level handle on
the context, and the per-partition instance (the statement's plan instantiated with the
partition's filters, properties and schedules)."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Optional

from engine.contracts.bean import EventBean
from engine.instance import SelectInstance, StatementContext
from engine.joins.executor import JoinExecutor
from epl.plans.contexts import ContextSelectPlan, Holder
from filterindex.spec import FilterSpec

from .partition import Partition

if TYPE_CHECKING:
    from engine.statement import Statement
    from engine.contracts.runtime import Runtime


class NarrowedFilter:
    """A stream filter inside a partition: the statement's filter, narrowed by the partition
    (`bind` receives the partition as bindings)."""

    __slots__ = ("base",)

    def __init__(self, base: Any) -> None:
        self.base = base

    def bind(self, partition: Partition) -> FilterSpec:
        return partition.narrow(self.base.bind(partition))


class ContextSelect:
    """Runs a select plan per partition of a context (made from the ContextSelectPlan when
    the statement starts; its context runtime calls `make_instance` per partition)."""

    def __init__(self, context_plan: ContextSelectPlan) -> None:
        plan = self.inner = context_plan.inner
        definition = context_plan.definition
        self.holder = context_plan.holder
        streams = tuple(dataclasses.replace(s, filter=NarrowedFilter(s.filter))
                        if s.pattern is None and s.named_window is None else s for s in plan.streams)
        join = plan.join
        if join is not None:
            # stream filters the join registers itself (the flush of streams sharing a type)
            # are narrowed by the partition like the streams'
            join = dataclasses.replace(join, filters=tuple(
                NarrowedFilter(f) if f is not None else None for f in join.filters))
        self.partition_plan = dataclasses.replace(plan, streams=streams, join=join)
        # windows and tables declared with this context: each partition binds its own
        own = definition.name
        self.infra_streams = tuple(i for i, s in enumerate(plan.streams)
                                   if getattr(s.named_window, "context", None) == own)
        into = plan.result_set.into_table
        table = into.table if into is not None else None
        self.into_infra = table if getattr(table, "context", None) == own else None
        # `insert into W` where W is declared with this context: rows go to the partition's W
        # (the statement itself routes nothing then: the plan's insert_into is None)
        self.infra_insert: Any = plan.insert_into if context_plan.into_partition else None

    def make_instance(self, engine: "Runtime", statement: "Statement", partition: Partition) -> "PartitionInstance":
        plan = self.partition_plan
        if self.infra_streams or self.into_infra is not None:
            plan = self._bind(plan, partition, engine)
        emitter: Any = statement
        if self.infra_insert is not None:
            from .infra import RoutingStatement
            emitter = RoutingStatement(statement, self.infra_insert, partition)
        return PartitionInstance(engine, statement, plan, partition, self.holder, emitter)

    def _bind(self, plan: Any, partition: Partition, engine: "Runtime") -> Any:
        """The plan with the partition's own windows and tables in place of the
        context-declared ones it names."""
        changes: dict[str, Any] = {}
        if self.infra_streams:
            streams = list(plan.streams)
            for i in self.infra_streams:
                s = streams[i]
                inst = s.named_window.instance(partition, engine)
                first = dataclasses.replace(s.views[0], window=inst)
                streams[i] = dataclasses.replace(s, named_window=inst, views=(first,) + tuple(s.views[1:]))
            changes["streams"] = tuple(streams)
        if self.into_infra is not None:
            rs = plan.result_set
            into = dataclasses.replace(rs.into_table, table=self.into_infra.instance(partition, engine))
            changes["result_set"] = dataclasses.replace(rs, into_table=into)
        return dataclasses.replace(plan, **changes)


class PartitionJoin(JoinExecutor):
    """A join inside a partition: it runs (from a stream, a timer or the flush after a
    self-join's streams) with the partition's properties in place."""

    def flush(self) -> None:
        ctx = self.instance.ctx
        ctx.holder.properties = ctx.props
        JoinExecutor.flush(self)


class ContextStatement:
    """What a context statement holds in `statement._instances`: stopping it detaches the
    statement from the context; iterating gathers the rows of every partition."""

    def __init__(self, runtime: Any, statement: "Statement", holder: Holder) -> None:
        self.runtime = runtime
        self.statement = statement
        self.holder = holder

    def stop(self) -> None:
        self.runtime.detach(self.statement)

    def relocate(self, runtime: "Runtime") -> None:
        """Move the context, with its partitions and every instance in them, to `runtime`
        (the isolated service checks first that no statement of the context stays behind)."""
        self.runtime.relocate(runtime)

    def current_rows(self) -> list:
        rows: list = []
        for p in self.runtime.iter_leaves():
            for s, inst in p.instances:
                if s is self.statement:
                    rows.extend(inst.current_rows())
        return rows


class PartitionContext(StatementContext):
    """The statement context of one partition: its callbacks run with the partition's
    properties in place."""

    __slots__ = ("holder", "props")

    def __init__(self, engine: "Runtime", statement: "Statement", slot: Any, holder: Holder, props: dict) -> None:
        super().__init__(engine, statement, slot)
        self.holder = holder
        self.props = props

    def schedule(self, at: int, callback: Callable[[], None]) -> Any:
        holder, props = self.holder, self.props

        def in_partition() -> None:
            holder.properties = props
            callback()
        return self._scheduler.schedule(at + self.offset, self.slot, in_partition)


class _InPartition:
    """Wraps a stream's first view (or sink): sets the partition's properties first."""

    __slots__ = ("target", "holder", "props")

    def __init__(self, target: Any, holder: Holder, props: dict) -> None:
        self.target = target
        self.holder = holder
        self.props = props

    def update(self, new: Any, old: Any) -> None:
        self.holder.properties = self.props
        self.target.update(new, old)

    def __iter__(self):
        return iter(self.target)


class _PartitionHandle:
    """A stream handle of a partition instance (what its filter registration returns).
    `target` sets the partition's properties first (for whoever feeds the stream, e.g. a
    pattern's batched matches); `on_event` does the same without the extra call."""

    __slots__ = ("target", "order", "statement", "drop", "stream_index", "first", "holder", "props")

    def __init__(self, inner: Any, holder: Holder, props: dict) -> None:
        self.target = _InPartition(inner.target, holder, props)
        self.first = inner.target
        self.holder = holder
        self.props = props
        self.order = inner.order
        self.statement = inner.statement
        self.drop = inner.drop
        self.stream_index = inner.stream_index

    def on_event(self, bean: EventBean) -> None:
        self.holder.properties = self.props
        self.first.update([bean], None)


class _PartitionJoinHandle(_PartitionHandle):
    """A join stream's handle in a partition: the join's own handle runs (it knows whether
    the join waits for the statement's other streams), with the partition's properties."""

    __slots__ = ("inner",)

    def __init__(self, inner: Any, holder: Holder, props: dict) -> None:
        super().__init__(inner, holder, props)
        self.inner = inner

    def on_event(self, bean: EventBean) -> None:
        self.holder.properties = self.props
        self.inner.on_event(bean)


class PartitionInstance:
    """One statement's instance in one partition."""

    __slots__ = ("inst", "holder", "props")

    def __init__(self, engine: "Runtime", statement: "Statement", plan: Any, partition: Partition,
                 holder: Holder, emitter: Any = None) -> None:
        props = partition.props
        holder.properties = props
        ctx = PartitionContext(engine, statement, statement._order_key, holder, props)
        # `emitter`: the statement as the instance emits to it (it may route rows first)
        inst = SelectInstance(engine, emitter if emitter is not None else statement, plan,
                              statement._order_key, bindings=partition, ctx=ctx,
                              join_class=PartitionJoin)
        inst.pattern_filter_addendum = partition.narrow
        wrap = _PartitionHandle if inst.join is None else _PartitionJoinHandle
        inst.handles = [wrap(h, holder, props) for h in inst.handles]
        self.inst = inst
        self.holder = holder
        self.props = props

    def start(self) -> None:
        self.holder.properties = self.props
        self.inst.start()

    def stop(self) -> None:
        self.inst.stop()

    def relocate(self, runtime: "Runtime") -> None:
        self.inst.relocate(runtime)

    def terminated(self) -> None:
        out = self.inst.output
        fire = getattr(out, "terminated", None)
        if fire is not None:
            self.holder.properties = self.props
            fire()

    def current_rows(self) -> list:
        self.holder.properties = self.props
        return self.inst.current_rows()

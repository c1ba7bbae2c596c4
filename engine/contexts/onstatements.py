"""On-statements declared with `context X on <trigger> select|delete ...`: the on-plan run
per partition of the context, its trigger filter narrowed by the partition (a keyed
partition's trigger sees only its own key's events) and its action run with the partition's
properties in place. The target is a global named window or table."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from engine.bean import EventBean
from engine.namedwindows.actions import OnInstance
from filterindex.spec import FilterSpec

from .partition import Holder, Partition
from .statements import ContextStatement, PartitionContext

if TYPE_CHECKING:
    from engine.statement import Statement


class _PartitionTrigger:
    """The trigger filter of one partition's on-statement."""

    __slots__ = ("base", "partition")

    def __init__(self, base: Any, partition: Partition) -> None:
        self.base = base
        self.partition = partition

    def bind(self, _bindings: Any) -> FilterSpec:
        return self.partition.narrow(self.base.bind(self.partition))


class ContextOnPlan:
    """An on-plan run per partition; attributes the engine reads are the on-plan's."""

    def __init__(self, plan: Any, definition: Any, holder: Holder, service: Any) -> None:
        self.inner = plan
        self.definition = definition
        self.holder = holder
        self.service = service

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def instantiate(self, engine: Any, statement: "Statement") -> list:
        runtime = self.service.runtime_for(self.definition, engine)
        handle = ContextStatement(runtime, statement, self.holder)
        runtime.attach(statement, self)
        return [handle]

    def make_instance(self, engine: Any, statement: "Statement", partition: Partition) -> "PartitionOnInstance":
        plan = self.inner
        if plan.trigger_filter is not None:
            plan = dataclasses.replace(plan, trigger_filter=_PartitionTrigger(plan.trigger_filter, partition))
        return PartitionOnInstance(engine, statement, plan, partition, self.holder)


class PartitionOnInstance(OnInstance):
    """One on-statement's instance in one partition."""

    def __init__(self, engine: Any, statement: "Statement", plan: Any, partition: Partition,
                 holder: Holder) -> None:
        super().__init__(engine, statement, plan)
        self.holder = holder
        self.props = partition.props
        self.ctx = PartitionContext(engine, statement, statement._order_key, holder, partition.props)
        self.pattern_filter_addendum = partition.narrow      # pattern triggers

    def start(self) -> None:
        self.holder.properties = self.props
        super().start()

    def fire(self, trigger: EventBean) -> None:
        self.holder.properties = self.props
        super().fire(trigger)

    def terminated(self) -> None:
        pass

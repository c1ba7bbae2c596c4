"""On-statements declared with `context X on <trigger> select|delete|update|merge|set ...`:
the on-plan run per partition of the context, its trigger filter narrowed by the partition (a
keyed partition's trigger sees only its own key's events) and its action run with the
partition's properties in place. The target is a global named window or table, or one
declared with the same context (each partition then acts on its own), or variables."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from engine.contracts.bean import EventBean
from engine.namedwindows.actions import OnInstance
from filterindex.spec import FilterSpec

from .partition import Holder, Partition
from .statements import ContextStatement, PartitionContext

if TYPE_CHECKING:
    from engine.statement import Statement
    from engine.contracts.runtime import Runtime


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
        # a target window or table declared with this context: each partition acts on its own
        # (found when the first partition starts: the plan names its target)
        self.target_name = getattr(getattr(plan.action, "match", None), "target", None)
        self.infra_insert: Any = None
        self.insert_into = plan.insert_into

    def route_into_partition(self) -> None:
        """On-select rows inserted into a window or table of this context go to the
        partition's own."""
        self.infra_insert = self.inner.insert_into
        self.insert_into = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def instantiate(self, engine: "Runtime", statement: "Statement") -> list:
        runtime = self.service.runtime_for(self.definition, engine)
        handle = ContextStatement(runtime, statement, self.holder)
        runtime.attach(statement, self)
        return [handle]

    def make_instance(self, engine: "Runtime", statement: "Statement", partition: Partition) -> "PartitionOnInstance":
        plan = self.inner
        changes: dict[str, Any] = {}
        if plan.trigger_filter is not None:
            changes["trigger_filter"] = _PartitionTrigger(plan.trigger_filter, partition)
        target = None
        if self.target_name is not None:
            infra = engine.services.named_windows.get(self.target_name)
            if getattr(infra, "context", None) == self.definition.name:
                target = infra.instance(partition, engine)
        if changes:
            plan = dataclasses.replace(plan, **changes)
        inst = PartitionOnInstance(engine, statement, plan, partition, self.holder, target)
        if self.infra_insert is not None:
            from .infra import RoutingStatement
            inst.statement = RoutingStatement(statement, self.infra_insert, partition)
        return inst


class PartitionOnInstance(OnInstance):
    """One on-statement's instance in one partition."""

    def __init__(self, engine: "Runtime", statement: "Statement", plan: Any, partition: Partition,
                 holder: Holder, target: Any = None) -> None:
        super().__init__(engine, statement, plan, target)
        self.holder = holder
        self.props = partition.props
        self.bindings = partition
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

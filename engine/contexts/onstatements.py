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
from epl.plans.contexts import ContextOnPlan, Holder
from filterindex.spec import FilterSpec

from .partition import Partition
from .statements import PartitionContext

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


class ContextOn:
    """Runs an on-plan per partition of a context (made from the ContextOnPlan when the
    statement starts; its context runtime calls `make_instance` per partition)."""

    def __init__(self, context_plan: ContextOnPlan) -> None:
        plan = self.inner = context_plan.inner
        definition = context_plan.definition
        self.holder = context_plan.holder
        self.definition = definition
        # a target window or table declared with this context: each partition acts on its own
        # (found when a partition starts: the plan names its target)
        self.target_name = getattr(getattr(plan.action, "match", None), "target", None)
        # on-select rows inserted into a window or table of this context go to the
        # partition's own (the statement itself routes nothing then)
        self.infra_insert: Any = plan.insert_into if context_plan.into_partition else None

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

"""`create window` and `create table` at runtime: the window or table made from its plan
(epl/plans/namedwindows.py) when the statement is created, and the statement's start."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.contracts.bean import EventBean
from epl.plans.namedwindows import CreatePlan, InfraSpec

from .partitioned import PartitionedInfra
from .table import Table
from .window import NamedWindow

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def make_infra(spec: InfraSpec) -> Any:
    """The NamedWindow or Table a spec declares; for one declared with a context, the
    PartitionedInfra standing for its partitions' instances."""
    made: Any
    if spec.is_table:
        made = Table(spec.name, spec.event_type, spec.primary_keys, spec.plain_columns,
                     spec.aggregations)
        made.declarations = dict(spec.declarations)
        made.typed_columns = dict(spec.typed_columns)
    else:
        made = NamedWindow(spec.name, spec.event_type, spec.view_factories, spec.insert_filter)
    if spec.context is not None:
        return PartitionedInfra(made, spec.context)
    return made


def start_create(plan: CreatePlan, engine: "Runtime", statement: Any) -> list:
    """Start the window or table the statement declared (the starter of CreatePlan): a
    context-declared one runs per partition of its context."""
    target = engine.services.named_windows.get(plan.spec.name)
    if plan.spec.context is not None:
        from engine.contexts.infra import ContextInfraPlan
        contexts = engine.services.contexts
        infra_plan = ContextInfraPlan(target, contexts.get(plan.spec.context), contexts,
                                      plan.out_type, plan.selector)
        return infra_plan.instantiate(engine, statement)
    started = target.start(engine, statement)
    pre = plan.preload
    if pre is not None:
        source = engine.services.named_windows.get(pre.source)
        t, accept, cols = started.event_type, pre.accept, pre.columns
        started.insert([EventBean(t, {n: (b.get(n) if f is None else f((b,))) for n, f in cols})
                        for b in source if accept is None or accept(b)])
    return [started]

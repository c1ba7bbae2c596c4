"""`engine.services.contexts`: declared contexts by name (definitions are plan data,
epl/plans/contexts.py), the running partition manager of each, and the start of statements
declared with `context X ...`."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from epl.plans.contexts import ContextDefinition, ContextOnPlan, ContextSelectPlan

from .controllers import controllers_of
from .onstatements import ContextOn
from .partition import ContextRuntime
from .statements import ContextSelect, ContextStatement

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

# what runs a context statement's plan in the partitions, by the plan's class
RUNNERS: dict[type, Callable[[Any], Any]] = {
    ContextSelectPlan: ContextSelect,
    ContextOnPlan: ContextOn,
}


@dataclass
class ContextService:
    definitions: dict[str, ContextDefinition] = field(default_factory=dict)
    # the running partition managers; one per context and engine facade (the engine, an
    # isolated service), plus any that moved into a facade where the context already ran
    runtimes: list[ContextRuntime] = field(default_factory=list)

    def get(self, name: str) -> Any:
        return self.definitions.get(name)

    def add(self, definition: ContextDefinition) -> None:
        self.definitions[definition.name] = definition

    def remove(self, definition: ContextDefinition) -> None:
        if self.definitions.get(definition.name) is definition:
            del self.definitions[definition.name]

    def runtime_for(self, definition: ContextDefinition, engine: "Runtime") -> ContextRuntime:
        """The runtime a statement starting in `engine` joins (the oldest one there)."""
        for rt in self.runtimes:
            if rt.definition is definition and rt.engine is engine:
                return rt
        rt = ContextRuntime(definition, engine, self, controllers_of(definition))
        self.runtimes.append(rt)
        return rt

    def instantiate(self, plan: Any, engine: "Runtime", statement: Any) -> list:
        """Start a statement declared with `context X ...` (its plan: a ContextSelectPlan or
        ContextOnPlan) in the context's partitions, in the runtime `engine`."""
        runner = RUNNERS[type(plan)](plan)
        runtime = self.runtime_for(plan.definition, engine)
        handle = ContextStatement(runtime, statement, plan.holder)
        runtime.attach(statement, runner)
        return [handle]

    def runtime_ended(self, runtime: ContextRuntime) -> None:
        self.runtimes = [rt for rt in self.runtimes if rt is not runtime]

    def partition_count(self, name: str) -> int:
        """Live leaf partitions of a context, over every engine facade it runs in."""
        return sum(rt.partition_count() for rt in self.runtimes if rt.definition.name == name)

    def partitions(self, name: str) -> list[dict]:
        """The context properties of each live partition (introspection)."""
        out: list[dict] = []
        for rt in self.runtimes:
            if rt.definition.name == name:
                # string keys only: context variables keep their values there too
                out.extend({k: v for k, v in p.props.items() if isinstance(k, str)}
                           for p in rt.iter_leaves())
        return out


def install(engine: "Runtime") -> ContextService:
    if "contexts" not in engine.services:      # installing twice keeps the service
        engine.services.contexts = ContextService()
    svc = engine.services.contexts
    return svc

"""`engine.services.contexts`: declared contexts by name, the running partition manager
of each, and the compiler hook for `context X select ...`."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.contracts.event_types import EventType

from .partition import ContextRuntime

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


@dataclass(frozen=True, eq=False)
class Level:
    """One level of a context (the only one unless nested): its name and controller spec."""

    name: str
    spec: Any
    context_type: EventType

    def make(self, runtime: Any, parent: Any, level: int) -> Any:
        return self.spec.make(runtime, parent, level)


@dataclass(frozen=True, eq=False)
class ContextDefinition:
    name: str
    levels: tuple[Level, ...]
    context_type: EventType        # what `context.x` may name in the context's statements


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
        rt = ContextRuntime(definition, engine, self)
        self.runtimes.append(rt)
        return rt

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

"""Statement plans: everything the compiler decided, immutable, built once per statement.
The runtime instantiates a plan (once, or per context partition) without looking at EPL."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol, Sequence

from .event_types import EventType

if TYPE_CHECKING:
    from .runtime import Runtime
    from .statement import Statement


class Instance(Protocol):
    """A running instance of a plan (a select, a named window, a context's partitions, ...)."""

    def stop(self) -> None: ...


class Plan(Protocol):
    """The one interface of every statement kind's plan: `instantiate` builds and starts the
    statement's running instances in `runtime` (the engine, or an isolated service) when the
    statement starts; the engine stops them when it stops. Statements that only declare
    (schemas, variables, contexts, expressions, indexes) have no plan."""

    def instantiate(self, runtime: "Runtime", statement: "Statement") -> list[Instance]: ...


@dataclass(frozen=True)
class StreamPlan:
    """One stream: which events (type and filter), which views, under which alias."""

    index: int
    event_type: EventType
    alias: Optional[str]
    filter: Any                      # has bind(bindings=None) -> FilterSpec
    views: tuple = ()                # view factories, in chain order
    unidirectional: bool = False
    pattern: Any = None              # a pattern plan for `pattern [...]` streams
    named_window: Any = None         # set when the stream consumes a named window
    contained: Any = None            # `Type[prop]`: bean -> the contained events to feed


@dataclass(frozen=True)
class InsertIntoPlan:
    event_type: EventType
    columns: tuple[tuple[str, str], ...]   # (output column, target property), in select order
    selector: str = "istream"        # 'istream' | 'rstream' | 'irstream'
    passthrough: bool = False        # `insert into X select *` of the same type: route as is
    member: Optional["InsertIntoPlan"] = None   # into a variant stream: builds the member event


@dataclass(frozen=True)
class SelectPlan:
    """A compiled select statement."""

    streams: tuple[StreamPlan, ...]
    where: Optional[Callable[[Sequence[Any]], bool]]
    make_processor: Callable[[], Any]          # fresh result-set processor (own aggregation state)
    out_type: EventType
    columns: tuple[str, ...]
    passthrough: bool                          # single-stream `select *`
    selector: str = "istream"
    insert_into: Optional[InsertIntoPlan] = None
    make_output: Optional[Callable[..., Any]] = None      # (ctx, emit, processor, iterate) -> limiter
    make_join: Optional[Callable[[Any], Any]] = None     # join factory for multi-stream statements
    context: Optional[str] = None
    extra: dict = field(default_factory=dict)

    def instantiate(self, runtime: "Runtime", statement: "Statement") -> list[Instance]:
        """The statement's one instance, started."""
        from .instance import SelectInstance
        inst = SelectInstance(runtime, statement, self, statement._order_key)
        inst.start()
        return [inst]

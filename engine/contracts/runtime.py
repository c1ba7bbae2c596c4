"""The runtime contract: what statement plans and feature packages may ask of the engine.

Plans (`Plan.instantiate(runtime, statement)`) and features receive a `Runtime`: the Engine
itself, or an isolated service's view of it (its own filter index and scheduler, everything
else the engine's). They use these members and nothing private of the engine. The module
imports only typing and other contracts modules (those for type checkers alone): the runtime's
own classes (the feature registry and services, statements, the filter index) are named
through the small protocols below, so the contract does not reach into the runtime."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol, Sequence, TypeVar

if TYPE_CHECKING:
    import threading
    from datetime import tzinfo

    from engine.contracts.bean import EventBean
    from engine.contracts.event_types import EventTypeRegistry
    from engine.contracts.plans import InsertIntoPlan
    from engine.contracts.scheduler import Scheduler
    from engine.contracts.signals import EngineSignals

T = TypeVar("T")


class StatementRef(Protocol):
    """A statement as the contract names it (engine.statement.Statement)."""

    name: str


class FilterTarget(Protocol):
    """This runtime's filter index (filterindex.tree.FilterIndex), as plans use it."""

    def add(self, spec: Any, handle: object) -> object: ...

    def remove(self, token: object) -> None: ...


class FeatureRegistry(Protocol):
    """The feature registry (engine.features.Features): statement compilers by AST class and
    the compiler's hooks."""

    function_hook: Optional[Callable[[Any, Any], Any]]
    dot_hook: Optional[Callable[[Any, Any], Any]]
    join_compiler: Callable[..., Any]

    def add_statement(self, node_class: type, compiler: Callable[[Any, Any, str], Any]) -> None: ...

    def statement_compiler(self, node: Any) -> Optional[Callable[[Any, Any, str], Any]]: ...

    def add_starter(self, plan_class: type, starter: Callable[[Any, Any, Any], list]) -> None: ...

    def start(self, plan: Any, runtime: Any, statement: Any) -> list: ...


class Variables(Protocol):
    """The variable service (engine.variables.VariableService) as compiled expressions and
    output conditions use it: read, write and watch variables by name."""

    def has(self, name: str) -> bool: ...

    def type_of(self, name: str) -> Any: ...          # engine.contracts.epl_types.PropertyType

    def reader(self, name: str, holder: Any = None) -> Callable[[], Any]: ...

    def get(self, name: str) -> Any: ...

    def set(self, name: str, value: Any) -> None: ...

    def subscribe(self, name: str, callback: Callable[..., None]) -> Any:
        """Call `callback` when the variable changes; returns the handle `unsubscribe` takes."""
        ...

    def unsubscribe(self, handle: Any) -> None: ...


class SubqueryGroup(Protocol):
    """The subquery windows of one statement instance (engine.subqueries.SubqueryGroup)."""

    runtimes: list

    def start(self) -> None: ...

    def stop(self) -> None: ...


class Subqueries(Protocol):
    """The subquery service (engine.subqueries.SubqueryService): makes an instance's subquery
    windows from the statement's subquery plans (epl.plans.subqueries.SubqueryPlan)."""

    def instantiate(self, instance: Any, plans: Sequence[Any]) -> SubqueryGroup: ...


class FeatureServices(Protocol):
    """The feature services (engine.features.Services): a dict by name with typed accessors;
    services not typed by a protocol above are `object` here, their classes live in the
    runtime."""

    variables: Optional[Variables]   # engine.variables.VariableService
    named_windows: object    # engine.namedwindows.service.NamedWindowService
    contexts: object         # engine.contexts.service.ContextService
    subqueries: Subqueries   # engine.subqueries.SubqueryService
    patterns: object         # engine.features.PatternStreams
    apptime: object          # engine.apptime.release.ApplicationClock, or None
    pattern_limit: object    # engine.patterns.limits.PatternLimit, an int, or None
    istream_updates: object
    expressions: dict
    isolated: dict

    def __getitem__(self, name: str) -> Any: ...

    def __setitem__(self, name: str, value: Any) -> None: ...

    def __contains__(self, name: object) -> bool: ...

    def get(self, name: str, default: Any = None) -> Any: ...


class Runtime(Protocol):
    """What plans and features need from the engine while statements run (and, for the
    compiler, what it looks up while a statement compiles)."""

    # -- registries and settings (compile time and run time) ----------------------------------
    types: "EventTypeRegistry"            # event types by name and by class
    signals: "EngineSignals"              # statement lifecycle, faults, limits
    services: "FeatureServices"   # feature services: named windows, variables, contexts, ...
    features: "FeatureRegistry"   # statement compilers by AST class, compile hooks
    functions: dict[str, Callable[..., Any]]   # user functions callable from EPL
    aggregations: dict[str, Any]          # aggregation functions: built-ins plus registered
    time_mode: str                        # 'system' | 'simulated'
    time_zone: "tzinfo"                   # date-time methods' wall-time zone
    none_for_empty: bool                  # listeners get None (not ()) for an empty stream
    check_events: bool                    # map events are checked against their types
    prioritized_execution: bool           # @priority / @drop in effect

    # -- filters, time, lock -------------------------------------------------------------------
    filters: "FilterTarget"       # add(spec, handle) -> token; remove(token)
    scheduler: "Scheduler"                # schedule(at, slot, callback); cancel(handle); now
    # held while an event or a time step is processed: re-entrant, an RLock's API
    # (engine/lock.py's EngineLock, whose `held` lets send discard without taking it)
    lock: "threading.RLock"
    # the statement processing the current event: faults are reported for it
    current_statement: Optional["StatementRef"]

    # True when results, routed events or named-window changes wait for `drain()`: one
    # attribute read, for per-event loops (fused statements) to test after each event
    pending: bool

    @property
    def now(self) -> int: ...

    @property
    def processing(self) -> bool:
        """True while an event or a time step is being processed (a send from a listener or
        a callback is queued, not processed at once)."""
        ...

    # -- statements ----------------------------------------------------------------------------
    @property
    def statements(self) -> list["StatementRef"]: ...

    def statement(self, name: str) -> "StatementRef": ...

    def create_statement(self, node: Any, text: str, name: Optional[str] = None) -> "StatementRef":
        """Compile, register and start a parsed statement (prepared statements)."""
        ...

    def start_instances(self, statement: "StatementRef") -> None:
        """Instantiate the statement's plan in the runtime it lives in."""
        ...

    def stop_instances(self, statement: "StatementRef") -> None: ...

    def forget_statement(self, statement: "StatementRef") -> None:
        """Undo the statement's registrations and drop it from the engine."""
        ...

    # -- the way of an event -------------------------------------------------------------------
    def to_bean(self, event: object, type_name: Optional[str]) -> "EventBean":
        """An event (dict with type name, object of a registered class, or bean) as a bean."""
        ...

    def feed(self, bean: "EventBean", handles: Sequence[object]) -> None:
        """The streams whose filters `bean` matched take it (creation order, @priority first,
        @drop stops lower priorities); a statement that raises skips that event alone."""
        ...

    def process(self, bean: "EventBean") -> None:
        """One routed event through this runtime's filters to its statements."""
        ...

    def route(self, event: Any, type_name: Optional[str] = None) -> None:
        """Queue an event (or a bean) to be processed after the current one."""
        ...

    def insert_rows(self, ins: "InsertIntoPlan", new_rows: Optional[list],
                    old_rows: Optional[list]) -> None:
        """Queue the rows an `insert into` produced as events of its target stream."""
        ...

    def derive(self, ins: "InsertIntoPlan", row: "EventBean") -> "EventBean":
        """The event of the `insert into` target stream that `row` becomes."""
        ...

    def queue_results(self, statement: "StatementRef", new_rows: Optional[list],
                      old_rows: Optional[list]) -> None:
        """Rows for the statement's listeners, merged per statement until the current event
        is processed (copies: the caller may reuse its lists)."""
        ...

    def window_changed(self, consumers: tuple, new: Optional[list], old: Optional[list]) -> None:
        """A named window changed: its consumers see the change once the event is processed."""
        ...

    def after_event(self, action: Callable[[], None]) -> None:
        """Run `action` once every statement has processed the current event."""
        ...

    def drain(self) -> None:
        """Process what is `pending` (inside a processing step, the lock held): dispatch the
        results, hand named-window changes to their consumers, process the routed events
        (through this runtime's filters), until nothing waits; clears `pending`."""
        ...

    def run(self, action: Callable[[], T],
            process: Optional[Callable[["EventBean"], None]] = None) -> T:
        """`action` as one processing step under the lock, as a send is: what it produces is
        dispatched and what it routes is processed (through `process`, default the engine's
        own routing) before this returns."""
        ...

    def send(self, event: Any, type_name: Optional[str] = None) -> None: ...


class Instance(Protocol):
    """A running instance of a plan (a select, a named window, a context's partitions, ...)."""

    def stop(self) -> None: ...


class Plan(Protocol):
    """The one interface of every statement kind's plan: `instantiate` builds and starts the
    statement's running instances in `runtime` (the engine, or an isolated service) when the
    statement starts; the engine stops them when it stops. Statements that only declare
    (schemas, variables, contexts, expressions, indexes) have no plan."""

    def instantiate(self, runtime: "Runtime", statement: "StatementRef") -> list[Instance]: ...

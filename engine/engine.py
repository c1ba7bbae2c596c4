"""The Engine: registers EPL statements, takes events, keeps time, and delivers results.

Processing order is Esper's: an incoming event is offered to every statement whose filter
it satisfies (statements in creation order, `@priority` first), results are dispatched to
listeners after all statements processed it, and events produced by `insert into` are
processed, in the order produced, before `send` returns.

Faults (docs/errors.md): `send` refuses an event whose values do not fit its type with an
EventTypeError before any statement sees it; a user function or getter that raises evaluates
to null (`evaluation_error` signal); a statement that still fails skips that event alone
(`statement_error` signal) while every other statement, and every queued insert-into event,
is processed."""
from __future__ import annotations

import itertools
import logging
import threading
from collections import deque
from collections.abc import Mapping
import os
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional, Sequence, TypeVar, Union

from filterindex.codegen import STALE
from filterindex.tree import FilterIndex

from engine.contracts.bean import EventBean
from .deployment import Deployment
from engine.contracts.errors import EventTypeError, TimeError
from engine.contracts.event_types import EventType, EventTypeRegistry, Representation
from .faults import evaluation_failed, statement_failed, statement_of_slot
from .features import Features, Services
from .instance import RowHandle
from .lock import EngineLock
from .lean_send import STABLE_SENDS, LeanSend, SendRoute, advance_front
from engine.contracts.plans import InsertIntoPlan
from engine.contracts.scheduler import Scheduler
from .frames import dataframe_records, is_dataframe
from engine.contracts.signals import EngineSignals
from .statement import Statement, StatementState  # noqa: F401 (StatementState: older import path)
from .time_service import TimerThread, wall_clock_ms

if TYPE_CHECKING:
    import epl.ast as A
    from engine.apptime.input import ApplicationInput
    from engine.contracts.epl_types import PropertyType
    from engine.isolation import IsolatedService
    from engine.prepared import PreparedStatement
    from engine.variables import VariableService

# What the public methods take (precise types instead of Any): an event is any object (a dict
# with its type name, a dataclass, a registered class); a file is a path; a type spec is an EPL
# type name, a Python class or a PropertyType.
PathArg = Union[str, "os.PathLike[str]"]
TypeSpec = Union[str, type, "PropertyType"]
Receivers = Mapping[str, Union[Callable[..., object], Sequence[Callable[..., object]]]]

_log = logging.getLogger("epl.engine")
T = TypeVar("T")

_new_bean = EventBean.__new__

# Insert-into events routed for one incoming event (or one time step) before the engine
# cuts a loop: far above any real chain, small enough to end in about a second.
ROUTE_LIMIT = 100_000


class Engine:
    """An embeddable CEP engine.

    >>> engine = Engine(time="simulated")
    >>> _ = engine.epl("create schema Withdrawal(account string, amount int)")
    >>> stmt = engine.epl("select account, amount from Withdrawal(amount >= 200)")
    >>> seen = []
    >>> _ = stmt.add_listener(lambda new, old: seen.extend(e.to_dict() for e in new))
    >>> engine.send({"account": "a1", "amount": 300}, "Withdrawal")
    >>> seen
    [{'account': 'a1', 'amount': 300}]

    An engine is thread-safe: events, time steps and statement changes from several threads
    are processed one at a time under `engine.lock`. `Engine(time="simulated",
    thread_safe=False)` is for an engine fed by one thread alone: `send` then skips the lock
    (about a third of its cost per event, docs/performance.md "A lean send"); sending or
    changing statements from several threads at once is then unsafe, and a system-time engine
    (whose timer thread moves time) refuses it.
    """

    def __init__(self, time: str = "system", *, resolution_ms: int = 100, none_for_empty: bool = False,
                 start_time: Optional[int] = None, pattern_limit: Optional[int] = None,
                 check_events: bool = True, prioritized_execution: bool = False,
                 time_zone: str = "UTC", thread_safe: bool = True) -> None:
        if time not in ("system", "simulated"):
            raise ValueError("time must be 'system' or 'simulated'")
        if not thread_safe and time != "simulated":
            raise ValueError("thread_safe=False needs time='simulated': a system-time engine's "
                             "timer thread moves time while events are sent")
        self.time_mode = time
        # Esper's runtime setting: @priority and @drop take effect only when it is on
        self.prioritized_execution = prioritized_execution
        # map events are checked against their declared property types on send
        self.check_events = check_events
        # date-time methods read and change timestamps as wall time in this zone
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError
        try:
            self.time_zone = ZoneInfo(time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"Unknown time zone '{time_zone}'") from None
        # -- the runtime contract (engine/contracts/runtime.py): what plans and features use ----------
        self.types = EventTypeRegistry()
        self.signals = EngineSignals()
        # the statement processing the current event: evaluation faults are reported for it
        self.current_statement: Optional[Statement] = None
        self.types.on_getter_error = lambda et, path, exc: evaluation_failed(
            self, f"{et.name}.{path}", exc)
        self.filters = FilterIndex()
        start = start_time if start_time is not None else (wall_clock_ms() if time == "system" else 0)
        self.scheduler = Scheduler(start)
        # re-entrant; its `held` tells the per-event fronts whether anyone holds it (engine/lock.py)
        self.lock = EngineLock()
        # send's and advance_time's lock: None when the engine is fed by one thread alone
        # (`thread_safe`, a property: see _install_fronts for why so few attributes)
        self._send_lock: Optional[EngineLock] = self.lock if thread_safe else None
        self.functions: dict[str, Callable[..., Any]] = {}
        from engine.aggregation.registry import AGGREGATIONS
        self.aggregations: dict[str, Any] = dict(AGGREGATIONS)   # built-ins plus registered ones
        self.features = Features()           # statement compilers by AST class, compile hooks
        # -- the engine's own state ----------------------------------------------------------
        self._statements: list[Statement] = []
        self._order = itertools.count()
        self._auto_names = itertools.count()
        self._dispatch_queue: list = []       # [statement, new, old] in processing order
        self._queued: dict = {}                # statement -> its entry, merged per event
        self._route_queue: deque = deque()
        # `engine.send`, `engine.advance_time`: generated fronts (_install_fronts); the send
        # front keeps send's entries for dicts of each map type (_send_route, dropped when
        # the name's type is removed). Engine instances keep at most 30 attributes: past that
        # CPython 3.11 gives them a plain dict, and every attribute access gets slower.
        self._lean: LeanSend
        self.types.on_removed(self._type_removed)
        # named-window changes waiting for the window's consumers: (handles, new, old)
        self._window_changes: list = []
        # True when results, routed events or named-window changes wait for `drain`: one
        # attribute read for the per-event loops, set by everything that queues, cleared by
        # `drain` once nothing waits (never False while something waits)
        self.pending = False
        self._depth = 0
        self.services = Services()           # feature services (named windows, variables, ...)
        # listeners get () for a stream with nothing; True restores the older None
        self.none_for_empty = none_for_empty
        _install_features(self)
        if pattern_limit is not None:
            from engine.patterns.limits import set_pattern_limit
            set_pattern_limit(self, pattern_limit)
        self._timer: Optional[TimerThread] = None
        self._install_fronts()
        if time == "system":
            self.start_timer(resolution_ms)

    # -- event types and functions ---------------------------------------------------------
    def register_type(self, type_: Union[type, str], properties: Optional[Mapping[str, TypeSpec]] = None, *,
                      name: Optional[str] = None, inherits: Iterable[str] = (),
                      start_timestamp: Optional[str] = None,
                      end_timestamp: Optional[str] = None) -> EventType:
        """Register a Python class (dataclass or plain class) or a map type by name with
        `{property: type}` (EPL type names, Python classes or other event type names)."""
        with self.lock:
            if isinstance(type_, str):
                if properties is None:
                    raise EventTypeError(f"Map event type '{type_}' needs its properties")
                return self.types.register_map(type_, properties, inherits,
                                               start_timestamp, end_timestamp)
            return self.types.register_class(type_, name, start_timestamp, end_timestamp)

    def event_type(self, name: str) -> EventType:
        return self.types.get(name)

    def register_function(self, name: str, fn: Callable[..., object],
                          result_type: Optional[TypeSpec] = None) -> None:
        """Make a Python function callable from EPL as `name(...)`. Only registered
        functions are callable."""
        if result_type is not None:
            try:
                fn.epl_result_type = self.types.resolve_type(result_type)  # type: ignore[attr-defined]
            except AttributeError:
                wrapped = fn
                fn = lambda *a: wrapped(*a)  # noqa: E731
                fn.epl_result_type = self.types.resolve_type(result_type)  # type: ignore[attr-defined]
        self.functions[name] = fn

    def register_aggregation(self, name: str, factory: Callable[..., object]) -> None:
        """Make a Python aggregation (a class with enter/leave/value/clear) usable as
        `name(...)` in EPL."""
        from engine.aggregation.user import register_aggregation
        register_aggregation(self.aggregations, name, factory)

    # -- statements ---------------------------------------------------------------------------
    def epl(self, text: str, name: Optional[str] = None) -> Statement:
        """Compile, register and start one statement. On any error nothing stays registered."""
        from epl.parser import parse
        return self.create_statement(parse(text), text, name)

    def create_statement(self, node: A.Statement, text: str, name: Optional[str] = None) -> Statement:
        """Compile, register and start a parsed statement (`epl`, prepared statements)."""
        with self.lock:
            return self._create(node, text, name)

    def prepare(self, text: str) -> PreparedStatement:
        """A statement with substitution parameters (`?`, `?:name`, `?:name:type`) to deploy
        with values: `engine.prepare(text).deploy([1, 'a'])` or `.deploy(name=1)`."""
        from .prepared import PreparedStatement
        return PreparedStatement(self, text)

    def deploy(self, text: PathArg) -> Deployment:
        """Register a module, all statements or none: `;`-separated statements after
        Esper's optional `module name;`, `uses other;` and `import ...;` headers. Takes the
        text, or a path (`pathlib.Path`) of an `.epl` file. Returns a Deployment: the
        statements, with `module_name`, `uses` and `imports`."""
        import os
        if isinstance(text, os.PathLike):
            return self.deploy_file(text)
        return self._deploy_text(text, None)

    def deploy_modules(self, modules: Sequence[PathArg]) -> list[Deployment]:
        """Deploy several modules (texts or `.epl` paths) in Esper's deployment order: a module
        after the modules it `uses`; a cycle of uses, or a use of a module neither given nor
        deployed, is an EPLValidationError. All or none. Returns the deployments in the order
        they were deployed."""
        from .module_order import deploy_in_order
        return deploy_in_order(self, modules)

    def deployment_order(self, modules: Sequence[PathArg]) -> list[PathArg]:
        """The given modules (texts or paths) in the order `deploy_modules` deploys them."""
        from .module_order import order_sources
        return order_sources(self, modules)

    @property
    def module_deployments(self) -> list[Deployment]:
        """The deployments of named modules, in the order deployed (undeployed ones too)."""
        return list(self.__dict__.get("_module_deployments", ()))

    def deploy_file(self, path: PathArg) -> Deployment:
        """Deploy the module in an `.epl` file (UTF-8); errors name the file and line."""
        from .deployment import read_module
        text, p = read_module(path)
        return self._deploy_text(text, p)

    def _deploy_text(self, text: str, path: Optional[str]) -> Any:
        from epl.parser import parse_module
        from engine.contracts.errors import EPLError
        from .deployment import located
        module = parse_module(text)
        created: list[Statement] = []
        lines = module.lines or (None,) * len(module.statements)
        with self.lock:
            try:
                for node, stmt_text, line in zip(module.statements, module.texts or [None] * len(module.statements), lines):
                    try:
                        created.append(self._create(node, stmt_text or "", None))
                    except EPLError as e:
                        if line is None or (module.name is None and path is None and len(module.statements) == 1):
                            raise
                        raise located(e, line, module.name, path) from None
            except Exception:
                for s in reversed(created):
                    s.destroy()
                raise
            self._deployments = getattr(self, "_deployments", 0) + 1
            deployment = Deployment(self._deployments, created, module.name, module.uses,
                                    module.imports, path)
            if module.name is not None:     # for `uses` of later modules (module_order.py)
                self.__dict__.setdefault("_module_deployments", []).append(deployment)
            return deployment

    def _create(self, node: Any, text: str, name: Optional[str]) -> Statement:
        from epl.compiler import compile_statement
        if name is not None:
            self._check_name_free(name, text)
        from epl.compiler.params import check_unbound
        check_unbound(node, text)
        compiled = compile_statement(node, self, text)
        if name is None and compiled.name is not None:
            self._check_name_free(compiled.name, text)
        from epl.compiler.dispatch import dispatch_phase
        stmt_name = name or compiled.name or self._automatic_name()
        stmt = Statement(self, stmt_name, text, compiled.kind, next(self._order),
                         priority=compiled.priority if self.prioritized_execution else 0,
                         drop=compiled.drop and self.prioritized_execution, plan=compiled.plan,
                         annotations=compiled.annotations, phase=dispatch_phase(node, self))
        clause = getattr(node, "for_clause", None)
        if clause is not None:
            from epl.compiler.delivery import delivery_splitter
            stmt._set_delivery(delivery_splitter(clause, stmt, self, text))
        registered: list[Callable[[], None]] = []
        try:
            for action, undo in compiled.on_create:
                action()
                registered.append(undo)
            self._statements.append(stmt)
            stmt._on_destroy = list(reversed(registered))
            self.signals.statement_created.send(self, statement=stmt)
            stmt.start()
        except Exception:
            if stmt in self._statements:
                self._statements.remove(stmt)
            for undo in reversed(registered):
                undo()
            raise
        return stmt

    def _check_name_free(self, name: str, text: str) -> None:
        """Statement names are unique per engine: a duplicate is refused before anything of
        the new statement is registered."""
        for s in self._statements:
            if s.name == name:
                from engine.contracts.errors import EPLValidationError
                raise EPLValidationError(
                    f"Statement by name '{name}' already exists (existing statement: "
                    f"{s.text.strip()!r})", text)

    def _automatic_name(self) -> str:
        """`stmt-N` with N never handed out before (also not after a destroy), skipping names
        users gave."""
        taken = {s.name for s in self._statements}
        while True:
            candidate = f"stmt-{next(self._auto_names)}"
            if candidate not in taken:
                return candidate

    def start_instances(self, stmt: Statement) -> None:
        """Instantiate the statement's plan in the runtime it lives in: the engine, or the
        isolated service it was moved into. Declarations (schemas, variables, contexts,
        expressions, indexes) have no plan and run nothing."""
        plan = stmt.plan
        if plan is None:
            return
        iso = getattr(stmt, "_isolated", None)
        stmt._instances = plan.instantiate(self if iso is None else iso.runtime, stmt)

    def stop_instances(self, stmt: Statement) -> None:
        for inst in stmt._instances:
            inst.stop()
        stmt._instances = []

    def forget_statement(self, stmt: Statement) -> None:
        """Undo what creating the statement registered and drop it from the engine."""
        for undo in getattr(stmt, "_on_destroy", ()):
            undo()
        if stmt in self._statements:
            self._statements.remove(stmt)

    @property
    def statements(self) -> list[Statement]:
        return list(self._statements)

    def statement(self, name: str) -> Statement:
        for s in self._statements:
            if s.name == name:
                return s
        raise KeyError(f"No statement named '{name}'")

    # -- events ----------------------------------------------------------------------------------
    # The way of an event (docs/dispatch-order.md): its filters match (send's per-type router,
    # send_many's batch scanner, or `filters.match`), the streams whose filters it matched take
    # it (`feed`), then `drain` calls the listeners of what it produced and processes the
    # events it routed (`process`: match and `feed` again) until none remain. Time steps fire
    # their callbacks and drain the same way (`_step`).
    def to_bean(self, event: object, type_name: Optional[str]) -> EventBean:
        """An event (a dict with its type name, an object of a registered class, or a bean)
        as a bean of its type; EventTypeError when it does not fit."""
        if isinstance(event, EventBean):
            return event
        if type_name is not None:
            et = self.types.find(type_name)
            if et is None:
                raise EventTypeError(f"Event type named '{type_name}' has not been defined")
            if et.representation is Representation.MAP:
                if type(event) is not dict and not isinstance(event, Mapping):   # ABC check: slow
                    if et.convert is not None:      # object-array lists, JSON text
                        return EventBean(et, et.convert(event))
                    raise EventTypeError(
                        f"Event type '{type_name}' is a map type: expected a dict, got "
                        f"{type(event).__name__}")
            elif et.representation is Representation.VARIANT:
                raise EventTypeError(
                    f"Event type '{type_name}' is a variant stream: events enter it by "
                    f"'insert into {type_name}'")
            elif not isinstance(event, et.pyclass):
                raise EventTypeError(
                    f"Event type '{type_name}' expects instances of {et.pyclass.__name__}, got "
                    f"{type(event).__name__}")
            return EventBean(et, event)
        if isinstance(event, Mapping):
            raise EventTypeError("A dict event needs its type name: engine.send(event, 'TypeName')")
        return EventBean(self.types.for_object(event), event)

    def send(self, event: object, type_name: Optional[str] = None) -> None:
        """Process one event: a dict with its type name, or an object of a registered class."""
        # `engine.send` is the engine's generated front (engine/lean_send.py): it comes here
        # for what it does not inline
        if type(event) is dict:
            # the common case, a few steps before the generated routing code: a dict of a map
            # type whose entry its first send made, no send in progress (docs/performance.md,
            # "A lean send")
            entry = self._lean.routes.get(type_name)
            if entry is not None:
                lock = self._send_lock
                if lock is not None:
                    lock._lock.acquire()    # EngineLock.acquire without its frame
                    lock.held += 1
                if not self._depth:
                    self._depth = 1
                    try:
                        # filters see a probe bean: no bean for an event nothing wants (EPL
                        # filters keep no reference to it; a nested send makes its own)
                        probe = entry.probe
                        probe.underlying = event
                        self.current_statement = None   # filters evaluate for no one statement
                        route = entry.router.fn     # (`entry.router.fn(probe)` would not
                        handles = route(probe)      # specialize: LOAD_METHOD of a slot)
                        probe.underlying = None
                        route = entry.router.fn     # built by the call when it was stale
                        if route is not entry.seen:
                            entry.seen = route
                            entry.stable = 0
                        elif entry.stable >= 0:
                            entry.stable += 1
                            if entry.stable >= STABLE_SENDS:    # the front inlines it now
                                self._lean.regenerate(True)     # (no send was in progress)
                        if handles:
                            if self.check_events:
                                entry.check(event)
                            bean = _new_bean(EventBean)     # EventBean(et, event) without
                            bean.event_type = entry.event_type      # its __init__ frame
                            bean.underlying = event
                            self.feed(bean, handles)
                        if self.pending:
                            self.drain()
                    finally:
                        self._depth = 0
                        if lock is not None:
                            lock.held -= 1
                            lock._lock.release()
                    return
                if lock is not None:
                    lock.held -= 1
                    lock._lock.release()
        self._send_general(event, type_name)

    def _send_general(self, event: object, type_name: Optional[str]) -> None:
        """send's path for everything else: objects, beans, a type's first dict, unknown
        types (refused), events sent from listeners and callbacks (queued)."""
        if type(event) is dict and type_name is not None and type_name not in self._lean.routes:
            et = self.types.find(type_name)
            if et is not None and et.is_map:
                with self.lock:
                    if type_name not in self._lean.routes:
                        self._send_route(et, type_name)
                Engine.send(self, event, type_name)     # the short path from now on
                return
        bean = self.to_bean(event, type_name)
        lock = self.lock
        lock._lock.acquire()        # `with lock:` without EngineLock's two frames
        lock.held += 1
        try:
            if self._depth:
                # sent from a listener or callback: processed before the outer send returns
                self._check(bean)
                self._route_queue.append(bean)
                self.pending = True
                return
            self._depth += 1
            try:
                self._send_bean(bean)
            finally:
                self._depth -= 1
        finally:
            lock.held -= 1
            lock._lock.release()

    def _send_bean(self, bean: EventBean) -> None:
        """One event through its filters to the statements, then the drain; the lock held."""
        self.current_statement = None      # filters evaluate for no one statement
        handles = self.filters.match(bean)
        if handles:
            self._check(bean)
            self.feed(bean, handles)
        if self.pending:
            self.drain()

    def _send_route(self, et: EventType, type_name: str) -> None:
        """send's entry for dicts of the map type `et` named `type_name`: (the filter index's
        router, a probe bean, the type's checker, the type)."""
        self._lean.routes[type_name] = SendRoute(self.filters.router(et), EventBean(et, None),
                                                 et.checker(), et)

    def _type_removed(self, et: EventType) -> None:
        """A type left the registry: send no longer knows its name (a new type may take it)."""
        if self._lean.routes.pop(et.name, None) is not None:
            self._lean.regenerate(not self._depth)

    def _check(self, bean: EventBean) -> None:
        """Check a map or typed-class event's values against its declared types before any
        statement sees it. Events no filter wants are discarded unchecked: they cannot reach
        a result."""
        et = bean.event_type
        if et.checked and self.check_events:
            et.check(bean.underlying)

    def send_many(self, events: Iterable[object], type_name: Optional[str] = None, *,
                  times: Optional[Iterable[int]] = None,
                  types: Optional[Iterable[str]] = None) -> None:
        """Process events in order; the same as calling send for each, with less overhead.
        A pandas DataFrame is taken row by row (`engine.send_many(df, "T")`).

        `times` (simulated time only): the engine's time for each event, in milliseconds,
        parallel to `events`: before event i the time advances to `times[i]` exactly as
        `advance_time(times[i])` would (every callback due at or before it fires first), but
        inside the engine's own loop, where a step with nothing due costs about one
        comparison. `types`: the type name of each event, parallel to `events` (a mixed
        stream; instead of `type_name`). The call does exactly what
        `for t, e, tn in zip(times, events, types): engine.advance_time(t); engine.send(e, tn)`
        does, faster: a time that moves backwards raises the same TimeError at that event,
        the events before it processed. Any iterables (taken once); lengths that differ
        from the events' are a ValueError before anything is processed
        (docs/performance.md, "Timestamped batches")."""
        if is_dataframe(events):
            events = dataframe_records(events)
        if times is None and types is None:
            if type_name is None or self._timer is not None:
                # system time: the timer thread must get the lock between events
                for e in events:
                    self.send(e, type_name)
                return
            with self.lock:
                if self._depth:
                    for e in events:
                        self.send(e, type_name)
                    return
                self._depth += 1
                try:
                    self._send_batch(events if isinstance(events, (list, tuple)) else list(events), type_name)
                finally:
                    self._depth -= 1
            return
        events, times, types, type_name = self._stepped_args(events, type_name, times, types)
        if self._timer is not None:
            # system time (types only): the timer thread must get the lock between events
            for k, e in enumerate(events):
                self.send(e, types[k] if types is not None else type_name)
            return
        with self.lock:
            if self._depth:
                # from a listener or callback: what the calls one by one would do there
                for k, e in enumerate(events):
                    if times is not None:
                        self.advance_time(times[k])
                    self.send(e, types[k] if types is not None else type_name)
                return
            self._depth += 1
            try:
                self._send_batch(events, type_name, times, types)
            finally:
                self._depth -= 1

    def _send_batch(self, events: Sequence[Any], type_name: Optional[str],
                    times: Optional[Sequence[int]] = None, types: Optional[Sequence[str]] = None) -> None:
        """send_many's loop, under the lock. Dict events of a map type are routed by the
        filter index's batch scanner, one generated loop that yields only the events some
        filter wants; everything else goes event by event through send's path. The scanner
        is replaced when filters change and the type looked up again after each processed
        event (a listener may change them). With times or types: `_send_stepped`."""
        if times is not None or types is not None:
            self._send_stepped(events, type_name, times, types)
            return
        n = len(events)
        i = 0
        if self.pending:
            # left over by an exception: send drains them after its event
            if n:
                self._send_bean(self.to_bean(events[0], type_name))
            i = 1
        find = self.types.finder()
        feed = self.feed
        from .fused import run_batch as fused_run
        while i < n:
            et = find(type_name)
            if et is None or et.representation is not Representation.MAP:
                self._send_bean(self.to_bean(events[i], type_name))
                i += 1
                continue
            # filters see a probe bean with each event swapped in: no bean is allocated
            # for events no filter wants (EPL filters cannot keep a reference to it)
            probe = EventBean(et, None)
            check = et.checker() if self.check_events else None
            j = fused_run(self, et, events, i, n, check, find, type_name)
            if j != i:      # a fused statement alone on the type took events i..j-1
                i = j
                continue
            start, i = i, n
            for j, handles in self.filters.scanner(et)(events, start, n, probe):
                if handles is STALE:        # filters changed: go on with the current scanner
                    i = j
                    break
                e = events[j]
                if handles is None or (type(e) is not dict and not isinstance(e, Mapping)):
                    # not a mapping: send's path reports it
                    self._send_bean(self.to_bean(e, type_name))
                else:
                    if check is not None:
                        check(e)
                    bean = EventBean(et, e)
                    h = handles[0]
                    if type(h) is RowHandle and len(handles) == 1:
                        # feed's first case without its frame, send_many's hot path (W5); the
                        # dispatch queue is empty here: drained after every event
                        h.statement._deliver_now(bean)
                    else:
                        feed(bean, handles)
                    if self.pending:
                        self.drain()
                if find(type_name) is not et:
                    i = j + 1
                    break

    def after_event(self, action: Callable[[], None]) -> None:
        """Run `action` once every statement has processed the current event, in dispatch
        order (variables set by `on ... set` take effect this way)."""
        self._dispatch_queue.append((_AfterEvent(action), None, None))
        self.pending = True

    def route(self, event: object, type_name: Optional[str] = None) -> None:
        """Queue an event to be processed after the current one (from listeners)."""
        self._route_queue.append(self.to_bean(event, type_name))
        self.pending = True

    def process(self, bean: EventBean) -> None:
        """A routed event through this runtime's filters to its statements (the drain goes on
        after it)."""
        handles = self.filters.match(bean)
        if handles:
            self.feed(bean, handles)

    def feed(self, bean: EventBean, handles: Sequence[object]) -> None:
        """The streams whose filters the event matched take it (creation order, @priority
        first; @drop stops lower priorities). A statement that raises skips this event alone
        (faults.py); the others still take it."""
        if len(handles) == 1:
            h = handles[0]
            if type(h) is RowHandle and not self._dispatch_queue:
                h.statement._deliver_now(bean)
                return
            self.current_statement = h.statement
            try:
                h.on_event(bean)
            except Exception as exc:       # that statement skips the event; see faults.py
                statement_failed(self, h.statement, bean, exc)
            return
        drop_at = None
        for h in sorted(handles, key=_order_of):
            if drop_at is not None and h.order[0] > drop_at:
                break
            self.current_statement = h.statement
            try:
                h.on_event(bean)
            except Exception as exc:       # the other statements still process the event
                statement_failed(self, h.statement, bean, exc)
            if h.drop:
                drop_at = h.order[0]

    def drain(self, process: Optional[Callable[[EventBean], None]] = None) -> None:
        """Process what waits after an event or a time step (docs/dispatch-order.md); called
        inside a processing step, the lock held, when `pending` is set: call the listeners of
        what the statements produced; hand named-window changes to the windows' consumers and
        call the listeners of what they produced; then the next routed (insert-into) event,
        through `process` (an isolated service's routing, or the engine's own), until none
        remain, and clear `pending`. Past ROUTE_LIMIT routed events for one event (`insert
        into A select * from A` never ends) the rest is dropped: an error log line and the
        `route_limit` signal, never a stall."""
        routed = 0
        while True:
            queue = self._dispatch_queue
            if queue:
                self._dispatch_queue = []
                self._queued.clear()
                for stmt, new, old in queue:
                    stmt._dispatch(new or None, old or None)
            if self._window_changes:
                self._consume_window_changes()
                continue
            if not self._route_queue:
                # a listener's `after_event` (a variable set) may wait for the next event
                self.pending = bool(self._dispatch_queue or self._window_changes)
                return
            routed += 1
            if routed > ROUTE_LIMIT:
                dropped = len(self._route_queue)
                self._route_queue.clear()
                _log.error("More than %d insert-into events routed for one event: %d queued "
                           "events dropped (a statement inserting into its own input?)",
                           ROUTE_LIMIT, dropped)
                self.signals.route_limit.send(self, limit=ROUTE_LIMIT, dropped=dropped)
                continue
            (process or self.process)(self._route_queue.popleft())

    def _step(self, action: Callable[[], T], process: Optional[Callable[[EventBean], None]] = None) -> T:
        """`action` as one processing step, the lock held: sends from inside it are queued,
        and the drain follows it (through `process` for routed events)."""
        self._depth += 1
        try:
            result = action()
            self.drain(process)
            return result
        finally:
            self._depth -= 1

    def run(self, action: Callable[[], T], process: Optional[Callable[[EventBean], None]] = None) -> T:
        """`action` as one processing step under the lock, as a send is: what it produces is
        dispatched and what it routes is processed (through `process`, by default the
        engine's own routing) before this returns (fire-and-forget queries, isolated
        services)."""
        lock = self.lock
        lock._lock.acquire()        # `with lock:` without EngineLock's two frames
        lock.held += 1
        try:
            return self._step(action, process)
        finally:
            lock.held -= 1
            lock._lock.release()

    @property
    def thread_safe(self) -> bool:
        """False for an engine made with `thread_safe=False` (fed by one thread alone)."""
        return self._send_lock is not None

    @property
    def processing(self) -> bool:
        """True while an event or a time step is processed: a send now is queued."""
        return self._depth > 0

    def queue_results(self, statement: Statement, new_rows: Optional[list],
                      old_rows: Optional[list]) -> None:
        """Rows for a statement's listeners, merged per statement (Esper delivers one call per
        statement for one event) until `drain` dispatches them. Copies: the caller may reuse
        its lists before the rows are dispatched."""
        entry = self._queued.get(statement)
        if entry is None:
            self._queued[statement] = entry = [statement, list(new_rows) if new_rows else [],
                                               list(old_rows) if old_rows else []]
            self._dispatch_queue.append(entry)
            self.pending = True
        else:
            if new_rows:
                entry[1].extend(new_rows)
            if old_rows:
                entry[2].extend(old_rows)

    def window_changed(self, consumers: tuple, new: Optional[list], old: Optional[list]) -> None:
        """A named window changed: its consumers see the change in `drain`."""
        self._window_changes.append((consumers, new, old))
        self.pending = True

    def _consume_window_changes(self) -> None:
        """Each consumer statement (creation order) takes every pending change of the
        windows it consumes, in the order they happened, before the next one does."""
        pending, self._window_changes = self._window_changes, []
        if len(pending) == 1:
            consumers, new, old = pending[0]
            if len(consumers) > 1:
                consumers = sorted(consumers, key=_consumer_order)
            for h in consumers:
                self._to_consumer(h, new, old)
            return
        per: dict = {}
        for consumers, new, old in pending:
            for h in consumers:
                entry = per.get(id(h))
                if entry is None:
                    per[id(h)] = entry = (h, [])
                entry[1].append((new, old))
        for h, changes in sorted(per.values(), key=lambda e: _consumer_order(e[0])):
            for new, old in changes:
                self._to_consumer(h, new, old)

    def _to_consumer(self, h: Any, new: Optional[list], old: Optional[list]) -> None:
        """One window change to one consumer statement; a consumer that raises skips that
        change alone (faults.py), the others still take it."""
        self.current_statement = h.statement
        try:
            h.target.update(new, old)
        except Exception as exc:
            statement_failed(self, h.statement, (new or old)[0] if (new or old) else None, exc)

    def insert_rows(self, ins: InsertIntoPlan, new_rows: Optional[list], old_rows: Optional[list]) -> None:
        """Queue the rows an `insert into` statement produced as events of the target stream."""
        routed = new_rows if ins.selector == "istream" else old_rows if ins.selector == "rstream" \
            else (new_rows or []) + (old_rows or [])
        if routed:
            self.pending = True         # first: `derive` may raise after some rows are queued
            for row in routed:
                self._route_queue.append(self.derive(ins, row))

    def derive(self, ins: InsertIntoPlan, row: EventBean) -> EventBean:
        """The event of the `insert into` target stream that the row becomes."""
        if ins.event_type.representation is Representation.VARIANT:
            # a variant stream's event wraps the member event (its type resolves properties)
            return EventBean(ins.event_type, row if ins.passthrough else self.derive(ins.member, row))
        if ins.passthrough:
            return row if row.event_type is ins.event_type else EventBean(ins.event_type, row.underlying)
        u = row.underlying
        if isinstance(u, Mapping):
            return EventBean(ins.event_type, {c: u.get(src) for src, c in ins.columns})
        return EventBean(ins.event_type, {c: row.get(src) for src, c in ins.columns})

    # -- time ---------------------------------------------------------------------------------------
    @property
    def now(self) -> int:
        return self.scheduler.now

    def _check_simulated(self) -> None:
        if self.time_mode != "simulated":
            raise TimeError("advance_time is for engines created with time='simulated'")

    def advance_time(self, t: int) -> None:
        """Esper's advanceTime: jump to t; every callback due at or before t fires, with the
        engine's time already at t."""
        # a simulated-time engine's `engine.advance_time` is its front (engine/lean_send.py)
        if self._timer is not None or self.time_mode != "simulated":
            self._check_simulated()
        lock = self._send_lock
        if lock is not None:
            lock._lock.acquire()                # EngineLock.acquire without its frame
        try:
            scheduler = self.scheduler
            if t < scheduler.now:
                scheduler.set_time(t)           # raises: time cannot move backwards
            scheduler.now = t
            # one comparison when nothing is due (the head may be a cancelled callback:
            # _fire_due pops it and fires nothing)
            heap = scheduler._heap
            if heap and heap[0].time <= t:
                # callbacks may run user code: the lock counts as held (engine/lock.py)
                if lock is not None:
                    lock.held += 1
                try:
                    self._fire_due(t)
                finally:
                    if lock is not None:
                        lock.held -= 1
        finally:
            if lock is not None:
                lock._lock.release()

    def advance_time_span(self, t: int) -> None:
        """Esper's advanceTimeSpan: step through each scheduled instant up to t, each
        callback firing at its own time."""
        self._check_simulated()
        with self.lock:
            scheduler = self.scheduler
            if t < scheduler.now:
                raise TimeError(f"Time cannot move backwards: current time is {scheduler.now}, requested {t}")
            while True:
                nt = scheduler.next_time()
                if nt is None or nt > t:
                    break
                scheduler.set_time(max(nt, scheduler.now))
                self._fire_due(scheduler.now)
            scheduler.set_time(t)
            self._fire_due(t)

    def _fire_due(self, t: int) -> None:
        """What is due at t fired as one processing step: `_step(lambda: self._fire(due))`
        without its two frames (every expiry of a time window comes this way)."""
        due = self.scheduler.collect_due(t)
        if due:
            self._depth += 1
            try:
                self._fire(due)
                if self.pending:
                    self.drain()
            finally:
                self._depth -= 1

    def _fire(self, due: list) -> None:
        """Scheduled callbacks due now, in order; one that raises is lost alone."""
        scheduler = self.scheduler
        for h in due:
            self.current_statement = None
            try:
                scheduler.fire(h)
            except Exception as exc:   # that statement's callback alone is lost
                statement_failed(self, statement_of_slot(self, h.slot), None, exc)

    def _tick(self, now_ms: int) -> None:
        with self.lock:
            if now_ms > self.scheduler.now:
                self.scheduler.set_time(now_ms)
                self._fire_due(now_ms)

    def start_timer(self, resolution_ms: int = 100) -> None:
        """System time: start the timer thread that moves the engine's time (a restored
        checkpoint of a system-time engine starts it again)."""
        self._timer = TimerThread(self._tick, resolution_ms)
        self._timer.start()

    @property
    def timer_resolution_ms(self) -> Optional[int]:
        """The timer thread's resolution (system time), None on simulated time."""
        timer = self._timer
        return round(timer._interval * 1000) if timer is not None else None

    @property
    def busy(self) -> bool:
        """True while an event or time step is processed or its results wait for dispatch."""
        return bool(self._depth or self._dispatch_queue or self._route_queue)

    # -- named windows, tables, variables, isolated services -------------------------------------------
    def execute_query(self, epl: str) -> list[EventBean]:
        """Run a fire-and-forget select, insert, update or delete against a named window or
        table; returns the rows selected, inserted, updated or deleted."""
        from epl.compiler.fireandforget import compile_query
        from .fireandforget import run_query
        query = compile_query(self, epl)
        return self.run(lambda: run_query(query))

    def get_variable(self, name: str) -> object:
        return self.services.variables.get(name)

    def set_variable(self, name: str, value: object) -> None:
        """Set a variable; when called from a listener it takes effect for the next event."""
        with self.lock:
            self.services.variables.set(name, value)

    @property
    def variables(self) -> VariableService:
        """The variables: `engine.variables['x']`, `engine.variables['x'] = 1`."""
        return self.services.variables

    def isolated(self, name: str) -> IsolatedService:
        """The isolated service `name` (created on first use): its own time and events."""
        from .isolation import isolated
        return isolated(self, name)

    def input(self, type_name: Union[str, type], **settings: object) -> ApplicationInput:
        """An application-time input for one event type (StreamInsight's CTIs): events in any
        order, released in start-time order once a CTI commits them. Settings: name, shape
        ('point' | 'interval' | 'edge'), policy ('drop' | 'adjust'), generate
        (apptime.CtiGeneration), import_from (other inputs), lifetime (modifications)."""
        from .apptime import open_input
        return open_input(self, type_name, **settings)

    # -- checkpoint and recover ------------------------------------------------------------------------
    def checkpoint(self, path: Optional[PathArg] = None, *,
                   meta: Optional[Mapping[str, object]] = None) -> bytes:
        """The engine's whole state as checkpoint bytes; with `path`, also written to that
        file atomically. `meta` (JSON data) travels in the header, e.g. how many input events
        the checkpoint covers. Listeners and subscribers are not part of it (docs/checkpoint.md)."""
        import engine.checkpoint as ck
        data = ck.dumps(self, meta)
        if path is not None:
            ck.write_atomic(path, data)
        return data

    def checkpoint_to(self, path: PathArg, *, meta: Optional[Mapping[str, object]] = None) -> bytes:
        """Write a checkpoint to `path` atomically (temporary file, fsync, rename)."""
        return self.checkpoint(path, meta=meta)

    @classmethod
    def restore(cls, source: Union[bytes, PathArg], *, listeners: Optional[Receivers] = None,
                subscribers: Optional[Mapping[str, object]] = None) -> "Engine":
        """An engine rebuilt from checkpoint bytes or a checkpoint file, continuing exactly
        where the checkpointed engine stopped. `listeners={"stmt name": fn or [fns]}` and
        `subscribers={"stmt name": obj}` re-attach receivers. A checkpoint is trusted data:
        restoring unpickles it, which runs code."""
        import engine.checkpoint as ck
        return ck.loads(source, listeners=listeners, subscribers=subscribers)

    @property
    def application_inputs(self) -> dict[str, ApplicationInput]:
        """The application-time inputs by name (e.g. to go on feeding them after `restore`)."""
        c = self.services.apptime
        return {inp.name: inp for inp in c.inputs} if c is not None else {}

    # -- introspection and shutdown ------------------------------------------------------------------
    def filter_count(self) -> int:
        return self.filters.filter_count()

    def schedule_count(self) -> int:
        return self.scheduler.pending_count()

    def close(self) -> None:
        """Stop the timer thread and destroy every statement."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        with self.lock:
            for s in reversed(list(self._statements)):
                s.destroy()

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- timestamped batches (send_many's times and types) -----------------------------------------
    def _stepped_args(self, events: Iterable[object], type_name: Optional[str],
                      times: Optional[Iterable[int]], types: Optional[Iterable[str]]) -> tuple:
        """send_many's arguments checked before anything is processed: (events, times,
        types, type_name) as sequences; types that are all one name become that type_name."""
        if not isinstance(events, (list, tuple)):
            events = list(events)
        if times is not None:
            if self.time_mode != "simulated" or self._timer is not None:
                raise TimeError("send_many(times=...) is for engines created with time='simulated'")
            if not isinstance(times, (list, tuple)):
                times = list(times)
            if len(times) != len(events):
                raise ValueError(f"send_many: {len(times)} times for {len(events)} events "
                                 "(times must be parallel to the events)")
        if types is not None:
            if type_name is not None:
                raise ValueError("send_many takes a type_name or types (one per event), not both")
            if isinstance(types, str):
                raise ValueError("send_many: types is one type name per event; for a single "
                                 "type pass type_name")
            if not isinstance(types, (list, tuple)):
                types = list(types)
            if len(types) != len(events):
                raise ValueError(f"send_many: {len(types)} types for {len(events)} events "
                                 "(types must be parallel to the events)")
            first = types[0] if types else None
            if type(first) is str and all(tn == first for tn in types):
                type_name, types = first, None      # one type: the batch loops apply
        return events, times, types, type_name

    def _send_stepped(self, events: Sequence[Any], type_name: Optional[str],
                      times: Optional[Sequence[int]], types: Optional[Sequence[str]]) -> None:
        """send_many's loop with times or types, under the lock (depth held): per event, the
        time step advance_time would make (one comparison when nothing is due), then the
        event as send would process it (send's per-type router for dicts). A fused window
        statement alone on the type takes a stretch of events into its own loop, which steps
        time itself and returns where a callback is due or the routing changed."""
        n = len(events)
        scheduler = self.scheduler
        routes = self._lean.routes     # send's entries (SendRoute) by type name
        feed = self.feed
        tn = type_name
        fused_run = None
        if times is not None and types is None:
            from .fused import run_batch as fused_run
        find = self.types.finder()
        unfused: object = None      # the route fn no fused loop took (tried again on a change)
        for_each = range(n)
        i = 0
        stepped = False             # event i's time step made by a fused loop
        while i < n:
            for i in for_each[i:]:
                if stepped:
                    stepped = False
                elif times is not None:
                    # advance_time's step, without its frame and lock
                    t = times[i]
                    if t < scheduler.now:
                        scheduler.set_time(t)       # raises: time cannot move backwards
                    scheduler.now = t
                    heap = scheduler._heap
                    if heap and heap[0].time <= t:
                        self._fire_due(t)
                if types is not None:
                    tn = types[i]
                e = events[i]
                entry = routes.get(tn) if type(e) is dict else None
                if entry is None:
                    entry = self._first_route(e, tn)
                    if entry is None:       # objects, beans, unknown types: send's general path
                        self._send_bean(self.to_bean(e, tn))
                        continue
                route = entry.router
                if fused_run is not None and route.fn is not unfused:
                    j = fused_run(self, entry.event_type, events, i, n, entry.check if self.check_events else None,
                                  find, tn, times)
                    if j < 0:               # ~j: event j's step made
                        j = ~j
                        if j != i:
                            i, stepped = j, True
                            break
                    elif j != i:
                        i = j
                        break           # the outer loop goes on at j (its time step not made)
                    elif not self.pending:
                        unfused = route.fn      # no fused loop applies
                # send's short path for a dict of a map type
                probe = entry.probe
                probe.underlying = e
                self.current_statement = None
                fn = route.fn
                handles = fn(probe)
                probe.underlying = None
                if handles:
                    if self.check_events:
                        entry.check(e)
                    bean = _new_bean(EventBean)
                    bean.event_type = entry.event_type
                    bean.underlying = e
                    if len(handles) == 1 and type(handles[0]) is not RowHandle:
                        # feed's one-stream case without its frame
                        h = handles[0]
                        self.current_statement = h.statement
                        try:
                            h.on_event(bean)
                        except Exception as exc:       # that statement skips the event
                            statement_failed(self, h.statement, bean, exc)
                    else:
                        feed(bean, handles)
                if self.pending:
                    self.drain()
            else:
                return

    def _first_route(self, event: object, type_name: Optional[str]) -> Optional[SendRoute]:
        """send's entry for a dict of a map type not sent before (made now), else None."""
        if type(event) is dict and type_name is not None:
            et = self.types.find(type_name)
            if et is not None and et.is_map:
                self._send_route(et, type_name)
                return self._lean.routes[type_name]
        return None


    # -- the per-event fronts (engine/lean_send.py) ---------------------------------------------
    def _install_fronts(self, routes: Optional[dict] = None) -> None:
        """`engine.send`, and a simulated-time engine's `engine.advance_time`: generated
        fronts of the methods, instance attributes in front of them (docs/performance.md,
        "A lean send")."""
        routes = {} if routes is None else routes
        for entry in routes.values():
            entry.seen, entry.stable = None, 0       # inlined again after a few sends
        self._lean = LeanSend(self, self._send_lock, routes, Engine.send.__get__(self, Engine),
                              self._send_general, Engine.send.__doc__, Engine.send.__annotations__)
        # a subclass that overrides a method keeps its override (and the methods' speed)
        if type(self).send is Engine.send:
            self.send = self._lean.fn  # type: ignore[method-assign]
        if self.time_mode == "simulated" and type(self).advance_time is Engine.advance_time:
            self.advance_time = advance_front(  # type: ignore[method-assign]
                self.scheduler, self._send_lock, self._fire_due, Engine.advance_time.__doc__,
                Engine.advance_time.__annotations__)

    def __getstate__(self) -> dict:
        """A snapshot leaves the fronts out (their code is generated for this engine's lock
        and routes): the restored engine makes its own."""
        state = dict(self.__dict__)
        for name in ("send", "advance_time"):
            state.pop(name, None)
        state["_lean"] = self._lean.routes       # the routes alone
        return state

    def __setstate__(self, state: dict) -> None:
        routes = state.pop("_lean")
        self.__dict__.update(state)
        self._install_fronts(routes)


class _AfterEvent:
    """A dispatch-queue entry that runs an action instead of calling listeners."""

    __slots__ = ("action",)

    def __init__(self, action: Callable[[], None]) -> None:
        self.action = action

    def _dispatch(self, new: Any, old: Any) -> None:
        self.action()


def _install_fusion() -> None:
    """Hand the fused-statement runtime (engine/fused.py) its compiler half."""
    import engine.fused as fused
    from epl.compiler.fused.source import generate
    from epl.compiler.fused.shape import analyze
    from epl.parser import parse
    fused.use_compiler(lambda text: analyze(parse(text)), generate)
    import engine.contexts.keyed_fused as keyed_fused
    from epl.compiler.fused.partitioned import analyze_in_context, generate_partitioned, state_names
    keyed_fused.use_compiler(lambda text: analyze_in_context(parse(text)), generate_partitioned, state_names)


def _install_features(engine: Engine) -> None:
    """Each feature package registers its services in `engine.services` and its statement
    compilers and compile hooks in `engine.features`."""
    import engine.apptime as apptime
    import engine.contexts as contexts
    import engine.istream_updates as istream_updates
    import engine.joins as joins
    import engine.namedwindows as namedwindows
    import engine.patterns as patterns
    import engine.patterns.keyed_followed as keyed_followed  # noqa: F401  (registers the fast path)
    import engine.plan as select_plans
    import engine.subqueries as subqueries
    import engine.variables as variables
    import epl.compiler.access as access
    import epl.compiler.datetime_methods as datetime_methods
    import epl.compiler.sketches as sketches     # countMinSketch methods on table columns
    import epl.compiler.spatial as spatial       # point(..).inside(rectangle(..)), ...
    for feature in (select_plans, variables, namedwindows, sketches, spatial, contexts, joins,
                    subqueries, apptime, patterns, datetime_methods, access, istream_updates):
        feature.install(engine)
    import epl.compiler.features as compiler_features
    compiler_features.install(engine)   # the statement compilers of the features above
    _install_fusion()
    import epl.compiler.enummethods as enummethods
    import epl.compiler.exprdecl as exprdecl
    enummethods.install(engine)
    exprdecl.install(engine)


def _order_of(handle: Any) -> Any:
    return handle.order


def _consumer_order(handle: Any) -> Any:
    return getattr(handle, "order", (0, 0, 0))

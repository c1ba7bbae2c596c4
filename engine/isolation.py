"""Isolated services (Esper's service isolation): a named runtime inside an engine with its
own filter index and its own time. Statements moved into it see only the events sent to it
and the time it is advanced to; what they derive with `insert into` stays inside it; their
listeners are called as usual. The documented use is catching a statement up from
historical data, fed to the service on the service's own time, before it goes back to the
engine.

Every running statement moves in and out with its state:
- select statements: windows, aggregations, pattern runs, joins, subqueries, pending output;
- context statements: every partition (its statement instances with their state and
  partition filters), and the context's own filters and schedules that create and end
  partitions (keyed/hash creation, initiated-by/terminated-by filters, patterns and timers,
  temporal start/end conditions, nested levels): events and time of the new home drive them.
  Statements sharing a context's partitions move together, in one `add`/`remove` call (the
  partitions and their controller state move as a whole; splitting them is an error, and
  nothing moves). A context moved where it already runs for other statements runs beside
  that one, each with its own partitions;
- `create window` / `create table`: the contents stay; `insert into W` events come from the
  new home and the data window expires on its time. As in Esper, a named window is one
  relation for every runtime: consumers see every change wherever they run, and on-actions
  (select, delete, update, merge) moved into a service are triggered by its events and
  change the window wherever it is.
Pending schedules move shifted by the gap between the two clocks, as Esper shifts them: what
was due in d ms on the old clock is due in d ms on the new one, and a moved statement keeps
its own time consistent (its windows' arrival times, output references) through an offset
to its new home's clock (StatementContext.shift_to).

    iso = engine.isolated("replay")
    iso.add(stmt)             # or iso.add(a, b, ...): statements sharing a context together
    iso.advance_time(0)
    iso.send({"a": 1}, "T")
    iso.remove(stmt)          # back in the engine, with what it built
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from filterindex.tree import FilterIndex

from engine.contracts.bean import EventBean
from engine.contracts.errors import EngineError
from engine.contracts.scheduler import Scheduler
from .statement import Statement

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


class _Runtime:
    """The engine as statements inside the isolated service see it (the runtime contract,
    engine/contracts/runtime.py): the service's filter index and scheduler, everything else the
    engine's."""

    def __init__(self, engine: "Runtime", service: "IsolatedService") -> None:
        self.__dict__["_engine"] = engine
        self.__dict__["filters"] = service._filters
        self.__dict__["scheduler"] = service._scheduler

    def process(self, bean: EventBean) -> None:
        """A routed event through the service's filters to its statements."""
        handles = self.filters.match(bean)
        if handles:
            self._engine.feed(bean, handles)

    def drain(self) -> None:
        """What waits for dispatch, routed events through the service's filters."""
        self._engine.drain(self.process)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._engine, name, value)


class IsolatedService:
    def __init__(self, engine: "Runtime", name: str) -> None:
        self.engine = engine
        self.name = name
        self._filters = FilterIndex()
        self._scheduler = Scheduler(engine.now)
        self.runtime = _Runtime(engine, self)
        self._statements: list[Statement] = []
        self.destroyed = False

    # -- statements ------------------------------------------------------------------------------
    @property
    def statements(self) -> list[Statement]:
        self._statements = [s for s in self._statements if not s.is_destroyed]
        return list(self._statements)

    def add(self, *statements: Statement) -> None:
        """Move statements into this service (none may be in another one), with their state.
        Statements sharing a context's partitions move together: pass them in one call."""
        self._check()
        with self.engine.lock:
            self._statements = [s for s in self._statements if not s.is_destroyed]
            moving = []
            for statement in statements:
                if statement is None:
                    raise EngineError("Illegal argument, a null value was provided in the statement list")
                if statement in self._statements or statement in moving:
                    continue
                other = getattr(statement, "_isolated", None)
                if other is not None:
                    raise EngineError(f"Statement '{statement.name}' is already in isolated service '{other.name}'")
                if statement.is_destroyed:
                    raise EngineError(f"Statement '{statement.name}' has been destroyed")
                moving.append(statement)
            _check_movable(moving)
            for statement in moving:
                self._statements.append(statement)
                statement._isolated = self
                for inst in statement._instances:
                    inst.relocate(self.runtime)

    def remove(self, *statements: Statement) -> None:
        """Move statements back into the engine, with their state. Statements sharing a
        context's partitions move together: pass them in one call."""
        with self.engine.lock:
            moving = []
            for statement in statements:
                if statement not in self._statements:
                    raise EngineError(f"Statement '{statement.name}' is not in isolated service '{self.name}'")
                if statement not in moving:
                    moving.append(statement)
            _check_movable(moving)
            for statement in moving:
                self._statements.remove(statement)
                statement._isolated = None
                for inst in statement._instances:
                    inst.relocate(self.engine)

    # -- events and time ---------------------------------------------------------------------------
    @property
    def now(self) -> int:
        return self._scheduler.now

    def send(self, event: Any, type_name: Optional[str] = None) -> None:
        """Process an event for the statements of this service only."""
        self._check()
        bean = self.engine.to_bean(event, type_name)
        process = self.runtime.process
        self.engine.run(lambda: process(bean), process)

    def advance_time(self, t: int) -> None:
        """Move this service's time to t; its statements' callbacks due by then fire."""
        self._check()
        with self.engine.lock:
            self._scheduler.set_time(t)
            due = self._scheduler.collect_due(t)
            if due:
                self.engine.run(lambda: self._fire(due), self.runtime.process)

    def _fire(self, due: list) -> None:
        for h in due:
            self._scheduler.fire(h)

    # -- introspection and end ---------------------------------------------------------------------
    def filter_count(self) -> int:
        return self._filters.filter_count()

    def schedule_count(self) -> int:
        return self._scheduler.pending_count()

    def destroy(self) -> None:
        """Move every statement back into the engine and forget this service."""
        live = [s for s in self._statements if not s.is_destroyed]
        if live:
            self.remove(*live)
        self.destroyed = True
        _services(self.engine).pop(self.name, None)

    def _check(self) -> None:
        if self.destroyed:
            raise EngineError(f"Isolated service '{self.name}' has been destroyed")

    def __repr__(self) -> str:
        return f"IsolatedService({self.name!r}, {len(self._statements)} statement(s))"


def _check_movable(statements: list) -> None:
    """Refuse a move that cannot keep the statements' state, before anything moves: a
    running instance that cannot relocate, or a context whose partitions a statement that
    stays behind shares (a context's partitions, and the controller state that creates and
    ends them, move as a whole)."""
    from .contexts.statements import ContextStatement
    contexts = {}
    for s in statements:
        for inst in s._instances:
            if not hasattr(inst, "relocate"):
                raise EngineError(f"Statement '{s.name}' cannot move with its state: "
                                  f"its {type(inst).__name__} does not relocate")
            if isinstance(inst, ContextStatement):
                contexts[id(inst.runtime)] = inst.runtime
    moving = {id(s) for s in statements}
    for rt in contexts.values():
        behind = [s.name for s, _ in rt.statements if id(s) not in moving]
        if behind:
            mine = [s.name for s, _ in rt.statements if id(s) in moving]
            raise EngineError(
                f"Statement {_names(mine)} shares the partitions of context "
                f"'{rt.definition.name}' with statement {_names(behind)}, which is not moving: "
                f"move them together, in one call")


def _names(names: list) -> str:
    return ", ".join(f"'{n}'" for n in names)


def _services(engine: "Runtime") -> dict:
    return engine.services.isolated


def isolated(engine: "Runtime", name: str) -> IsolatedService:
    services = _services(engine)
    svc = services.get(name)
    if svc is None:
        svc = services[name] = IsolatedService(engine, name)
    return svc

"""Isolated services (Esper's service isolation): a named runtime inside an engine with its
own filter index and its own time. Statements moved into it see only the events sent to it
and the time it is advanced to; what they derive with `insert into` stays inside it; their
listeners are called as usual. A statement moves in and out with its state (windows,
aggregations, pattern state, pending output): the documented use is catching a statement
up from historical data, fed to the service on the service's own time, before it goes
back to the engine. Pending schedules keep their absolute due times; one already due in
the new home fires at that home's next time advance. Statements whose instances the engine
creates per context partition, and named window and on-action statements, are restarted
in their new home instead (they begin empty there).

    iso = engine.isolated("replay")
    iso.add(stmt)
    iso.advance_time(0)
    iso.send({"a": 1}, "T")
    iso.remove(stmt)          # back in the engine, with what it built
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from filterindex import FilterIndex

from .bean import EventBean
from .errors import EngineError
from .scheduler import Scheduler
from .statement import Statement

if TYPE_CHECKING:
    from .engine import Engine


class _Runtime:
    """The engine as statements inside the isolated service see it: the service's filter index
    and scheduler, everything else the engine's."""

    def __init__(self, engine: "Engine", service: "IsolatedService") -> None:
        self.__dict__["_engine"] = engine
        self.__dict__["_filters"] = service._filters
        self.__dict__["_scheduler"] = service._scheduler

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._engine, name, value)


class IsolatedService:
    def __init__(self, engine: "Engine", name: str) -> None:
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

    def add(self, statement: Statement) -> None:
        """Move a statement into this service (it must not be in another one)."""
        self._check()
        with self.engine._lock:
            self._statements = [s for s in self._statements if not s.is_destroyed]
            if statement in self._statements:
                return
            other = getattr(statement, "_isolated", None)
            if other is not None:
                raise EngineError(f"Statement '{statement.name}' is already in isolated service '{other.name}'")
            if statement.is_destroyed:
                raise EngineError(f"Statement '{statement.name}' has been destroyed")
            started = statement.is_started
            if started and _movable(statement):
                self._statements.append(statement)
                statement._isolated = self
                for inst in statement._instances:
                    inst.relocate(self.runtime)
                return
            if started:
                self.engine._stop_statement(statement)
            self._statements.append(statement)
            statement._isolated = self
            if started:
                self._start(statement)

    def remove(self, statement: Statement) -> None:
        """Move a statement back into the engine."""
        with self.engine._lock:
            if statement not in self._statements:
                raise EngineError(f"Statement '{statement.name}' is not in isolated service '{self.name}'")
            started = statement.is_started
            if started and _movable(statement):
                self._statements.remove(statement)
                statement._isolated = None
                for inst in statement._instances:
                    inst.relocate(self.engine)
                return
            if started:
                self._stop(statement)
            self._statements.remove(statement)
            statement._isolated = None
            if started:
                self.engine._start_statement(statement)

    def _start(self, statement: Statement) -> None:
        plan = statement.plan
        if plan is not None and hasattr(plan, "instantiate"):
            statement._instances = plan.instantiate(self.runtime, statement)
        elif plan is not None and hasattr(plan, "streams"):
            from .instance import SelectInstance
            inst = SelectInstance(self.runtime, statement, plan, statement._order_key)
            inst.start()
            statement._instances = [inst]

    def _stop(self, statement: Statement) -> None:
        for inst in statement._instances:
            inst.stop()
        statement._instances = []

    # -- events and time ---------------------------------------------------------------------------
    @property
    def now(self) -> int:
        return self._scheduler.now

    def send(self, event: Any, type_name: Optional[str] = None) -> None:
        """Process an event for the statements of this service only."""
        self._check()
        engine = self.engine
        bean = engine._bean(event, type_name)
        with engine._lock:
            engine._depth += 1
            try:
                self._process(bean)
                self._drain()
            finally:
                engine._depth -= 1

    def advance_time(self, t: int) -> None:
        """Move this service's time to t; its statements' callbacks due by then fire."""
        self._check()
        engine = self.engine
        with engine._lock:
            self._scheduler.set_time(t)
            due = self._scheduler.collect_due(t)
            if not due:
                return
            engine._depth += 1
            try:
                for h in due:
                    self._scheduler.fire(h)
                self._drain()
            finally:
                engine._depth -= 1

    def _process(self, bean: EventBean) -> None:
        from .engine import Engine
        Engine._process(self.runtime, bean)   # the engine's routing, over this service's index

    def _drain(self) -> None:
        self.engine._drain(self._process)

    # -- introspection and end ---------------------------------------------------------------------
    def filter_count(self) -> int:
        return self._filters.filter_count()

    def schedule_count(self) -> int:
        return self._scheduler.pending_count()

    def destroy(self) -> None:
        """Move every statement back into the engine and forget this service."""
        for s in list(self._statements):
            if not s.is_destroyed:
                self.remove(s)
        self.destroyed = True
        _services(self.engine).pop(self.name, None)

    def _check(self) -> None:
        if self.destroyed:
            raise EngineError(f"Isolated service '{self.name}' has been destroyed")

    def __repr__(self) -> str:
        return f"IsolatedService({self.name!r}, {len(self._statements)} statement(s))"


def _movable(statement: Statement) -> bool:
    """Whether the statement's running instances can move with their state: a select
    plan's own instances (context partitions and named window plans are restarted)."""
    from .instance import SelectInstance
    plan = statement.plan
    return plan is not None and not hasattr(plan, "instantiate") and hasattr(plan, "streams") \
        and all(type(i) is SelectInstance for i in statement._instances)


def _services(engine: "Engine") -> dict:
    return engine.services.setdefault("isolated", {})


def isolated(engine: "Engine", name: str) -> IsolatedService:
    services = _services(engine)
    svc = services.get(name)
    if svc is None:
        svc = services[name] = IsolatedService(engine, name)
    return svc

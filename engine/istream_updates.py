"""`update istream T set ... [where ...]` at runtime: per event type, the update statements
that change its events (sent, or routed by insert into) before any statement sees them.

As Esper does: update statements apply in `@priority` order, lowest first (so the highest
priority's change wins), `@drop` ones first among equal priorities, then creation order; each one whose where-clause holds replaces the event by an updated copy (the sent
object is never modified), evaluating every assignment against the event as it was before
that statement's change; its listeners receive the copy as new event and the event it
updated as old event. `@drop` on an update statement drops the events it updates."""
from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Callable, Optional

from engine.contracts.bean import EventBean
from epl.plans.istream_updates import UpdatePlan

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def start_update(plan: UpdatePlan, engine: "Runtime", stmt: Any) -> list:
    """The statement's start: its update joins the engine's (the plan's starter)."""
    service = updates_of(engine)
    entry = _Entry(plan, stmt)
    group = None
    if plan.subqueries:
        group = engine.services.subqueries.instantiate(_SubqueryHost(engine, stmt), plan.subqueries)
        group.start()
    service.add(entry)
    return [_Running(service, entry, group)]


class _SubqueryHost:
    """What the subqueries of an update statement need of their statement instance."""

    __slots__ = ("engine", "statement", "ctx", "bindings")

    def __init__(self, engine: "Runtime", statement: Any) -> None:
        from .instance import StatementContext
        self.engine = engine
        self.statement = statement
        self.ctx = StatementContext(engine, statement, statement._order_key)
        self.bindings = None


class _Entry:
    __slots__ = ("plan", "statement", "order")

    def __init__(self, plan: UpdatePlan, statement: Any) -> None:
        self.plan = plan
        self.statement = statement
        self.order = (plan.priority, 0 if plan.drop else 1, statement._order_key[1])


class _Running:
    """The statement's instance: stopping it takes the update away."""

    __slots__ = ("service", "entry", "subqueries")

    def __init__(self, service: "UpdateService", entry: _Entry, subqueries: Any = None) -> None:
        self.service = service
        self.entry = entry
        self.subqueries = subqueries

    def stop(self) -> None:
        self.service.remove(self.entry)
        if self.subqueries is not None:
            self.subqueries.stop()
            self.subqueries = None

    def __iter__(self) -> Any:
        return iter(())


class UpdateService:
    """The engine's started update statements, installed in its filter index as the
    preprocessor of each event type they apply to: their type and its subtypes (also
    subtypes registered later)."""

    def __init__(self, engine: "Runtime") -> None:
        self.engine = engine
        self.entries: list[_Entry] = []
        self.installed: set = set()          # types holding a preprocessor of ours
        engine.types.on_added(self._type_added)

    def add(self, entry: _Entry) -> None:
        self.entries.append(entry)
        self._refresh()

    def remove(self, entry: _Entry) -> None:
        self.entries = [e for e in self.entries if e is not entry]
        self._refresh()

    def _type_added(self, event_type: Any) -> None:
        if self.entries:
            self._refresh()

    def _refresh(self) -> None:
        index = _filter_index(self.engine)
        targets = {e.plan.out_type for e in self.entries}
        wanted: dict[Any, tuple[_Entry, ...]] = {}
        for t in set(self.engine.types.all()) | targets:
            ancestors = t.ancestors()
            applying = [e for e in self.entries if e.plan.out_type in ancestors]
            if applying:
                wanted[t] = tuple(sorted(applying, key=lambda e: e.order))
        for t in self.installed - wanted.keys():
            index.set_preprocessor(t, None)
        for t, entries in wanted.items():
            index.set_preprocessor(t, _preprocessor(self.engine, entries))
        self.installed = set(wanted)


def _filter_index(engine: "Runtime") -> Any:
    return engine.filters


def updates_of(engine: "Runtime") -> UpdateService:
    svc = engine.services.istream_updates
    if svc is None:
        svc = engine.services.istream_updates = UpdateService(engine)
    return svc


def _preprocessor(engine: "Runtime", entries: tuple[_Entry, ...]) -> Callable[[Any], Optional[EventBean]]:
    from .faults import statement_failed

    def pre(bean: EventBean) -> Optional[EventBean]:
        current = bean
        for entry in entries:
            plan = entry.plan
            eps = (current,)
            try:
                if plan.where is not None and not plan.where(eps):
                    continue
                values = [(col, fn(eps)) for col, fn in plan.assignments]
            except Exception as exc:        # that statement skips the event; see faults.py
                statement_failed(engine, entry.statement, current, exc)
                continue
            if current is bean:
                # the caller's bean may be a probe reused for the next event: keep our own
                current = EventBean(bean.event_type, bean.underlying)
            updated = EventBean(current.event_type, _write(current.underlying, values))
            stmt = entry.statement
            if stmt.has_receivers:
                stmt._emit([updated], [current])
            if plan.drop:
                return None
            current = updated
        return current
    return pre


def _write(u: Any, values: list[tuple[str, Any]]) -> Any:
    """A copy of the underlying with the values written (the original stays as it was)."""
    if isinstance(u, Mapping):
        out = dict(u)
        out.update(values)
        return out
    if dataclasses.is_dataclass(u) and not isinstance(u, type):
        params = getattr(type(u), "__dataclass_params__", None)
        if params is not None and params.frozen:
            return dataclasses.replace(u, **dict(values))
    out = copy.copy(u)
    for col, v in values:
        setattr(out, col, v)
    return out


def install(engine: "Runtime") -> None:
    """Register the starter of update plans (the service is made on first use)."""
    engine.features.add_starter(UpdatePlan, start_update)

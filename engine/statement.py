"""Statement: the handle users hold for a registered EPL statement: listeners, subscriber,
iteration over current results, and the stopped/started/destroyed lifecycle."""
from __future__ import annotations

import enum
import logging
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

from .bean import EventBean
from .errors import StatementStateError
from .listeners import Listener, SubscriberAdapter, listener_arity

if TYPE_CHECKING:
    from .engine import Engine

log = logging.getLogger("epl.engine")


class StatementState(enum.Enum):
    STARTED = "started"
    STOPPED = "stopped"
    DESTROYED = "destroyed"


class Statement:
    """A registered statement. Listeners are called in registration order with
    `(new_events, old_events)` (lists of EventBean, or None); a listener taking four
    parameters also gets the statement and the engine, like Esper's UpdateListener."""

    def __init__(self, engine: "Engine", name: str, text: str, kind: str, order: int,
                 priority: int = 0, drop: bool = False, plan: Any = None,
                 annotations: tuple = ()) -> None:
        self.engine = engine
        self.name = name
        self.text = text
        self.kind = kind                 # 'select', 'create-schema', 'create-window', ...
        self.priority = priority
        self.drop = drop
        self.plan = plan
        # what each delivery needs from the plan, read once
        self._insert_into = getattr(plan, "insert_into", None)
        self._selector = getattr(plan, "selector", "istream")
        self.annotations = annotations
        self.state = StatementState.STOPPED
        self._order_key = (-priority, order)
        self._listeners: list[tuple[Listener, int]] = []
        self._subscriber: Optional[SubscriberAdapter] = None
        self._instances: list[Any] = []
        self._on_stop: list[Callable[[], None]] = []
        self.user_object: Any = None

    # -- results ---------------------------------------------------------------------
    @property
    def event_type(self):
        return getattr(self.plan, "out_type", None)

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(getattr(self.plan, "columns", ()))

    def add_listener(self, listener: Listener) -> Listener:
        self._listeners.append((listener, listener_arity(listener)))
        return listener

    def on_update(self, listener: Listener) -> Listener:
        """Decorator form of add_listener."""
        return self.add_listener(listener)

    def remove_listener(self, listener: Listener) -> None:
        for i, (fn, _) in enumerate(self._listeners):
            if fn is listener:
                del self._listeners[i]
                return

    def remove_all_listeners(self) -> None:
        self._listeners.clear()

    @property
    def listeners(self) -> list[Listener]:
        return [fn for fn, _ in self._listeners]

    @property
    def subscriber(self) -> Any:
        return self._subscriber.subscriber if self._subscriber else None

    @subscriber.setter
    def subscriber(self, obj: Any) -> None:
        self.set_subscriber(obj)

    def set_subscriber(self, obj: Any) -> None:
        if obj is None:
            self._subscriber = None
            return
        self._subscriber = SubscriberAdapter(obj, self.column_names, bool(getattr(self.plan, "passthrough", False)))

    @property
    def has_receivers(self) -> bool:
        return bool(self._listeners) or self._subscriber is not None

    def __iter__(self) -> Iterator[EventBean]:
        """Esper's iterator: the statement's current result (window contents through the
        select clause, or current aggregates)."""
        with self.engine._lock:
            rows: list = []
            for inst in self._instances:
                rows.extend(inst.current_rows())
        return iter(rows)

    def rows(self) -> list[dict]:
        """The current result as plain dicts."""
        return [r.to_dict() for r in self]

    # -- delivery (engine-internal) ---------------------------------------------------------
    def _emit(self, new_rows: Optional[list], old_rows: Optional[list], force: bool = False) -> None:
        """Rows the result set (after output limiting) produced for this statement; `force`
        delivers even when both are empty (Esper's empty calls when an output condition fires)."""
        self.engine._emit(self, new_rows, old_rows, force)

    def _dispatch(self, new: Optional[list], old: Optional[list]) -> None:
        engine = self.engine
        for fn, arity in tuple(self._listeners):
            try:
                if arity == 4:
                    fn(new, old, self, engine)
                else:
                    fn(new, old)
            except Exception as exc:  # isolate listeners: log, signal, go on
                log.exception("Listener %r of statement '%s' raised", fn, self.name)
                engine.signals.listener_error.send(engine, statement=self, listener=fn, error=exc)
        if self._subscriber is not None:
            try:
                self._subscriber.deliver(new, old)
            except Exception as exc:
                log.exception("Subscriber of statement '%s' raised", self.name)
                engine.signals.listener_error.send(engine, statement=self, listener=self._subscriber.subscriber, error=exc)

    # -- lifecycle --------------------------------------------------------------------------
    def start(self) -> None:
        if self.state is StatementState.DESTROYED:
            raise StatementStateError(f"Statement '{self.name}' has been destroyed and cannot be started")
        if self.state is StatementState.STARTED:
            return
        self.engine._start_statement(self)
        self.state = StatementState.STARTED
        self.engine.signals.statement_started.send(self.engine, statement=self)

    def stop(self) -> None:
        if self.state is StatementState.DESTROYED:
            raise StatementStateError(f"Statement '{self.name}' has been destroyed and cannot be stopped")
        if self.state is StatementState.STOPPED:
            return
        self.engine._stop_statement(self)
        self.state = StatementState.STOPPED
        self.engine.signals.statement_stopped.send(self.engine, statement=self)

    def destroy(self) -> None:
        if self.state is StatementState.DESTROYED:
            return
        if self.state is StatementState.STARTED:
            self.stop()
        self.engine._destroy_statement(self)
        self.state = StatementState.DESTROYED
        self.engine.signals.statement_destroyed.send(self.engine, statement=self)

    @property
    def is_started(self) -> bool:
        return self.state is StatementState.STARTED

    @property
    def is_destroyed(self) -> bool:
        return self.state is StatementState.DESTROYED

    def __repr__(self) -> str:
        return f"Statement({self.name!r}, {self.state.value})"

"""Statement: the handle users hold for a registered EPL statement: listeners, subscriber,
iteration over current results, and the stopped/started/destroyed lifecycle."""
from __future__ import annotations

import enum
import logging
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Union

from engine.contracts.bean import EventBean
from engine.contracts.errors import StatementStateError
from .contracts.epoch import bump as _receivers_epoch
from .listeners import Listener, ListenerSignature, SubscriberAdapter, listener_arity

if TYPE_CHECKING:
    import pandas

    from .aio import DeliveryStream
    from engine.contracts.event_types import EventType
    from engine.contracts.runtime import Plan, Runtime

log = logging.getLogger("epl.engine")


class StatementState(enum.Enum):
    STARTED = "started"
    STOPPED = "stopped"
    DESTROYED = "destroyed"


class Statement:
    """A registered statement. Listeners are called in registration order with
    `(new_events, old_events)`: sequences of EventBean, empty (`()`) when a stream has
    nothing (None with `Engine(none_for_empty=True)`); added with `signature="esper"` a
    listener also gets the statement and the engine, like Esper's UpdateListener."""

    shared_state = True     # engine/rollback.py never records a statement's own attributes

    def __init__(self, engine: "Runtime", name: str, text: str, kind: str, order: int,
                 priority: int = 0, drop: bool = False, plan: Optional["Plan"] = None,
                 annotations: tuple = (), phase: int = 0) -> None:
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
        # its rows go only to its receivers, insert stream only: see _deliver_now
        self._listeners_only = self._insert_into is None and self._selector == "istream"
        self.annotations = annotations
        self.state = StatementState.STOPPED
        # schedules at one instant fire in this order (statement creation, @priority first)
        self._order_key = (-priority, order)
        # filter handles take an event in this order (docs/dispatch-order.md): @priority, then
        # the dispatch phase; early statements in the order the filter tree hands them out
        # (equal keys: the sort keeps the tree's order), late ones in creation order
        self._match_key = (-priority, phase, 0) if phase == 0 else (-priority, phase, order)
        # replaced, never mutated: a dispatch iterates the tuple it started with while a
        # listener adds or removes listeners
        self._listeners: tuple[tuple[Listener, int], ...] = ()
        self._subscriber: Optional[SubscriberAdapter] = None
        self.has_receivers = False       # kept by _receivers_changed: read on every emit
        self._instances: list[Any] = []
        self._on_stop: list[Callable[[], None]] = []
        self.user_object: Any = None

    # -- results ---------------------------------------------------------------------
    @property
    def event_type(self) -> Optional["EventType"]:
        """The type of the statement's output rows (None for statements without output)."""
        return getattr(self.plan, "out_type", None)

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(getattr(self.plan, "columns", ()))

    def add_listener(self, listener: Listener, *, signature: Optional[ListenerSignature] = None) -> Listener:
        """Call `listener(new, old)` with each delivery; `signature="esper"` calls
        `listener(new, old, statement, engine)`. Returns the listener (for remove_listener)."""
        self._listeners += ((listener, listener_arity(listener, signature)),)
        self._receivers_changed()
        return listener

    def on_update(self, listener: Optional[Listener] = None, *,
                  signature: Optional[ListenerSignature] = None
                  ) -> Union[Listener, Callable[[Listener], Listener]]:
        """Decorator form of add_listener: `@stmt.on_update` or
        `@stmt.on_update(signature="esper")`."""
        if listener is None:
            return lambda fn: self.add_listener(fn, signature=signature)
        return self.add_listener(listener, signature=signature)

    def remove_listener(self, listener: Listener) -> None:
        for i, (fn, _) in enumerate(self._listeners):
            if fn is listener:
                self._listeners = self._listeners[:i] + self._listeners[i + 1:]
                self._receivers_changed()
                return

    def remove_all_listeners(self) -> None:
        self._listeners = ()
        self._receivers_changed()

    @property
    def listeners(self) -> list[Listener]:
        return [fn for fn, _ in self._listeners]

    @property
    def subscriber(self) -> Optional[object]:
        return self._subscriber.subscriber if self._subscriber else None

    @subscriber.setter
    def subscriber(self, obj: Optional[object]) -> None:
        self.set_subscriber(obj)

    def set_subscriber(self, obj: Optional[object]) -> None:
        if obj is None:
            self._subscriber = None
        else:
            self._subscriber = SubscriberAdapter(obj, self.column_names,
                                                 bool(getattr(self.plan, "passthrough", False)))
        self._receivers_changed()

    def _receivers_changed(self) -> None:
        """Choose the direct delivery for the current receivers: the common single
        two-argument listener is called without the dispatch loop."""
        _receivers_epoch()      # fused batch loops snapshot the receivers (engine/contracts/epoch.py)
        self.has_receivers = bool(self._listeners) or self._subscriber is not None
        self.__dict__.pop("_deliver_now", None)
        if len(self._listeners) == 1 and self._listeners[0][1] == 2 and self._subscriber is None \
                and self._listeners_only:
            self._deliver_now = _call_with_one(self, self._listeners[0][0], _empty(self.engine))

    def __iter__(self) -> Iterator[EventBean]:
        """Esper's iterator: the statement's current result (window contents through the
        select clause, or current aggregates)."""
        with self.engine.lock:
            rows: list = []
            for inst in self._instances:
                rows.extend(inst.current_rows())
        return iter(rows)

    def rows(self) -> list[dict]:
        """The current result as plain dicts."""
        return [r.to_dict() for r in self]

    def to_dataframe(self) -> "pandas.DataFrame":
        """The current result (what iteration gives) as a pandas DataFrame, one column per
        selected column (pandas is imported here, not before)."""
        import pandas as pd
        return pd.DataFrame.from_records(self.rows(), columns=list(self.column_names) or None)

    def deliveries(self, maxsize: int = 1024) -> "DeliveryStream":
        """Deliveries from now on for asyncio: `async for new, old in stmt.deliveries():`
        (call it inside a running event loop; see engine.aio for the bounded queue)."""
        from .aio import DeliveryStream
        return DeliveryStream(self, maxsize)

    # -- delivery (engine-internal) ---------------------------------------------------------
    def _emit(self, new_rows: Optional[list], old_rows: Optional[list], force: bool = False) -> None:
        """Rows the result set (after output limiting) produced for this statement; `force`
        delivers even when both are empty (Esper's empty calls when an output condition fires).
        Inserted rows are routed; rows for listeners are queued, merged per statement (Esper
        delivers one call per statement for one event), until the event is processed."""
        ins = self._insert_into
        if ins is not None:
            self.engine.insert_rows(ins, new_rows, old_rows)
        selector = self._selector
        if selector == "istream":
            old_rows = None
        elif selector == "rstream":
            new_rows, old_rows = old_rows, None
        if (new_rows or old_rows or force) and self.has_receivers:
            self.engine.queue_results(self, new_rows, old_rows)

    def _deliver_now(self, bean: EventBean) -> None:
        """_emit([bean], None) and the dispatch at once, for an event that only this statement's stream
        wanted while nothing else waits for dispatch: queueing it and draining the queue
        would call the same receivers with the same rows, with nothing happening between."""
        if self._listeners_only:
            if self.has_receivers:
                self._dispatch([bean], None)
        else:
            self._emit([bean], None)

    def _set_delivery(self, split: Any) -> None:
        """The for-clause: each batch is split into several listener calls (an instance
        attribute in front of the class's _dispatch; the direct single-row delivery calls
        _dispatch too, and one row is one call either way)."""
        if split is None:
            return
        dispatch = Statement._dispatch

        def split_dispatch(new: Optional[list], old: Optional[list]) -> None:
            for n, o in split(new, old):
                dispatch(self, n, o)
        self._dispatch = split_dispatch  # type: ignore[method-assign]

    def _dispatch(self, new: Optional[list], old: Optional[list]) -> None:
        engine = self.engine
        if not new or not old:
            empty = _empty(engine)
            new = new or empty
            old = old or empty
        for fn, arity in self._listeners:
            try:
                if arity == 4:
                    fn(new, old, self, engine)
                else:
                    fn(new, old)
            except Exception as exc:  # isolate listeners: log, signal, go on
                self._failed("Listener", fn, exc)
        if self._subscriber is not None:
            try:
                self._subscriber.deliver(new, old)
            except Exception as exc:
                self._failed("Subscriber", self._subscriber.subscriber, exc)

    def _failed(self, kind: str, receiver: Any, exc: Exception) -> None:
        log.exception("%s %r of statement '%s' raised", kind, receiver, self.name)
        self.engine.signals.listener_error.send(self.engine, statement=self, listener=receiver,
                                                error=exc)

    # -- lifecycle --------------------------------------------------------------------------
    def start(self) -> None:
        if self.state is StatementState.DESTROYED:
            raise StatementStateError(f"Statement '{self.name}' has been destroyed and cannot be started")
        if self.state is StatementState.STARTED:
            return
        self.engine.start_instances(self)
        self.state = StatementState.STARTED
        self.engine.signals.statement_started.send(self.engine, statement=self)

    def stop(self) -> None:
        if self.state is StatementState.DESTROYED:
            raise StatementStateError(f"Statement '{self.name}' has been destroyed and cannot be stopped")
        if self.state is StatementState.STOPPED:
            return
        self.engine.stop_instances(self)
        self.state = StatementState.STOPPED
        self.engine.signals.statement_stopped.send(self.engine, statement=self)

    def destroy(self) -> None:
        if self.state is StatementState.DESTROYED:
            return
        if self.state is StatementState.STARTED:
            self.stop()
        self.engine.forget_statement(self)
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


def _empty(engine: "Runtime") -> Any:
    """What a listener gets for a stream with nothing: () or, for old code, None."""
    return None if getattr(engine, "none_for_empty", False) else ()


def _call_with_one(stmt: Statement, fn: Listener, empty: Any = ()) -> Callable[[EventBean], None]:
    """Statement._deliver_now for a single two-argument listener and no subscriber; a
    subscriber that listener sets gets the same row, as in Statement._dispatch."""
    failed = stmt._failed

    def deliver_now(bean: EventBean) -> None:
        rows = [bean]
        try:
            fn(rows, empty)
        except Exception as exc:
            failed("Listener", fn, exc)
        if stmt._subscriber is not None:
            late_subscriber(stmt, rows, empty)
    return deliver_now


def late_subscriber(stmt: Statement, rows: list, empty: Any) -> None:
    """The subscriber step of Statement._dispatch after a direct call of the statement's
    one listener, for a subscriber that listener set: it gets the same rows."""
    sub = stmt._subscriber
    try:
        sub.deliver(rows, empty)
    except Exception as exc:    # isolated as in _dispatch
        stmt._failed("Subscriber", sub.subscriber, exc)

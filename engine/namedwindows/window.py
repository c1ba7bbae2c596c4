"""A named window at runtime: its data window (a view chain), the filter registration that
takes `insert into W` events, and its consumers, which see what enters and leaves.

Inserts, deletes and updates all go through the chain's first view as `update(new, old)`
(old: events removed upstream), so the data window decides what leaves on its own as well;
whatever leaves the chain's end is what consumers and the `create window` statement see."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.event_types import EventType

from .feed import move_inserts, register_inserts, unregister_inserts
from .rows import row_maker

if TYPE_CHECKING:
    from engine.statement import Statement
    from engine.contracts.runtime import Runtime

log = logging.getLogger(__name__)


class NamedWindow:
    """One named window. `attach(handle)` adds a consumer (its `handle.target.update(new,
    old)` is called on every change) and returns the attachment to `stop()`."""

    shared_state = True      # not the consuming statement's state (engine/rollback.py)

    is_table = False

    def __init__(self, name: str, event_type: EventType, view_factories: Sequence[Any],
                 insert_filter: Optional[Callable[[EventBean], bool]] = None) -> None:
        self.name = name
        self.event_type = event_type
        self.view_factories = tuple(view_factories)
        self.insert_filter = insert_filter
        self.consumers: list[Any] = []
        # subquery stores: see each change at once (docs/dispatch-order.md)
        self.stores: list[Any] = []
        self.shared_stores: Any = ()
        # consumers of every partition of a window declared with a context (see partitioned.py)
        self.shared_consumers: Any = ()
        self._first: Any = None
        self._chain: list[Any] = []
        self._registration: Any = None
        self._engine: Optional["Runtime"] = None
        self._statement: Optional["Statement"] = None
        self._ctx: Any = None
        self.indexes: dict[str, Any] = {}     # `create index`: name -> WindowIndex

    # -- lifecycle (the `create window` statement's start and stop) -------------------------
    def start(self, engine: "Runtime", statement: "Statement", ctx: Any = None,
              register: bool = True) -> "NamedWindow":
        """Start the data window. A context partition's window passes its partition's `ctx`
        and no registration (its inserts come from its partition's statements only)."""
        from engine.instance import StatementContext
        from views.registry import make_chain
        self._engine = engine
        self._statement = statement
        if ctx is None:
            ctx = StatementContext(engine, statement, statement._order_key)
        self._ctx = ctx
        self._first, self._chain = make_chain(list(self.view_factories), ctx, _Tail(self))
        if register:
            self._registration = register_inserts(engine, self, statement)
        return self

    def stop(self) -> None:
        self._registration = unregister_inserts(self._engine, self._registration)
        for v in self._chain:
            v.stop()
        self._chain = []
        self._first = None

    def relocate(self, runtime: "Runtime") -> None:
        """Move the `create window` statement to another runtime (an isolated service, or
        the engine) with the window's contents: `insert into W` events now come from that
        runtime, and the data window's schedules (expiry) run on its time. Consumers and
        on-actions keep working on the window wherever they run (it is a relation, the same
        one for every runtime, as in Esper)."""
        from .actions import move_schedules
        self._registration = move_inserts(self._registration, self._engine, runtime)
        if self._ctx is not None:
            move_schedules(self._ctx, runtime)
        self._engine = runtime

    @property
    def started(self) -> bool:
        return self._first is not None

    def current_rows(self) -> list:
        """The `create window` statement's iterator: the window's contents."""
        return list(self)

    # -- contents ------------------------------------------------------------------------------
    def __iter__(self) -> Iterator[EventBean]:
        if not self._chain:
            return iter(())
        return iter(list(self._chain[-1]))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def snapshot(self) -> list[EventBean]:
        return list(self)

    # -- indexes (`create index`) ------------------------------------------------------------
    def add_index(self, index: Any) -> None:
        index.add(list(self))
        self.indexes[index.name] = index

    def remove_index(self, name: str) -> None:
        self.indexes.pop(name, None)

    # -- changes -------------------------------------------------------------------------------
    def insert(self, events: list[EventBean]) -> None:
        if self._first is not None and events:
            if self.insert_filter is not None:
                events = [e for e in events if self.insert_filter(e)]
                if not events:
                    return
            self._first.update(events, None)

    def delete(self, events: list[EventBean]) -> None:
        if self._first is not None and events:
            self._first.update(None, events)

    def replace(self, new: list[EventBean], old: list[EventBean]) -> None:
        """Updated events: `new[i]` takes the place of `old[i]`."""
        if self._first is not None and (new or old):
            self._first.update(new or None, old or None)

    def merge(self, new: list[EventBean], old: list[EventBean]) -> None:
        """What one on-merge trigger did: inserted and updated rows (new), deleted rows and
        the rows updates replaced (old)."""
        self.replace(new, old)

    def row_maker(self, columns: list[tuple[str, Callable[[Any], Any]]]) -> Callable[[Any], EventBean]:
        """`make(eps)`: a new row of this type from `(column, value fn)` pairs."""
        return row_maker(self.event_type, columns)

    def lookup(self, columns: tuple, key: tuple) -> Optional[list[EventBean]]:
        """Rows by column values when an index can answer (None: scan)."""
        for idx in self.indexes.values():
            if idx.columns == tuple(columns):
                return idx.get(key)
        return None

    def _update_indexes(self, new: Optional[list], old: Optional[list]) -> None:
        """Indexes follow what leaves and enters the data window (as Esper's, after the data
        window: a #unique window replacing a row under a unique key is no violation). A second
        row under a unique index's key is reported as Esper reports it; the row stays, as the
        data window already holds it."""
        from .index import UniqueIndexViolation
        for idx in self.indexes.values():
            if old:
                idx.remove(old)
            if new:
                for e in new:
                    try:
                        idx.check([e])
                    except UniqueIndexViolation as exc:
                        log.warning("Named window '%s': %s", self.name, exc)
                    idx.add([e])

    def index_columns(self) -> list[tuple]:
        """The column tuples an equality lookup can use (one per index)."""
        return [idx.columns for idx in self.indexes.values()]

    # -- consumers ----------------------------------------------------------------------------
    def attach(self, handle: Any) -> "_Attachment":
        self.consumers.append(handle)
        return _Attachment(self, handle)

    def attach_first(self, handle: Any) -> "_Attachment":
        """Attach a store that sees each change as it happens (a subquery's store:
        statements then evaluate against the window's current contents)."""
        self.stores.append(handle)
        return _Attachment(self, handle, self.stores)

    def _changed(self, new: Optional[list], old: Optional[list]) -> None:
        """The window changed: indexes and stores follow now, the `create window` statement
        reports now, consumers later: the engine hands them the change once the listeners of
        the statements that changed the window have been called (Esper's named window
        dispatch, docs/dispatch-order.md)."""
        if self.indexes:
            self._update_indexes(new, old)
        for h in tuple(self.stores):
            h.target.update(new, old)
        if self.shared_stores:
            for h in tuple(self.shared_stores):
                h.target.update(new, old)
        stmt = self._statement
        if stmt is not None:
            stmt._emit(new or None, old or None)
        consumers = tuple(self.consumers)
        if self.shared_consumers:
            consumers += tuple(self.shared_consumers)
        if consumers and self._engine is not None:
            self._engine.window_changed(consumers, new or None, old or None)


class _Attachment:
    __slots__ = ("window", "handle", "where")

    def __init__(self, window: NamedWindow, handle: Any, where: Optional[list] = None) -> None:
        self.window = window
        self.handle = handle
        self.where = where if where is not None else window.consumers

    def stop(self) -> None:
        try:
            self.where.remove(self.handle)
        except ValueError:
            pass


class _Tail:
    """End of the window's view chain."""

    __slots__ = ("window",)

    def __init__(self, window: NamedWindow) -> None:
        self.window = window

    def update(self, new: Optional[list], old: Optional[list]) -> None:
        if new or old:
            self.window._changed(new, old)

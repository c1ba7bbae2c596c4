"""How `insert into W` events reach a named window or a table: one filter handle for events
of its type, registered in the runtime the window or table runs in, moved with it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from engine.contracts.bean import EventBean
from filterindex.spec import FilterSpec

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


class InsertHandle:
    """The filter handle of a window or table (`store`): events of its type enter it."""

    __slots__ = ("store", "order", "drop", "statement")

    def __init__(self, store: Any, statement: Any) -> None:
        self.store = store
        self.statement = statement
        self.order = statement._match_key
        self.drop = False

    def on_event(self, bean: EventBean) -> None:
        self.store.insert([bean])


def register_inserts(engine: "Runtime", store: Any, statement: Any) -> Any:
    """Register `store`'s insert handle with `engine`; returns the registration."""
    return engine.filters.add(FilterSpec(store.event_type, ((),)), InsertHandle(store, statement))


def unregister_inserts(engine: "Runtime", registration: Optional[Any]) -> None:
    """Remove the registration (None: nothing registered); returns None, the caller's new
    registration."""
    if registration is not None:
        engine.filters.remove(registration)
    return None


def move_inserts(registration: Optional[Any], engine: "Runtime", runtime: "Runtime") -> Optional[Any]:
    """The registration moved from `engine`'s filters to `runtime`'s (when they differ)."""
    from engine.instance import move_filter
    if registration is not None and runtime.filters is not engine.filters:
        return move_filter(registration, engine.filters, runtime.filters)
    return registration

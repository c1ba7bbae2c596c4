"""`engine.services.named_windows`: the named windows and tables of an engine by name (the
stream plans of statements that consume one: epl/compiler/window_streams.py)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional

from engine.contracts.event_types import EventType

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


@dataclass(frozen=True)
class WindowPlan:
    """The plan of a `create window` statement: starting it starts the window."""

    window: Any
    out_type: EventType
    columns: tuple[str, ...]
    passthrough: bool = True
    selector: str = "irstream"     # the statement's listeners see what enters and leaves
    insert_into: Any = None
    preload: Optional[Callable[[], list]] = None   # `insert` from another window

    def instantiate(self, engine: "Runtime", statement: Any) -> list:
        w = self.window.start(engine, statement)
        if self.preload is not None:
            w.insert(self.preload())
        return [w]


@dataclass(frozen=True)
class TablePlan:
    """The plan of a `create table` statement: the table lives as long as the statement."""

    table: Any
    out_type: EventType
    columns: tuple[str, ...]
    passthrough: bool = True
    selector: str = "istream"
    insert_into: Any = None

    def instantiate(self, engine: "Runtime", statement: Any) -> list:
        return [self.table.start(engine, statement)]


@dataclass
class NamedWindowService:
    shared_state = True      # not the consuming statement's state (engine/rollback.py)
    windows: dict[str, Any] = field(default_factory=dict)

    def get(self, name: str) -> Any:
        return self.windows.get(name)

    def is_window(self, name: str) -> bool:
        w = self.windows.get(name)
        return w is not None and not w.is_table

    def is_table(self, name: str) -> bool:
        w = self.windows.get(name)
        return w is not None and w.is_table

    def add(self, window: Any) -> None:
        self.windows[window.name] = window

    def remove(self, window: Any) -> None:
        if self.windows.get(window.name) is window:
            del self.windows[window.name]


def install(engine: "Runtime") -> NamedWindowService:
    if "named_windows" not in engine.services:      # installing twice keeps the service
        engine.services.named_windows = NamedWindowService()
    svc = engine.services.named_windows
    return svc

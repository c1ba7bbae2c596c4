"""`engine.services.named_windows`: the named windows and tables of an engine by name (the
stream plans of statements that consume one: epl/compiler/window_streams.py)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from epl.plans.namedwindows import CreatePlan, InfraSpec
from epl.plans.onactions import OnPlan

from .actions import make_action, start_on
from .create import make_infra, start_create

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


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

    def declare(self, spec: InfraSpec) -> Any:
        """Make and add the window or table a `create window|table` declares (when the
        statement is created); returns it, for `remove` when the statement is destroyed."""
        made = make_infra(spec)
        self.add(made)
        return made

    def perform(self, action: Any, engine: "Runtime", target: Any = None) -> tuple:
        """Run an action plan (epl/plans/onactions.py) once, without a trigger, on `target`
        or on the window or table it names: a fire-and-forget update or delete. Returns the
        (new, old) rows."""
        return make_action(action, engine, target).run(None, engine)

    def remove(self, window: Any) -> None:
        if self.windows.get(window.name) is window:
            del self.windows[window.name]


def install(engine: "Runtime") -> NamedWindowService:
    if "named_windows" not in engine.services:      # installing twice keeps the service
        engine.services.named_windows = NamedWindowService()
    svc = engine.services.named_windows
    engine.features.add_starter(CreatePlan, start_create)
    engine.features.add_starter(OnPlan, start_on)
    return svc

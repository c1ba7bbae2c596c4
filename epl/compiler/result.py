"""What compiling one statement yields for the engine: its kind, name, plan, and the
registrations to perform (and undo) when it is created and destroyed."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional


@dataclass
class CompiledStatement:
    kind: str
    plan: Any = None
    name: Optional[str] = None
    priority: int = 0
    drop: bool = False
    annotations: tuple = ()
    # (do, undo) pairs the engine runs at creation; undone in reverse on failure or destroy
    on_create: list[tuple[Callable[[], None], Callable[[], None]]] = field(default_factory=list)

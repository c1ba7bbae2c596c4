"""The plan interface of plan data: `instantiate(runtime, statement)` asks the runtime for the
starter its feature registered for the plan's class (engine/features.py, Features.start)."""
from __future__ import annotations

from typing import Any


class StartedByRuntime:
    """Mixed into a plan dataclass whose runtime registers a starter for it."""

    __slots__ = ()

    def instantiate(self, runtime: Any, statement: Any) -> list:
        return runtime.features.start(self, runtime, statement)

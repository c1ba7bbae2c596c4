"""The switch for the engine's fast paths (keyed pattern matching, keyed context routing):
on by default; off for one engine with `set_fast_paths(engine, False)` or for the process
with the environment variable `EPL_FAST_PATHS=0`. Read when a statement or context
partition starts, so tests can compare each fast path with the general machinery."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

_SERVICE = "fast_paths"


def set_fast_paths(engine: "Runtime", enabled: bool) -> None:
    """Turn the fast paths on or off for statements started from now on."""
    engine.services[_SERVICE] = bool(enabled)


def fast_paths(engine: "Runtime") -> bool:
    """Whether statements starting now may use the fast paths."""
    flag = engine.services.get(_SERVICE)
    if flag is not None:
        return bool(flag)
    return os.environ.get("EPL_FAST_PATHS", "1").strip().lower() not in ("0", "false", "no", "off")

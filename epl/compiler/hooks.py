"""Installing a compile hook (special functions, dot-methods) in front of the one installed
before, in the engine's feature registry (`engine.features`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

Hook = Callable[[Any, Any], Any]
_ATTR = {"dot": "dot_hook", "functions": "function_hook"}


def chain_hook(engine: "Runtime", kind: str, make: Callable[[Optional[Hook]], Hook]) -> None:
    """`make(previous)` returns the new hook, which calls `previous` for what it does not
    handle; `kind` is 'dot' or 'functions'."""
    attr = _ATTR[kind]
    setattr(engine.features, attr, make(getattr(engine.features, attr)))


def filter_index(engine: "Runtime") -> Any:
    """The engine's filter index (the runtime contract's `filters`)."""
    return engine.filters

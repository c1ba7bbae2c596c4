"""Installing a compile hook (special functions, dot-methods) in front of the one installed
before, wherever the engine keeps them: `engine.features` (its feature registry) or, before
that registry, `engine.services`."""
from __future__ import annotations

from typing import Any, Callable, Optional

Hook = Callable[[Any, Any], Any]
_ATTR = {"dot": "dot_hook", "functions": "function_hook"}


def chain_hook(engine: Any, kind: str, make: Callable[[Optional[Hook]], Hook]) -> None:
    """`make(previous)` returns the new hook, which calls `previous` for what it does not
    handle; `kind` is 'dot' or 'functions'."""
    features = getattr(engine, "features", None)
    attr = _ATTR[kind]
    if features is not None and hasattr(features, attr):
        setattr(features, attr, make(getattr(features, attr)))
    else:
        engine.services[kind] = make(engine.services.get(kind))


def filter_index(engine: Any) -> Any:
    """The engine's filter index (`engine.filters`, or `engine._filters` before the runtime
    contract)."""
    index = getattr(engine, "filters", None)
    return index if index is not None and hasattr(index, "add") else engine._filters

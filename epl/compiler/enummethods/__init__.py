"""Enumeration methods (`coll.where(v => ...)`, `coll.sumOf(...)`, ...) with lambda
expressions, compiled through the compiler's `dot` service: `install(engine)` chains the hook
in front of any installed before it.

May import: what epl/compiler may import."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

import epl.ast as A
from ..compiled import Compiled
from ..expressions import expr_text
from .methods import METHODS, build
from .sortedmethods import compile_sorted_method, is_sorted_method
from .sources import compile_source
from .windowmethods import compile_window_method, is_window_method

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

__all__ = ["METHODS", "compile_enum_method", "install", "is_enum_method"]


def is_enum_method(name: str) -> bool:
    return name.lower() in METHODS


def compile_enum_method(node: A.Dot, scope: Any) -> Optional[Compiled]:
    """`node` as an enumeration method call, or None when its target is no collection."""
    src = compile_source(node.target, scope)
    if src is None:
        return None
    try:
        return build(node.name, src, node.args or (), scope, expr_text(node))
    except RecursionError:
        raise scope.fail(f"Failed to validate enumeration method '{node.name}': the expression "
                         f"nests too deeply") from None


def install(engine: "Runtime") -> None:
    previous: Optional[Callable] = engine.features.dot_hook

    def dot(node: Any, scope: Any) -> Any:
        if node.args is not None and is_sorted_method(node, scope):
            return compile_sorted_method(node, scope)
        if node.args is not None and is_window_method(node, scope):
            compiled = compile_window_method(node, scope)
            if compiled is not None:
                return compiled
        if node.args is not None and is_enum_method(node.name):
            compiled = compile_enum_method(node, scope)
            if compiled is not None:
                return compiled
        return previous(node, scope) if previous is not None else None

    engine.features.dot_hook = dot

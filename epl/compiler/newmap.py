"""Compiles Esper's new-operator `new { a = x, b = new { c = y } }` into a closure building a
map (a dict, nested for nested `new`) of the named values."""
from __future__ import annotations

import engine.contracts.epl_types as T

import epl.ast as A
from .compiled import Compiled
from .expressions import _fold, compile_expr, compiles
from .scope import Scope


@compiles(A.NewMap)
def _new_map(node: A.NewMap, scope: Scope) -> Compiled:
    names = [k for k, _ in node.items]
    dup = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if dup is not None:
        raise scope.fail(f"Failed to validate new-keyword property names, property '{dup}' "
                         f"has already been declared")
    parts = [compile_expr(v, scope) for _, v in node.items]
    pairs = tuple(zip(names, (p.fn for p in parts)))

    def build(eps):
        return {k: f(eps) for k, f in pairs}
    c = _fold(build, T.MAP, parts)
    if c.is_constant:     # a fresh dict per row: rows must not share a mutable value
        value = c.constant
        return Compiled(lambda eps, _v=value: dict(_v), T.MAP, has_aggregation=c.has_aggregation)
    return c

"""The `window(...)` aggregation's methods (Esper's aggregation methods on a window, also
on `window(*) @type(T)` table columns): `first()` and `last()` (the oldest and newest event),
`first(expr)` and `last(expr)` (the expression on that event), `countEvents()` and
`listReference()`."""
from __future__ import annotations

from typing import Any

import engine.contracts.epl_types as T

import epl.ast as A
from ..compiled import Compiled
from .lambdas import compile_lambda
from .sources import compile_source

NAMES = {"first", "last", "countevents", "listreference"}


def is_window_method(node: A.Dot, scope: Any) -> bool:
    if node.name.lower() not in NAMES:
        return False
    t = node.target
    while isinstance(t, A.Parens):
        t = t.inner
    if isinstance(t, A.Call):
        return t.name.lower() == "window"
    return isinstance(t, A.TableAccess) or (isinstance(t, A.Property) and len(t.path) == 2)


def compile_window_method(node: A.Dot, scope: Any) -> Any:
    """The method's Compiled, or None when the target is no window of events."""
    src = compile_source(node.target, scope)
    if src is None or not src.events:
        return None
    name = node.name.lower()
    args = list(node.args or ())
    coll = src.fn
    if name == "countevents":
        if args:
            raise scope.fail("Invalid number of parameters for aggregation method 'countEvents'")
        return Compiled(lambda eps: len(coll(eps) or ()), T.INT, has_aggregation=src.has_aggregation)
    if name == "listreference":
        if args:
            raise scope.fail("Invalid number of parameters for aggregation method 'listReference'")
        return Compiled(lambda eps: list(coll(eps) or ()), T.array_of(src.elem),
                        has_aggregation=src.has_aggregation)
    if len(args) > 1:
        raise scope.fail(f"Invalid number of parameters for aggregation method '{node.name}'")
    at = 0 if name == "first" else -1

    def pick(eps, _c=coll, _i=at):
        events = _c(eps)
        return events[_i] if events else None
    if not args:
        return Compiled(pick, src.elem, has_aggregation=src.has_aggregation)
    # `first(intPrimitive)`: the expression on that event, its names read the event first
    value = compile_lambda(A.Lambda(("_window_event",), args[0]), [src.elem], scope)
    vf = value.fn

    def pick_value(eps, _p=pick, _v=vf):
        e = _p(eps)
        return None if e is None else _v(tuple(eps) + (e,))
    return Compiled(pick_value, value.type, has_aggregation=src.has_aggregation)

"""What enumeration methods share: compiling their lambdas into per-element value
iterators (with fast paths for one-parameter lambdas), argument checks, hashing keys."""
from __future__ import annotations

from typing import Any, Sequence

import engine.contracts.epl_types as T

import epl.ast as A
from .lambdas import arity, compile_lambda_parts
from .sources import Source

_INT = T.INT


def values(lam: A.Lambda, src: Source, scope: Any, method: str, low: int = 1, high: int = 3):
    """Compile a (element[, index[, size]]) lambda: `each(base, coll)` yields its value per
    element, lazily; also its result type and parameter count."""
    each, t, n, _ = values_fn(lam, src, scope, method, low, high)
    return each, t, n


def values_fn(lam: A.Lambda, src: Source, scope: Any, method: str, low: int = 1, high: int = 3):
    """As `values`, plus the lambda's own closure (on `base + (element,)` when it takes one
    parameter) for the methods' one-parameter fast paths."""
    n = arity(lam, low, high, method, scope)
    c, elem = compile_lambda_parts(lam, [src.elem, _INT, _INT][:n], scope)
    if c.is_constant and c.constant is None:
        _null_typed(method, scope)
    f = c.fn
    each = each_of(f, n)
    if elem is not None and src.events:
        # elements are events (sources make them so): the element function applies
        def each(base, coll, _g=elem):
            return map(_g, coll)
        each.elem = elem
    return each, c.type, n, f


# Esper's refusals of a lambda that is the null literal (`strvals.sumOf(v => null)`)
_NEEDS_VALUE = {"sumOf", "average", "takeWhile", "takeWhileLast"}
_NEEDS_TYPE = {"min", "max", "orderBy", "orderByDesc", "mostFrequent", "leastFrequent", "arrayOf",
               "minBy", "maxBy"}


def _null_typed(method: str, scope: Any) -> None:
    if method in _NEEDS_VALUE:
        raise scope.fail(f"Failed to validate enumeration method '{method}', expected a non-null "
                         f"result for expression parameter 0 but received a null-typed expression")
    if method in _NEEDS_TYPE:
        raise scope.fail("Null-type is not allowed")


def each_of(f, n):
    if n == 1:
        def each(base, coll):
            return (f(base + (v,)) for v in coll)
        each.one = f       # methods with a one-parameter fast path call it directly
    elif n == 2:
        def each(base, coll):
            return (f(base + (v, i)) for i, v in enumerate(coll))
    else:
        def each(base, coll):
            s = len(coll)
            return (f(base + (v, i, s)) for i, v in enumerate(coll))
    return each


def no_args(method: str, args: Sequence[A.Expr], scope: Any, most: int = 0) -> None:
    if len(args) > most:
        raise scope.fail(f"Failed to validate enumeration method '{method}', expected "
                         f"{most} parameter(s) but received {len(args)}")


def scalar_only(method: str, src: Source, scope: Any) -> None:
    if src.events:
        raise scope.fail(f"Invalid input for built-in enumeration method '{method}' and 0-parameter "
                         f"footprint, expecting collection of values (typically scalar values) as "
                         f"input, received collection of events of type '{src.elem.event_type.name}'")


def identity(base, coll):
    return iter(coll)


def each_or_self(method: str, src: Source, args: Sequence[A.Expr], scope: Any):
    """The values a method works on: the lambda's results, or the (scalar) elements."""
    if args:
        no_args(method, args, scope, 1)
        each, t, _ = values(args[0], src, scope, method)
        return each, t
    scalar_only(method, src, scope)
    return identity, src.elem


def hashable(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, hashable(x)) for k, x in v.items()))
    return v


def less(a: Any, b: Any) -> bool:
    try:
        return a < b
    except TypeError:
        return False

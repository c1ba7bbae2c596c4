"""Enumeration methods combining collections (`except`, `intersect`, `union`,
`sequenceEqual`) and building maps (`groupBy`, `toMap`)."""
from __future__ import annotations

from typing import Any, Sequence

import engine.contracts.epl_types as T
from engine.contracts.bean import EventBean

from .sources import Source, compile_source
from .values import hashable, identity, values


def _other(name, src, args, scope) -> Source:
    if len(args) != 1:
        raise scope.fail(f"Failed to validate enumeration method '{name}', expected 1 parameter(s) "
                         f"but received {len(args)}")
    other = compile_source(args[0], scope)
    if other is None:
        what = f"events of type '{src.elem.event_type.name}'" if src.events else \
            f"values of type '{src.elem}'"
        raise scope.fail(f"Enumeration method '{name}' requires an expression yielding a "
                         f"collection of {what} as input parameter")
    if src.events and other.events and other.elem.event_type is not src.elem.event_type and \
            not other.elem.event_type.is_subtype_of(src.elem.event_type):
        raise scope.fail(f"Enumeration method '{name}' expects event type "
                         f"'{src.elem.event_type.name}' but receives event type "
                         f"'{other.elem.event_type.name}'")
    return other


def _same(a: Any, b: Any) -> bool:
    """Events are the same event (or have equal underlying objects); values are equal."""
    if a is b:
        return True
    if isinstance(a, EventBean) and isinstance(b, EventBean):
        return a.underlying is b.underlying or a.underlying == b.underlying
    return a == b


def _contains(items: Sequence[Any], v: Any) -> bool:
    for x in items:
        if _same(v, x):
            return True
    return False


def set_op(kind: str):
    def build(name, src, args, scope):
        other = _other(name, src, args, scope).fn
        keep_null = src.events     # Esper keeps null events in an intersection, not null values

        def set_op(base, coll):
            o = other(base)
            if not o or not coll:       # Esper returns the input as it is then
                return list(coll) if kind != "union" or not o else list(o)
            if kind == "union":
                return list(coll) + list(o)
            if kind == "except":
                return [v for v in coll if not _contains(o, v)]
            return [v for v in coll if (keep_null and v is None) or _contains(o, v)]
        return set_op, T.array_of(src.elem)
    return build


def sequence_equal(name, src, args, scope):
    other = _other(name, src, args, scope).fn

    def sequence_equal(base, coll):
        o = other(base)
        if o is None or len(o) != len(coll):
            return False
        return all(_same(a, b) for a, b in zip(coll, o))
    return sequence_equal, T.BOOLEAN


# -- maps -----------------------------------------------------------------------------------------

def group_by(name, src, args, scope):
    if not 1 <= len(args) <= 2:
        raise scope.fail(f"Failed to validate enumeration method '{name}', expected a key selector "
                         f"and an optional value selector")
    keys, _, _ = values(args[0], src, scope, name)
    vals = values(args[1], src, scope, name)[0] if len(args) == 2 else identity

    def group_by(base, coll):
        out: dict = {}
        for k, v in zip(keys(base, coll), vals(base, coll)):
            h = hashable(k)
            group = out.get(h)
            if group is None:
                out[h] = [v]
            else:
                group.append(v)
        return out
    return group_by, T.MAP


def to_map(name, src, args, scope):
    if len(args) != 2:
        raise scope.fail(f"Failed to validate enumeration method '{name}', expected a key selector "
                         f"and a value selector")
    keys, _, _ = values(args[0], src, scope, name)
    vals, _, _ = values(args[1], src, scope, name)

    def to_map(base, coll):
        return {hashable(k): v for k, v in zip(keys(base, coll), vals(base, coll))}
    return to_map, T.MAP

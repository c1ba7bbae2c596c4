"""Built-in single-row functions and the methods callable on values (`s.toUpperCase()`)."""
from __future__ import annotations

import math
from typing import Any, Callable, Optional

import engine.contracts.epl_types as T
from engine.contracts.epl_types import PropertyType


def _coalesce(*values: Any) -> Any:
    for v in values:
        if v is not None:
            return v
    return None


def _max(*values: Any) -> Any:
    if any(v is None for v in values):
        return None
    return max(values)


def _min(*values: Any) -> Any:
    if any(v is None for v in values):
        return None
    return min(values)


def _typeof(value: Any) -> Optional[str]:
    if value is None:
        return None
    from engine.contracts.bean import EventBean
    if isinstance(value, EventBean):
        return value.event_type.name
    return {str: "String", int: "Long", float: "Double", bool: "Boolean"}.get(type(value), type(value).__name__)


def _promoted(types: list[PropertyType]) -> PropertyType:
    if not types:
        return T.OBJECT
    out = types[0]
    for t in types[1:]:
        if out.is_numeric and t.is_numeric:
            out = T.promote(out, t)
        elif out.kind != t.kind:
            return T.OBJECT
    return out


# name -> (callable, result type from argument types, minimum args, maximum args or None)
SINGLE_ROW: dict[str, tuple[Callable[..., Any], Callable[[list[PropertyType]], PropertyType], int, Optional[int]]] = {
    "coalesce": (_coalesce, _promoted, 1, None),
    "max": (_max, _promoted, 2, None),
    "min": (_min, _promoted, 2, None),
    "typeof": (_typeof, lambda ts: T.STRING, 1, 1),
}


def _substring(s: str, start: int, end: Optional[int] = None) -> str:
    return s[start:end] if end is not None else s[start:]


# The sandbox's registry of allowed methods (see engine/sandbox.py): `v.name(args)` in EPL calls
# METHODS[name] = (fn, result type) as fn(v, *args), never an attribute of v found by name.
# METHOD_KINDS[name], when present, lists the value kinds the method applies to: a call on
# a value of another known kind is an EPLValidationError at compile time (an `object`-typed
# value is checked per event: fn's TypeError/AttributeError evaluate to null). Add methods
# with `register_method`, not by reaching into another module's dispatch.
METHODS: dict[str, tuple[Callable[..., Any], PropertyType]] = {
    "toUpperCase": (lambda s: s.upper(), T.STRING),
    "toLowerCase": (lambda s: s.lower(), T.STRING),
    "trim": (lambda s: s.strip(), T.STRING),
    "length": (lambda s: len(s), T.INT),
    "substring": (_substring, T.STRING),
    "startsWith": (lambda s, p: s.startswith(p), T.BOOLEAN),
    "endsWith": (lambda s, p: s.endswith(p), T.BOOLEAN),
    "contains": (lambda s, p: p in s, T.BOOLEAN),
    "indexOf": (lambda s, p: s.find(p), T.INT),
    "charAt": (lambda s, i: s[i], T.STRING),
    "replace": (lambda s, a, b: s.replace(a, b), T.STRING),
    "equals": (lambda s, o: s == o, T.BOOLEAN),
    "equalsIgnoreCase": (lambda s, o: o is not None and s.lower() == o.lower(), T.BOOLEAN),
    "isEmpty": (lambda s: len(s) == 0, T.BOOLEAN),
    "size": (lambda c: len(c), T.INT),
    "intValue": (lambda n: int(n), T.INT),
    "longValue": (lambda n: int(n), T.LONG),
    "doubleValue": (lambda n: float(n), T.DOUBLE),
    "toString": (lambda v: str(v), T.STRING),
}

_STRING = frozenset({T.EPLType.STRING})
_NUMBER = frozenset(T.NUMERIC_RANK)
_COLLECTION = frozenset({T.EPLType.ARRAY, T.EPLType.MAP, T.EPLType.STRING})
METHOD_KINDS: dict[str, frozenset] = {
    **{m: _STRING for m in ("toUpperCase", "toLowerCase", "trim", "substring", "startsWith",
                            "endsWith", "indexOf", "charAt", "replace", "equalsIgnoreCase")},
    "length": _STRING, "isEmpty": _COLLECTION, "contains": _COLLECTION, "size": _COLLECTION,
    **{m: _NUMBER for m in ("intValue", "longValue", "doubleValue")},
}


def register_method(name: str, fn: Callable[..., Any], result_type: PropertyType,
                    kinds: Optional[frozenset] = None) -> None:
    """Allow `v.name(args)` in EPL: `fn(v, *args)` returning `result_type`; `kinds` (a set of
    EPLType) restricts it to values of those kinds, None allows any value."""
    METHODS[name] = (fn, result_type)
    if kinds is None:
        METHOD_KINDS.pop(name, None)
    else:
        METHOD_KINDS[name] = frozenset(kinds)


def method_applies(name: str, kind: Any) -> bool:
    """Whether method `name` may be called on a value of EPLType `kind` (object: yes)."""
    kinds = METHOD_KINDS.get(name)
    return kinds is None or kind is T.EPLType.OBJECT or kind in kinds


# `Math.abs(x)` and the rest of java.lang.Math: java_math.py (with Java's overloads). This
# name -> (function on doubles, result type) view is kept for code written against the
# former table.
def _math_table() -> dict[str, tuple[Callable[..., Any], Optional[PropertyType]]]:
    from .java_math import FUNCTIONS
    doubles = {n: [T.DOUBLE] * f.arity for n, f in FUNCTIONS.items()}
    return {n: (f.choose(doubles[n]), f.result(doubles[n])) for n, f in FUNCTIONS.items()
            if n not in ("floorDiv", "floorMod") and not n.endswith("Exact")}


MATH = _math_table()

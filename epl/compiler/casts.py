"""Conversions as Esper (Java) does them, for `cast`, `typeof` and `instanceof`: narrowing
of integers wraps, doubles truncate and saturate, strings parse as Java's parse methods,
`cast(s, long, dateformat: 'yyyy-MM-dd')` parses date-time text; results are typed at
compile time."""
from __future__ import annotations

import math
from datetime import date, datetime, tzinfo
from decimal import Decimal, InvalidOperation
from typing import Any, Callable, Optional

import engine.contracts.datetime_ops as D
from engine.contracts.bean import EventBean
from engine.contracts.epl_types import EPLType, PropertyType

_BITS = {EPLType.BYTE: 8, EPLType.SHORT: 16, EPLType.INT: 32, EPLType.LONG: 64}


# Java class names a cast may name beyond the EPL type names (engine.epl_types)
_JAVA_TYPES = {
    "java.lang.float": EPLType.FLOAT, "java.lang.short": EPLType.SHORT,
    "java.lang.byte": EPLType.BYTE, "java.math.bigdecimal": EPLType.DECIMAL,
    "java.math.biginteger": EPLType.BIGINT, "java.lang.character": EPLType.STRING,
}


def cast_type(name: str) -> Optional[PropertyType]:
    """The type a cast names: an EPL type name or a Java class name."""
    import engine.contracts.epl_types as T
    t = T.type_from_name(name)
    if t is None:
        kind = _JAVA_TYPES.get(name.lower())
        t = PropertyType(kind) if kind is not None else None
    return t


def wrap(v: int, bits: int) -> int:
    """Java's two's-complement narrowing: (short) 70000 == 4464."""
    m = 1 << bits
    v &= m - 1
    return v - m if v >= m >> 1 else v


def _from_double(v: float, kind: EPLType) -> int:
    """Java's (int)/(long) of a double saturates and maps NaN to 0; byte and short narrow
    the int (Double.shortValue() is (short)(int)d)."""
    if math.isnan(v):
        return 0
    bits = 64 if kind in (EPLType.LONG, EPLType.BIGINT) else 32
    hi = (1 << (bits - 1)) - 1
    if math.isinf(v):
        n = hi if v > 0 else -hi - 1
    else:
        n = max(-hi - 1, min(hi, int(v)))
    return n if kind in (EPLType.INT, EPLType.LONG, EPLType.BIGINT) else wrap(n, _BITS[kind])


def java_double_str(v: float) -> str:
    """Double.toString: '1.0', '1.0E10', '1.5E-4', 'NaN', 'Infinity'."""
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    if v == 0:
        return "-0.0" if math.copysign(1, v) < 0 else "0.0"
    a = abs(v)
    if 1e-3 <= a < 1e7:
        r = repr(v)
        return r if ("." in r or "e" in r) else r + ".0"
    sign, digits, exp = Decimal(repr(v)).as_tuple()
    ds = list(digits)
    while len(ds) > 1 and ds[-1] == 0:
        ds.pop()
        exp += 1
    e10 = exp + len(ds) - 1
    mant = str(ds[0]) + "." + ("".join(map(str, ds[1:])) or "0")
    return ("-" if sign else "") + mant + "E" + str(e10)


def to_string(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return java_double_str(v)
    return str(v)


def converter(t: PropertyType, fmt: Optional[Callable[[Any], Any]], tz: tzinfo) -> Callable[[Any], Any]:
    """value -> value of type t (None when Java would fail the conversion)."""
    k = t.kind
    if isinstance(t.pyclass, type) and issubclass(t.pyclass, date):
        def to_dt(v):
            if isinstance(v, str):
                d = fmt(v) if fmt is not None else _iso(v, tz)
                return d
            d = D.to_local(v, tz)
            return d
        return to_dt
    if k in _BITS or k is EPLType.BIGINT:
        def to_int(v):
            if isinstance(v, bool):
                return None
            if isinstance(v, str):
                if fmt is not None:
                    d = fmt(v)
                    return None if d is None else D.to_millis(d, tz)
                s = v.strip()
                try:
                    n = int(s, 10)
                except ValueError:
                    return None
                return n if k is EPLType.BIGINT else wrap(n, _BITS[k]) if \
                    -(1 << (_BITS[k] - 1)) <= n < (1 << (_BITS[k] - 1)) else None
            if isinstance(v, float):
                return _from_double(v, k)
            if isinstance(v, Decimal):
                if not v.is_finite():
                    return None
                n = int(v)
                return n if k is EPLType.BIGINT else wrap(n, _BITS[k])
            if isinstance(v, int):
                return v if k is EPLType.BIGINT else wrap(v, _BITS[k])
            if isinstance(v, (datetime, date)) and k is EPLType.LONG:
                return D.to_millis(v, tz)
            return None
        return to_int
    if k in (EPLType.DOUBLE, EPLType.FLOAT):
        def to_float(v):
            if isinstance(v, bool):
                return None
            if isinstance(v, str):
                s = v.strip()
                s = {"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf", "+Infinity": "inf"}.get(s, s)
                if s.lower().lstrip("+-") in ("inf", "infinity", "nan") and s not in ("nan", "inf", "-inf"):
                    return None
                try:
                    return float(s.rstrip("dDfF") if s[-1:] in "dDfF" else s)
                except (ValueError, IndexError):
                    return None
            try:
                return float(v)
            except (TypeError, ValueError, OverflowError):
                return None
        return to_float
    if k is EPLType.DECIMAL:
        def to_decimal(v):
            if isinstance(v, bool):
                return None
            try:
                return Decimal(v.strip()) if isinstance(v, str) else Decimal(str(v)) \
                    if isinstance(v, float) else Decimal(v)
            except (InvalidOperation, TypeError, ValueError):
                return None
        return to_decimal
    if k is EPLType.STRING:
        return to_string
    if k is EPLType.BOOLEAN:
        def to_bool(v):
            if isinstance(v, bool):
                return v
            if isinstance(v, str):
                return v.strip().lower() == "true"     # Boolean.parseBoolean
            return None
        return to_bool
    return lambda v: v


def _iso(text: str, tz: tzinfo) -> Optional[datetime]:
    from engine.contracts.datetime_format import parse_iso
    return parse_iso(text, tz)


# -- typeof / instanceof ------------------------------------------------------------------------

JAVA_NAMES = {
    EPLType.STRING: "String", EPLType.INT: "Integer", EPLType.LONG: "Long",
    EPLType.DOUBLE: "Double", EPLType.FLOAT: "Float", EPLType.SHORT: "Short",
    EPLType.BYTE: "Byte", EPLType.BOOLEAN: "Boolean", EPLType.DECIMAL: "BigDecimal",
    EPLType.BIGINT: "BigInteger",
}


def typeof_fn(static: PropertyType) -> Callable[[Any], Optional[str]]:
    """typeof(x): an event's type name, else the Java class's simple name of the value."""
    declared = JAVA_NAMES.get(static.kind)

    def typeof(v: Any) -> Optional[str]:
        if v is None:
            return None
        if isinstance(v, EventBean):
            return v.event_type.name
        if static.kind is EPLType.EVENT and static.event_type is not None and isinstance(v, dict):
            return static.event_type.name
        if declared is not None and not isinstance(v, (dict, list, tuple)):
            return declared
        if isinstance(v, bool):
            return "Boolean"
        if isinstance(v, int):
            return "Long" if declared is None else declared
        if isinstance(v, float):
            return "Double"
        if isinstance(v, str):
            return "String"
        if isinstance(v, Decimal):
            return "BigDecimal"
        if isinstance(v, dict):
            return "HashMap"
        if isinstance(v, (list, tuple)):
            return "ArrayList" if isinstance(v, list) else "Object[]"
        return type(v).__name__
    return typeof


# instanceof type names (simple or java.lang/java.util qualified) -> what values match
_INSTANCE_KINDS = {
    "string": {EPLType.STRING}, "charsequence": {EPLType.STRING},
    "int": {EPLType.INT}, "integer": {EPLType.INT}, "long": {EPLType.LONG},
    "short": {EPLType.SHORT}, "byte": {EPLType.BYTE},
    "double": {EPLType.DOUBLE}, "float": {EPLType.FLOAT}, "boolean": {EPLType.BOOLEAN},
    "bigdecimal": {EPLType.DECIMAL}, "biginteger": {EPLType.BIGINT},
    "number": {EPLType.INT, EPLType.LONG, EPLType.SHORT, EPLType.BYTE, EPLType.DOUBLE,
               EPLType.FLOAT, EPLType.DECIMAL, EPLType.BIGINT},
    "comparable": {EPLType.INT, EPLType.LONG, EPLType.SHORT, EPLType.BYTE, EPLType.DOUBLE,
                   EPLType.FLOAT, EPLType.DECIMAL, EPLType.BIGINT, EPLType.STRING, EPLType.BOOLEAN},
}


def _runtime_kind(v: Any, static: PropertyType) -> Optional[EPLType]:
    if isinstance(v, bool):
        return EPLType.BOOLEAN
    if isinstance(v, int):
        return static.kind if static.kind in _BITS or static.kind is EPLType.BIGINT else None
    if isinstance(v, float):
        return EPLType.FLOAT if static.kind is EPLType.FLOAT else EPLType.DOUBLE
    if isinstance(v, str):
        return EPLType.STRING
    if isinstance(v, Decimal):
        return EPLType.DECIMAL
    return None


def instance_check(type_name: str, static: PropertyType) -> Callable[[Any], bool]:
    simple = type_name.split(".")[-1].lower()
    if simple in ("object",):
        return lambda v: True
    kinds = _INSTANCE_KINDS.get(simple)
    if kinds is not None:
        def check(v, _k=kinds):
            rk = _runtime_kind(v, static)
            if rk is None and isinstance(v, int) and not isinstance(v, bool):
                # an int of no declared width: Esper's boxed Integer or Long
                return bool(_k & {EPLType.INT, EPLType.LONG})
            return rk in _k
        return check
    if simple in ("map", "hashmap", "abstractmap"):
        return lambda v: isinstance(v, dict)
    if simple in ("collection", "list", "arraylist", "iterable"):
        return lambda v: isinstance(v, (list, tuple))
    if simple in ("date", "calendar", "localdatetime", "zoneddatetime", "datetime"):
        return lambda v: isinstance(v, (datetime, date))

    def named(v, _n=type_name.split(".")[-1]):
        if isinstance(v, EventBean):
            if any(t.name == _n for t in v.event_type.ancestors()):
                return True
            v = v.underlying
        return any(c.__name__ == _n for c in type(v).__mro__)
    return named

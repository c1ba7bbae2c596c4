"""EPL value types: names as written in schemas and casts, and Esper's numeric promotion."""
from __future__ import annotations

import enum
from decimal import Decimal
from typing import Any, Optional

from engine.contracts.frozen import frozen_dataclass


class EPLType(enum.Enum):
    BOOLEAN = "boolean"
    STRING = "string"
    BYTE = "byte"
    SHORT = "short"
    INT = "int"
    LONG = "long"
    FLOAT = "float"
    DOUBLE = "double"
    BIGINT = "BigInteger"
    DECIMAL = "BigDecimal"
    OBJECT = "object"
    MAP = "map"
    EVENT = "event"        # a nested event type
    ARRAY = "array"


NUMERIC_RANK = {
    EPLType.BYTE: 1, EPLType.SHORT: 2, EPLType.INT: 3, EPLType.LONG: 4,
    EPLType.BIGINT: 5, EPLType.FLOAT: 6, EPLType.DOUBLE: 7, EPLType.DECIMAL: 8,
}
INTEGRAL = {EPLType.BYTE, EPLType.SHORT, EPLType.INT, EPLType.LONG, EPLType.BIGINT}

_NAMES = {
    "string": EPLType.STRING, "java.lang.string": EPLType.STRING, "str": EPLType.STRING,
    "char": EPLType.STRING, "character": EPLType.STRING,
    "boolean": EPLType.BOOLEAN, "bool": EPLType.BOOLEAN, "java.lang.boolean": EPLType.BOOLEAN,
    "byte": EPLType.BYTE, "short": EPLType.SHORT,
    "int": EPLType.INT, "integer": EPLType.INT, "java.lang.integer": EPLType.INT,
    "long": EPLType.LONG, "java.lang.long": EPLType.LONG,
    "float": EPLType.FLOAT, "double": EPLType.DOUBLE, "java.lang.double": EPLType.DOUBLE,
    "biginteger": EPLType.BIGINT, "bigint": EPLType.BIGINT,
    "bigdecimal": EPLType.DECIMAL, "decimal": EPLType.DECIMAL,
    "object": EPLType.OBJECT, "java.lang.object": EPLType.OBJECT, "any": EPLType.OBJECT,
    "map": EPLType.MAP, "java.util.map": EPLType.MAP, "dict": EPLType.MAP,
}


@frozen_dataclass(slots=True)
class PropertyType:
    """The declared type of a property or expression result."""

    kind: EPLType
    element: Optional["PropertyType"] = None    # arrays
    event_type: Any = None                      # nested EventType
    pyclass: Optional[type] = None              # class-typed properties

    @property
    def is_numeric(self) -> bool:
        return self.kind in NUMERIC_RANK

    @property
    def is_integral(self) -> bool:
        return self.kind in INTEGRAL

    def __str__(self) -> str:
        if self.kind is EPLType.ARRAY and self.element is not None:
            return f"{self.element}[]"
        if self.kind is EPLType.EVENT and self.event_type is not None:
            return self.event_type.name
        return self.kind.value


BOOLEAN = PropertyType(EPLType.BOOLEAN)
STRING = PropertyType(EPLType.STRING)
INT = PropertyType(EPLType.INT)
LONG = PropertyType(EPLType.LONG)
DOUBLE = PropertyType(EPLType.DOUBLE)
FLOAT = PropertyType(EPLType.FLOAT)
OBJECT = PropertyType(EPLType.OBJECT)
MAP = PropertyType(EPLType.MAP)
DECIMAL = PropertyType(EPLType.DECIMAL)
BIGINT = PropertyType(EPLType.BIGINT)


def simple_type(kind: EPLType) -> PropertyType:
    return PropertyType(kind)


# date-time classes Esper users declare; values are Python datetimes (date-time methods)
_DATETIME_NAMES = frozenset((
    "datetime", "date", "java.util.date", "calendar", "java.util.calendar", "localdatetime",
    "java.time.localdatetime", "zoneddatetime", "java.time.zoneddatetime"))


def type_from_name(name: str) -> Optional[PropertyType]:
    """A built-in type by EPL name (case-insensitive), or None when it names no built-in."""
    if name.lower() in _DATETIME_NAMES:
        from datetime import datetime
        return PropertyType(EPLType.OBJECT, pyclass=datetime)
    kind = _NAMES.get(name.lower())
    return PropertyType(kind) if kind is not None else None


def array_of(element: PropertyType) -> PropertyType:
    return PropertyType(EPLType.ARRAY, element=element)


_PY = {bool: BOOLEAN, int: LONG, float: DOUBLE, str: STRING, dict: MAP, Decimal: DECIMAL}


def type_of_python(cls: Any) -> PropertyType:
    """The EPL type for a Python annotation or class (int is long: Python ints are 64-bit+)."""
    if cls in _PY:
        return _PY[cls]
    if isinstance(cls, str):
        return type_from_name(cls) or OBJECT
    origin = getattr(cls, "__origin__", None)
    if origin in (list, tuple):
        args = getattr(cls, "__args__", ()) or (object,)
        return array_of(type_of_python(args[0]))
    if origin is dict:
        return MAP
    if isinstance(cls, type):
        return PropertyType(EPLType.OBJECT, pyclass=cls)
    return OBJECT


def promote(a: PropertyType, b: PropertyType) -> PropertyType:
    """Esper's binary numeric promotion: the wider of two numeric types."""
    ra, rb = NUMERIC_RANK.get(a.kind), NUMERIC_RANK.get(b.kind)
    if ra is None or rb is None:
        return DOUBLE if (ra or rb) else OBJECT
    if {a.kind, b.kind} == {EPLType.BIGINT, EPLType.FLOAT} or {a.kind, b.kind} == {EPLType.BIGINT, EPLType.DOUBLE}:
        return DECIMAL
    return a if ra >= rb else b


def coerce(value: Any, t: PropertyType) -> Any:
    """Convert a Python value to the representation of an EPL type (for casts, results)."""
    if value is None:
        return None
    k = t.kind
    if k in INTEGRAL:
        return int(value)
    if k in (EPLType.DOUBLE, EPLType.FLOAT):
        return float(value)
    if k is EPLType.DECIMAL:
        return Decimal(str(value))
    if k is EPLType.STRING:
        return value if isinstance(value, str) else str(value)
    if k is EPLType.BOOLEAN:
        return bool(value)
    return value

"""The aggregation contract: factory and per-group aggregator protocols, the call description
builders validate, and the one concrete factory every built-in function uses.

How the compiler feeds an aggregator (`enter` and `leave` get the same shape):

- one positional argument: its value, which may be None (`sum(x)` gets x);
- `count(*)`, `countever(*)`, `leaving()`, `rate(N)`: a placeholder (None) per event;
- several positional arguments: a tuple of all of them in order, constants included
  (`nth(x, 2)` gets `(x, 2)`, `rate(ts, v)` gets `(ts, v)`);
- event-based functions (`first`, `last`, `window`, `maxby`, `minby`, `sorted`, where
  `factory.takes_event` is true): `(key_or_value, bean)`; `value()` answers with the first
  element of the tuple (first/last/window) or with the bean (maxby/minby/sorted).

`leave` receives exactly what `enter` received for the leaving event. Window views remove
oldest first; min/max, median, sorted, maxby/minby and the distinct variants also accept any
order. `clear()` resets to the state of a new instance.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping, Protocol, runtime_checkable

from engine.contracts.epl_types import EPLType, PropertyType


class AggregationError(ValueError):
    """An aggregation function called with the wrong number or types of arguments."""


class _NotConstant:
    """Marks, in `constants`, an argument that is not a compile-time constant."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_CONSTANT"


NOT_CONSTANT: Any = _NotConstant()


@runtime_checkable
class Aggregator(Protocol):
    """The state of one aggregation for one group (one instance per group)."""

    def enter(self, value: Any) -> None:
        """A value enters (see the module docstring for its shape)."""

    def leave(self, value: Any) -> None:
        """The same value leaves."""

    def value(self) -> Any:
        """The current result."""

    def clear(self) -> None:
        """Back to the state of a fresh instance."""


@runtime_checkable
class AggregatorFactory(Protocol):
    """Compile-time half of an aggregation: its result type and a maker of per-group state."""

    name: str

    def result_type(self) -> PropertyType:
        ...

    def make(self) -> Aggregator:
        ...


@dataclass(frozen=True, slots=True)
class AggregationFactory:
    """The factory built-in and registered functions return from `make_factory`.

    `takes_event` tells the compiler to call enter/leave with `(key_or_value, bean)`."""

    name: str
    type: PropertyType
    maker: Callable[[], Aggregator] = field(repr=False)
    takes_event: bool = False

    def result_type(self) -> PropertyType:
        return self.type

    def make(self) -> Aggregator:
        return self.maker()


_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class AggCall:
    """One aggregation call as the compiler describes it, handed to a registry builder.

    `constants` is empty (no argument is constant) or aligned with `arg_types`, holding the
    value of each compile-time constant argument and NOT_CONSTANT for the others."""

    name: str
    arg_types: tuple[PropertyType, ...]
    distinct: bool = False
    star: bool = False
    constants: tuple[Any, ...] = ()
    named: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    def constant(self, i: int) -> Any:
        """The constant value of argument i, or NOT_CONSTANT."""
        if i < len(self.constants):
            return self.constants[i]
        return NOT_CONSTANT

    def is_constant(self, i: int) -> bool:
        return self.constant(i) is not NOT_CONSTANT


# Java simple names, so messages read like Esper's ("from datatype 'String' to numeric").
_JAVA_NAMES = {
    EPLType.BOOLEAN: "Boolean", EPLType.STRING: "String", EPLType.BYTE: "Byte",
    EPLType.SHORT: "Short", EPLType.INT: "Integer", EPLType.LONG: "Long",
    EPLType.FLOAT: "Float", EPLType.DOUBLE: "Double", EPLType.BIGINT: "BigInteger",
    EPLType.DECIMAL: "BigDecimal", EPLType.OBJECT: "Object", EPLType.MAP: "Map",
}


def type_name(t: PropertyType | None) -> str:
    """A type as Esper's messages print it."""
    if t is None:
        return "null"
    if t.kind is EPLType.OBJECT and t.pyclass is not None:
        return t.pyclass.__name__
    return _JAVA_NAMES.get(t.kind, str(t))

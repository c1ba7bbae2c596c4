"""The aggregation contract: factory and per-group aggregator protocols, the call description
builders validate, the one concrete factory every built-in function uses, the names of the
built-in functions and `make_factory`, which validates a call against a registry of builders
(the runtime's `engine.aggregations`: built-ins of engine/aggregation/ plus registered ones).
Shared by the compiler (validation, result types) and the runtime (the builders).

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

from dataclasses import field
from types import MappingProxyType
from typing import Any, Callable, Mapping, Optional, Protocol, Sequence, runtime_checkable

from engine.contracts.epl_types import EPLType, PropertyType
from engine.contracts.frozen import frozen_dataclass


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


@frozen_dataclass(slots=True)
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


@frozen_dataclass(slots=True)
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


# The built-in aggregation functions by lowercase name: what the compiler treats as an
# aggregation without a runtime at hand (engine/aggregation/registry.py's AGGREGATIONS has
# exactly these keys; tests/aggregation checks it).
BUILTIN_AGGREGATIONS: frozenset[str] = frozenset((
    "avedev", "avg", "count", "countever", "countminsketchadd", "first", "firstever", "fmax",
    "fmaxever", "fmin", "fminever", "last", "lastever", "leaving", "max", "maxby", "maxbyever",
    "maxever", "median", "min", "minby", "minbyever", "minever", "nth", "rate", "sorted",
    "stddev", "sum", "window"))

Builder = Callable[[AggCall], AggregatorFactory]


def is_aggregation(name: str, registry: Optional[Mapping[str, Any]] = None) -> bool:
    """Whether `name` (any case) names an aggregation function (a built-in, or one of
    `registry`'s when given)."""
    return name.lower() in (BUILTIN_AGGREGATIONS if registry is None else registry)


def make_factory(name: str, arg_types: Sequence[PropertyType], *, distinct: bool = False,
                 star: bool = False, constants: Sequence[Any] = (),
                 named: Mapping[str, Any] = _EMPTY,
                 registry: Mapping[str, Builder]) -> AggregatorFactory:
    """Validate one aggregation call against `registry` and return its factory.

    - `arg_types`: the types of the positional arguments (a wildcard in first/last/window
      counts as one, typed as the event; `count(*)` passes none and `star=True`).
    - `constants`: empty, or aligned with `arg_types`: each compile-time constant argument's
      value, NOT_CONSTANT for the others (`nth(x, 2)` -> `[NOT_CONSTANT, 2]`).
    - `named`: named parameters: `filter` (the expression or its PropertyType; the compiler
      skips enter/leave when it is false), `time_source` and `one_second` for rate(N),
      `event_type` for maxby/minby/sorted/first(*), `desc` for sorted.
    Raises AggregationError naming the function and the problem."""
    key = name.lower()
    builder = registry.get(key)
    if builder is None:
        raise AggregationError(f"Unknown aggregation function '{name}'")
    types = tuple(arg_types)
    consts = tuple(constants)
    if consts and len(consts) != len(types):
        raise AggregationError(
            f"Aggregation function '{key}': constants must be empty or hold one entry per "
            f"argument ({len(consts)} for {len(types)} arguments)")
    return builder(AggCall(key, types, distinct, star, consts, named))

"""User-defined aggregation functions: register a Python class (or a factory) under an EPL name.

A user class has `enter(value)`, `leave(value)`, `value()` and `clear()`, called as the
built-ins are (one argument: its value; several: a tuple), and optionally `result_type`:
a PropertyType, or a method returning one (called once on a fresh instance at compile
time). Without it the result is typed `object`. `distinct` works for every registered
function: the engine passes each distinct non-null value once.
"""
from __future__ import annotations

from typing import Any, MutableMapping

from engine.contracts.epl_types import OBJECT, PropertyType

from .base import AggCall, AggregationError, AggregatorFactory
from .checks import finish
from .registry import Builder

_METHODS = ("enter", "leave", "value", "clear")


def _class_result_type(cls: type) -> PropertyType:
    rt = getattr(cls, "result_type", None)
    if rt is None:
        return OBJECT
    if isinstance(rt, PropertyType):
        return rt
    if callable(rt):
        got = cls().result_type()
        if isinstance(got, PropertyType):
            return got
    raise AggregationError(f"Aggregation class '{cls.__name__}': result_type must be a "
                           f"PropertyType or a method returning one")


def _builder_for(obj: Any) -> Builder:
    if isinstance(obj, type):
        missing = [m for m in _METHODS if not callable(getattr(obj, m, None))]
        if missing:
            raise AggregationError(f"Aggregation class '{obj.__name__}' lacks "
                                   f"{', '.join(missing)}")
        rtype = _class_result_type(obj)

        def build_class(call: AggCall) -> AggregatorFactory:
            return finish(call, rtype, obj, tupled=len(call.arg_types) > 1)
        build_class.user_defined = True        # type: ignore[attr-defined]  # epl/compiler/guard.py
        return build_class
    if callable(getattr(obj, "make", None)) and callable(getattr(obj, "result_type", None)):
        def build_factory(call: AggCall) -> AggregatorFactory:
            if not call.distinct:
                return obj
            return finish(call, obj.result_type(), obj.make, tupled=len(call.arg_types) > 1)
        build_factory.user_defined = True      # type: ignore[attr-defined]
        return build_factory
    raise AggregationError("An aggregation must be a class with enter, leave, value and clear, "
                           "or a factory with result_type() and make()")


def register_aggregation(registry: MutableMapping[str, Builder], name: str,
                         factory_or_class: Any) -> None:
    """Register an aggregation function under `name` (case-insensitive).

    `registry` is `AGGREGATIONS` (every statement sees the function) or a copy of it passed
    to `make_factory(..., registry=...)`.

    >>> import math
    >>> from engine.aggregation import AGGREGATIONS, make_factory, register_aggregation
    >>> from engine.epl_types import DOUBLE
    >>> class Product:
    ...     '''The product of the present non-null values.'''
    ...     result_type = DOUBLE
    ...     def __init__(self):
    ...         self.values = []
    ...     def enter(self, value):
    ...         if value is not None:
    ...             self.values.append(value)
    ...     def leave(self, value):
    ...         if value is not None:
    ...             self.values.remove(value)
    ...     def value(self):
    ...         return math.prod(self.values) if self.values else None
    ...     def clear(self):
    ...         self.values.clear()
    >>> registry = dict(AGGREGATIONS)
    >>> register_aggregation(registry, "product", Product)
    >>> factory = make_factory("product", [DOUBLE], registry=registry)
    >>> str(factory.result_type())
    'double'
    >>> agg = factory.make()
    >>> for price in (2.0, None, 3.5, 4.0):
    ...     agg.enter(price)
    >>> agg.leave(2.0)
    >>> agg.value()
    14.0
    >>> register_aggregation(registry, "Product", Product)
    Traceback (most recent call last):
    ...
    engine.aggregation.base.AggregationError: Aggregation function 'product' is already registered
    """
    key = name.lower()
    if not key.isidentifier():
        raise AggregationError(f"Invalid aggregation function name '{name}'")
    if key in registry:
        raise AggregationError(f"Aggregation function '{key}' is already registered")
    registry[key] = _builder_for(factory_or_class)

"""The compiled form of an expression: a closure over the events per stream, its type,
and its value when constant."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from engine.contracts.epl_types import PropertyType
from views.base import NOT_CONSTANT

Evaluator = Callable[[Sequence[Any]], Any]


@dataclass(slots=True)
class Compiled:
    """`fn(eps)` evaluates the expression on the events per stream (a tuple of EventBeans,
    None for an outer-join stream without a match). `on_bean(bean)`, when set, is the same
    as `fn((bean,))` without the tuple (single-stream property reads set it). A `fn` that
    is exactly `eps[0].underlying.get(name)` carries `fn.map_property = name`, so that
    runtime loops may do that read inline."""

    fn: Evaluator
    type: PropertyType
    constant: Any = NOT_CONSTANT
    is_time_period: bool = False
    has_aggregation: bool = False
    on_bean: Optional[Callable[[Any], Any]] = None

    @property
    def is_constant(self) -> bool:
        return self.constant is not NOT_CONSTANT


def constant(value: Any, type_: PropertyType, *, is_time_period: bool = False) -> Compiled:
    return Compiled(lambda eps, _v=value: _v, type_, value, is_time_period)

"""The registry of the built-in aggregation functions by lowercase EPL name (the builders of
this package), the default registry of `make_factory` (engine.contracts.aggregation); the
Engine's `aggregations` starts as a copy of it."""
from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from engine.contracts.epl_types import PropertyType

import engine.aggregation.basic as basic
import engine.aggregation.events as events
import engine.aggregation.ever as ever
import engine.aggregation.leaving as leaving
import engine.aggregation.rate as rate
import engine.aggregation.sketch as sketch
import engine.aggregation.stats as stats
from engine.contracts.aggregation import _EMPTY, AggregatorFactory, Builder
from engine.contracts.aggregation import is_aggregation as _is_aggregation
from engine.contracts.aggregation import make_factory as _make_factory

AGGREGATIONS: dict[str, Builder] = {
    **basic.BUILDERS, **stats.BUILDERS, **events.BUILDERS,
    **ever.BUILDERS, **rate.BUILDERS, **leaving.BUILDERS, **sketch.BUILDERS,
}


def is_aggregation(name: str, registry: Optional[Mapping[str, Builder]] = None) -> bool:
    """Whether `name` (any case) names an aggregation function (default: of AGGREGATIONS,
    globally registered ones included)."""
    return _is_aggregation(name, AGGREGATIONS if registry is None else registry)


def make_factory(name: str, arg_types: Sequence[PropertyType], *, distinct: bool = False,
                 star: bool = False, constants: Sequence[Any] = (),
                 named: Mapping[str, Any] = _EMPTY,
                 registry: Optional[Mapping[str, Builder]] = None) -> AggregatorFactory:
    """Validate one aggregation call and return its factory (engine.contracts.aggregation's
    `make_factory`, the built-ins being the default registry).

    >>> from engine.epl_types import INT
    >>> f = make_factory("sum", [INT])
    >>> str(f.result_type())
    'int'
    >>> s = f.make(); s.enter(3); s.enter(None); s.enter(4); s.leave(3); s.value()
    4
    """
    return _make_factory(name, arg_types, distinct=distinct, star=star, constants=constants,
                         named=named, registry=AGGREGATIONS if registry is None else registry)

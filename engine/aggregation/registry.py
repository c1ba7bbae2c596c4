"""The registry of aggregation functions by lowercase EPL name, and `make_factory`, the one
entry point the compiler calls for every aggregation in a statement."""
from __future__ import annotations

from typing import Any, Callable, Mapping, Optional, Sequence

from engine.contracts.epl_types import PropertyType

import engine.aggregation.basic as basic
import engine.aggregation.events as events
import engine.aggregation.ever as ever
import engine.aggregation.leaving as leaving
import engine.aggregation.rate as rate
import engine.aggregation.sketch as sketch
import engine.aggregation.stats as stats
from .base import _EMPTY, AggCall, AggregationError, AggregatorFactory

Builder = Callable[[AggCall], AggregatorFactory]

AGGREGATIONS: dict[str, Builder] = {
    **basic.BUILDERS, **stats.BUILDERS, **events.BUILDERS,
    **ever.BUILDERS, **rate.BUILDERS, **leaving.BUILDERS, **sketch.BUILDERS,
}


def is_aggregation(name: str, registry: Optional[Mapping[str, Builder]] = None) -> bool:
    """Whether `name` (any case) names an aggregation function."""
    return name.lower() in (AGGREGATIONS if registry is None else registry)


def make_factory(name: str, arg_types: Sequence[PropertyType], *, distinct: bool = False,
                 star: bool = False, constants: Sequence[Any] = (),
                 named: Mapping[str, Any] = _EMPTY,
                 registry: Optional[Mapping[str, Builder]] = None) -> AggregatorFactory:
    """Validate one aggregation call and return its factory.

    - `arg_types`: the types of the positional arguments (a wildcard in first/last/window
      counts as one, typed as the event; `count(*)` passes none and `star=True`).
    - `constants`: empty, or aligned with `arg_types`: each compile-time constant argument's
      value, NOT_CONSTANT for the others (`nth(x, 2)` -> `[NOT_CONSTANT, 2]`).
    - `named`: named parameters: `filter` (the expression or its PropertyType; the compiler
      skips enter/leave when it is false), `time_source` and `one_second` for rate(N),
      `event_type` for maxby/minby/sorted/first(*), `desc` for sorted.
    Raises AggregationError naming the function and the problem.

    >>> from engine.epl_types import INT
    >>> f = make_factory("sum", [INT])
    >>> str(f.result_type())
    'int'
    >>> s = f.make(); s.enter(3); s.enter(None); s.enter(4); s.leave(3); s.value()
    4
    """
    reg = AGGREGATIONS if registry is None else registry
    key = name.lower()
    builder = reg.get(key)
    if builder is None:
        raise AggregationError(f"Unknown aggregation function '{name}'")
    types = tuple(arg_types)
    consts = tuple(constants)
    if consts and len(consts) != len(types):
        raise AggregationError(
            f"Aggregation function '{key}': constants must be empty or hold one entry per "
            f"argument ({len(consts)} for {len(types)} arguments)")
    return builder(AggCall(key, types, distinct, star, consts, named))

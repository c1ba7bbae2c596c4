"""The count-min-sketch aggregator (engine/contracts/sketch.py describes the sketch): what
fills a table's `countMinSketch()` column, built by `countMinSketchAdd` (with the column's
parameters when the table declares the column)."""
from __future__ import annotations

from typing import Any

from engine.contracts.aggregation import AggCall, AggregationError, AggregationFactory
from engine.contracts.sketch import SKETCH_TYPE, CountMinSketchState, SketchParams


class _SketchAggregator:
    """A table column's aggregator: entering adds the value; nothing leaves a sketch."""

    __slots__ = ("params", "state")

    def __init__(self, params: SketchParams) -> None:
        self.params = params
        self.state = CountMinSketchState(params)

    def enter(self, value: Any) -> None:
        self.state.add(value)

    def leave(self, value: Any) -> None:
        pass

    def value(self) -> CountMinSketchState:
        return self.state

    def clear(self) -> None:
        self.state = CountMinSketchState(self.params)


def _add(call: AggCall) -> AggregationFactory:
    if call.distinct:
        raise AggregationError("Count-min-sketch aggregation function 'countMinSketchAdd' is not "
                               "supported with distinct")
    if len(call.arg_types) != 1 or call.star:
        raise AggregationError("Count-min-sketch aggregation function 'countMinSketchAdd' requires "
                               "a single parameter expression")
    # into a table the column's sketch takes the values (the compiler refuses it elsewhere);
    # a `countMinSketch({...})` column declares its aggregator with its parameters (`params`)
    params = call.named.get("params")
    if not isinstance(params, SketchParams):
        params = SketchParams()
    return AggregationFactory("countminsketchadd", SKETCH_TYPE,
                              lambda: _SketchAggregator(params))


# `countMinSketch(...)` itself is no aggregation of a select: only a table column declares it
BUILDERS = {"countminsketchadd": _add}

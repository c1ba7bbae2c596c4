"""Old path of engine/contracts/aggregation.py (the aggregation contract), re-exported for the
modules of this package and the callers that import it from here."""
from engine.contracts.aggregation import (  # noqa: F401
    _EMPTY, NOT_CONSTANT, AggCall, AggregationError, AggregationFactory, Aggregator,
    AggregatorFactory, type_name)

"""Aggregation functions: Esper's built-ins (the builders each engine's `aggregations`
registry starts with), user functions. The contract (AggCall, the factory protocols,
`make_factory` over a registry) is engine/contracts/aggregation.py, which the compiler uses.

Runtime: may import engine.contracts and the runtime; never the compiler. This `__init__`
is the package's public face: inside our packages, import the defining modules."""
from engine.contracts.aggregation import NOT_CONSTANT as NOT_CONSTANT
from engine.contracts.aggregation import AggCall as AggCall
from engine.contracts.aggregation import AggregationError as AggregationError
from engine.contracts.aggregation import AggregationFactory as AggregationFactory
from engine.contracts.aggregation import Aggregator as Aggregator
from engine.contracts.aggregation import AggregatorFactory as AggregatorFactory
from .registry import AGGREGATIONS as AGGREGATIONS
from .registry import Builder as Builder
from .registry import is_aggregation as is_aggregation
from .registry import make_factory as make_factory
from .user import register_aggregation as register_aggregation

__all__ = [
    "AGGREGATIONS", "AggCall", "AggregationError", "AggregationFactory", "Aggregator",
    "AggregatorFactory", "Builder", "NOT_CONSTANT", "is_aggregation", "make_factory",
    "register_aggregation",
]

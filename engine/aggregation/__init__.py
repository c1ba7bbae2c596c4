"""Aggregation functions: Esper's built-ins, the registry the compiler asks, user functions.

Runtime: may import engine.contracts and the runtime; never the compiler. This `__init__`
is the package's public face: inside our packages, import the defining modules."""
from .base import NOT_CONSTANT as NOT_CONSTANT
from .base import AggCall as AggCall
from .base import AggregationError as AggregationError
from .base import AggregationFactory as AggregationFactory
from .base import Aggregator as Aggregator
from .base import AggregatorFactory as AggregatorFactory
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

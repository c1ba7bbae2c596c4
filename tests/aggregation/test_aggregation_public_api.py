"""The public names of engine.aggregation, and the doctests of its documented functions."""
from __future__ import annotations

import doctest

import engine.aggregation as agg
import engine.aggregation.registry
import engine.aggregation.user

PUBLIC = {
    "AGGREGATIONS", "AggCall", "AggregationError", "AggregationFactory", "Aggregator",
    "AggregatorFactory", "Builder", "NOT_CONSTANT", "is_aggregation", "make_factory",
    "register_aggregation",
}

BUILTINS = {
    "count", "sum", "avg", "min", "max", "minever", "maxever", "fmin", "fmax", "fminever",
    "fmaxever", "median", "stddev", "avedev", "first", "last", "window", "maxby", "minby",
    "sorted", "nth", "countever", "firstever", "lastever", "rate", "leaving",
}


def test_public_names() -> None:
    assert set(agg.__all__) == PUBLIC
    for name in PUBLIC:
        assert getattr(agg, name) is not None


def test_builtin_names() -> None:
    assert set(agg.AGGREGATIONS) >= BUILTINS


def test_doctests() -> None:
    for module in (engine.aggregation.registry, engine.aggregation.user):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__

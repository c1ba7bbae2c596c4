"""User-defined aggregation functions registered from Python."""
from __future__ import annotations

import pytest

from engine.aggregation import (
    AGGREGATIONS, AggregationError, is_aggregation, make_factory, register_aggregation,
)
from engine.epl_types import DOUBLE, INT, LONG, OBJECT, STRING


class Concat:
    """Joins the present strings in entry order."""

    def __init__(self) -> None:
        self.parts: list = []

    def enter(self, value):
        self.parts.append(value)

    def leave(self, value):
        self.parts.remove(value)

    def value(self):
        return "".join(self.parts)

    def clear(self):
        self.parts.clear()

    def result_type(self):
        return STRING


class WeightedSum:
    """Two arguments: enter gets (value, weight)."""

    result_type = DOUBLE

    def __init__(self) -> None:
        self.total = 0.0

    def enter(self, row):
        self.total += row[0] * row[1]

    def leave(self, row):
        self.total -= row[0] * row[1]

    def value(self):
        return self.total

    def clear(self):
        self.total = 0.0


def test_class_with_result_type_method() -> None:
    registry = dict(AGGREGATIONS)
    register_aggregation(registry, "concat", Concat)
    f = make_factory("CONCAT", [STRING], registry=registry)
    assert f.result_type() == STRING
    a = f.make()
    for s in "abc":
        a.enter(s)
    a.leave("a")
    assert a.value() == "bc"
    assert is_aggregation("concat", registry) and not is_aggregation("concat")


def test_distinct_and_tuples() -> None:
    registry = dict(AGGREGATIONS)
    register_aggregation(registry, "wsum", WeightedSum)
    a = make_factory("wsum", [DOUBLE, INT], registry=registry).make()
    a.enter((2.0, 3))
    a.enter((1.0, 1))
    assert a.value() == 7.0
    register_aggregation(registry, "concat", Concat)
    d = make_factory("concat", [STRING], distinct=True, registry=registry).make()
    for s in ["x", "x", None, "y"]:
        d.enter(s)
    assert d.value() == "xy"
    d.leave("x")
    assert d.value() == "xy"
    d.leave("x")
    assert d.value() == "y"


def test_untyped_class_is_object() -> None:
    class Anything:
        def enter(self, v): ...
        def leave(self, v): ...
        def value(self): return 1
        def clear(self): ...
    registry: dict = {}
    register_aggregation(registry, "anything", Anything)
    assert make_factory("anything", [], registry=registry).result_type() == OBJECT


def test_factory_object() -> None:
    class CountFactory:
        name = "mycount"

        def result_type(self):
            return LONG

        def make(self):
            return make_factory("count", [], star=True).make()

    registry: dict = {}
    register_aggregation(registry, "mycount", CountFactory())
    f = make_factory("mycount", [INT], registry=registry)
    a = f.make()
    a.enter(None)
    assert f.result_type() == LONG and a.value() == 1


def test_global_registration() -> None:
    register_aggregation(AGGREGATIONS, "concat_global", Concat)
    try:
        assert is_aggregation("Concat_Global")
        assert make_factory("concat_global", [STRING]).result_type() == STRING
    finally:
        del AGGREGATIONS["concat_global"]


@pytest.mark.parametrize("name, obj, message", [
    ("half", type("Half", (), {"enter": lambda s, v: None}), "lacks leave, value, clear"),
    ("nope", 42, "must be a class with enter, leave, value and clear"),
    ("bad name", Concat, "Invalid aggregation function name 'bad name'"),
    ("sum", Concat, "Aggregation function 'sum' is already registered"),
])
def test_registration_errors(name, obj, message) -> None:
    registry = dict(AGGREGATIONS)
    with pytest.raises(AggregationError, match=message):
        register_aggregation(registry, name, obj)

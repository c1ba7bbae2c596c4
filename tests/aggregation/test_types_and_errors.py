"""Result types, validation messages, and the values at the edges (nulls, non-finite,
decimals) of the built-in aggregation functions."""
from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import pytest

from engine.aggregation import (
    AGGREGATIONS,
    NOT_CONSTANT,
    AggregationError,
    AggregationFactory,
    is_aggregation,
    make_factory,
)
from engine.epl_types import (
    BIGINT, BOOLEAN, DECIMAL, DOUBLE, EPLType, FLOAT, INT, LONG, MAP, OBJECT, STRING,
    PropertyType, array_of,
)

BYTE = PropertyType(EPLType.BYTE)
SHORT = PropertyType(EPLType.SHORT)
EVENT = PropertyType(EPLType.EVENT)


def run(name, types, values, **kw):
    agg = make_factory(name, types, **kw).make()
    for v in values:
        agg.enter(v)
    return agg


@pytest.mark.parametrize("name, types, kw, rtype", [
    ("sum", [BYTE], {}, INT), ("sum", [SHORT], {}, INT), ("sum", [INT], {}, INT),
    ("sum", [LONG], {}, LONG), ("sum", [FLOAT], {}, FLOAT), ("sum", [DOUBLE], {}, DOUBLE),
    ("sum", [BIGINT], {}, BIGINT), ("sum", [DECIMAL], {}, DECIMAL),
    ("sum", [INT], {"distinct": True}, INT),
    ("avg", [INT], {}, DOUBLE), ("avg", [LONG], {}, DOUBLE), ("avg", [FLOAT], {}, DOUBLE),
    ("avg", [BIGINT], {}, DECIMAL), ("avg", [DECIMAL], {}, DECIMAL),
    ("count", [], {"star": True}, LONG), ("count", [STRING], {}, LONG),
    ("count", [STRING], {"distinct": True}, LONG),
    ("min", [INT], {}, INT), ("max", [STRING], {}, STRING), ("minever", [DOUBLE], {}, DOUBLE),
    ("maxever", [LONG], {}, LONG), ("fmax", [INT], {"named": {"filter": BOOLEAN}}, INT),
    ("median", [INT], {}, DOUBLE), ("stddev", [LONG], {}, DOUBLE), ("avedev", [FLOAT], {}, DOUBLE),
    ("countever", [], {"star": True}, LONG), ("countever", [INT], {}, LONG),
    ("firstever", [STRING], {}, STRING), ("lastever", [INT], {}, INT),
    ("leaving", [], {}, BOOLEAN),
    ("nth", [STRING, INT], {"constants": [NOT_CONSTANT, 1]}, STRING),
    ("rate", [LONG], {}, DOUBLE),
    ("first", [STRING], {}, STRING), ("last", [INT, INT], {"constants": [NOT_CONSTANT, 1]}, INT),
    ("first", [], {"star": True}, OBJECT), ("last", [EVENT], {"star": True}, EVENT),
    ("window", [INT], {}, array_of(INT)),
    ("maxby", [DOUBLE], {"named": {"event_type": EVENT}}, EVENT),
    ("minby", [DOUBLE], {}, EVENT),
    ("sorted", [DOUBLE], {"named": {"event_type": EVENT}}, array_of(EVENT)),
])
def test_result_types(name, types, kw, rtype) -> None:
    f = make_factory(name, types, **kw)
    assert f.result_type() == rtype
    assert f.name == name


@pytest.mark.parametrize("name, types, kw, message", [
    ("sum", [STRING], {}, "Implicit conversion from datatype 'String' to numeric is not allowed "
                          "for aggregation function 'sum'"),
    ("avg", [BOOLEAN], {}, "Implicit conversion from datatype 'Boolean' to numeric is not "
                           "allowed for aggregation function 'avg'"),
    ("median", [OBJECT], {}, "datatype 'Object' to numeric is not allowed for aggregation "
                             "function 'median'"),
    ("stddev", [STRING], {"distinct": True}, "aggregation function 'stddev'"),
    ("avedev", [MAP], {}, "datatype 'Map' to numeric"),
    ("sum", [], {}, "The 'sum' function expects 1 parameter but received 0"),
    ("avg", [INT, INT], {}, "The 'avg' function expects 1 parameter but received 2"),
    ("count", [], {}, "The 'count' function expects 1 parameter but received 0"),
    ("count", [], {"star": True, "distinct": True},
     "Invalid use of the 'distinct' keyword with count and wildcard"),
    ("countever", [INT], {"distinct": True}, "Aggregation function 'countever' does not allow distinct"),
    ("leaving", [INT], {}, "The 'leaving' function expects no parameters but received 1"),
    ("max", [MAP], {}, "datatype 'Map' to a comparable type is not allowed for aggregation "
                       "function 'max'"),
    ("sorted", [array_of(INT)], {}, "comparable type"),
    ("fmax", [INT], {}, "fmax-filtered aggregation function must have a filter expression"),
    ("sum", [INT], {"named": {"filter": STRING}},
     "Invalid filter expression parameter to the aggregation function 'sum' is expected to "
     "return a boolean value but returns String"),
    ("nth", [INT], {}, "The nth aggregation function requires two parameters"),
    ("nth", [INT, INT], {}, "numeric index constant"),
    ("nth", [INT, INT], {"constants": [NOT_CONSTANT, -1]}, "numeric index constant"),
    ("first", [INT, INT], {}, "index expression that is a non-negative integer constant"),
    ("window", [INT], {"distinct": True}, "'window' does not allow distinct"),
    ("maxby", [], {"star": True}, "requires a sort criteria expression"),
    ("sorted", [], {}, "requires at least one sort criteria expression"),
    ("sum", [INT], {"constants": [1, 2]}, "constants must be empty or hold one entry per argument"),
    ("nosuch", [INT], {}, "Unknown aggregation function 'nosuch'"),
])
def test_validation_messages(name, types, kw, message) -> None:
    with pytest.raises(AggregationError) as err:
        make_factory(name, types, **kw)
    assert message in str(err.value)
    assert isinstance(err.value, ValueError)


def test_names_are_case_insensitive() -> None:
    assert is_aggregation("SUM") and is_aggregation("MaxBy") and is_aggregation("countever")
    assert not is_aggregation("coalesce")
    assert make_factory("AVG", [INT]).name == "avg"
    assert all(k == k.lower() for k in AGGREGATIONS)


def test_filter_named_parameter_is_accepted() -> None:
    for filt in (BOOLEAN, object(), "amount > 10"):
        assert isinstance(make_factory("sum", [INT], named={"filter": filt}), AggregationFactory)


def test_event_functions_say_so() -> None:
    for name in ("first", "last", "window", "maxby", "minby", "sorted"):
        assert make_factory(name, [INT]).takes_event
    for name in ("sum", "min", "nth"):
        types = [INT, INT] if name == "nth" else [INT]
        consts = [NOT_CONSTANT, 1] if name == "nth" else []
        assert not make_factory(name, types, constants=consts).takes_event


def test_every_builtin_aggregator_has_slots() -> None:
    args = {
        "count": ([INT], {}), "nth": ([INT, INT], {"constants": [NOT_CONSTANT, 1]}),
        "rate": ([LONG], {"constants": [1], "named": {"time_source": lambda: 0}}),
        "leaving": ([], {}), "sorted": ([INT], {}),
        "fmin": ([INT], {"named": {"filter": BOOLEAN}}), "fmax": ([INT], {"named": {"filter": BOOLEAN}}),
        "fminever": ([INT], {"named": {"filter": BOOLEAN}}),
        "fmaxever": ([INT], {"named": {"filter": BOOLEAN}}),
    }
    for name in AGGREGATIONS:
        types, kw = args.get(name, ([DOUBLE], {}))
        agg = make_factory(name, types, **kw).make()
        assert not hasattr(agg, "__dict__"), name
    agg = make_factory("sum", [INT], distinct=True).make()
    assert not hasattr(agg, "__dict__")


# ---------------------------------------------------------------- values at the edges

def test_empty_results() -> None:
    for name, types in [("sum", [INT]), ("sum", [DOUBLE]), ("avg", [INT]), ("min", [INT]),
                        ("max", [INT]), ("median", [DOUBLE]), ("stddev", [DOUBLE]),
                        ("avedev", [DOUBLE]), ("sum", [DECIMAL]), ("firstever", [INT])]:
        assert run(name, types, [None, None]).value() is None, name
    assert run("count", [INT], [None, None]).value() == 0
    assert run("count", [], [None, None], star=True).value() == 2
    assert run("stddev", [DOUBLE], [1.5]).value() is None
    assert run("window", [INT], []).value() is None


def test_double_sums_are_esper_running_sums() -> None:
    """Esper sums doubles with `+=` and `-=` in arrival order (AggregatorSum), resetting to 0
    when the count drops to 0: the residue of a subtraction stays while values remain."""
    agg = run("sum", [DOUBLE], [0.1, 0.2, 0.3])
    assert agg.value() == 0.1 + 0.2 + 0.3 == 0.6000000000000001
    for v in (0.1, 0.2):
        agg.leave(v)
    assert agg.value() == 0.1 + 0.2 + 0.3 - 0.1 - 0.2 != 0.3
    agg.leave(0.3)
    assert agg.value() is None
    agg.enter(0.0)
    assert agg.value() == 0.0 and math.copysign(1, agg.value()) == 1
    big = run("sum", [DOUBLE], [1e20, 1.0])
    big.leave(1e20)
    assert big.value() == 0.0               # as Esper: 1e20 + 1.0 - 1e20
    avg = run("avg", [INT], [1, 2])
    assert avg.value() == 1.5
    assert run("sum", [INT], [2 ** 31 - 1, 1]).value() == -2 ** 31     # Java's int sum wraps


def test_non_finite_values() -> None:
    assert run("sum", [DOUBLE], [1.0, math.inf]).value() == math.inf
    assert math.isnan(run("sum", [DOUBLE], [math.inf, -math.inf]).value())
    assert run("avg", [DOUBLE], [-math.inf, 2.0]).value() == -math.inf
    agg = run("sum", [DOUBLE], [math.inf, 2.0])
    agg.leave(math.inf)
    assert math.isnan(agg.value())          # Esper: inf + 2.0 - inf
    agg.leave(2.0)
    assert agg.value() is None              # the count reached 0: reset
    agg.enter(3.0)
    assert agg.value() == 3.0
    assert math.isnan(run("stddev", [DOUBLE], [1.0, math.inf]).value())
    assert math.isnan(run("avedev", [DOUBLE], [1.0, math.nan]).value())
    assert math.isnan(run("max", [DOUBLE], [1.0, math.nan]).value())
    assert run("min", [DOUBLE], [1.0, math.nan]).value() == 1.0
    assert math.isnan(run("median", [DOUBLE], [1.0, math.nan]).value())   # NaN sorts last
    assert run("median", [DOUBLE], [1.0, 2.0, math.nan]).value() == 2.0
    assert run("sum", [DOUBLE], [1e308, 1e308]).value() == math.inf


def test_decimal_and_bigint() -> None:
    agg = run("sum", [DECIMAL], [Decimal("1.10"), Decimal("2.20"), None])
    assert agg.value() == Decimal("3.30")
    assert run("avg", [DECIMAL], [Decimal("1.10"), Decimal("2.20")]).value() == Decimal("1.65")
    assert run("avg", [BIGINT], [10**30, 1]).value() == Decimal(10**30 + 1) / 2
    assert run("sum", [BIGINT], [10**30, 10**30]).value() == 2 * 10**30
    agg = run("sum", [DECIMAL], [Decimal("0.1")])
    agg.leave(Decimal("0.1"))
    assert agg.value() is None


def test_nulls_are_skipped_by_ever_and_nth() -> None:
    assert run("firstever", [INT], [None, 3, 4]).value() == 3
    assert run("lastever", [INT], [3, 4, None]).value() == 4
    assert run("countever", [INT], [3, None, 4]).value() == 2
    nth = run("nth", [INT, INT], [(1, 1), (None, 1), (2, 1)], constants=[NOT_CONSTANT, 1])
    assert nth.value() == 1


def test_maxby_ties_and_nulls() -> None:
    a, b, c, d = object(), object(), object(), object()
    maxby = run("maxby", [INT], [(5, a), (7, b), (7, c), (None, d)])
    minby = run("minby", [INT], [(5, a), (7, b), (7, c), (None, d)])
    assert maxby.value() is b                # the earliest of equal keys
    assert minby.value() is d                # null sorts below every value, as in Esper
    maxby.leave((7, b))
    assert maxby.value() is c
    srt = run("sorted", [INT, STRING], [((1, "x"), a), ((1, "y"), b), ((0, "z"), c)],
              named={"desc": [False, True]})
    assert srt.value() == [c, b, a]


def test_count_distinct_of_arrays() -> None:
    agg = run("count", [array_of(INT)], [[1, 2], [1, 2], [3]], distinct=True)
    assert agg.value() == 2
    agg.leave([1, 2])
    assert agg.value() == 2
    agg.leave([1, 2])
    assert agg.value() == 1

"""Every aggregation against its brute-force model: sliding windows (oldest leaves first),
batches ended by clear(), and leaves in random order for the order-free functions."""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aggtest_models as m
from engine.aggregation import NOT_CONSTANT, make_factory
from engine.epl_types import DOUBLE, INT, LONG, STRING

SETTINGS = settings(max_examples=100, deadline=None)

# ---------------------------------------------------------------- value strategies

ints = st.one_of(st.none(), st.integers(-10**15, 10**15), st.integers(-3, 3))
floats = st.one_of(
    st.none(),
    st.floats(-1e100, 1e100, allow_nan=False, allow_infinity=False),
    st.sampled_from([0.1, 0.2, 0.3, -0.1, 1e-300, 5e-324, 1e16, 1.0, 1.0000000000000002, 3.0]),
    st.integers(-50, 50),                      # ints arriving in a double-typed expression
)
few_floats = st.one_of(st.none(), st.sampled_from([0.1, 0.2, 0.3, -2.5, 7.0, 1e16]))
strings = st.one_of(st.none(), st.sampled_from(["a", "b", "c", "ab", ""]))


@dataclass(frozen=True)
class Case:
    id: str
    factory: Callable[[], Any]
    values: st.SearchStrategy
    model: Callable[[m.State], Any]
    order_free: bool = True         # correct whatever order values leave in
    rel: float = 0.0                # 0: results must be equal (both correctly rounded)
    rows: bool = False              # enter (key, bean) rows


def f(name: str, *types, **kw) -> Callable[[], Any]:
    return lambda: make_factory(name, list(types), **kw)


CASES = [
    Case("count(*)", f("count", star=True), floats, m.m_count_all),
    Case("count(x)", f("count", DOUBLE), floats, m.m_count),
    Case("count(distinct x)", f("count", STRING, distinct=True), strings, m.m_count_distinct),
    Case("sum(int)", f("sum", INT), ints, m.m_sum_int32),
    Case("sum(long)", f("sum", LONG), ints, m.m_sum_int64),
    Case("sum(double)", f("sum", DOUBLE), floats, m.m_sum_float),
    Case("sum(distinct double)", f("sum", DOUBLE, distinct=True), few_floats, m.m_sum_float_distinct),
    Case("avg(int)", f("avg", INT), ints, m.m_avg),
    Case("avg(double)", f("avg", DOUBLE), floats, m.m_avg),
    Case("avg(distinct double)", f("avg", DOUBLE, distinct=True), few_floats, m.m_avg_distinct),
    Case("min(double)", f("min", DOUBLE), floats, m.m_min_double),
    Case("max(double)", f("max", DOUBLE), floats, m.m_max_double),
    Case("min(string)", f("min", STRING), strings, m.m_min),
    Case("max(int)", f("max", INT), ints, m.m_max),
    Case("median", f("median", DOUBLE), floats, m.m_median),
    Case("stddev", f("stddev", DOUBLE), floats, m.m_stddev, rel=1e-9),
    Case("stddev(int)", f("stddev", INT), st.one_of(st.none(), st.integers(-10**6, 10**6)),
         m.m_stddev, rel=1e-9),
    Case("avedev", f("avedev", DOUBLE), floats, m.m_avedev),
    Case("nth(x, 0)", f("nth", DOUBLE, INT, constants=[NOT_CONSTANT, 0]), floats, m.m_nth(0),
         order_free=False),
    Case("nth(x, 2)", f("nth", DOUBLE, INT, constants=[NOT_CONSTANT, 2]), floats, m.m_nth(2),
         order_free=False),
    Case("countever(*)", f("countever", star=True), floats, m.m_countever_all),
    Case("countever(x)", f("countever", DOUBLE), floats, m.m_countever),
    Case("firstever", f("firstever", DOUBLE), floats, m.m_firstever),
    Case("lastever", f("lastever", DOUBLE), floats, m.m_lastever),
    Case("leaving", f("leaving"), floats, m.m_leaving),
    Case("first(x)", f("first", INT), ints, m.m_first(), rows=True),
    Case("first(x, 1)", f("first", INT, INT, constants=[NOT_CONSTANT, 1]), ints, m.m_first(1),
         rows=True),
    Case("last(x)", f("last", INT), ints, m.m_last(), rows=True),
    Case("last(x, 2)", f("last", INT, INT, constants=[NOT_CONSTANT, 2]), ints, m.m_last(2),
         rows=True),
    Case("window(x)", f("window", INT), ints, m.m_window, rows=True),
    Case("maxby", f("maxby", INT), st.one_of(st.none(), st.integers(-3, 3)), m.m_maxby, rows=True),
    Case("minby", f("minby", INT), st.one_of(st.none(), st.integers(-3, 3)), m.m_minby, rows=True),
    Case("minby(double)", f("minby", DOUBLE), st.one_of(floats, st.just(float("nan"))), m.m_minby,
         rows=True),
    Case("maxby(double)", f("maxby", DOUBLE), st.one_of(floats, st.just(float("nan"))), m.m_maxby,
         rows=True),
    Case("sorted", f("sorted", INT), st.one_of(st.none(), st.integers(-3, 3)), m.m_sorted(False),
         rows=True),
    Case("sorted desc", f("sorted", STRING, named={"desc": True}), strings, m.m_sorted(True),
         rows=True),
]

# Distinct aggregates present each value to the inner function once: for nth the order in
# which values leave is then not the order they entered, so it is covered elsewhere.
_PARAMS = [pytest.param(c, id=c.id) for c in CASES]
_ORDER_FREE = [pytest.param(c, id=c.id) for c in CASES if c.order_free]


class Driver:
    """An aggregator and its model, stepped together and compared after every step."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.agg = case.factory().make()
        self.state = m.State()
        self.beans = itertools.count()
        self.check()

    def row(self, v: Any) -> Any:
        return (v, m.Bean(v, next(self.beans))) if self.case.rows else v

    def enter(self, v: Any) -> None:
        r = self.row(v)
        self.agg.enter(r)
        self.state.present.append(r)
        self.state.entered.append(r if self.case.rows else v)
        self.state.history.append((1, v))
        self.check()

    def leave(self, i: int = 0) -> None:
        r = self.state.present.pop(i)
        self.agg.leave(r)
        self.state.left.append(r)
        self.state.history.append((-1, r[0] if self.case.rows else r))
        self.check()

    def clear(self) -> None:
        self.agg.clear()
        self.state = m.State()
        self.check()

    def check(self) -> None:
        got, want = self.agg.value(), self.case.model(self.state)
        assert m.same(got, want, self.case.rel), (
            f"{self.case.id}: got {got!r}, want {want!r}, present {self.state.present!r}")


@pytest.mark.parametrize("case", _PARAMS)
@SETTINGS
@given(data=st.data())
def test_sliding_window(case: Case, data: st.DataObject) -> None:
    size = data.draw(st.integers(1, 8), label="window")
    values = data.draw(st.lists(case.values, max_size=30), label="values")
    d = Driver(case)
    for v in values:
        d.enter(v)
        if len(d.state.present) > size:
            d.leave(0)
    while d.state.present:          # everything expires: back to the empty result exactly
        d.leave(0)
    for v in values[:3]:            # and the group is reusable
        d.enter(v)


@pytest.mark.parametrize("case", _PARAMS)
@SETTINGS
@given(data=st.data())
def test_batches_with_clear(case: Case, data: st.DataObject) -> None:
    batches = data.draw(st.lists(st.lists(case.values, max_size=8), max_size=5), label="batches")
    d = Driver(case)
    for batch in batches:
        for v in batch:
            d.enter(v)
        d.clear()


@pytest.mark.parametrize("case", _ORDER_FREE)
@SETTINGS
@given(data=st.data())
def test_leave_in_any_order(case: Case, data: st.DataObject) -> None:
    d = Driver(case)
    for _ in range(data.draw(st.integers(0, 40), label="steps")):
        if d.state.present and data.draw(st.booleans()):
            d.leave(data.draw(st.integers(0, len(d.state.present) - 1)))
        else:
            d.enter(data.draw(case.values))

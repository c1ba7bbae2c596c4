"""The filter planner on hand-built ASTs (no parser, no compiler)."""
from __future__ import annotations

import pytest

from engine.bean import EventBean
from epl import ast as A
from filterindex import (
    Bound,
    Constant,
    FilterIndex,
    FilterOp,
    FilterTemplate,
)
from epl.compiler.filter_planner import plan_filter
from filterindex.planner import MAX_PATHS


def prop(*names):
    return A.Property(tuple(A.PropSeg(n) for n in names))


def lit(v):
    kinds = {int: A.LiteralKind.INT, float: A.LiteralKind.DOUBLE, str: A.LiteralKind.STRING,
             bool: A.LiteralKind.BOOLEAN, type(None): A.LiteralKind.NULL}
    return A.Literal(v, kinds[type(v)])


def binop(op, left, right):
    return A.BinaryOp(op, left, right)


def and_(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = binop(A.BinOp.AND, out, x)
    return out


def or_(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = binop(A.BinOp.OR, out, x)
    return out


def resolve(e):
    """Literals are constants; `a.<prop>` reads the pattern tag `a` from the bindings."""
    if isinstance(e, A.Literal):
        return Constant(e.value)
    if isinstance(e, A.Property) and e.path[0].name == "a" and len(e.path) == 2:
        name = e.path[1].name
        return Bound(lambda b, _n=name: b["a"][_n])
    return None


compiled = []


def compile_predicate(e):
    compiled.append(e)
    return lambda bean, bindings, _e=e: ("evaluated", _e, bean, bindings)


def plan(expr, t, alias=None):
    return plan_filter(expr, t, stream_alias=alias, resolve_value=resolve,
                       compile_predicate=compile_predicate, key_of=repr)


def params(template, bindings=None):
    """(lookup, op, value) of each parameter per path."""
    spec = template.bind(bindings)
    return [[(p.lookup, p.op, p.value if p.op is not FilterOp.BOOL_EXPR else p.key)
             for p in path] for path in spec.paths]


def test_no_filter_is_every_event(types):
    tick, _, _ = types
    t = plan(None, tick)
    assert isinstance(t, FilterTemplate)
    assert t.bind().paths == ((),)
    assert t.bind().event_type is tick


@pytest.mark.parametrize("op,fop", [
    (A.BinOp.EQ, FilterOp.EQ), (A.BinOp.NE, FilterOp.NE), (A.BinOp.LT, FilterOp.LT),
    (A.BinOp.LE, FilterOp.LE), (A.BinOp.GT, FilterOp.GT), (A.BinOp.GE, FilterOp.GE),
    (A.BinOp.IS, FilterOp.IS), (A.BinOp.IS_NOT, FilterOp.IS_NOT),
])
def test_comparisons(types, op, fop):
    tick, _, _ = types
    t = plan(binop(op, prop("price"), lit(50)), tick)
    assert params(t) == [[("price", fop, 50)]]
    p = t.bind().paths[0][0]
    assert p.getter({"price": 3.0}) == 3.0


@pytest.mark.parametrize("op,fop", [
    (A.BinOp.LT, FilterOp.GT), (A.BinOp.LE, FilterOp.GE), (A.BinOp.GT, FilterOp.LT),
    (A.BinOp.GE, FilterOp.LE), (A.BinOp.EQ, FilterOp.EQ), (A.BinOp.NE, FilterOp.NE),
])
def test_value_op_property_is_turned_around(types, op, fop):
    tick, _, _ = types
    assert params(plan(binop(op, lit(50), prop("price")), tick)) == [[("price", fop, 50)]]


def test_conjunction_is_one_path(types):
    tick, _, _ = types
    t = plan(and_(binop(A.BinOp.EQ, prop("symbol"), lit("S7")),
                  binop(A.BinOp.GT, prop("price"), lit(50))), tick)
    assert params(t) == [[("symbol", FilterOp.EQ, "S7"), ("price", FilterOp.GT, 50)]]


def test_between_and_its_swapped_bounds(types):
    tick, _, _ = types
    assert params(plan(A.Between(prop("price"), lit(1), lit(5)), tick)) == \
        [[("price", FilterOp.RANGE_CLOSED, (1, 5))]]
    assert params(plan(A.Between(prop("price"), lit(5), lit(1)), tick)) == \
        [[("price", FilterOp.RANGE_CLOSED, (1, 5))]]
    assert params(plan(A.Between(prop("price"), lit(1), lit(5), negated=True), tick)) == \
        [[("price", FilterOp.NOT_RANGE_CLOSED, (1, 5))]]


@pytest.mark.parametrize("low_closed,high_closed,op,not_op", [
    (True, True, FilterOp.RANGE_CLOSED, FilterOp.NOT_RANGE_CLOSED),
    (False, False, FilterOp.RANGE_OPEN, FilterOp.NOT_RANGE_OPEN),
    (True, False, FilterOp.RANGE_HALF_OPEN, FilterOp.NOT_RANGE_HALF_OPEN),
    (False, True, FilterOp.RANGE_HALF_CLOSED, FilterOp.NOT_RANGE_HALF_CLOSED),
])
def test_in_ranges(types, low_closed, high_closed, op, not_op):
    tick, _, _ = types
    r = A.InRange(prop("price"), lit(9), lit(12), low_closed, high_closed)
    assert params(plan(r, tick)) == [[("price", op, (9, 12))]]
    n = A.InRange(prop("price"), lit(9), lit(12), low_closed, high_closed, negated=True)
    assert params(plan(n, tick)) == [[("price", not_op, (9, 12))]]


def test_in_lists(types):
    tick, _, _ = types
    items = (lit("A"), lit("B"))
    assert params(plan(A.InList(prop("symbol"), items), tick)) == \
        [[("symbol", FilterOp.IN_LIST, ("A", "B"))]]
    assert params(plan(A.InList(prop("symbol"), items, negated=True), tick)) == \
        [[("symbol", FilterOp.NOT_IN_LIST, ("A", "B"))]]


def test_is_null(types):
    tick, _, _ = types
    assert params(plan(A.IsNull(prop("symbol")), tick)) == [[("symbol", FilterOp.IS, None)]]
    assert params(plan(A.IsNull(prop("symbol"), negated=True), tick)) == \
        [[("symbol", FilterOp.IS_NOT, None)]]


def test_parens_and_stream_alias(types):
    tick, _, _ = types
    e = A.Parens(binop(A.BinOp.GT, A.Parens(prop("t", "price")), A.Parens(lit(5))))
    assert params(plan(e, tick, alias="t")) == [[("price", FilterOp.GT, 5)]]


def test_or_splits_into_paths(types):
    tick, _, _ = types
    e = and_(A.Parens(or_(binop(A.BinOp.EQ, prop("symbol"), lit("A")),
                          binop(A.BinOp.EQ, prop("symbol"), lit("B")))),
             binop(A.BinOp.GT, prop("price"), lit(1)))
    assert params(plan(e, tick)) == [
        [("symbol", FilterOp.EQ, "A"), ("price", FilterOp.GT, 1)],
        [("symbol", FilterOp.EQ, "B"), ("price", FilterOp.GT, 1)],
    ]


def test_too_many_paths_become_one_boolean_leaf(types):
    tick, _, _ = types
    pairs = [A.Parens(or_(binop(A.BinOp.EQ, prop("volume"), lit(i)),
                          binop(A.BinOp.EQ, prop("volume"), lit(-i)))) for i in range(5)]
    e = and_(*pairs)                                  # 2**5 = 32 conjunctions
    assert 2 ** 5 > MAX_PATHS
    got = params(plan(e, tick))
    assert got == [[("", FilterOp.BOOL_EXPR, repr(e))]]


def test_what_cannot_be_indexed_becomes_a_boolean_leaf(types):
    tick, _, _ = types
    not_ = A.UnaryOp(A.UnOp.NOT, binop(A.BinOp.GT, prop("price"), lit(5)))
    two_props = binop(A.BinOp.GT, prop("price"), prop("volume"))
    call = A.Call("abs", (prop("price"),))
    unknown = binop(A.BinOp.EQ, prop("nosuch"), lit(1))
    for e in (not_, two_props, call, unknown):
        assert params(plan(e, tick)) == [[("", FilterOp.BOOL_EXPR, repr(e))]]
    # mixed: the indexable part is indexed, the rest is a leaf on the same path
    mixed = and_(binop(A.BinOp.EQ, prop("symbol"), lit("A")), call)
    assert params(plan(mixed, tick)) == [[("symbol", FilterOp.EQ, "A"),
                                          ("", FilterOp.BOOL_EXPR, repr(call))]]


def test_boolean_leaf_predicate_gets_the_event_and_the_bindings(types):
    tick, _, _ = types
    call = A.Call("f", (prop("price"),))
    t = plan(call, tick)
    p = t.bind().paths[0][0]
    bean = EventBean(tick, {"price": 1})
    assert p.value(bean) == ("evaluated", call, bean, None)


def test_bound_values_resolve_at_bind_time(types):
    tick, _, _ = types
    e = and_(binop(A.BinOp.EQ, prop("symbol"), prop("a", "symbol")),
             A.Between(prop("price"), prop("a", "low"), prop("a", "high")),
             A.InList(prop("volume"), (prop("a", "ids"), lit(0))))
    t = plan(e, tick)
    assert t.needs_bindings
    b1 = {"a": {"symbol": "X", "low": 10, "high": 2, "ids": [7, 8]}}
    assert params(t, b1) == [[("symbol", FilterOp.EQ, "X"),
                              ("price", FilterOp.RANGE_CLOSED, (2, 10)),
                              ("volume", FilterOp.IN_LIST, (7, 8, 0))]]
    b2 = {"a": {"symbol": "Y", "low": 1, "high": 3, "ids": 5}}
    assert params(t, b2)[0][0] == ("symbol", FilterOp.EQ, "Y")


def test_filter_without_bound_values_binds_once(types):
    tick, _, _ = types
    t = plan(binop(A.BinOp.GT, prop("price"), lit(5)), tick)
    assert not t.needs_bindings
    assert t.bind() is t.bind({"a": {}})


def test_boolean_leaf_reading_bound_values_is_keyed_by_them(types):
    tick, _, _ = types
    e = binop(A.BinOp.GT, binop(A.BinOp.MUL, prop("price"), lit(2)), prop("a", "price"))
    t = plan(e, tick)
    assert t.needs_bindings
    b1, b1_again, b2 = {"a": {"price": 3}}, {"a": {"price": 3}}, {"a": {"price": 4}}
    k1 = t.bind(b1).paths[0][0].key
    assert k1 == t.bind(b1_again).paths[0][0].key
    assert k1 != t.bind(b2).paths[0][0].key
    assert k1.startswith(repr(e))
    bean = EventBean(tick, {"price": 1})
    assert t.bind(b2).paths[0][0].value(bean)[3] is b2
    # a value that is not a plain scalar keys the leaf by the bindings object itself
    obj = {"a": {"price": object()}}
    assert t.bind(obj).paths[0][0].key != t.bind({"a": {"price": object()}}).paths[0][0].key


def test_boolean_leaf_not_reading_bindings_is_shared_across_bindings(types):
    tick, _, _ = types
    e = A.Call("f", (prop("price"),))
    t = plan(e, tick)
    assert t.bind({"a": 1}).paths[0][0].key == t.bind({"a": 2}).paths[0][0].key == repr(e)


def test_planned_filters_route_events_end_to_end(types):
    tick, sub, _ = types

    def evaluate(e, bean, bindings):                # a tiny interpreter for this test
        if isinstance(e, A.Call) and e.name == "even":
            v = bean.underlying.get(e.args[0].path[0].name)
            return isinstance(v, int) and v % 2 == 0
        raise AssertionError(e)

    def compile_pred(e):
        return lambda bean, bindings: evaluate(e, bean, bindings)

    index = FilterIndex()
    e = or_(and_(binop(A.BinOp.EQ, prop("symbol"), lit("S7")),
                 binop(A.BinOp.LT, lit(50), prop("price"))),
            A.Call("even", (prop("volume"),)))
    t = plan_filter(e, tick, stream_alias=None, resolve_value=resolve,
                    compile_predicate=compile_pred, key_of=repr)
    tok = index.add(t.bind(), "stmt")
    assert index.match(EventBean(sub, {"symbol": "S7", "price": 51.0, "volume": 1})) == ["stmt"]
    assert index.match(EventBean(tick, {"symbol": "S7", "price": 50.0, "volume": 1})) == ()
    assert index.match(EventBean(tick, {"symbol": "S1", "price": 0.0, "volume": 2})) == ["stmt"]
    assert index.match(EventBean(tick, {"symbol": "S7", "price": 99.0, "volume": 2})) == ["stmt"]
    index.remove(tok)
    assert index.node_count() == 0

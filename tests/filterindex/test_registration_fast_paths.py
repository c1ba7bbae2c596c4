"""Registration short cuts (one path, one equality; specialised template bind) behave like
the general path: hypothesis against a linear model of pattern-style add/remove churn."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bean import EventBean
from epl import ast as A
from epl.compiler.filter_planner import plan_filter
from filterindex import Bound, Constant, FilterIndex, FilterOp, FilterParam, FilterSpec
from filterindex.tree import NO_MATCH


def _prop(*names):
    return A.Property(tuple(A.PropSeg(n) for n in names))


def _resolve(e):
    if isinstance(e, A.Literal):
        return Constant(e.value)
    if isinstance(e, A.Property) and e.path[0].name == "a" and len(e.path) == 2:
        return Bound(lambda b, _n=e.path[1].name: b["a"][_n])
    return None


def _plan(expr, t):
    return plan_filter(expr, t, stream_alias=None, resolve_value=_resolve,
                       compile_predicate=lambda e: (lambda bean, bindings: False), key_of=repr)


def test_specialised_bind_gives_the_general_spec(types):
    tick, _, _ = types
    one = _plan(A.BinaryOp(A.BinOp.EQ, _prop("symbol"), _prop("a", "symbol")), tick)
    mixed = _plan(A.BinaryOp(A.BinOp.AND,
                             A.BinaryOp(A.BinOp.GT, _prop("price"), _prop("a", "price")),
                             A.BinaryOp(A.BinOp.EQ, _prop("volume"),
                                        A.Literal(3, A.LiteralKind.INT))), tick)
    b = {"a": {"symbol": "X", "price": 2.5}}
    for t in (one, mixed):
        assert t.needs_bindings
        spec = t.bind(b)
        assert spec == t._bind(b)
        assert all(p.getter is not None for p in spec.paths[0])
    assert one.bind(b).paths == ((FilterParam("symbol", FilterOp.EQ, "X"),),)


def test_unhashable_equality_value_is_still_a_predicate(types):
    tick, _, _ = types
    index = FilterIndex()
    tok = index.add(FilterSpec(tick, ((FilterParam("symbol", FilterOp.EQ, ["X"]),),)), "h")
    assert index.match(EventBean(tick, {"symbol": ["X"]})) == ["h"]
    assert index.match(EventBean(tick, {"symbol": "X"})) is NO_MATCH
    index.remove(tok)
    assert index.node_count() == 0


HANDLES = [f"h{i}" for i in range(5)]

ops = st.lists(st.one_of(
    st.tuples(st.just("add"), st.integers(0, 3), st.integers(0, 4)),    # key, handle
    st.tuples(st.just("remove"), st.integers(0, 30), st.just(0)),       # nth live token
    st.tuples(st.just("match"), st.one_of(st.integers(0, 4), st.none()), st.just(0)),
), max_size=40)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])   # types are immutable
@given(ops)
def test_equality_churn_matches_a_linear_model(types, script):
    tick, sub, _ = types
    index = FilterIndex()
    live: list[tuple[object, int, str]] = []     # token, key, handle; registration order
    for op, a, b in script:
        if op == "add":
            h = HANDLES[b]                          # handles are told apart by identity
            live.append((index.add(FilterSpec(tick, ((FilterParam("volume", FilterOp.EQ, a,
                                                                   tick.getter("volume")),),)), h),
                         a, h))
        elif op == "remove" and live:
            tok, _, _ = live.pop(a % len(live))
            index.remove(tok)
            index.remove(tok)                       # twice: a no-op
        elif op == "match":
            for t in (tick, sub):
                got = index.match(EventBean(t, {"volume": a}))
                want = list(dict.fromkeys(h for _, k, h in live if k == a))
                assert list(got) == want
                if not want:
                    assert got is NO_MATCH
        assert index.filter_count() == len(live)
    for tok, _, _ in live:
        index.remove(tok)
    assert index.node_count() == 0

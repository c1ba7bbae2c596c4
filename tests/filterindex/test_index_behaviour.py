"""Filter index behaviour: supertypes, sharing, removal, `or`, determinism, odd values."""
from __future__ import annotations

from engine.bean import EventBean
from filterindex import NO_MATCH, FilterIndex, FilterOp, FilterParam, FilterSpec

EQ, GT, LT, NE, IS = FilterOp.EQ, FilterOp.GT, FilterOp.LT, FilterOp.NE, FilterOp.IS


def spec(t, *paths):
    return FilterSpec(t, tuple(tuple(FilterParam(*p) for p in path) for path in paths))


def ev(t, **props):
    return EventBean(t, props)


def test_conjunction_of_eq_and_gt(types):
    tick, _, _ = types
    index = FilterIndex()
    index.add(spec(tick, [("symbol", EQ, "S7"), ("price", GT, 50)]), "s1")
    assert index.match(ev(tick, symbol="S7", price=51.0)) == ["s1"]
    assert index.match(ev(tick, symbol="S7", price=50.0)) == ()
    assert index.match(ev(tick, symbol="S8", price=99.0)) == ()
    assert index.match(ev(tick, symbol="S7")) == ()           # null price


def test_filter_on_supertype_sees_subtype_events_not_the_reverse(types):
    tick, sub, _ = types
    index = FilterIndex()
    index.add(spec(tick, [("price", GT, 10)]), "on-tick")
    index.add(spec(sub, [("price", GT, 10)]), "on-sub")
    assert index.match(ev(sub, price=11)) == ["on-sub", "on-tick"]
    assert index.match(ev(tick, price=11)) == ["on-tick"]


def test_matcher_is_none_for_unfiltered_types_and_follows_changes(types):
    tick, sub, other = types
    index = FilterIndex()
    assert index.matcher(tick) is None
    assert index.match(ev(other, x=1)) is NO_MATCH
    tok = index.add(spec(tick, [("price", GT, 10)]), "a")
    assert index.matcher(other) is None
    m = index.matcher(sub)
    assert m(ev(sub, price=11)) == ["a"]
    tok2 = index.add(spec(tick, [("price", LT, 100)]), "b")   # the tree changes shape
    assert m(ev(sub, price=11)) == ["a", "b"]
    index.remove(tok)
    index.remove(tok2)
    assert m(ev(sub, price=11)) is NO_MATCH
    assert index.matcher(sub) is None


def test_a_kept_reference_to_match_stays_correct(types):
    tick, sub, other = types
    index = FilterIndex()
    match = index.match                              # kept before anything is registered
    tok = index.add(spec(tick, [("price", GT, 10)]), "a")
    assert match(ev(sub, price=11)) == ["a"]
    later = index.match
    index.add(spec(other, [("x", EQ, 1)]), "b")     # a new tree, a new generated `match`
    index.remove(tok)
    for m in (match, later, index.match):
        assert m(ev(sub, price=11)) == ()
        assert m(ev(other, x=1)) == ["b"]


def test_no_match_is_a_shared_empty_constant(types):
    tick, _, _ = types
    index = FilterIndex()
    index.add(spec(tick, [("price", GT, 10)]), "a")
    assert index.match(ev(tick, price=1)) is NO_MATCH
    assert NO_MATCH == ()


def test_identical_filters_share_nodes(types):
    tick, _, _ = types
    index = FilterIndex()
    tokens = [index.add(spec(tick, [("symbol", EQ, "S7"), ("price", GT, 50)]), i)
              for i in range(3)]
    shared = index.node_count()
    alone = FilterIndex()
    alone.add(spec(tick, [("symbol", EQ, "S7"), ("price", GT, 50)]), 0)
    assert shared == alone.node_count()
    # the same conditions written in another order share the same path
    tokens.append(index.add(spec(tick, [("price", GT, 50), ("symbol", EQ, "S7")]), 3))
    assert index.node_count() == shared
    assert index.match(ev(tick, symbol="S7", price=60)) == [0, 1, 2, 3]
    assert index.filter_count() == 4
    for t in tokens:
        index.remove(t)
    assert index.node_count() == 0 and index.filter_count() == 0


def test_int_and_float_constants_share_and_compare_numerically(types):
    tick, _, _ = types
    index = FilterIndex()
    index.add(spec(tick, [("price", EQ, 1)]), "int")
    n = index.node_count()
    index.add(spec(tick, [("price", EQ, 1.0)]), "float")
    assert index.node_count() == n
    assert index.match(ev(tick, price=1.0)) == ["int", "float"]
    assert index.match(ev(tick, price=1)) == ["int", "float"]


def test_removing_one_registration_keeps_the_others(types):
    tick, _, _ = types
    index = FilterIndex()
    a = index.add(spec(tick, [("symbol", EQ, "S1")]), "a")
    index.add(spec(tick, [("symbol", EQ, "S1")]), "b")
    index.add(spec(tick, [("symbol", EQ, "S2")]), "c")
    index.remove(a)
    index.remove(a)                                  # a second remove is a no-op
    assert index.match(ev(tick, symbol="S1")) == ["b"]
    assert index.match(ev(tick, symbol="S2")) == ["c"]
    assert index.filter_count() == 2


def test_or_paths_return_a_handle_once(types):
    tick, _, _ = types
    index = FilterIndex()
    index.add(spec(tick, [("symbol", EQ, "S1")], [("price", GT, 10)],
                   [("symbol", EQ, "S1"), ("price", GT, 5)]), "or")
    index.add(spec(tick, [("price", GT, 0)]), "other")
    got = index.match(ev(tick, symbol="S1", price=20))
    assert sorted(got) == ["or", "other"]
    assert index.match(ev(tick, symbol="S9", price=20)) in (["or", "other"], ["other", "or"])
    assert index.match(ev(tick, symbol="S1", price=-1)) == ["or"]


def test_same_handle_registered_twice_is_returned_once(types):
    tick, sub, _ = types
    index = FilterIndex()
    h = object()
    t1 = index.add(spec(tick, [("price", GT, 1)]), h)
    index.add(spec(sub, [("price", GT, 2)]), h)
    assert index.match(ev(sub, price=5)) == [h]
    index.remove(t1)
    assert index.match(ev(sub, price=5)) == [h]


def test_every_event_of_the_type(types):
    tick, _, _ = types
    index = FilterIndex()
    tok = index.add(FilterSpec(tick), "all")
    assert index.match(ev(tick)) == ["all"]
    index.remove(tok)
    assert index.node_count() == 0


def test_null_semantics(types):
    tick, _, _ = types
    index = FilterIndex()
    index.add(spec(tick, [("symbol", EQ, None)]), "eq-null")      # never matches
    index.add(spec(tick, [("symbol", IS, None)]), "is-null")
    index.add(spec(tick, [("symbol", NE, None)]), "ne-null")      # never matches
    index.add(spec(tick, [("symbol", FilterOp.IS_NOT, None)]), "is-not-null")
    index.add(spec(tick, [("symbol", NE, "A")]), "ne-A")
    index.add(spec(tick, [("symbol", FilterOp.IN_LIST, ("A", None))]), "in")
    index.add(spec(tick, [("symbol", FilterOp.NOT_IN_LIST, ("B", None))]), "not-in-null")
    assert index.match(ev(tick)) == ["is-null"]
    assert sorted(index.match(ev(tick, symbol="A"))) == ["in", "is-not-null"]
    assert sorted(index.match(ev(tick, symbol="C"))) == ["is-not-null", "ne-A"]


def test_incomparable_values_do_not_match_and_do_not_raise(types):
    tick, _, _ = types
    index = FilterIndex()
    index.add(spec(tick, [("price", GT, 5)]), "gt5")
    index.add(spec(tick, [("price", FilterOp.RANGE_CLOSED, (1, 9))]), "range")
    assert index.match(ev(tick, price="abc")) == ()
    assert index.match(ev(tick, price=[1, 2])) == ()              # unhashable, unordered
    index.add(spec(tick, [("price", GT, 7)]), "gt7")
    index.add(spec(tick, [("price", GT, "a")]), "gt-a")
    index.add(spec(tick, [("price", FilterOp.RANGE_CLOSED, (2, 8))]), "range2")
    index.add(spec(tick, [("price", EQ, 5)]), "eq5")
    index.add(spec(tick, [("price", EQ, 6)]), "eq6")
    assert index.match(ev(tick, price="b")) == ["gt-a"]
    assert index.match(ev(tick, price=[1])) == ()
    assert sorted(index.match(ev(tick, price=8))) == ["gt5", "gt7", "range", "range2"]


def test_unhashable_constant_still_filters(types):
    tick, _, _ = types
    index = FilterIndex()
    tok = index.add(spec(tick, [("price", EQ, [1, 2])]), "list")
    assert index.match(ev(tick, price=[1, 2])) == ["list"]
    assert index.match(ev(tick, price=1)) == ()
    index.remove(tok)
    assert index.node_count() == 0


def test_bool_expr_leaves_share_by_key_and_treat_null_as_false(types):
    tick, _, _ = types
    index = FilterIndex()
    calls = []

    def pred(bean):
        calls.append(1)
        return None if bean.underlying.get("price") is None else bean.underlying["price"] > 3

    p1 = FilterParam("", FilterOp.BOOL_EXPR, pred, key="price > 3")
    p2 = FilterParam("", FilterOp.BOOL_EXPR, lambda b: pred(b), key="price > 3")
    index.add(FilterSpec(tick, ((p1,),)), "a")
    n = index.node_count()
    index.add(FilterSpec(tick, ((p2,),)), "b")
    assert index.node_count() == n
    assert index.match(ev(tick, price=4)) == ["a", "b"]
    assert len(calls) == 1                          # evaluated once for both
    assert index.match(ev(tick)) == ()


def test_bool_expr_is_evaluated_after_indexed_conditions(types):
    tick, _, _ = types
    index = FilterIndex()
    seen = []
    p = FilterParam("", FilterOp.BOOL_EXPR, lambda b: seen.append(b) or True, key="spy")
    index.add(FilterSpec(tick, ((p, FilterParam("symbol", EQ, "S1")),)), "a")
    index.match(ev(tick, symbol="S2"))
    assert seen == []
    assert index.match(ev(tick, symbol="S1")) == ["a"]


def test_changes_made_while_processing_a_result_affect_later_matches_only(types):
    tick, _, _ = types
    index = FilterIndex()
    tokens = {}
    for i in range(5):
        tokens[i] = index.add(spec(tick, [("price", GT, i)]), i)
    result = index.match(ev(tick, price=10))
    assert result == [0, 1, 2, 3, 4]
    for h in result:                               # callbacks reshaping the index
        index.remove(tokens[h])
        index.add(spec(tick, [("price", LT, 100)]), f"new{h}")
    assert result == [0, 1, 2, 3, 4]
    assert index.match(ev(tick, price=10)) == [f"new{i}" for i in range(5)]


def test_match_order_is_deterministic(types):
    tick, _, _ = types

    def build():
        index = FilterIndex()
        for i in range(30):
            index.add(spec(tick, [("price", GT, i % 7)], [("symbol", EQ, f"S{i % 3}")]), f"h{i}")
        return index

    e = ev(tick, price=5, symbol="S1")
    assert build().match(e) == build().match(e)


def test_many_equality_filters_route_each_event_to_its_own(types):
    tick, _, _ = types
    index = FilterIndex()
    tokens = [index.add(spec(tick, [("symbol", EQ, f"S{i}")]), i) for i in range(2000)]
    for i in (0, 7, 1999):
        assert index.match(ev(tick, symbol=f"S{i}")) == [i]
    assert index.match(ev(tick, symbol="S2000")) is NO_MATCH
    for t in tokens[::2]:
        index.remove(t)
    assert index.match(ev(tick, symbol="S8")) == ()
    assert index.match(ev(tick, symbol="S7")) == [7]
    for t in tokens:
        index.remove(t)
    assert index.node_count() == 0


def test_equality_entry_leading_to_handles_and_further_conditions(types):
    tick, _, _ = types
    index = FilterIndex()
    index.add(spec(tick, [("symbol", EQ, "S1")]), "a")
    index.add(spec(tick, [("symbol", EQ, "S2")]), "b")
    index.match(ev(tick, symbol="S1"))
    c = index.add(spec(tick, [("symbol", EQ, "S1"), ("price", GT, 5)]), "c")
    # a node's indexes answer before its own handles, as in Esper
    assert index.match(ev(tick, symbol="S1", price=6)) == ["c", "a"]
    assert index.match(ev(tick, symbol="S1", price=4)) == ["a"]
    index.remove(c)
    assert index.match(ev(tick, symbol="S1", price=6)) == ["a"]
    index.add(spec(tick, [("symbol", EQ, "S1"), ("price", GT, 5)]), "d")
    index.add(spec(tick, [("symbol", EQ, "S1")]), "e")
    assert index.match(ev(tick, symbol="S1", price=6)) == ["d", "a", "e"]


def test_thresholds_in_many_registrations(types):
    tick, _, _ = types
    index = FilterIndex()
    for i in range(100):
        index.add(spec(tick, [("price", GT, i)]), ("gt", i))
        index.add(spec(tick, [("price", FilterOp.LE, i)]), ("le", i))
    got = index.match(ev(tick, price=42.5))
    assert sorted(h for h in got if h[0] == "gt") == [("gt", i) for i in range(43)]
    assert sorted(h for h in got if h[0] == "le") == [("le", i) for i in range(43, 100)]


def test_class_event_types(types):
    from dataclasses import dataclass

    from engine.event_types import EventTypeRegistry

    @dataclass
    class Quote:
        symbol: str
        price: float

    @dataclass
    class BigQuote(Quote):
        size: int = 0

    reg = EventTypeRegistry()
    q = reg.register_class(Quote)
    bq = reg.register_class(BigQuote)
    index = FilterIndex()
    index.add(FilterSpec(q, ((FilterParam("symbol", EQ, "A"), FilterParam("price", GT, 1)),)), "a")
    assert index.match(EventBean(bq, BigQuote("A", 2.0, 5))) == ["a"]
    assert index.match(EventBean(q, Quote("A", 0.5))) == ()

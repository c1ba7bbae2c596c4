"""Enumeration methods over every input: data windows (`window(*)`, `window(s.*)`),
`sorted(...)`, subqueries (events, one column, several columns), named windows and tables by
name, pattern repeat arrays, array literals and properties; chained and nested lambdas."""
from __future__ import annotations

import pytest

from engine import Engine
from epl import EPLSyntaxError, EPLValidationError


@pytest.fixture()
def engine() -> Engine:
    e = Engine(time="simulated")
    e.epl("create schema T(id string, price double, qty int, vals int[])")
    e.epl("create schema Q(k string, n int)")
    return e


def listen(engine: Engine, text: str) -> list:
    out: list = []
    engine.epl(text).add_listener(lambda new, old: out.extend(b.to_dict() for b in new or ()))
    return out


def send(engine: Engine, *events: dict, type_name: str = "T") -> None:
    for ev in events:
        engine.send(dict(ev), type_name)


def test_window_where_sum_of_keeps_events(engine):
    out = listen(engine, "select window(*).where(v => v.price > 10).sumOf(v => v.price) as s, "
                         "window(*).where(v => v.price > 10) as w, window(*).where(v => price > 10).countOf() as c "
                         "from T#length(2)")
    send(engine, {"id": "a", "price": 11.0}, {"id": "b", "price": 5.0}, {"id": "c", "price": 20.0})
    assert [r["s"] for r in out] == [11.0, 11.0, 20.0]
    assert [r["c"] for r in out] == [1, 1, 1]
    # events stay events: the row holds the events of the window that passed
    assert [[b.get("id") for b in r["w"]] for r in out] == [["a"], ["a"], ["c"]]


def test_window_of_stream_in_join(engine):
    out = listen(engine, "select window(t.*).selectFrom(v => v.id) as ids from T#length(2) as t")
    send(engine, {"id": "a"}, {"id": "b"}, {"id": "c"})
    assert [r["ids"] for r in out] == [["a"], ["a", "b"], ["b", "c"]]


def test_first_of_and_max_by_property(engine):
    out = listen(engine, "select window(*).firstOf().id as f, window(*).maxBy(v => v.price).id as m from T#length(3)")
    send(engine, {"id": "a", "price": 1.0}, {"id": "b", "price": 3.0}, {"id": "c", "price": 2.0})
    assert out[-1] == {"f": "a", "m": "b"}


def test_sorted_aggregation_as_source(engine):
    out = listen(engine, "select sorted(price).selectFrom(v => v.id) as s, sorted(price).lastOf().id as top "
                         "from T#length(3)")
    send(engine, {"id": "a", "price": 9.0}, {"id": "b", "price": 3.0}, {"id": "c", "price": 5.0})
    assert out[-1] == {"s": ["b", "c", "a"], "top": "a"}


def test_subquery_sources(engine):
    out = listen(engine, "select (select * from T#keepall).where(v => v.qty > n).countOf() as cnt, "
                         "(select qty from T#keepall).sumOf() as total, "
                         "(select id, qty from T#keepall).where(r => r.qty > 1).selectFrom(r => r.id) as ids from Q")
    send(engine, {"id": "a", "qty": 5}, {"id": "b", "qty": 1})
    send(engine, {"k": "x", "n": 3}, type_name="Q")
    assert out == [{"cnt": 1, "total": 6, "ids": ["a"]}]


def test_named_window_and_table_by_name(engine):
    engine.epl("create window W#keepall as T")
    engine.epl("insert into W select * from T")
    engine.epl("create table Tab(id string primary key, price double)")
    engine.epl("insert into Tab select id, price from T")
    out = listen(engine, "select W.where(v => v.price > 1).selectFrom(v => v.id) as w, "
                         "Tab.where(v => v.price > 1).countOf() as t from Q")
    send(engine, {"id": "a", "price": 2.0}, {"id": "b", "price": 0.5})
    send(engine, {"k": "x"}, type_name="Q")
    assert out == [{"w": ["a"], "t": 1}]


def test_pattern_repeat_array(engine):
    out = listen(engine, "select a.countOf() as n, a[0].id as first, a.anyOf(x => x.price > 4) as anyp, "
                         "a.selectFrom(x => x.id) as ids from pattern [[2] a=T]")
    send(engine, {"id": "p", "price": 1.0}, {"id": "q", "price": 5.0})
    assert out == [{"n": 2, "first": "p", "anyp": True, "ids": ["p", "q"]}]


def test_scalar_collections(engine):
    out = listen(engine, "select {1, 2, 3}.sumOf() as a, {1, null, 3}.countOf() as b, "
                         "vals.where(v => v > 1) as c, vals.selectFrom((v, i) => v * i) as d from T")
    send(engine, {"id": "a", "vals": [1, 2, 3]}, {"id": "b"})
    assert out == [{"a": 6, "b": 3, "c": [2, 3], "d": [0, 2, 6]}, {"a": 6, "b": 3, "c": None, "d": None}]


def test_nested_lambdas_see_outer_parameters(engine):
    out = listen(engine, "select window(*).where(v => window(*).anyOf(w => w.price > v.price))"
                         ".selectFrom(v => v.id) as notmax from T#length(3)")
    send(engine, {"id": "m", "price": 1.0}, {"id": "n", "price": 3.0}, {"id": "o", "price": 2.0})
    assert [r["notmax"] for r in out] == [[], ["m"], ["m", "o"]]


def test_enumeration_in_where_and_filter(engine):
    out = listen(engine, "select id from T(vals.anyOf(v => v > 5)) where vals.countOf() > 1")
    send(engine, {"id": "a", "vals": [1, 9]}, {"id": "b", "vals": [9]}, {"id": "c", "vals": [1, 2]})
    assert out == [{"id": "a"}]


def test_unaliased_column_is_named_as_esper_does(engine):
    stmt = engine.epl("select vals.where(v => v > 1), vals.aggregate(0, (r, v) => r + v) from T")
    assert set(stmt.event_type.property_names) == {"vals.where()", "vals.aggregate(0,)"}


def test_lambda_outside_a_method_argument_is_a_syntax_error(engine):
    with pytest.raises(EPLSyntaxError):
        engine.epl("select v => v from T")


def test_invalid_uses(engine):
    with pytest.raises(EPLValidationError, match="expecting collection of values"):
        engine.epl("select window(*).sumOf() from T#length(2)")
    with pytest.raises(EPLValidationError, match="takes 1 to 3 parameter"):
        engine.epl("select vals.where((a, b, c, d) => true) from T")
    with pytest.raises(EPLValidationError, match="Initialization value is null-typed"):
        engine.epl("select vals.aggregate(null, (r, v) => r) from T")


def test_arrow_lambda_and_single_values_as_collections(engine):
    engine.epl("create schema SB(theString string, intPrimitive int)")
    out = listen(engine, "select window(*).allOf(x -> x.intPrimitive < 5) as val0, first(*).allOf(x => x.intPrimitive < 5) as val1, "
                         "first(*, 1).allOf(x => x.intPrimitive < 5) as val2, last(*).allOf(x => x.intPrimitive < 5) as val3, "
                         "last(*, 1).allOf(x => x.intPrimitive < 5) as val4 from SB#length(2)")
    for s, i in (("E1", 1), ("E2", 10), ("E3", 2)):
        engine.send({"theString": s, "intPrimitive": i}, "SB")
    assert [list(r.values()) for r in out] == [[True, True, None, True, None], [False, True, False, False, True],
                                               [False, False, True, True, False]]


def test_named_window_with_conditions_and_empty_is_null(engine):
    engine.epl("create schema ST0(id string, key0 string, p00 int)")
    engine.epl("create schema SB(theString string)")
    engine.epl("create window MyWindow#keepall as ST0")
    engine.epl("insert into MyWindow select * from ST0")
    out = listen(engine, "select MyWindow.allOf(x => x.p00 < 5) as a, "
                         "MyWindow(key0 = sb.theString).allOf(x => x.p00 < 5) as b from SB#keepall sb")
    engine.send({"theString": "E1"}, "SB")
    engine.send({"id": "E2", "key0": "KEY1", "p00": 1}, "ST0")
    engine.send({"theString": "E2"}, "SB")
    engine.send({"theString": "KEY1"}, "SB")
    assert out == [{"a": None, "b": None}, {"a": True, "b": None}, {"a": True, "b": True}]


def test_pattern_filter_with_lambda(engine):
    engine.epl("create schema ST0(id string, p00 int)")
    engine.epl("create schema SB(theString string, intPrimitive int)")
    out = listen(engine, "select b.theString as b from pattern [([2] a=ST0) -> b=SB(intPrimitive > a.max(i -> p00))]")
    engine.send({"id": "E1", "p00": 10}, "ST0")
    engine.send({"id": "E2", "p00": 15}, "ST0")
    engine.send({"theString": "E3", "intPrimitive": 15}, "SB")
    engine.send({"theString": "E4", "intPrimitive": 16}, "SB")
    assert out == [{"b": "E4"}]


def test_table_window_column_with_type(engine):
    engine.epl("create schema SB(theString string, intPrimitive int)")
    engine.epl("create table MyTableUnkeyed(theWindow window(*) @type(SB))")
    engine.epl("into table MyTableUnkeyed select window(*) as theWindow from SB#time(30)")
    engine.send({"theString": "E1", "intPrimitive": 10}, "SB")
    engine.send({"theString": "E2", "intPrimitive": 20}, "SB")
    out = listen(engine, "select MyTableUnkeyed.theWindow.anyOf(v => intPrimitive = 10) as c0, "
                         "MyTableUnkeyed.theWindow.selectFrom(v => v.theString) as c1 from Q")
    send(engine, {"k": "x"}, type_name="Q")
    assert out == [{"c0": True, "c1": ["E1", "E2"]}]


def test_event_collections_through_insert_into(engine):
    engine.deploy("""create schema MyEvent(id string, value int);
insert into StreamWithAll select * from pattern[[4] me=MyEvent];
insert into StreamGreaterZero select me.where(v => v.value>0) @eventbean as megt from StreamWithAll;
insert into StreamLessThenTen select megt.where(v => v.value<10) @eventbean as melt from StreamGreaterZero;
""")
    out = listen(engine, "select melt.selectFrom(v => v.id) as ids from StreamLessThenTen")
    for i, v in (("E1", 1), ("E2", -1), ("E3", 11), ("E4", 4)):
        engine.send({"id": i, "value": v}, "MyEvent")
    assert out == [{"ids": ["E1", "E4"]}]


def test_untyped_collections_never_raise(engine):
    engine.epl("create schema U(vals object)")
    out = listen(engine, "select vals.sumOf() as s, vals.average() as a, vals.orderBy() as o from U")
    for v in ([1, "x", 3], [1, 2, 3], "abc", None):
        engine.send({"vals": v}, "U")
    assert out == [{"s": None, "a": None, "o": [1, "x", 3]}, {"s": 6, "a": 2.0, "o": [1, 2, 3]},
                   {"s": None, "a": None, "o": None}, {"s": None, "a": None, "o": None}]


def test_null_typed_lambdas_are_refused_as_in_esper(engine):
    with pytest.raises(EPLValidationError, match="expected a non-null result"):
        engine.epl("select vals.sumOf(v => null) from T")
    with pytest.raises(EPLValidationError, match="Null-type is not allowed"):
        engine.epl("select vals.orderBy(v => null) from T")
    engine.epl("select vals.distinctOf(v => null), vals.aggregate(0, (r, v) => null) from T")   # allowed


def test_lambda_parameters_are_no_ungrouped_properties(engine):
    # fully aggregated: one row per batch, as without the lambda
    out = listen(engine, "select window(*).where(v => v.qty > 0).countOf() as c, "
                         "window(*).where(v => qty > 0).countOf() as d from T#length_batch(2)")
    send(engine, {"id": "a", "qty": 1}, {"id": "b", "qty": 2})
    assert out == [{"c": 2, "d": 2}]


def test_lambda_in_join_where_clause(engine):
    engine.epl("create schema Item(itemId string, selected string)")
    engine.epl("create schema Sel(selectorId string, selector string)")
    engine.epl("create schema Cont(containerId string, items Item[])")
    out = listen(engine, "select sel.selectorId as s, cont.containerId as c from Sel#keepall as sel, Cont#keepall as cont "
                         "where cont.items.anyOf(i => sel.selector = i.selected)")
    engine.send({"selectorId": "S1", "selector": "sel1"}, "Sel")
    engine.send({"containerId": "C1", "items": [{"itemId": "I1", "selected": "sel1"}]}, "Cont")
    engine.send({"containerId": "C2", "items": [{"itemId": "I2", "selected": "x"}]}, "Cont")
    assert out == [{"s": "S1", "c": "C1"}]


def test_match_recognize_defines_and_measures(engine):
    engine.epl("create schema SB(theString string, intPrimitive int)")
    out = listen(engine, "select * from SB match_recognize (measures A.anyOf(v => v.intPrimitive = B.intPrimitive) as c0 "
                         "pattern (A* B) define A as A.theString like 'A%', B as B.theString like 'B%')")
    for s, i in (("A1", 10), ("A2", 20), ("B1", 20), ("A1", 10), ("A2", 20), ("B1", 15)):
        engine.send({"theString": s, "intPrimitive": i}, "SB")
    assert out == [{"c0": True}, {"c0": False}]
    ids = listen(engine, "select ids from SB match_recognize (measures A.selectFrom(o -> o.theString) as ids "
                         "pattern (A{3}) define A as A.intPrimitive = 1)")
    for k in range(3):
        engine.send({"theString": f"E{k + 1}", "intPrimitive": 1}, "SB")
    assert ids == [{"ids": ["E1", "E2", "E3"]}]

"""Expression declarations: `expression name {params => body}` before a statement,
`expression name alias for {body}`, `create expression` for later statements (and what
destroying it does), with parameters, aggregations, subqueries and enumeration methods."""
from __future__ import annotations

import pytest

from engine import Engine
from epl import EPLValidationError


@pytest.fixture()
def engine() -> Engine:
    e = Engine(time="simulated")
    e.epl("create schema SupportBean(theString string, intPrimitive int)")
    e.epl("create schema S0(id int, p00 string)")
    return e


def listen(engine: Engine, text: str) -> list:
    out: list = []
    engine.epl(text).add_listener(lambda new, old: out.extend(b.to_dict() for b in new or ()))
    return out


def sb(engine: Engine, s: str, i: int) -> None:
    engine.send({"theString": s, "intPrimitive": i}, "SupportBean")


def test_inline_declarations_with_parameters_and_events(engine):
    out = listen(engine, "@name('s0') expression twice {x => x * 2} expression isBig {v => v.intPrimitive > 4} "
                         "select theString, twice(intPrimitive) as tw, isBig(sb) as big from SupportBean as sb")
    sb(engine, "E1", 5)
    sb(engine, "E2", 2)
    assert out == [{"theString": "E1", "tw": 10, "big": True}, {"theString": "E2", "tw": 4, "big": False}]
    assert engine.statement("s0").name == "s0"


def test_column_keeps_the_written_name(engine):
    stmt = engine.epl("expression twice {x => x * 2} select twice(intPrimitive) from SupportBean")
    assert list(stmt.event_type.property_names) == ["twice(intPrimitive)"]


def test_no_parameters_aggregation_and_several_parameters(engine):
    out = listen(engine, "expression total {sum(intPrimitive)} expression plus {(a, b) => a + b} "
                         "select total() as t, plus(total(), 1) as p from SupportBean")
    sb(engine, "E1", 5)
    sb(engine, "E2", 2)
    assert out == [{"t": 5, "p": 6}, {"t": 7, "p": 8}]


def test_alias_declaration(engine):
    out = listen(engine, "expression total alias for {sum(intPrimitive)} select total as t from SupportBean")
    sb(engine, "E1", 5)
    assert out == [{"t": 5}]


def test_subquery_and_enumeration_in_declared_expressions(engine):
    out = listen(engine, "expression last2 {(select * from SupportBean#length(2))} "
                         "expression big {x => x.where(v => v.intPrimitive > 3)} "
                         "select big(last2()).selectFrom(v => v.theString) as names, "
                         "last2().countOf() as n from S0")
    sb(engine, "E1", 5)
    sb(engine, "E2", 2)
    sb(engine, "E3", 8)
    engine.send({"id": 1, "p00": "x"}, "S0")
    assert out == [{"names": ["E3"], "n": 2}]


def test_declared_expression_uses_another(engine):
    out = listen(engine, "expression twice {x => x * 2} expression quad {x => twice(twice(x))} "
                         "select quad(intPrimitive) as q from SupportBean")
    sb(engine, "E1", 3)
    assert out == [{"q": 12}]


def test_create_expression_for_later_statements_and_destroy(engine):
    decl = engine.epl("create expression twice {x => x * 2}")
    out = listen(engine, "select twice(intPrimitive) as tw from SupportBean")
    sb(engine, "E1", 3)
    decl.destroy()
    sb(engine, "E2", 4)          # a statement that inlined it keeps working
    assert out == [{"tw": 6}, {"tw": 8}]
    with pytest.raises(EPLValidationError):
        engine.epl("select twice(intPrimitive) from SupportBean")
    engine.epl("create expression twice {x => x * 3}")      # the name is free again
    out2 = listen(engine, "select twice(intPrimitive) as tw from SupportBean")
    sb(engine, "E3", 1)
    assert out2 == [{"tw": 3}]


def test_local_declaration_overrides_created_one(engine):
    engine.epl("create expression f {x => x + 1}")
    out = listen(engine, "expression f {x => x + 100} select f(intPrimitive) as r from SupportBean")
    sb(engine, "E1", 1)
    assert out == [{"r": 101}]


def test_declaration_in_where_and_filter(engine):
    out = listen(engine, "expression big {v => v > 4} select theString from SupportBean(big(intPrimitive)) "
                         "where big(intPrimitive + 1)")
    sb(engine, "E1", 5)
    sb(engine, "E2", 1)
    assert out == [{"theString": "E1"}]


def test_errors(engine):
    with pytest.raises(EPLValidationError, match="Parameter count mismatches"):
        engine.epl("expression twice {x => x * 2} select twice(1, 2) from SupportBean")
    engine.epl("create expression g {x => x}")
    with pytest.raises(EPLValidationError, match="already been declared"):
        engine.epl("create expression g {x => x}")
    with pytest.raises(EPLValidationError, match="without end"):
        engine.epl("expression a {x => b(x)} expression b {x => a(x)} select a(1) from SupportBean")


def test_forms_of_esper_regression(engine):
    engine.epl("create schema ST0(id string, p00 int)")
    out = listen(engine, "@name('a') expression returnsOne {1} select returnsOne as c0 from SupportBean")
    sb(engine, "E1", 2)
    assert out == [{"c0": 1}]
    stmt = engine.epl("expression scalar {1} @Name('b') select scalar() from ST0")
    assert stmt.name == "b" and list(stmt.event_type.property_names) == ["scalar()"]
    out = listen(engine, "expression abc { x => intPrimitive } expression def { (x, y) => x.intPrimitive * y.intPrimitive } "
                         "select abc(*) as c0, def(*, *) as c1 from SupportBean")
    sb(engine, "E1", 2)
    assert out == [{"c0": 2, "c1": 4}]


def test_event_parameter_binds_unqualified_names_in_patterns(engine):
    out = listen(engine, "expression abc { x => intPrimitive * 2} select a.theString as a, b.theString as b "
                         "from pattern [a=SupportBean -> b=SupportBean(intPrimitive = abc(a))]")
    sb(engine, "E1", 2)
    sb(engine, "E2", 4)
    assert out == [{"a": "E1", "b": "E2"}]


def test_alias_called_with_parentheses_and_property_of_result(engine):
    engine.epl("create schema ST0(id string, p00 int)")
    out = listen(engine, "expression subq alias for { (select max(intPrimitive) as maxi, min(intPrimitive) as mini "
                         "from SupportBean#keepall) } select p00/subq().maxi as val0, p00/subq.mini as val1 from ST0#lastevent")
    sb(engine, "E1", 10)
    sb(engine, "E2", 5)
    engine.send({"id": "x", "p00": 2}, "ST0")
    assert out == [{"val0": 0.2, "val1": 0.4}]


def test_nested_created_expressions_with_subqueries(engine):
    engine.epl("create expression F1 { (select intPrimitive from SupportBean#lastevent)}")
    engine.epl("create expression F2 { param => (select a.intPrimitive from SupportBean#unique(theString) as a "
               "where a.theString = param.theString) }")
    engine.epl("create expression F3 { s => F1()+F2(s) }")
    out = listen(engine, "select F3(myevent) as c0 from SupportBean as myevent")
    sb(engine, "E1", 10)
    sb(engine, "E1", 11)
    assert out == [{"c0": 20}, {"c0": 22}]


def test_alias_forms_of_esper_regression(engine):
    stmt = engine.epl("expression total alias for {sum(intPrimitive)} select total, total+1 from SupportBean")
    assert list(stmt.event_type.property_names) == ["total", "total+1"]
    out: list = []
    stmt.add_listener(lambda new, old: out.extend(b.to_dict() for b in new))
    sb(engine, "E1", 10)
    assert out == [{"total": 10, "total+1": 11}]
    engine.epl("create expression F1 alias for {10}")
    engine.epl("create expression F2 alias for {20}")
    engine.epl("create expression F3 alias for {F1+F2}")
    engine.epl("create expression myalias alias for {1}")
    out2 = listen(engine, "select F3 as c0 from SupportBean(intPrimitive = myalias)")
    sb(engine, "E1", 0)
    sb(engine, "E2", 1)
    assert out2 == [{"c0": 30}]


def test_alias_in_context_statement_filter(engine):
    engine.epl("create expression the_expr alias for {theString='a' and intPrimitive=1}")
    engine.epl("create context the_context start @now end after 10 minutes")
    out = listen(engine, "context the_context select * from SupportBean(the_expr)")
    sb(engine, "a", 1)
    sb(engine, "b", 1)
    assert [r["theString"] for r in out] == ["a"]


def test_declarations_in_fire_and_forget_queries(engine):
    engine.epl("create window W#keepall as SupportBean")
    engine.epl("insert into W select * from SupportBean")
    sb(engine, "a", 5)
    sb(engine, "b", 15)
    rows = engine.execute_query("expression big {x => x.intPrimitive > 10} select theString from W where big(W)")
    assert [r.to_dict() for r in rows] == [{"theString": "b"}]

"""Substitution parameters and prepared statements: `?`, `?:name`, `?:name:type`."""
from __future__ import annotations

import pytest
from recording import Rec

from engine import Engine
from epl.errors import EPLValidationError


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.epl("create schema Tick(sym string, price double, vol int)")
    return e


def send(e, sym, price, vol=0):
    e.send({"sym": sym, "price": price, "vol": vol}, "Tick")


def test_positional_parameters_in_filter_and_select(engine):
    p = engine.prepare("select sym, ? as tag from Tick(sym = ?) where price > ?")
    assert p.parameters == [1, 2, 3]
    rec = Rec(p.deploy(["x", "IBM", 10.0]))
    send(engine, "IBM", 5.0)
    send(engine, "MSFT", 50.0)
    send(engine, "IBM", 50.0)
    assert rec.pop() == [[{"sym": "IBM", "tag": "x"}]]


def test_one_prepared_statement_deploys_many_times(engine):
    p = engine.prepare("select sym from Tick(sym = ?:s)")
    a, b = Rec(p.deploy(s="A")), Rec(p.deploy({"s": "B"}))
    send(engine, "A", 1)
    send(engine, "B", 1)
    assert a.pop() == [[{"sym": "A"}]] and b.pop() == [[{"sym": "B"}]]


def test_named_parameter_used_twice_and_typed(engine):
    p = engine.prepare("select sym from Tick where vol > ?:lim:int and vol < ?:lim:int * 3")
    assert p.parameters == ["lim"]
    rec = Rec(p.deploy(lim=2))
    for v in (1, 3, 5, 7):
        send(engine, "A", 1, v)
    assert len(rec.pop()) == 2


def test_parameter_in_view(engine):
    rec = Rec(engine.prepare("select irstream count(*) as c from Tick#length(?:n:int)").deploy(n=2))
    for _ in range(3):
        send(engine, "A", 1)
    assert [c[0]["c"] for c in rec.pop()] == [1, 2, 2]


def test_parameter_in_pattern_filter(engine):
    rec = Rec(engine.prepare(
        "select a.sym as s from pattern[every a=Tick(sym = ?) -> b=Tick(price > ?)]").deploy(["A", 5.0]))
    send(engine, "B", 9)
    send(engine, "A", 1)
    send(engine, "A", 2)
    send(engine, "C", 9)
    assert rec.pop() == [[{"s": "A"}, {"s": "A"}]]


def test_missing_value_names_the_parameter(engine):
    with pytest.raises(EPLValidationError, match="name 'lim' not set"):
        engine.prepare("select * from Tick where vol > ?:lim").deploy()
    with pytest.raises(EPLValidationError, match="index 2 not set"):
        engine.prepare("select * from Tick where vol > ? and price > ?").deploy([1])


def test_wrong_type_names_the_parameter(engine):
    with pytest.raises(EPLValidationError, match="'lim' expects a value of type 'int'"):
        engine.prepare("select * from Tick where vol > ?:lim:int").deploy(lim="many")


def test_unknown_name_and_mixed_forms_refused(engine):
    with pytest.raises(EPLValidationError, match="'other' not found"):
        engine.prepare("select * from Tick where vol > ?:lim").deploy(lim=1, other=2)
    with pytest.raises(EPLValidationError, match="Inconsistent use of substitution parameters"):
        engine.prepare("select * from Tick where vol > ?:lim and price > ?")


def test_unbound_parameter_in_epl_is_an_error(engine):
    with pytest.raises(EPLValidationError, match="Substitution parameters have not been provided"):
        engine.epl("select * from Tick where vol > ?")
    assert engine.statements[1:] == []


def test_statement_name_and_objects(engine):
    import datetime
    d = datetime.date(2020, 1, 2)
    stmt = engine.prepare("select ? as d from Tick").deploy([d], statement_name="withdate")
    rec = Rec(stmt)
    send(engine, "A", 1)
    assert engine.statement("withdate") is stmt and rec.pop() == [[{"d": d}]]


def test_parameter_as_time_period_amount(engine):
    rec = Rec(engine.prepare("select irstream count(*) as c from Tick#time(?:s sec)").deploy(s=2))
    send(engine, "A", 1)
    engine.advance_time(1999)
    engine.advance_time(2000)
    assert [c[0]["c"] for c in rec.pop()] == [1, 0]


def test_positional_parameter_with_a_type_in_a_view():
    """Esper's ViewTimeWindowPreparedStmt: `#time(?::int)` deployed with 4 and with 3."""
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema SupportBean(theString string, intPrimitive int)")
    p = e.prepare("select rstream theString from SupportBean#time(?::int)")
    assert p.parameters == [1]
    s0, s1 = Rec(p.deploy([4])), Rec(p.deploy([3]))
    for t, name in ((1000, "E1"), (2000, "E2"), (3000, "E3")):
        e.advance_time(t)
        e.send({"theString": name, "intPrimitive": 1}, "SupportBean")
    e.advance_time(4000)
    assert s1.pop() == [[{"theString": "E1"}]] and s0.pop() == []
    e.advance_time(5000)
    assert s0.pop() == [[{"theString": "E1"}]]
    with pytest.raises(EPLValidationError, match="index 1 expects a value of type 'int'"):
        p.deploy(["x"])


def test_typed_positional_parameter_prints_back():
    from epl import parse
    from epl.printer import to_epl
    text = "select ?::string as x from Tick"
    assert to_epl(parse(text)) == text

"""Object-array and JSON event types, and variant streams."""
from __future__ import annotations

import pytest
from recording import Rec

from engine import Engine
from engine.errors import EventTypeError
from epl.errors import EPLValidationError


@pytest.fixture
def engine():
    return Engine(time="simulated")


# -- object-array types ----------------------------------------------------------------------

def test_objectarray_events_in_declared_order(engine):
    engine.epl("create objectarray schema Base(id string)")
    engine.epl("create objectarray schema Tick(sym string, price double) inherits Base")
    rec = Rec(engine.epl("select id, sym, price from Tick(price > 1)"))
    engine.send(["t1", "IBM", 2.5], "Tick")          # supertype's properties first
    engine.send(("t2", "MSFT", 0.5), "Tick")
    engine.send_many([["t3", "A", 3.0]], "Tick")
    assert rec.pop() == [[{"id": "t1", "sym": "IBM", "price": 2.5}],
                         [{"id": "t3", "sym": "A", "price": 3.0}]]


def test_objectarray_by_annotation_and_errors(engine):
    engine.epl("@EventRepresentation(objectarray) create schema P(a int, b int)")
    rec = Rec(engine.epl("select a + b as s from P"))
    engine.send([1, 2], "P")
    assert rec.pop() == [[{"s": 3}]]
    with pytest.raises(EventTypeError, match="has 2 properties"):
        engine.send([1, 2, 3], "P")
    with pytest.raises(EventTypeError, match="property 'b' expects an integer"):
        engine.send([1, "x"], "P")


def test_objectarray_nested(engine):
    engine.epl("create objectarray schema Pt(x int, y int)")
    engine.epl("create objectarray schema Seg(name string, origin Pt, pts Pt[])")
    rec = Rec(engine.epl("select origin.x as sx, pts[1].y as y1 from Seg"))
    engine.send(["s", [1, 2], [[3, 4], [5, 6]]], "Seg")
    assert rec.pop() == [[{"sx": 1, "y1": 6}]]


# -- JSON types ------------------------------------------------------------------------------

def test_json_text_and_dicts_with_nested_objects_and_arrays(engine):
    engine.epl("create json schema Item(sku string, qty int)")
    engine.epl("create json schema Purchase(id string, first Item, items Item[], tags string[])")
    rec = Rec(engine.epl("select id, first.sku as f, items[1].qty as q, tags[0] as t from Purchase"))
    engine.send('{"id": "o1", "first": {"sku": "a", "qty": 1}, '
                '"items": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 7}], "tags": ["x"]}', "Purchase")
    engine.send({"id": "o2", "first": {"sku": "c", "qty": 2}}, "Purchase")
    assert rec.pop() == [[{"id": "o1", "f": "a", "q": 7, "t": "x"}],
                         [{"id": "o2", "f": "c", "q": None, "t": None}]]


def test_json_dynamic_and_errors(engine):
    engine.epl("@JsonSchema(dynamic=true) create json schema D(a int)")
    rec = Rec(engine.epl("select a, extra from D"))
    engine.send('{"a": 1, "extra": "yes"}', "D")
    assert rec.pop() == [[{"a": 1, "extra": "yes"}]]
    engine.epl("create json schema S(a int)")
    engine.epl("select a from S")
    with pytest.raises(EPLValidationError):
        engine.epl("select extra from S")           # not dynamic: undeclared is unknown
    with pytest.raises(EventTypeError, match="Failed to parse JSON"):
        engine.send("{oops", "S")
    with pytest.raises(EventTypeError, match="expects an integer"):
        engine.send('{"a": "text"}', "S")


# -- variant streams -------------------------------------------------------------------------

def _members(engine):
    engine.deploy("""
        create schema A(id string, a int, x double);
        create schema B(id string, b int, x int);
        create variant schema V as A, B;
        insert into V select * from A;
        insert into V select * from B;
    """)


def test_variant_stream_sees_every_member_type(engine):
    _members(engine)
    rec = Rec(engine.epl("select id, x, a, b from V(id != 'skip')"))
    wild = Rec(engine.epl("select * from V"))
    engine.send({"id": "1", "a": 5, "x": 1.5}, "A")
    engine.send({"id": "skip", "a": 5, "x": 1.5}, "A")
    engine.send({"id": "2", "b": 6, "x": 2}, "B")
    assert rec.pop() == [[{"id": "1", "x": 1.5, "a": 5, "b": None}],
                         [{"id": "2", "x": 2, "a": None, "b": 6}]]
    assert wild.pop()[2] == [{"id": "2", "b": 6, "x": 2}]


def test_variant_properties_common_are_typed(engine):
    _members(engine)
    from engine import epl_types as T
    v = engine.event_type("V")
    assert v.property_type("id") == T.STRING           # same type in both members
    assert v.property_type("x").kind is T.EPLType.OBJECT   # int in one, double in the other
    assert v.property_type("a").kind is T.EPLType.OBJECT   # only in A: dynamic


def test_variant_aggregates_across_types(engine):
    _members(engine)
    rec = Rec(engine.epl("select count(*) as c, sum(cast(a, int)) as sa from V#length(3)"))
    engine.send({"id": "1", "a": 5, "x": 1.5}, "A")
    engine.send({"id": "2", "b": 6, "x": 2}, "B")
    engine.send({"id": "3", "a": 1, "x": 1.0}, "A")
    assert rec.pop()[-1] == [{"c": 3, "sa": 6}]


def test_variant_refuses_other_types_and_direct_sends(engine):
    _members(engine)
    engine.epl("create schema C(id string)")
    with pytest.raises(EPLValidationError, match="not a valid event type of the variant stream 'V'"):
        engine.epl("insert into V select * from C")
    with pytest.raises(EPLValidationError, match="could not be found for use in variant stream"):
        engine.epl("create variant schema W as A, Nope")
    with pytest.raises(EventTypeError, match="variant stream"):
        engine.send({"id": "1"}, "V")


def test_variant_of_any_type(engine):
    engine.deploy("""
        create schema A(id string, a int);
        create schema C(name string);
        create variant schema Any1 as *;
        insert into Any1 select * from A;
        insert into Any1 select * from C;
        insert into Any1 select name as id, 1 as q from C;
    """)
    rec = Rec(engine.epl("select id, name, q from Any1"))
    engine.send({"id": "1", "a": 5}, "A")
    engine.send({"name": "n"}, "C")
    assert rec.pop() == [[{"id": "1", "name": None, "q": None}],
                         [{"id": None, "name": "n", "q": None}], [{"id": "n", "name": None, "q": 1}]]


def test_named_window_of_a_variant_stream_keeps_member_properties(engine):
    _members(engine)
    engine.deploy("create window VW#keepall as V; insert into VW select * from V")
    rec = Rec(engine.epl("select id, a, b from VW"))
    engine.send({"id": "1", "a": 5, "x": 1.5}, "A")
    engine.send({"id": "2", "b": 6, "x": 2}, "B")
    assert rec.pop() == [[{"id": "1", "a": 5, "b": None}], [{"id": "2", "a": None, "b": 6}]]
    assert [r.to_dict() for r in engine.execute_query("select * from VW")] == [
        {"id": "1", "a": 5, "x": 1.5}, {"id": "2", "b": 6, "x": 2}]
    assert len(engine.execute_query("select * from VW where b = 6")) == 1

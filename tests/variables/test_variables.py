"""Variables: declaration, `on ... set`, use in filters, where and output conditions, and the
Python API; a change takes effect for the next event."""
from __future__ import annotations

import pytest

from engine import Engine
from engine.variables import VariableError
from epl.errors import EPLValidationError
from recording import Rec


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema T(k string, v int)")
    e.epl("create schema Setter(n int)")
    yield e
    e.close()


def test_declare_read_and_set_from_python(engine):
    engine.epl("create variable int threshold = 10")
    engine.epl("create variable string label")
    assert engine.get_variable("threshold") == 10
    assert engine.get_variable("label") is None
    engine.set_variable("label", "x")
    engine.variables["threshold"] = 3
    assert engine.variables["label"] == "x" and engine.get_variable("threshold") == 3
    with pytest.raises(VariableError, match="cannot be assigned"):
        engine.set_variable("threshold", "high")
    with pytest.raises(VariableError, match="has not been created"):
        engine.get_variable("nope")


def test_constant_variables(engine):
    engine.epl("create constant variable int MAXV = 5")
    with pytest.raises(VariableError, match="constant"):
        engine.set_variable("MAXV", 6)
    with pytest.raises(EPLValidationError, match="constant"):
        engine.epl("on Setter set MAXV = n")
    rec = Rec(engine.epl("select k from T(v > MAXV)"))
    engine.send({"k": "a", "v": 5}, "T")
    engine.send({"k": "b", "v": 6}, "T")
    assert rec.pop() == [[{"k": "b"}]]


def test_filter_and_where_follow_the_variable(engine):
    engine.epl("create variable int threshold = 10")
    by_filter = Rec(engine.epl("select k from T(v > threshold)"))
    by_where = Rec(engine.epl("select k from T where v > threshold"))
    engine.send({"k": "a", "v": 5}, "T")
    engine.set_variable("threshold", 1)
    engine.send({"k": "b", "v": 5}, "T")
    assert by_filter.pop() == [[{"k": "b"}]]
    assert by_where.pop() == [[{"k": "b"}]]


def test_on_set_takes_effect_for_the_next_event(engine):
    engine.epl("create variable int threshold = 100")
    setter = Rec(engine.epl("on T set threshold = v"))
    # processing the same event, the filter still sees the old value
    rec = Rec(engine.epl("select k from T(v > threshold)"))
    engine.send({"k": "a", "v": 5}, "T")
    assert engine.get_variable("threshold") == 5
    assert rec.pop() == []
    assert setter.pop() == [[{"threshold": 5}]]
    engine.send({"k": "b", "v": 6}, "T")
    assert rec.pop() == [[{"k": "b"}]]


def test_on_set_assignments_see_earlier_ones(engine):
    engine.epl("create variable int a = 1")
    engine.epl("create variable int b = 0")
    engine.epl("create variable double ratio = 0")
    engine.epl("on Setter set a = a + n, b = a * 2, ratio = n")
    engine.send({"n": 4}, "Setter")
    assert (engine.get_variable("a"), engine.get_variable("b"), engine.get_variable("ratio")) == (5, 10, 4.0)


def test_on_set_type_checks(engine):
    engine.epl("create variable int i = 0")
    with pytest.raises(EPLValidationError, match="cannot be assigned"):
        engine.epl("on T set i = 1.5")
    with pytest.raises(EPLValidationError, match="has not been created"):
        engine.epl("on T set nope = 1")


def test_output_condition_with_variable(engine):
    engine.epl("create variable int batch = 2")
    rec = Rec(engine.epl("select k from T output every batch events"))
    for k in "abc":
        engine.send({"k": k, "v": 0}, "T")
    assert rec.pop() == [[{"k": "a"}, {"k": "b"}]]


def test_set_from_a_listener_applies_after_the_event(engine):
    engine.epl("create variable int threshold = 100")
    s = engine.epl("select k from T")
    s.add_listener(lambda new, old: engine.set_variable("threshold", 0))
    rec = Rec(engine.epl("select k from T(v > threshold)"))
    engine.send({"k": "a", "v": 5}, "T")
    engine.send({"k": "b", "v": 5}, "T")
    assert rec.pop() == [[{"k": "b"}]]


def test_destroying_create_variable_removes_it(engine):
    s = engine.epl("create variable long counter = 0")
    s.destroy()
    with pytest.raises(VariableError):
        engine.get_variable("counter")
    engine.epl("create variable long counter = 1")
    assert engine.get_variable("counter") == 1

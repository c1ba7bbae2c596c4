"""View parameters given by variables: Esper evaluates a parameter that reads no event once,
when the statement is created, so a later change of the variable does not resize a window
already created (Esper's ViewTimeWindow variable scenarios)."""
from __future__ import annotations

import pytest

from engine import Engine
from epl.errors import EPLValidationError


def _engine(*decls):
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema SupportBean(theString string, intPrimitive int)")
    for d in decls:
        e.epl(d)
    return e


def _rstream(stmt):
    got = []
    stmt.add_listener(lambda new, old: got.extend(b["theString"] for b in new or ()))
    return got


def _esper_assertion(e, s0, s1):
    """Esper's runAssertion: s0 is a 4-second window, s1 a 3-second one."""
    for t, name in ((1000, "E1"), (2000, "E2"), (3000, "E3")):
        e.advance_time(t)
        e.send({"theString": name, "intPrimitive": 1}, "SupportBean")
    assert s0 == [] and s1 == []
    e.advance_time(4000)
    assert s1 == ["E1"] and s0 == []
    e.advance_time(5000)
    assert s0 == ["E1"]


def test_time_window_of_a_variable_number_of_seconds():
    e = _engine("create variable int TIME_WIN_ONE = 4")
    text = "select rstream theString from SupportBean#time(TIME_WIN_ONE)"
    s0 = _rstream(e.epl(text))
    e.set_variable("TIME_WIN_ONE", 3)
    s1 = _rstream(e.epl(text))
    _esper_assertion(e, s0, s1)


def test_time_window_of_a_variable_time_period():
    e = _engine("create variable double TIME_WIN_TWO = 4000")
    s0 = _rstream(e.epl("select rstream theString from SupportBean#time(TIME_WIN_TWO milliseconds)"))
    e.set_variable("TIME_WIN_TWO", 0.05)
    s1 = _rstream(e.epl("select rstream theString from SupportBean#time(TIME_WIN_TWO minutes)"))
    _esper_assertion(e, s0, s1)


def test_time_batch_and_length_take_the_value_at_creation():
    e = _engine("create variable long v = 1000", "create variable int n = 2")
    batches = []
    e.epl("select irstream theString from SupportBean#time_batch(v msec)").add_listener(
        lambda new, old: batches.append(([b["theString"] for b in new or ()],
                                         [b["theString"] for b in old or ()])))
    lengths = []
    e.epl("select irstream theString from SupportBean#length(n)").add_listener(
        lambda new, old: lengths.append([b["theString"] for b in old or ()]))
    e.set_variable("v", 5000)
    e.set_variable("n", 10)
    for name in "abc":
        e.send({"theString": name, "intPrimitive": 1}, "SupportBean")
    e.advance_time(1000)
    assert batches == [(["a", "b", "c"], [])]
    assert lengths == [[], [], ["a"]]


def test_a_parameter_reading_the_event_is_still_refused():
    e = _engine()
    with pytest.raises(EPLValidationError, match="Error in view 'time'"):
        e.epl("select * from SupportBean#time(intPrimitive)")

"""Variables as time-period amounts (`output last every secs seconds`, read again whenever the
next interval starts, as Esper's time-period computations do) and variables declared with a
context (`context C create variable`: a value per partition)."""
from __future__ import annotations

import pytest

from engine import Engine
from epl.errors import EPLValidationError
from recording import Rec


def _engine():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema T(v int)")
    return e


def test_output_every_variable_seconds_follows_the_variable():
    e = _engine()
    e.epl("create variable int secs = 2")
    rec = Rec(e.epl("select count(*) as c from T output last every secs seconds"))
    e.advance_time(500)
    e.send({"v": 1}, "T")                  # intervals from 500: 2500, 4500, ...
    e.advance_time(2499)
    assert rec.pop() == []
    e.advance_time(2500)
    assert rec.pop() == [[{"c": 1}]]
    e.set_variable("secs", 1)     # the interval under way keeps its length, the next is 1 s
    e.send({"v": 2}, "T")
    e.advance_time(4500)
    assert rec.pop() == [[{"c": 2}]]
    e.send({"v": 3}, "T")
    e.advance_time(5500)
    assert rec.pop() == [[{"c": 3}]]


def test_output_every_variable_period_in_a_sum_of_units():
    e = _engine()
    e.epl("create variable int mins = 1")
    rec = Rec(e.epl("select count(*) as c from T output every mins minutes 30 seconds"))
    e.send({"v": 1}, "T")
    e.advance_time(89_999)
    assert rec.pop() == []
    e.advance_time(90_000)
    assert rec.pop() == [[{"c": 1}]]


def test_time_period_amount_must_be_numeric():
    e = _engine()
    e.epl("create variable string s = 'x'")
    with pytest.raises(EPLValidationError):
        e.epl("select count(*) from T output every s seconds")


def test_context_variable_has_a_value_per_partition():
    e = Engine(time="simulated")
    e.epl("create schema SB(k string, v int)")
    e.epl("create schema S0(k string, n int)")
    e.epl("create context P partition by k from SB, k from S0")
    e.epl("context P create variable int total = 10")
    e.epl("context P on S0 set total = total + n")
    rec = Rec(e.epl("context P select context.key1 as k, total as t from SB"))
    e.send({"k": "a", "v": 1}, "SB")
    e.send({"k": "a", "n": 5}, "S0")
    e.send({"k": "a", "v": 1}, "SB")
    e.send({"k": "b", "v": 1}, "SB")
    e.send({"k": "b", "n": 1}, "S0")
    e.send({"k": "b", "n": 1}, "S0")
    e.send({"k": "b", "v": 1}, "SB")
    assert rec.pop() == [[{"k": "a", "t": 10}], [{"k": "a", "t": 15}], [{"k": "b", "t": 10}],
                         [{"k": "b", "t": 12}]]


def test_variable_time_period_in_a_context_end_condition_and_a_pattern():
    e = _engine()
    e.epl("create variable int secs = 5")
    e.epl("create context C start T(v = 1) end after secs seconds")
    rec = Rec(e.epl("context C select count(*) as c from T"))
    e.send({"v": 1}, "T")
    e.advance_time(4_999)
    e.send({"v": 0}, "T")
    e.advance_time(5_000)                   # ended: the next T(v=1) starts one
    e.send({"v": 0}, "T")
    e.set_variable("secs", 1)
    e.send({"v": 1}, "T")
    e.advance_time(6_000)
    e.send({"v": 0}, "T")
    assert rec.pop() == [[{"c": 1}], [{"c": 2}], [{"c": 1}]]
    pat = Rec(e.epl("select count(*) as c from pattern [every timer:interval(secs seconds)]"))
    e.advance_time(7_000)
    assert pat.pop() == [[{"c": 1}]]

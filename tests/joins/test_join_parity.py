"""Esper's join behaviours beyond the plain inner join: a unidirectional join's aggregation
computed afresh for each triggering event (also with a pattern as the triggering side and
under output rate limiting), outer joins without an on-clause (a stream hangs off the one
before it), and tables joined in the from-clause."""
from __future__ import annotations

import pytest

from engine import Engine
from epl.errors import EPLValidationError


def _engine():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema SB(theString string, intPrimitive int)")
    e.epl("create schema MD(symbol string, volume long)")
    e.epl("create schema S0(id int, p00 string)")
    e.epl("create schema S1(id int, p10 string)")
    return e


def _rec(stmt):
    calls = []
    stmt.add_listener(lambda new, old: calls.append(
        ([b.to_dict() for b in new or ()], [b.to_dict() for b in old or ()])))
    return calls


def test_unidirectional_grouped_irstream_aggregates_per_trigger():
    e = _engine()
    calls = _rec(e.epl("select irstream symbol, count(*) as cnt from MD unidirectional, SB#keepall "
                       "where theString = symbol group by theString, symbol"))
    e.send({"symbol": "E1", "volume": 1}, "MD")
    e.send({"theString": "E1", "intPrimitive": 10}, "SB")
    e.send({"symbol": "E1", "volume": 2}, "MD")
    e.send({"theString": "E1", "intPrimitive": 20}, "SB")
    e.send({"symbol": "E1", "volume": 3}, "MD")
    assert calls == [([{"symbol": "E1", "cnt": 1}], [{"symbol": "E1", "cnt": 0}]),
                     ([{"symbol": "E1", "cnt": 2}], [{"symbol": "E1", "cnt": 0}])]


def test_unidirectional_ungrouped_sum_per_trigger():
    e = _engine()
    calls = _rec(e.epl("select sum(intPrimitive) as s from MD unidirectional, SB#keepall"))
    for v in (1, 2):
        e.send({"theString": "x", "intPrimitive": v}, "SB")
    e.send({"symbol": "a", "volume": 1}, "MD")
    e.send({"symbol": "a", "volume": 1}, "MD")
    assert calls == [([{"s": 3}], []), ([{"s": 3}], [])]


def test_unidirectional_timer_at_pattern_counts_the_window_each_time():
    e = _engine()
    calls = _rec(e.epl("select count(*) as c from pattern [every timer:interval(1 sec)] unidirectional, "
                       "SB#keepall"))
    e.send({"theString": "x", "intPrimitive": 1}, "SB")
    e.advance_time(1000)
    e.send({"theString": "y", "intPrimitive": 1}, "SB")
    e.advance_time(2000)
    assert calls == [([{"c": 1}], []), ([{"c": 2}], [])]


def test_unidirectional_under_buffered_output_rate_limiting():
    """Esper's buffered output (`output every`, or `last` with the output-limit optimisation
    off) starts the aggregation afresh for each triggering event."""
    for text in ("select count(*) as c from MD unidirectional, SB#keepall output every 2 events",
                 "@Hint('disable_outputlimit_opt') select count(*) as c from MD unidirectional, "
                 "SB#keepall output last every 2 events"):
        e = _engine()
        calls = _rec(e.epl(text))
        e.send({"theString": "x", "intPrimitive": 1}, "SB")
        e.send({"symbol": "a", "volume": 1}, "MD")
        e.send({"symbol": "a", "volume": 1}, "MD")
        assert calls[-1][0][-1] == {"c": 1}


def test_three_stream_full_outer_join_without_on_clause():
    e = _engine()
    calls = _rec(e.epl("select p00, p10, theString from S0#keepall full outer join S1#keepall "
                       "full outer join SB#keepall"))
    e.send({"id": 1, "p00": "S0_1"}, "S0")
    e.send({"theString": "E1", "intPrimitive": 0}, "SB")
    e.send({"id": 2, "p10": "S1_1"}, "S1")
    e.send({"theString": "E2", "intPrimitive": 0}, "SB")
    assert [c[0] for c in calls] == [
        [{"p00": "S0_1", "p10": None, "theString": None}],
        [{"p00": None, "p10": None, "theString": "E1"}],
        [{"p00": "S0_1", "p10": "S1_1", "theString": "E1"}],
        [{"p00": "S0_1", "p10": "S1_1", "theString": "E2"}]]


def test_table_joined_in_the_from_clause():
    e = _engine()
    e.epl("create table JT(k string primary key, total sum(int))")
    e.epl("into table JT select sum(intPrimitive) as total from SB group by theString")
    inner = _rec(e.epl("select s0.id as id, t.k as k, t.total as total from S0 as s0, JT as t "
                       "where t.k = s0.p00"))
    outer = _rec(e.epl("select s0.id as id, t.total as total from S0 as s0 left outer join JT as t "
                       "on t.k = s0.p00"))
    e.send({"theString": "A", "intPrimitive": 1}, "SB")
    e.send({"theString": "A", "intPrimitive": 2}, "SB")
    e.send({"id": 1, "p00": "A"}, "S0")
    e.send({"id": 2, "p00": "B"}, "S0")
    e.send({"theString": "B", "intPrimitive": 7}, "SB")
    e.send({"id": 3, "p00": "B"}, "S0")
    assert inner == [([{"id": 1, "k": "A", "total": 3}], []), ([{"id": 3, "k": "B", "total": 7}], [])]
    assert outer == [([{"id": 1, "total": 3}], []), ([{"id": 3, "total": 7}], [])]


def test_table_alone_in_the_from_clause_is_refused():
    e = _engine()
    e.epl("create table JT(k string primary key, total sum(int))")
    with pytest.raises(EPLValidationError):
        e.epl("select * from JT")

"""`output when <expr> then set ...` in Esper's order: a variable change that makes the
condition true runs the assignments at once and outputs at the next time step; the counts the
assignments read are those since the last output (Esper's regression suite)."""
from __future__ import annotations

from engine import Engine

T0 = 1_000_000


def _engine():
    e = Engine(time="simulated")
    e.advance_time(T0)
    e.epl("create schema MD(symbol string, price double)")
    e.epl("create schema SB(theString string, intPrimitive int)")
    return e


def _listen(stmt, prop):
    got = []
    stmt.add_listener(lambda n, o: got.append([b[prop] for b in n or ()]))
    return got


def test_variable_change_assigns_at_once_and_outputs_at_the_next_time_step():
    e = _engine()
    e.epl("create variable int myvar = 0")
    e.epl("create variable int count_insert_var = 0")
    e.epl("on SB set myvar = intPrimitive")
    got = _listen(e.epl("select symbol from MD#length(2) output when myvar=1 "
                        "then set myvar=0, count_insert_var=count_insert"), "symbol")
    e.send({"symbol": "S1", "price": 0.0}, "MD")
    e.send({"theString": "E1", "intPrimitive": 1}, "SB")
    assert (e.get_variable("myvar"), got) == (0, [])
    e.advance_time(T0 + 1000)
    assert got == [["S1"]] and e.get_variable("count_insert_var") == 1
    e.send({"symbol": "S2", "price": 0.0}, "MD")
    e.send({"symbol": "S3", "price": 0.0}, "MD")
    e.advance_time(T0 + 3000)
    e.send({"theString": "E2", "intPrimitive": 1}, "SB")
    assert (e.get_variable("myvar"), e.get_variable("count_insert_var"), len(got)) == (0, 2, 1)
    e.advance_time(T0 + 4000)
    assert got == [["S1"], ["S2", "S3"]]


def test_condition_triggered_by_output_events_and_a_variable_set_from_python():
    e = _engine()
    e.epl("create variable boolean triggered = false")
    got = _listen(e.epl("select * from SB#lastevent output snapshot when "
                        "(count_insert > 1 and triggered = false) then set triggered = true"), "theString")
    for x in ("E1", "E2", "E3", "E4"):
        e.send({"theString": x, "intPrimitive": 1}, "SB")
    assert got == [["E2"]]
    e.set_variable("triggered", False)           # true again at once, output waits for time
    assert e.get_variable("triggered") is True
    e.send({"theString": "E5", "intPrimitive": 5}, "SB")
    e.advance_time(T0 + 1000)
    assert got == [["E2"], ["E5"]]
    e.send({"theString": "E6", "intPrimitive": 6}, "SB")
    assert got == [["E2"], ["E5"]]


def test_totals_with_a_variable():
    e = _engine()
    e.epl("create variable int var_cnt_total = 3")
    got = _listen(e.epl("select theString from SB#length(2) output when "
                        "count_insert_total = var_cnt_total or count_remove_total > 2"), "theString")
    for x in ("E1", "E2", "E3"):
        e.send({"theString": x, "intPrimitive": 1}, "SB")
    assert got == [["E1", "E2", "E3"]]
    e.set_variable("var_cnt_total", -1)
    e.send({"theString": "E4", "intPrimitive": 1}, "SB")
    assert got == [["E1", "E2", "E3"]]
    e.send({"theString": "E5", "intPrimitive": 1}, "SB")
    assert got == [["E1", "E2", "E3"], ["E4", "E5"]]

"""A stream's name or alias as an enumeration source: its current event as a collection of
one (Esper enumerates a single event so), in a single-stream statement, a join, an outer
join whose side is missing, and a subquery; a property of the same name wins."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine


def engine() -> Engine:
    eng = Engine(time="simulated")
    eng.epl("create schema S(v int, g string)")
    eng.epl("create schema S0(id int)")
    return eng


def collect(stmt, col="r"):
    got = []
    stmt.add_listener(lambda new, old: got.extend(b.get(col) for b in new or ()))
    return got


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=8))
def test_alias_is_a_collection_of_its_event(values):
    eng = engine()
    got = collect(eng.epl("select s.where(x => x.v > 0).countOf() as r, s.selectFrom(x => x.v * 2) as d, "
                          "s.countOf() as n from S as s"), "r")
    doubles = collect(eng.statements[-1], "d")
    counts = collect(eng.statements[-1], "n")
    for v in values:
        eng.send({"v": v, "g": "a"}, "S")
    assert got == [1 if v > 0 else 0 for v in values]
    assert doubles == [[2 * v] for v in values]
    assert counts == [1] * len(values)


def test_type_name_without_alias_and_in_a_join():
    eng = engine()
    a = collect(eng.epl("select S.anyOf(x => x.v = 3) as r from S"))
    b = collect(eng.epl("select s0.selectFrom(x => x.id) as r from S#lastevent as s, S0#keepall as s0"))
    eng.send({"v": 3, "g": "a"}, "S")
    eng.send({"id": 7}, "S0")
    assert a == [True]
    assert b == [[7]]


def test_missing_side_of_an_outer_join_is_null():
    eng = engine()
    got = collect(eng.epl("select s0.countOf() as r from S#lastevent as s left outer join "
                          "S0#keepall as s0 on s.v = s0.id"))
    eng.send({"v": 1, "g": "a"}, "S")
    eng.send({"id": 1}, "S0")
    assert got == [None, 1]


def test_alias_inside_a_subquery():
    eng = engine()
    got = collect(eng.epl("select (select s0.firstOf().id from S0#lastevent as s0) as r from S"))
    eng.send({"id": 4}, "S0")
    eng.send({"v": 1, "g": "a"}, "S")
    assert got == [4]


def test_a_property_of_that_name_wins():
    eng = Engine(time="simulated")
    eng.epl("create schema T(t int[])")
    got = collect(eng.epl("select t.sumOf() as r from T as t"))
    eng.send({"t": [1, 2, 3]}, "T")
    assert got == [6]

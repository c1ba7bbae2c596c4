"""`create [unique] index` on named windows and tables: validation, on-action lookups through
the index with the same results as a scan, unique indexes refusing a second row per key."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from engine import Engine
from epl import parse
from epl.errors import EPLValidationError


def _engine():
    e = Engine(time="simulated")
    e.epl("create schema SB(theString string, intPrimitive int)")
    e.epl("create schema S0(id int, p00 string)")
    e.epl("create window W#keepall as SB")
    e.epl("insert into W select * from SB")
    return e


def _rows(e, q="select * from W"):
    return sorted((r["theString"], r["intPrimitive"]) for r in e.execute_query(q))


def test_create_index_parses_and_prints_back():
    for text in ("create index I1 on W(theString)", "create unique index I2 on W(theString, intPrimitive btree)",
                 "create index I3 on W(theString, intPrimitive btree)"):
        from epl.printer import to_epl
        assert to_epl(parse(text)) == text


def test_validation_messages():
    e = _engine()
    with pytest.raises(EPLValidationError, match="A named window or table by name 'Nope' does not exist"):
        e.epl("create index I1 on Nope(theString)")
    with pytest.raises(EPLValidationError, match="Property named 'xyz' not found"):
        e.epl("create index I1 on W(xyz)")
    e.epl("create index I1 on W(theString)")
    with pytest.raises(EPLValidationError, match="An index by name 'I1' already exists"):
        e.epl("create index I1 on W(intPrimitive)")
    e.send({"theString": "E1", "intPrimitive": 1}, "SB")
    e.send({"theString": "E1", "intPrimitive": 2}, "SB")
    with pytest.raises(EPLValidationError, match="Unique index violation, index 'U1' is a unique index and key 'E1' already exists"):
        e.epl("create unique index U1 on W(theString)")


def test_unique_index_on_a_unique_window():
    """Esper's regression scenario: the window's own replacements are no violation."""
    e = Engine(time="simulated")
    e.epl("create schema SupportBean(theString string, intPrimitive int)")
    w = e.epl("create window MyWindowOne#unique(theString) as SupportBean")
    e.epl("insert into MyWindowOne select * from SupportBean")
    e.epl("create unique index I1 on MyWindowOne(theString)")
    for s, i in [("E0", 1), ("E2", 2), ("E2", 3), ("E1", 4), ("E0", 5)]:
        e.send({"theString": s, "intPrimitive": i}, "SupportBean")
    assert sorted((r["theString"], r["intPrimitive"]) for r in w) == [("E0", 5), ("E1", 4), ("E2", 3)]


def test_a_second_row_under_a_unique_key_is_reported(caplog):
    e = _engine()
    e.epl("create unique index U1 on W(theString)")
    e.send({"theString": "E1", "intPrimitive": 1}, "SB")
    with caplog.at_level("WARNING"):
        e.send({"theString": "E1", "intPrimitive": 2}, "SB")
    assert "Unique index violation, index 'U1' is a unique index and key 'E1' already exists" in caplog.text


def test_destroying_the_index_statement_drops_the_index():
    e = _engine()
    s = e.epl("create index I1 on W(theString)")
    s.destroy()
    e.epl("create index I1 on W(intPrimitive)")         # the name is free again
    e.send({"theString": "E1", "intPrimitive": 1}, "SB")
    assert _rows(e) == [("E1", 1)]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["ins", "del", "upd", "merge"]), st.sampled_from("abc"),
                          st.integers(0, 3)), max_size=30))
def test_on_actions_through_an_index_match_a_scan(ops):
    """The same statements with and without `create index`: the same window contents."""
    engines = []
    for with_index in (False, True):
        e = _engine()
        if with_index:
            e.epl("create index I1 on W(theString hash, intPrimitive btree)")
            e.epl("create index I2 on W(theString)")
        e.epl("create schema D(s string, i int)")
        e.epl("create schema U(s string, i int)")
        e.epl("create schema M(s string, i int)")
        e.epl("on D delete from W where theString = s and intPrimitive = i")
        e.epl("on U update W set intPrimitive = intPrimitive + 10 where theString = s")
        e.epl("on M merge W where theString = s when matched then delete "
              "when not matched then insert select s as theString, i as intPrimitive")
        engines.append(e)
    for op, s, i in ops:
        for e in engines:
            if op == "ins":
                e.send({"theString": s, "intPrimitive": i}, "SB")
            else:
                e.send({"s": s, "i": i}, {"del": "D", "upd": "U", "merge": "M"}[op])
        assert _rows(engines[0]) == _rows(engines[1])


def test_index_on_a_table():
    e = Engine(time="simulated")
    e.epl("create table T(k string primary key, v int)")
    e.epl("create index TI on T(v btree)")
    with pytest.raises(EPLValidationError, match="Property named 'zz' not found"):
        e.epl("create index TJ on T(zz)")


@pytest.mark.parametrize("epl, message", [
    ("create index IndexTwo on W(theString, theString)",
     "Property named 'theString' has been declared more then once"),
    ("create index IndexTwo on W(theString bubu, intPrimitive)", "Unrecognized advanced-type index 'bubu'"),
    ("create gugu index IndexTwo on W(intPrimitive)",
     "Invalid keyword 'gugu' in create-index encountered, expected 'unique'"),
    ("create unique index IndexTwo on W(intPrimitive btree)",
     "Combination of unique index with btree (range) is not supported"),
])
def test_esper_messages(epl, message):
    e = _engine()
    with pytest.raises(EPLValidationError) as info:
        e.epl(epl)
    assert message in str(info.value)


def test_index_on_context_declared_window_and_keyless_table():
    e = _engine()
    e.epl("create context C1 initiated by SB terminated after 5 sec")
    e.epl("context C1 create window Wc#keepall as (f1 string, f2 int)")
    with pytest.raises(EPLValidationError, match="Named window by name 'Wc' has been declared for context 'C1' "
                                                 "and can only be used within the same context"):
        e.epl("create unique index I2 on Wc(f1)")
    e.epl("create table MyTable (p0 string, sumint sum(int))")
    with pytest.raises(EPLValidationError, match="Tables without primary key column"):
        e.epl("create index MyIndex on MyTable(p0)")


def test_index_within_the_declaring_context_is_accepted():
    e = _engine()
    e.epl("create context C1 initiated by SB terminated after 5 sec")
    e.epl("context C1 create window Wc#keepall as (f1 string, f2 int)")
    e.epl("context C1 create index I3 on Wc(f1)")

"""`create window W2 ... as W1 insert [where ...]`: a new window populated from an existing
one (Esper's regression scenario), and Esper's limits on the insert where-clause."""
from __future__ import annotations

import pytest

from engine import Engine
from epl.errors import EPLValidationError


def _engine():
    e = Engine(time="simulated")
    e.epl("create schema SupportBean(theString string, intPrimitive int)")
    w = e.epl("create window MyWindowIWT#keepall as SupportBean")
    e.epl("insert into MyWindowIWT select * from SupportBean(intPrimitive > 0)")
    for x, i in [("A1", 1), ("B2", 1), ("C3", 1), ("A4", 4), ("C5", 4)]:
        e.send({"theString": x, "intPrimitive": i}, "SupportBean")
    return e, w


def test_populate_from_another_window_then_each_window_takes_its_own_inserts():
    e, w = _engine()
    log = []
    w.add_listener(lambda n, o: log.append(("window", [r["theString"] for r in n])))
    stmts = {}
    for name, epl in [("two", "create window MyWindowTwo#keepall as MyWindowIWT insert"),
                      ("three", "create window MyWindowThree#keepall as MyWindowIWT insert where theString like 'A%'"),
                      ("four", "create window MyWindowFour#unique(intPrimitive) as MyWindowIWT insert")]:
        stmts[name] = s = e.epl(epl)
        s.add_listener(lambda n, o, name=name: log.append((name, [r["theString"] for r in n])))
    assert [r["theString"] for r in stmts["two"]] == ["A1", "B2", "C3", "A4", "C5"]
    assert [r["theString"] for r in stmts["three"]] == ["A1", "A4"]
    assert [r["theString"] for r in stmts["four"]] == ["C3", "C5"]
    assert log == []                      # populating does not reach listeners
    for win, prefix in [("MyWindowIWT", "A"), ("MyWindowTwo", "B"), ("MyWindowThree", "C"), ("MyWindowFour", "D")]:
        e.epl(f"insert into {win} select * from SupportBean(theString like '{prefix}%')")
    for x, i, who in [("B9", -9, "two"), ("A8", -8, "window"), ("C7", -7, "three"), ("D6", -6, "four")]:
        e.send({"theString": x, "intPrimitive": i}, "SupportBean")
        assert log == [(who, [x])]
        log.clear()


def test_select_columns_from_an_insert_from_window():
    e, _ = _engine()
    e.epl("create window W2#keepall as select * from MyWindowIWT insert where intPrimitive = 4")
    s = e.epl("create window W3#keepall as select theString from W2 insert where theString = 'A4'")
    assert [r.to_dict() for r in s] == [{"theString": "A4"}]


@pytest.mark.parametrize("epl, message", [
    ("create window T3#keepall as SupportBean insert",
     "A named window by name 'SupportBean' could not be located, the insert-keyword requires an existing named window"),
    ("create window T3#keepall as select * from SupportBean insert where (intPrimitive = 10)",
     "A named window by name 'SupportBean' could not be located, the insert-keyword requires an existing named window"),
    ("create window T3#keepall as MyWindowIWT insert where (select intPrimitive from SupportBean#lastevent) = 1",
     "Create window where-clause may not have a subselect"),
    ("create window T3#keepall as MyWindowIWT insert where sum(intPrimitive) > 2",
     "Create window where-clause may not have an aggregation function"),
    ("create window T3#keepall as MyWindowIWT insert where prev(1, intPrimitive) = 1",
     "Create window where-clause may not have a function that requires view resources (prior, prev)"),
])
def test_invalid(epl, message):
    e, _ = _engine()
    with pytest.raises(EPLValidationError) as info:
        e.epl(epl)
    assert message in str(info.value)

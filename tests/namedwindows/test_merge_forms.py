"""On-merge forms Esper accepts: `merge W insert select ...` without a when-clause (every
trigger inserts), and a not-matched clause whose expressions read the trigger alone."""
from __future__ import annotations

import pytest

from engine import Engine
from epl import parse
from epl.printer import to_epl


def _engine():
    e = Engine(time="simulated")
    e.epl("create schema SB(theString string, intPrimitive int)")
    e.epl("create window W#keepall as (theString string, intPrimitive int)")
    return e


def _contents(e):
    return sorted((r["theString"], r["intPrimitive"]) for r in e.execute_query("select * from W"))


@pytest.mark.parametrize("text", [
    "on SB merge W insert select *",
    "on SB as s merge into W as w where w.theString = s.theString insert select theString, intPrimitive",
    "on SB merge W insert (theString, intPrimitive) select theString, intPrimitive",
])
def test_direct_insert_inserts_every_trigger(text):
    e = _engine()
    st = e.epl(text)
    got = []
    st.add_listener(lambda new, old: got.append([b.to_dict() for b in new]))
    e.send({"theString": "E1", "intPrimitive": 1}, "SB")
    e.send({"theString": "E1", "intPrimitive": 2}, "SB")   # a match does not stop the insert
    assert _contents(e) == [("E1", 1), ("E1", 2)]
    assert got == [[{"theString": "E1", "intPrimitive": 1}], [{"theString": "E1", "intPrimitive": 2}]]


def test_direct_insert_into_another_stream():
    e = _engine()
    e.epl("on SB merge W insert into Other select theString as s")
    got = []
    e.epl("select s from Other").add_listener(lambda new, old: got.append(new[0]["s"]))
    e.send({"theString": "E1", "intPrimitive": 1}, "SB")
    assert got == ["E1"] and _contents(e) == []


def test_direct_insert_prints_back():
    text = "on SB merge W insert into Other select theString"
    assert to_epl(parse(text)) == text


def test_not_matched_insert_reads_the_trigger_not_the_window():
    """`theString` is a property of both SB and W: in a not-matched clause there is no window
    row, so Esper resolves it to the trigger (no ambiguity error)."""
    e = _engine()
    e.epl("on SB merge W where W.theString = SB.theString "
          "when matched then update set intPrimitive = SB.intPrimitive "
          "when not matched then insert select theString, intPrimitive")
    e.send({"theString": "E1", "intPrimitive": 1}, "SB")
    e.send({"theString": "E2", "intPrimitive": 2}, "SB")
    e.send({"theString": "E1", "intPrimitive": 3}, "SB")
    assert _contents(e) == [("E1", 3), ("E2", 2)]


def test_not_matched_condition_and_where_read_the_trigger():
    e = _engine()
    e.epl("on SB as s merge W as w where w.theString = s.theString "
          "when not matched and intPrimitive > 0 then insert select * where theString != 'X'")
    for s, i in [("E1", 1), ("E2", -1), ("X", 5), ("E3", 3)]:
        e.send({"theString": s, "intPrimitive": i}, "SB")
    assert _contents(e) == [("E1", 1), ("E3", 3)]


def test_matched_clause_still_reports_ambiguity():
    from epl.errors import EPLValidationError
    e = _engine()
    with pytest.raises(EPLValidationError, match="Property named 'theString' is ambiguous"):
        e.epl("on SB merge W where W.theString = SB.theString "
              "when matched then insert into Other select theString")

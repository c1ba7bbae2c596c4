"""The `@consume(level)` pattern filter attribute: an event matching several filters of one
pattern goes only to those of the highest level among them (no attribute: level 0)."""
from __future__ import annotations

import pytest
from recording import Recorder

from engine import Engine
from epl.errors import EPLSyntaxError


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.deploy("create schema A(id string, v int); create schema B(id string)")
    return e


def ids(rows):
    return [{k: (v["id"] if v is not None else None) for k, v in r.items()} for r in rows]


def run(engine, pattern, events):
    rec = Recorder(engine.epl(f"select * from pattern[{pattern}]"))
    for i, v in enumerate(events):
        engine.send({"id": f"e{i}", "v": v}, "A")
    out = ids(rec.new_rows())
    rec.detach()
    return out


def test_consumed_event_not_seen_by_the_other_filter(engine):
    # an A with v > 0 matches both; @consume gives it to `a` alone
    assert run(engine, "every (a=A(v > 0) or b=A@consume)", [1, 0]) == [
        {"a": None, "b": "e0"}, {"a": None, "b": "e1"}]
    # without @consume the more specific filter sees the event first (Esper's filter order)
    assert run(engine, "every (a=A(v > 0) or b=A)", [1, 0]) == [
        {"a": "e0", "b": None}, {"a": None, "b": "e1"}]


def test_levels_highest_wins(engine):
    pattern = "every (c=A or b=A(v > 1)@consume(1) or a=A(v > 0)@consume(2))"
    assert run(engine, pattern, [1, 2, 0]) == [
        {"a": "e0", "b": None, "c": None}, {"a": "e1", "b": None, "c": None},
        {"a": None, "b": None, "c": "e2"}]


def test_same_level_filters_all_see_the_event(engine):
    # b and c share level 1 above a's level 0: both take e0, a only gets the next A
    assert run(engine, "every (a=A and (b=A@consume and c=A(v > 0)@consume))", [1, 5]) == [
        {"a": "e1", "b": "e0", "c": "e0"}]
    assert run(engine, "(b=A@consume and c=A@consume)", [1]) == [{"b": "e0", "c": "e0"}]


def test_consumption_spans_pattern_instances(engine):
    # the waiting `b=A` (level 0) never sees an A that a new `every a=A@consume` takes
    assert run(engine, "every a=A@consume -> b=A", [1, 2, 3]) == []
    assert run(engine, "every a=A -> b=A", [1, 2]) == [{"a": "e0", "b": "e1"}]


def test_consumption_is_per_statement(engine):
    r1 = Recorder(engine.epl("select a.id as x from pattern[every a=A@consume]"))
    r2 = Recorder(engine.epl("select b.id as x from pattern[every b=A]"))
    engine.send({"id": "e0", "v": 1}, "A")
    assert r1.new_rows() == [{"x": "e0"}] and r2.new_rows() == [{"x": "e0"}]


def test_other_types_unaffected(engine):
    rec = Recorder(engine.epl("select * from pattern[every (a=A@consume -> b=B)]"))
    engine.send({"id": "a1", "v": 1}, "A")
    engine.send({"id": "b1"}, "B")
    assert ids(rec.new_rows()) == [{"a": "a1", "b": "b1"}]


def test_unknown_filter_attribute_is_a_syntax_error(engine):
    with pytest.raises(EPLSyntaxError, match="expecting '@consume'"):
        engine.epl("select * from pattern[every a=A@eat]")

"""The hints that change results: reclaim_group_aged / reclaim_group_freq and
disable_reclaim_group; plan-only hints are accepted."""
from __future__ import annotations

import pytest
from recording import Rec

from engine import Engine
from epl.errors import EPLValidationError


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.epl("create schema S(sym string, p int)")
    return e


def feed(engine, rec, steps):
    out = []
    for t, sym in steps:
        engine.advance_time(t)
        engine.send({"sym": sym, "p": 1}, "S")
        out.append(next(r["c"] for r in rec.pop()[-1] if r["sym"] == sym))
    return out


def test_reclaim_group_aged_drops_groups_not_updated(engine):
    rec = Rec(engine.epl("@Hint('reclaim_group_aged=10,reclaim_group_freq=5') "
                         "select sym, count(*) as c from S group by sym"))
    # sweeps at 0, 9 and 15 s: A (0 s) is 9 s old at 9 s and stays; B (4 s) is 11 s old at
    # 15 s and goes; at 30 s A (9 s) is 21 s old and goes
    assert feed(engine, rec, [(0, "A"), (4000, "B"), (9000, "A"), (15000, "B"), (30000, "A")]) \
        == [1, 1, 2, 1, 1]


def test_without_hint_unbounded_groups_stay(engine):
    rec = Rec(engine.epl("select sym, count(*) as c from S group by sym"))
    assert feed(engine, rec, [(0, "A"), (4000, "B"), (9000, "A"), (15000, "B"), (30000, "A")]) \
        == [1, 1, 2, 2, 3]


def test_reclaim_frequency_bounds_the_sweeps(engine):
    # age 1 s but sweeps only every 10 s: the group at 0 survives the event at 5 s
    rec = Rec(engine.epl("@Hint('reclaim_group_aged=1') @Hint('reclaim_group_freq=10') "
                         "select sym, count(*) as c from S group by sym"))
    assert feed(engine, rec, [(0, "A"), (5000, "A"), (10000, "A"), (20000, "A")]) == [1, 2, 1, 1]


def test_disable_reclaim_group_keeps_empty_groups(engine):
    def run(hint):
        e = Engine(time="simulated")
        e.epl("create schema S(sym string, p int)")
        rec = Rec(e.epl(hint + "select sym, countever(*) as c from S#length(1) group by sym"))
        out = []
        for s in "ABA":
            e.send({"sym": s, "p": 1}, "S")
            out.append(next(r["c"] for r in rec.pop()[-1] if r["sym"] == s))
        return out
    assert run("") == [1, 1, 1]                              # A's group was reclaimed
    assert run("@Hint('disable_reclaim_group') ") == [1, 1, 2]


def test_bad_hint_value(engine):
    with pytest.raises(EPLValidationError, match="reclaim_group_aged"):
        engine.epl("@Hint('reclaim_group_aged=soon') select sym, count(*) from S group by sym")


@pytest.mark.parametrize("hint", ["iterate_only", "index(one, bfs)", "exclude_plan(true)",
                                  "prefer_merge_join", "enable_window_subquery_indexshare",
                                  "disable_window_subquery_indexshare", "set_noindex"])
def test_plan_hints_are_accepted(engine, hint):
    rec = Rec(engine.epl(f"@Hint('{hint}') select sym from S"))
    engine.send({"sym": "A", "p": 1}, "S")
    assert rec.pop() == [[{"sym": "A"}]] or hint == "iterate_only"

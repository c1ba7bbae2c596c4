"""Keyed contexts narrow pattern filters and join streams to the partition's key; context
properties are visible in joins; `context X on ...` runs per partition against a global window."""
from __future__ import annotations

import pytest

from engine import Engine
from epl.errors import EPLValidationError
from recording import Rec, rows


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema W(acct string, amount int)")
    e.epl("create schema D(acct string, note string)")
    yield e
    e.close()


def test_pattern_filters_get_the_partition_key(engine):
    engine.epl("create context ByAcct partition by acct from W")
    base = engine.filter_count()
    rec = Rec(engine.epl("context ByAcct select a.amount as x, b.amount as y, context.key1 as k "
                         "from pattern [every a=W -> b=W(amount > a.amount)]"))
    assert engine.filter_count() == base + 1            # the context's creator filter only
    counts = []
    # interleaved keys; no `acct = a.acct` in the pattern: the partition key keeps them apart
    for acct, amount in (("a", 1), ("b", 5), ("a", 2), ("b", 3), ("b", 6), ("a", 7)):
        engine.send({"acct": acct, "amount": amount}, "W")
        counts.append(engine.filter_count() - base)
    # per partition: the `every a=W` filter plus one `b=W(...)` filter per pending `a`
    assert counts == [3, 5, 5, 6, 5, 5]
    assert rec.pop() == [[{"x": 1, "y": 2, "k": "a"}],
                         [{"x": 3, "y": 6, "k": "b"}, {"x": 5, "y": 6, "k": "b"}],
                         [{"x": 2, "y": 7, "k": "a"}]]


def test_pattern_filter_routing_is_by_key(engine):
    engine.epl("create context ByAcct partition by acct from W")
    rec = Rec(engine.epl("context ByAcct select a.acct as p, b.acct as q "
                         "from pattern [every a=W -> b=W]"))
    for acct in ("a", "b", "c", "b", "a", "c"):
        engine.send({"acct": acct, "amount": 0}, "W")
    got = [r for call in rec.pop() for r in call]
    assert got == [{"p": "b", "q": "b"}, {"p": "a", "q": "a"}, {"p": "c", "q": "c"}]


def test_join_sees_context_properties_and_only_its_key(engine):
    engine.epl("create context ByAcct partition by acct from W, acct from D")
    base = engine.filter_count()
    s = engine.epl("context ByAcct select context.key1 as k, context.name as n, w.amount as amt, "
                   "d.note as note from W#length(2) as w, D#length(2) as d")
    rec = Rec(s)
    engine.send({"acct": "a", "amount": 1}, "W")
    engine.send({"acct": "b", "note": "x"}, "D")
    engine.send({"acct": "a", "note": "y"}, "D")          # joins a's W only
    engine.send({"acct": "b", "amount": 2}, "W")          # joins b's D only
    engine.send({"acct": "a", "amount": 3}, "W")
    assert rec.pop() == [[{"k": "a", "n": "ByAcct", "amt": 1, "note": "y"}],
                         [{"k": "b", "n": "ByAcct", "amt": 2, "note": "x"}],
                         [{"k": "a", "n": "ByAcct", "amt": 3, "note": "y"}]]
    assert engine.filter_count() == base + 2 + 2 * 2      # two creators, two streams per partition
    assert sorted((r["k"], r["amt"]) for r in s.rows()) == [("a", 1), ("a", 3), ("b", 2)]
    s.stop()
    assert engine.filter_count() == base


def test_self_join_in_partition_uses_key_in_where(engine):
    engine.epl("create context ByAcct partition by acct from W")
    rec = Rec(engine.epl("context ByAcct select context.key1 as k, a.amount as x, b.amount as y "
                         "from W#length(2) as a, W#length(2) as b "
                         "where a.amount < b.amount and context.key1 != 'z'"))
    for acct, amount in (("a", 1), ("b", 5), ("z", 1), ("a", 2), ("z", 2), ("b", 6)):
        engine.send({"acct": acct, "amount": amount}, "W")
    assert rec.pop() == [[{"k": "a", "x": 1, "y": 2}], [{"k": "b", "x": 5, "y": 6}]]


@pytest.fixture
def window(engine):
    engine.epl("create schema Q(acct string, lim int)")
    engine.epl("create context ByAcct partition by acct from W, acct from Q")
    engine.epl("create window Win#keepall as W")
    engine.epl("insert into Win select * from W")
    for acct, amount in (("a", 1), ("b", 5), ("a", 7)):
        engine.send({"acct": acct, "amount": amount}, "W")
    return engine


def test_on_select_per_partition_against_global_window(window):
    engine = window
    rec = Rec(engine.epl("context ByAcct on Q as q select context.key1 as k, w.amount as amt "
                         "from Win as w where w.acct = context.key1 and w.amount > q.lim"))
    engine.send({"acct": "a", "lim": 0}, "Q")      # starts partition a, which sees the trigger
    engine.send({"acct": "b", "lim": 1}, "Q")
    engine.send({"acct": "c", "lim": 0}, "Q")      # partition c: no rows of its key
    engine.send({"acct": "a", "lim": 5}, "Q")
    assert rec.pop() == [[{"k": "a", "amt": 1}, {"k": "a", "amt": 7}], [{"k": "b", "amt": 5}],
                         [{"k": "a", "amt": 7}]]
    assert engine.services["contexts"].partition_count("ByAcct") == 3


def test_on_select_trigger_filter_narrowed_to_partition(window):
    engine = window
    rec = Rec(engine.epl("context ByAcct on Q select context.key1 as k, count(*) as n from Win"))
    engine.send({"acct": "a", "lim": 0}, "Q")
    engine.send({"acct": "b", "lim": 0}, "Q")
    # each trigger fires its own partition only (no `where`: every row of the global window)
    assert rec.pop() == [[{"k": "a", "n": 3}], [{"k": "b", "n": 3}]]


def test_on_delete_per_partition(window):
    engine = window
    rec = Rec(engine.epl("context ByAcct on Q delete from Win as w "
                         "where w.acct = context.key1 and w.amount > 3"))
    engine.send({"acct": "a", "lim": 0}, "Q")
    assert rec.pop() == [[{"acct": "a", "amount": 7}]]
    assert sorted((r["acct"], r["amount"]) for r in rows(engine.execute_query("select * from Win"))) \
        == [("a", 1), ("b", 5)]

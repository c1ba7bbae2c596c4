"""Keyed segmented contexts: a partition per key, created by the first event of the key (or
an initiating event), ended by the terminating condition, with its filters, windows and
schedules."""
from __future__ import annotations

import pytest

from engine import Engine
from epl.errors import EPLValidationError
from recording import Rec, rows


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema W(acct string, region string, amount int)")
    e.epl("create schema Login(acct string, ok boolean)")
    e.epl("create schema Logout(acct string)")
    yield e
    e.close()


def parts(engine, name):
    return engine.services["contexts"].partition_count(name)


def test_partition_per_key_with_own_window_and_aggregation(engine):
    engine.epl("create context ByAcct partition by acct from W")
    rec = Rec(engine.epl("context ByAcct select context.key1 as k, context.name as n, sum(amount) as s "
                         "from W#length(2)"))
    for acct, amount in (("a", 1), ("b", 10), ("a", 2), ("a", 3), ("b", 20)):
        engine.send({"acct": acct, "region": "r", "amount": amount}, "W")
    assert rec.pop() == [[{"k": "a", "n": "ByAcct", "s": 1}], [{"k": "b", "n": "ByAcct", "s": 10}],
                         [{"k": "a", "n": "ByAcct", "s": 3}], [{"k": "a", "n": "ByAcct", "s": 5}],
                         [{"k": "b", "n": "ByAcct", "s": 30}]]
    assert parts(engine, "ByAcct") == 2


def test_two_keys_and_statement_filter(engine):
    engine.epl("create context ByTwo partition by acct and region from W")
    s = engine.epl("context ByTwo select context.key1 as a, context.key2 as r, count(*) as c "
                   "from W(amount > 0)")
    rec = Rec(s)
    for acct, region, amount in (("a", "x", 1), ("a", "y", 1), ("a", "x", 0), ("a", "x", 5)):
        engine.send({"acct": acct, "region": region, "amount": amount}, "W")
    assert rec.pop() == [[{"a": "a", "r": "x", "c": 1}], [{"a": "a", "r": "y", "c": 1}],
                         [{"a": "a", "r": "x", "c": 2}]]
    assert sorted(r["r"] + str(r["c"]) for r in s.rows()) == ["x2", "y1"]


def test_several_types_and_terminated_by_event(engine):
    engine.epl("create context S partition by acct from W, acct from Logout terminated by Logout")
    rec = Rec(engine.epl("context S select acct, count(*) as c from W"))
    ended = Rec(engine.epl("context S select acct from Logout"))
    engine.send({"acct": "a", "region": "r", "amount": 1}, "W")
    engine.send({"acct": "a", "region": "r", "amount": 1}, "W")
    engine.send({"acct": "a"}, "Logout")
    assert ended.pop() == [[{"acct": "a"}]]           # the partition sees its terminating event
    assert parts(engine, "S") == 0
    engine.send({"acct": "zz"}, "Logout")              # no partition: nothing starts or ends
    assert parts(engine, "S") == 0
    engine.send({"acct": "a", "region": "r", "amount": 1}, "W")
    assert rec.pop() == [[{"acct": "a", "c": 1}], [{"acct": "a", "c": 2}], [{"acct": "a", "c": 1}]]


def test_initiated_by_and_alias(engine):
    engine.epl("create context Sess partition by acct from Login, acct from W "
               "initiated by Login(ok = true) as lg terminated by Logout")
    rec = Rec(engine.epl("context Sess select context.lg.acct as who, amount from W"))
    engine.send({"acct": "a", "region": "r", "amount": 1}, "W")      # no session yet
    engine.send({"acct": "a", "ok": False}, "Login")
    engine.send({"acct": "a", "region": "r", "amount": 2}, "W")
    engine.send({"acct": "a", "ok": True}, "Login")
    engine.send({"acct": "a", "region": "r", "amount": 3}, "W")
    assert rec.pop() == [[{"who": "a", "amount": 3}]]


def test_terminated_after_time_releases_schedules(engine):
    engine.epl("create context T partition by acct from W terminated after 10 sec")
    rec = Rec(engine.epl("context T select acct, count(*) as c from W#time(1 min)"))
    base_f, base_s = engine.filter_count(), engine.schedule_count()
    engine.send({"acct": "a", "region": "r", "amount": 1}, "W")
    engine.advance_time(5_000)
    engine.send({"acct": "b", "region": "r", "amount": 1}, "W")
    assert parts(engine, "T") == 2 and engine.schedule_count() > base_s
    engine.advance_time(10_000)
    assert parts(engine, "T") == 1
    engine.advance_time(15_000)
    assert parts(engine, "T") == 0
    assert (engine.filter_count(), engine.schedule_count()) == (base_f, base_s)
    engine.send({"acct": "a", "region": "r", "amount": 1}, "W")
    assert rec.pop() == [[{"acct": "a", "c": 1}], [{"acct": "b", "c": 1}], [{"acct": "a", "c": 1}]]


def test_pattern_per_partition(engine):
    engine.epl("create context P partition by acct from W")
    rec = Rec(engine.epl("context P select a.amount as a1, b.amount as a2 "
                         "from pattern [every a=W -> b=W(amount > a.amount)]"))
    for acct, amount in (("a", 5), ("b", 1), ("b", 2), ("a", 6)):
        engine.send({"acct": acct, "region": "r", "amount": amount}, "W")
    assert rec.pop() == [[{"a1": 1, "a2": 2}], [{"a1": 5, "a2": 6}]]


def test_output_when_terminated(engine):
    engine.epl("create context O partition by acct from W, acct from Logout terminated by Logout")
    rec = Rec(engine.epl("context O select acct, sum(amount) as total from W output last when terminated"))
    engine.send({"acct": "a", "region": "r", "amount": 1}, "W")
    engine.send({"acct": "a", "region": "r", "amount": 2}, "W")
    assert rec.pop() == []
    engine.send({"acct": "a"}, "Logout")
    assert rec.pop() == [[{"acct": "a", "total": 3}]]


def test_statement_added_later_joins_existing_partitions_and_stop_releases(engine):
    engine.epl("create context K partition by acct from W")
    first = engine.epl("context K select count(*) as c from W")
    base_filters = engine.filter_count()
    engine.send({"acct": "a", "region": "r", "amount": 1}, "W")
    engine.send({"acct": "b", "region": "r", "amount": 1}, "W")
    second = engine.epl("context K select context.key1 as k, count(*) as c from W")
    rec = Rec(second)
    engine.send({"acct": "a", "region": "r", "amount": 1}, "W")
    assert rec.pop() == [[{"k": "a", "c": 1}]]
    second.destroy()
    first.stop()
    assert parts(engine, "K") == 0
    assert engine.filter_count() < base_filters
    first.start()
    assert parts(engine, "K") == 0


def test_validation(engine):
    engine.epl("create context K partition by acct from W")
    with pytest.raises(EPLValidationError, match="listed in the segmented context"):
        engine.epl("context K select * from Logout")
    with pytest.raises(EPLValidationError, match="has not been declared"):
        engine.epl("context Nope select * from W")
    with pytest.raises(EPLValidationError, match="already exists"):
        engine.epl("create context K partition by acct from W")
    with pytest.raises(EPLValidationError, match="same number of property"):
        engine.epl("create context Bad partition by acct and region from W, acct from Logout")

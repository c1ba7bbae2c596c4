"""`for grouped_delivery(...)` and `for discrete_delivery`: one listener call per group /
per row instead of one per batch."""
from __future__ import annotations

import pytest

from engine import Engine
from epl import EPLSyntaxError


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.epl("create schema Tick(sym string, price double)")
    return e


def calls(stmt):
    seen: list = []
    stmt.add_listener(lambda new, old: seen.append(
        ([r.to_dict() for r in new or ()], [r.to_dict() for r in old or ()])))
    return seen


def batch(engine):
    for sym, price in (("IBM", 1.0), ("MSFT", 2.0), ("IBM", 3.0)):
        engine.send({"sym": sym, "price": price}, "Tick")
    engine.advance_time(1000)


def test_without_for_clause_one_call_per_batch(engine):
    seen = calls(engine.epl("select * from Tick#time_batch(1 sec)"))
    batch(engine)
    assert len(seen) == 1 and len(seen[0][0]) == 3


def test_grouped_delivery_one_call_per_group(engine):
    seen = calls(engine.epl("select * from Tick#time_batch(1 sec) for grouped_delivery(sym)"))
    batch(engine)
    assert seen == [([{"sym": "IBM", "price": 1.0}, {"sym": "IBM", "price": 3.0}], []),
                    ([{"sym": "MSFT", "price": 2.0}], [])]


def test_grouped_delivery_several_expressions_and_remove_stream(engine):
    seen = calls(engine.epl("select irstream sym, price from Tick#time_batch(1 sec) "
                            "for grouped_delivery(sym, price > 1.5)"))
    batch(engine)
    assert [len(n) for n, _ in seen] == [1, 1, 1]
    seen.clear()
    engine.advance_time(2000)           # the batch leaves: grouped the same way, as old rows
    assert [(len(n), len(o)) for n, o in seen] == [(0, 1), (0, 1), (0, 1)]


def test_discrete_delivery_one_call_per_row(engine):
    seen = calls(engine.epl("select sym from Tick#time_batch(1 sec) for discrete_delivery"))
    batch(engine)
    assert seen == [([{"sym": "IBM"}], []), ([{"sym": "MSFT"}], []), ([{"sym": "IBM"}], [])]


def test_discrete_delivery_with_aggregation(engine):
    seen = calls(engine.epl("select sym, count(*) as c from Tick#time_batch(1 sec) group by sym "
                            "for discrete_delivery"))
    batch(engine)
    assert sorted(seen, key=str) == [([{"sym": "IBM", "c": 2}], []), ([{"sym": "MSFT", "c": 1}], [])]


def test_for_clause_errors():
    from epl import parse
    with pytest.raises(EPLSyntaxError):
        parse("select * from Tick for grouped_delivery")
    with pytest.raises(EPLSyntaxError):
        parse("select * from Tick for discrete_delivery(sym)")

"""A window declared with a context moves into an isolated service and back with its
context's statements, each partition's contents and schedules with it."""
from __future__ import annotations

import pytest

from engine import Engine
from engine.errors import EngineError
from recording import rows


def test_context_window_moves_with_its_context_statements():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema Tx(acct string, amount int)")
    e.epl("create schema Cmd(acct string, lim int)")
    e.epl("create context ByAcct partition by acct from Tx, acct from Cmd")
    w = e.epl("context ByAcct create window W#time(10 sec) as Tx")
    i = e.epl("context ByAcct insert into W select * from Tx")
    d = e.epl("context ByAcct on Cmd delete from W where amount > lim")
    e.send({"acct": "a", "amount": 1}, "Tx")
    iso = e.isolated("replay")
    with pytest.raises(EngineError, match="move them together"):
        iso.add(w, i)                                  # the on-delete shares the partitions
    iso.add(w, i, d)
    iso.send({"acct": "a", "amount": 5}, "Tx")
    iso.send({"acct": "b", "amount": 6}, "Tx")
    e.send({"acct": "a", "amount": 9}, "Tx")           # the engine has no statement for it now
    iso.send({"acct": "a", "lim": 2}, "Cmd")
    assert sorted((r["acct"], r["amount"]) for r in rows(w)) == [("a", 1), ("b", 6)]
    iso.advance_time(5_000)
    e.advance_time(20_000)                             # the engine's time expires nothing
    assert len(rows(w)) == 2
    iso.remove(w, i, d)
    # back home: the 5 s left at the service's 5 s are left at the engine's 20 s (Esper
    # shifts moved schedules by the gap between the clocks)
    e.advance_time(24_999)
    assert len(rows(w)) == 2
    e.advance_time(25_000)
    assert rows(w) == []
    e.send({"acct": "c", "amount": 3}, "Tx")
    assert rows(w) == [{"acct": "c", "amount": 3}]
    e.close()

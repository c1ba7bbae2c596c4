"""Tables declared with a context (`context X create table ...`): each partition has its own
rows; `into table`, table access, on-merge and fire-and-forget queries of the context work on
the partition's table."""
from __future__ import annotations

import pytest

from engine import Engine
from epl.errors import EPLValidationError
from recording import Rec, rows


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema Tx(acct string, item string, amount int)")
    e.epl("create context ByAcct partition by acct from Tx")
    yield e
    e.close()


def send(engine, *events):
    for acct, item, amount in events:
        engine.send({"acct": acct, "item": item, "amount": amount}, "Tx")


def test_into_table_and_table_access_per_partition(engine):
    table = engine.epl("context ByAcct create table T(item string primary key, total sum(int))")
    engine.epl("context ByAcct into table T select sum(amount) as total from Tx group by item")
    rec = Rec(engine.epl("context ByAcct select context.key1 as k, T[item].total as t from Tx"))
    send(engine, ("a", "x", 1), ("b", "x", 5), ("a", "x", 7), ("a", "y", 2))
    # the same item 'x' aggregates separately for a and b
    assert rec.pop() == [[{"k": "a", "t": 1}], [{"k": "b", "t": 5}], [{"k": "a", "t": 8}],
                         [{"k": "a", "t": 2}]]
    assert sorted((r["item"], r["total"]) for r in rows(table)) == [("x", 5), ("x", 8), ("y", 2)]
    assert rows(engine.execute_query(
        "context ByAcct select context.key1 as k, item, total from T order by item")) \
        == [{"k": "a", "item": "x", "total": 8}, {"k": "a", "item": "y", "total": 2},
            {"k": "b", "item": "x", "total": 5}]


def test_on_merge_updates_the_partition_table(engine):
    engine.epl("context ByAcct create table M(item string primary key, amount int)")
    engine.epl("context ByAcct on Tx as tx merge M as m where m.item = tx.item "
               "when matched and tx.amount < 0 then delete "
               "when matched then update set m.amount = m.amount + tx.amount "
               "when not matched then insert select tx.item as item, tx.amount as amount")
    send(engine, ("a", "x", 1), ("b", "x", 5), ("a", "x", 7), ("a", "y", 2), ("b", "x", -1))
    q = "context ByAcct select context.key1 as k, item, amount from M"
    assert rows(engine.execute_query(q)) == [{"k": "a", "item": "x", "amount": 8},
                                             {"k": "a", "item": "y", "amount": 2}]
    send(engine, ("b", "z", 3))
    assert rows(engine.execute_query(q))[-1] == {"k": "b", "item": "z", "amount": 3}


def test_hash_context_table_populated_by_merge_and_deleted_by_query(engine):
    engine.epl("create context H coalesce by consistent_hash_crc32(item) from Tx granularity 4 preallocate")
    engine.epl("context H create table HT(item string primary key, amount int primary key)")
    engine.epl("context H on Tx t merge HT h where t.item = h.item and t.amount = h.amount "
               "when not matched then insert select t.item as item, t.amount as amount")
    for i in range(5):
        send(engine, ("a", f"E{i}", i))
    from engine.contexts.hashed import consistent_hash_crc32
    buckets = [consistent_hash_crc32(f"E{i}") % 4 for i in range(5)]
    counts = rows(engine.execute_query("context H select count(*) as n from HT"))
    assert [r["n"] for r in counts] == [buckets.count(b) for b in range(4)]   # preallocated: all 4
    engine.execute_query("delete from HT where item = 'E0'")
    assert rows(engine.execute_query("select count(*) as n from HT")) == [{"n": 4}]


def test_ended_partition_drops_its_rows(engine):
    engine.epl("create schema Close(acct string)")
    engine.epl("create context Sess partition by acct from Tx, acct from Close terminated by Close")
    engine.epl("context Sess create table S(item string primary key, n count(*))")
    engine.epl("context Sess into table S select count(*) as n from Tx group by item")
    send(engine, ("a", "x", 1), ("b", "x", 1), ("a", "x", 1))
    assert sorted(r["n"] for r in rows(engine.execute_query("select * from S"))) == [1, 2]
    engine.send({"acct": "a"}, "Close")
    assert rows(engine.execute_query("select * from S")) == [{"item": "x", "n": 1}]
    send(engine, ("a", "x", 1))
    assert sorted(r["n"] for r in rows(engine.execute_query("select * from S"))) == [1, 1]


@pytest.mark.parametrize("epl, message", [
    ("into table T select sum(amount) as total from Tx group by item",
     "Table by name 'T' has been declared for context 'ByAcct' and can only be used within the same context"),
    ("select T['x'].total as t from Tx",
     "Table by name 'T' has been declared for context 'ByAcct' and can only be used within the same context"),
    ("on Tx merge T when matched then delete",
     "Cannot create on-trigger expression: Table 'T' was declared with context 'ByAcct', please declare the same context name"),
])
def test_uses_outside_the_context_are_validation_errors(engine, epl, message):
    engine.epl("context ByAcct create table T(item string primary key, total sum(int))")
    with pytest.raises(EPLValidationError, match=message):
        engine.epl(epl)


def test_context_variables_are_only_read_in_their_context(engine):
    engine.epl("context ByAcct create variable int v = 0")
    with pytest.raises(EPLValidationError, match="can only be accessed within that context"):
        engine.epl("select v from Tx")
    with pytest.raises(EPLValidationError, match="could not be found"):
        engine.epl("context Nope create variable int w = 0")


def test_on_set_in_a_context_assigns_global_variables_per_partition(engine):
    engine.epl("create variable string lastacct = null")
    engine.epl("create variable int seen = 0")
    rec = Rec(engine.epl("context ByAcct on Tx(amount > 0) as t set lastacct = context.key1, seen = seen + t.amount"))
    send(engine, ("a", "x", 1), ("b", "x", 0), ("b", "x", 5))
    assert rec.pop() == [[{"lastacct": "a", "seen": 1}], [{"lastacct": "b", "seen": 6}]]
    assert engine.services["variables"].get("lastacct") == "b"

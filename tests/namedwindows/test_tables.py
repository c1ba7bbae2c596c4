"""Tables: primary keys and aggregation columns, `into table`, `T[key].col`, on-actions,
insert into a table, and fire-and-forget queries."""
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
    e.epl("create schema Q(acct string)")
    yield e
    e.close()


def test_into_table_and_table_access(engine):
    engine.epl("create table Tot(acct string primary key, total sum(int), n count(*), hi max(int))")
    into = Rec(engine.epl("into table Tot select sum(amount) as total, count(*) as n, max(amount) as hi "
                          "from W group by acct"))
    ask = Rec(engine.epl("select acct, Tot[acct].total as t, Tot[acct].hi as hi from Q"))
    for acct, amount in (("a", 5), ("a", 7), ("b", 1)):
        engine.send({"acct": acct, "amount": amount}, "W")
    assert into.pop()[-1] == [{"total": 1, "n": 1, "hi": 1}]
    engine.send({"acct": "a"}, "Q")
    engine.send({"acct": "zz"}, "Q")
    assert ask.pop() == [[{"acct": "a", "t": 12, "hi": 7}], [{"acct": "zz", "t": None, "hi": None}]]
    assert rows(engine.execute_query("select * from Tot order by acct")) == [
        {"acct": "a", "total": 12, "n": 2, "hi": 7}, {"acct": "b", "total": 1, "n": 1, "hi": 1}]


def test_two_statements_share_the_table_state(engine):
    engine.epl("create table Tot(acct string primary key, total sum(int))")
    engine.epl("into table Tot select sum(amount) as total from W group by acct")
    engine.epl("create schema Refund(acct string, amount int)")
    engine.epl("into table Tot select sum(-amount) as total from Refund group by acct")
    engine.send({"acct": "a", "amount": 10}, "W")
    engine.send({"acct": "a", "amount": 3}, "Refund")
    assert rows(engine.execute_query("select total from Tot where acct = 'a'")) == [{"total": 7}]


def test_windowed_into_table_leaves(engine):
    engine.epl("create table Recent(acct string primary key, total sum(int))")
    engine.epl("into table Recent select sum(amount) as total from W#length(2) group by acct")
    for amount in (1, 2, 4):
        engine.send({"acct": "a", "amount": amount}, "W")
    assert rows(engine.execute_query("select total from Recent")) == [{"total": 6}]


def test_table_without_primary_key(engine):
    engine.epl("create table Glob(total sum(int), n count(*))")
    engine.epl("into table Glob select sum(amount) as total, count(*) as n from W")
    engine.send({"acct": "a", "amount": 2}, "W")
    engine.send({"acct": "b", "amount": 3}, "W")
    assert rows(engine.execute_query("select * from Glob")) == [{"total": 5, "n": 2}]


def test_on_merge_update_delete_and_select_on_plain_columns(engine):
    engine.epl("create table Acct(acct string primary key, limit_ int, n count(*))")
    engine.epl("create schema Lim(acct string, v int)")
    engine.epl("on Lim as l merge Acct as t where t.acct = l.acct "
               "when matched and l.v < 0 then delete "
               "when matched then update set limit_ = l.v "
               "when not matched then insert select l.acct as acct, l.v as limit_")
    sel = Rec(engine.epl("on Q as q select t.limit_ as lim from Acct as t where t.acct = q.acct"))
    engine.send({"acct": "a", "v": 10}, "Lim")
    engine.send({"acct": "a", "v": 20}, "Lim")
    engine.send({"acct": "b", "v": 1}, "Lim")
    engine.send({"acct": "a"}, "Q")
    assert sel.pop() == [[{"lim": 20}]]
    engine.send({"acct": "a", "v": -1}, "Lim")
    assert rows(engine.execute_query("select acct from Acct")) == [{"acct": "b"}]
    engine.epl("on Q as q delete from Acct as t where t.acct = q.acct")
    engine.send({"acct": "b"}, "Q")
    assert engine.execute_query("select * from Acct") == []


def test_insert_into_table_and_fire_and_forget(engine):
    engine.epl("create table Names(acct string primary key, name string)")
    engine.epl("insert into Names select acct, 'n-' || acct as name from W")
    engine.send({"acct": "a", "amount": 1}, "W")
    engine.send({"acct": "a", "amount": 2}, "W")          # the key exists: not inserted again
    engine.execute_query("insert into Names values ('z', 'zed')")
    assert rows(engine.execute_query("update Names set name = 'A' where acct = 'a'")) == \
        [{"acct": "a", "name": "A"}]
    assert rows(engine.execute_query("select * from Names order by acct")) == \
        [{"acct": "a", "name": "A"}, {"acct": "z", "name": "zed"}]
    assert rows(engine.execute_query("delete from Names where acct = 'z'")) == [{"acct": "z", "name": "zed"}]


def test_errors(engine):
    engine.epl("create table T1(acct string primary key, total sum(int))")
    with pytest.raises(EPLValidationError, match="expecting 'sum'"):
        engine.epl("into table T1 select count(*) as total from W group by acct")
    with pytest.raises(EPLValidationError, match="group-by"):
        engine.epl("into table T1 select sum(amount) as total from W")
    with pytest.raises(EPLValidationError, match="number of keys"):
        engine.epl("select T1[acct, acct].total from W")
    with pytest.raises(EPLValidationError, match="not a column"):
        engine.epl("select T1[acct].nope from W")
    with pytest.raises(EPLValidationError, match="cannot be used as a stream"):
        engine.epl("select * from T1")
    with pytest.raises(EPLValidationError, match="cannot be assigned"):
        engine.epl("on Q update T1 set total = 1")

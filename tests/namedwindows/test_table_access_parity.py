"""Unkeyed table access (`T.col`) in select clauses and stream filters, and aggregation
columns of tables fed through data windows (count, countever, sum, avg) with Esper's values."""
from __future__ import annotations

from engine import Engine


def _engine():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema SB(theString string, intPrimitive int)")
    e.epl("create schema S0(id int)")
    e.epl("create table Tot(total sum(int), cnt count(*), av avg(int), ever countever(*))")
    e.epl("into table Tot select sum(intPrimitive) as total, count(*) as cnt, "
          "avg(intPrimitive) as av, countever(*) as ever from SB#time(2 sec)")
    return e


def _rows(stmt):
    out = []
    stmt.add_listener(lambda new, old: out.extend(b.to_dict() for b in new or ()))
    return out


def test_unkeyed_table_columns_in_select_follow_the_window():
    e = _engine()
    rows = _rows(e.epl("select Tot.total as total, Tot.cnt as cnt, Tot.av as av, Tot.ever as ever "
                       "from S0"))
    e.advance_time(1000)
    e.send({"theString": "E1", "intPrimitive": 10}, "SB")
    e.send({"id": 1}, "S0")
    e.advance_time(1500)
    e.send({"theString": "E2", "intPrimitive": 20}, "SB")
    e.send({"id": 2}, "S0")
    e.advance_time(3000)
    e.send({"id": 3}, "S0")
    e.advance_time(3500)
    e.send({"id": 4}, "S0")
    assert rows == [{"total": 10, "cnt": 1, "av": 10.0, "ever": 1},
                    {"total": 30, "cnt": 2, "av": 15.0, "ever": 2},
                    {"total": 20, "cnt": 1, "av": 20.0, "ever": 2},
                    {"total": None, "cnt": 0, "av": None, "ever": 2}]


def test_unkeyed_table_column_in_a_stream_filter():
    e = _engine()
    rows = _rows(e.epl("select id from S0(id = Tot.cnt)"))
    for v in (1, 2):
        e.send({"theString": "x", "intPrimitive": v}, "SB")
    e.send({"id": 1}, "S0")
    e.send({"id": 2}, "S0")
    assert rows == [{"id": 2}]


def test_stream_alias_wins_over_a_table_of_the_same_name():
    e = _engine()
    rows = _rows(e.epl("select Tot.id as id from S0 as Tot"))
    e.send({"id": 5}, "S0")
    assert rows == [{"id": 5}]

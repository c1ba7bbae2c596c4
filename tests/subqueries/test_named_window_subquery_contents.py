"""Subqueries over ordinary named windows and tables read their current contents: expiry,
on-delete, on-update and on-merge are reflected, and a later statement sees the rows the
window already holds (checked against a brute-force list model)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine
from epl import EPLValidationError


def make(window: str = "W#keepall") -> Engine:
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema Tx(acct string, amt int)")
    e.epl("create schema Q(acct string, x int)")
    e.epl("create schema D(acct string, amt int)")
    e.epl(f"create window {window} as Tx")
    e.epl("insert into W select * from Tx")
    return e


def rows(engine: Engine, text: str) -> list:
    out: list = []
    engine.epl(text).add_listener(lambda new, old: out.extend(b.to_dict() for b in new or ()))
    return out


def tx(engine: Engine, acct: str, amt: int) -> None:
    engine.send({"acct": acct, "amt": amt}, "Tx")


def q(engine: Engine, acct: str = "a") -> None:
    engine.send({"acct": acct, "x": 1}, "Q")


COUNT_SUM = "select (select count(*) from W) as c, (select sum(amt) from W) as s from Q"


def test_length_window_expiry_is_reflected():
    e = make("W#length(2)")
    out = rows(e, COUNT_SUM)
    for i in range(5):
        tx(e, "a", i)
    q(e)
    assert out == [{"c": 2, "s": 7}]


def test_on_delete_is_reflected():
    e = make()
    out = rows(e, COUNT_SUM + " as q")
    e.epl("on D delete from W where W.amt = D.amt")
    for i in (1, 2, 3):
        tx(e, "a", i)
    e.send({"acct": "a", "amt": 2}, "D")
    q(e)
    assert out == [{"c": 2, "s": 4}]


def test_on_update_is_reflected():
    e = make()
    out = rows(e, "select (select sum(amt) from W) as s, "
                  "(select amt from W where acct = 'b') as b from Q")
    e.epl("on D as d update W set amt = d.amt where W.acct = d.acct")
    tx(e, "a", 1)
    tx(e, "b", 2)
    e.send({"acct": "b", "amt": 40}, "D")
    q(e)
    assert out == [{"s": 41, "b": 40}]


def test_on_merge_is_reflected():
    e = make()
    out = rows(e, "select (select sum(amt) from W) as s, (select count(*) from W) as c from Q")
    e.epl("on D as d merge W as w where w.acct = d.acct "
          "when matched and d.amt < 0 then delete "
          "when matched then update set amt = d.amt "
          "when not matched then insert select d.acct as acct, d.amt as amt")
    tx(e, "a", 1)
    e.send({"acct": "a", "amt": 5}, "D")       # update a: 5
    e.send({"acct": "c", "amt": 7}, "D")       # insert c: 7
    q(e)
    e.send({"acct": "a", "amt": -1}, "D")      # delete a
    q(e)
    assert out == [{"s": 12, "c": 2}, {"s": 7, "c": 1}]


def test_time_expiry_is_reflected():
    e = make("W#time(10 sec)")
    out = rows(e, COUNT_SUM)
    tx(e, "a", 1)
    e.advance_time(5_000)
    tx(e, "a", 2)
    q(e)
    e.advance_time(10_000)     # the first row leaves
    q(e)
    e.advance_time(15_000)     # and the second
    q(e)
    assert out == [{"c": 2, "s": 3}, {"c": 1, "s": 2}, {"c": 0, "s": None}]


def test_statement_created_later_sees_current_rows():
    e = make("W#length(2)")
    for i in range(4):
        tx(e, "a", i)
    out = rows(e, COUNT_SUM)
    q(e)
    tx(e, "a", 10)
    q(e)
    assert out == [{"c": 2, "s": 5}, {"c": 2, "s": 13}]


def test_correlated_subquery_uses_current_rows():
    e = make("W#length(3)")
    out = rows(e, "select q.acct as k, (select sum(amt) from W where acct = q.acct) as s, "
                  "exists (select * from W where acct = q.acct and amt > 5) as big from Q as q")
    for acct, amt in (("a", 1), ("b", 2), ("a", 9), ("a", 4)):   # ("a", 1) expires
        tx(e, acct, amt)
    for acct in ("a", "b", "z"):
        q(e, acct)
    assert out == [{"k": "a", "s": 13, "big": True}, {"k": "b", "s": 2, "big": False},
                   {"k": "z", "s": None, "big": False}]


def test_window_filter_and_in_subquery():
    e = make("W#length(2)")
    out = rows(e, "select (select count(*) from W(amt > 1)) as c, "
                  "q.x in (select amt from W) as isin from Q as q")
    for amt in (1, 2, 3):
        tx(e, "a", amt)
    q(e)
    assert out == [{"c": 2, "isin": False}]


def test_window_consumer_sees_subquery_including_the_change():
    """A statement consuming the window evaluates its subquery against the window after
    the change that triggered it."""
    e = make("W#length(2)")
    out = rows(e, "select amt, (select count(*) from W) as c, (select sum(amt) from W) as s from W")
    for amt in (1, 2, 3):
        tx(e, "a", amt)
    assert out == [{"amt": 1, "c": 1, "s": 1}, {"amt": 2, "c": 2, "s": 3},
                   {"amt": 3, "c": 2, "s": 5}]


def test_stopped_statement_restarts_from_current_rows():
    e = make("W#length(2)")
    stmt = e.epl(COUNT_SUM)
    out: list = []
    stmt.add_listener(lambda new, old: out.extend(b.to_dict() for b in new or ()))
    tx(e, "a", 1)
    stmt.stop()
    tx(e, "a", 2)
    tx(e, "a", 3)
    stmt.start()
    q(e)
    assert out == [{"c": 2, "s": 5}]


def test_data_window_on_named_window_subquery_is_an_error():
    e = make()
    with pytest.raises(EPLValidationError, match="cannot declare a data window view onto the named window"):
        e.epl("select (select count(*) from W#length(1)) as c from Q")


def test_table_subquery_reads_current_rows():
    e = Engine(time="simulated")
    e.epl("create schema Tx(acct string, amt int)")
    e.epl("create schema Q(acct string)")
    e.epl("create table T(k string primary key, v int)")
    e.epl("on Tx merge T where k = acct when matched and amt < 0 then delete "
          "when matched then update set v = amt "
          "when not matched then insert select acct as k, amt as v")
    e.send({"acct": "a", "amt": 10}, "Tx")
    out = rows(e, "select (select count(*) from T) as c, (select sum(v) from T) as s, "
                  "(select v from T where k = q.acct) as mine from Q as q")
    e.send({"acct": "b", "amt": 5}, "Tx")
    e.send({"acct": "a", "amt": 3}, "Tx")
    e.send({"acct": "a"}, "Q")
    e.send({"acct": "b", "amt": -1}, "Tx")
    e.send({"acct": "b"}, "Q")
    assert out == [{"c": 2, "s": 8, "mine": 3}, {"c": 1, "s": 3, "mine": None}]
    with pytest.raises(EPLValidationError, match="Views are not supported with tables"):
        e.epl("select (select count(*) from T#length(1)) as c from Q")


# -- against a brute-force model -----------------------------------------------------------

ops = st.lists(st.one_of(
    st.tuples(st.just("ins"), st.sampled_from("abc"), st.integers(0, 9)),
    st.tuples(st.just("del"), st.sampled_from("abc"), st.integers(0, 9)),
    st.tuples(st.just("q"), st.sampled_from("abcd"), st.just(0)),
    st.tuples(st.just("new"), st.just(""), st.just(0)),
), max_size=40)


@settings(max_examples=120, deadline=None)
@given(size=st.integers(1, 4), script=ops)
def test_matches_list_model(size, script):
    """A length window with on-delete by amount; statements created at any point answer
    the window's count, sum and per-account sum as a list of its rows does."""
    e = make(f"W#length({size})")
    e.epl("on D delete from W where W.amt = D.amt")
    text = ("select q.acct as k, (select count(*) from W) as c, (select sum(amt) from W) as s, "
            "(select sum(amt) from W where acct = q.acct) as mine, "
            "exists (select * from W where acct = q.acct) as has from Q as q")
    outs = [rows(e, text)]
    window: list[tuple[str, int]] = []
    expected: list[list[dict]] = [[]]
    for op, acct, amt in script:
        if op == "ins":
            tx(e, acct, amt)
            window.append((acct, amt))
            del window[:-size]
        elif op == "del":
            e.send({"acct": acct, "amt": amt}, "D")
            window = [r for r in window if r[1] != amt]
        elif op == "new":
            outs.append(rows(e, text))
            expected.append([])
        else:
            q(e, acct)
            mine = [v for k, v in window if k == acct]
            row = {"k": acct, "c": len(window), "s": sum(v for _, v in window) if window else None,
                   "mine": sum(mine) if mine else None, "has": bool(mine)}
            for exp in expected:
                exp.append(row)
    assert outs == expected

"""Subqueries over named windows and tables declared with a context: a statement of the same
context reads its own partition's window or table (uncorrelated and correlated, aggregating
or not, with a `W(filter)`); from outside the context, or from another context, the
subquery is a validation error and nothing stays registered."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from engine import Engine
from epl.errors import EPLValidationError
from recording import Rec

MSG = ("Failed to validate subquery number 1 querying {name}: {kind} by name '{name}' has been "
       "declared for context 'ByAcct' and can only be used within the same context")


def build(view: str = "#keepall", terminated: str = "") -> Engine:
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema Tx(acct string, amount int)")
    e.epl("create schema Cmd(acct string, lim int)")
    e.epl("create schema Q(acct string, lim int)")
    e.epl("create schema Stop(acct string)")
    e.epl("create context ByAcct partition by acct from Tx, acct from Cmd, acct from Q, "
          "acct from Stop" + terminated)
    e.epl(f"context ByAcct create window W{view} as Tx")
    e.epl("context ByAcct insert into W select * from Tx")
    e.epl("context ByAcct on Cmd delete from W where amount > lim")
    return e


@pytest.fixture
def engine():
    e = build()
    yield e
    e.close()


def send(e: Engine, kind: str, acct: str, value: int = 0) -> None:
    if kind == "tx":
        e.send({"acct": acct, "amount": value}, "Tx")
    elif kind == "stop":
        e.send({"acct": acct}, "Stop")
    else:
        e.send({"acct": acct, "lim": value}, "Cmd" if kind == "cmd" else "Q")


def test_subquery_sees_only_its_partition_window(engine):
    rec = Rec(engine.epl(
        "context ByAcct select context.key1 as k, (select count(*) from W) as n, "
        "(select sum(amount) from W where amount > q.lim) as s, "
        "(select amount from W(amount > 2) where amount = q.lim) as eq from Q as q"))
    for acct, amount in (("a", 1), ("b", 2), ("a", 3)):
        send(engine, "tx", acct, amount)
    send(engine, "q", "a", 0)
    send(engine, "q", "a", 3)
    send(engine, "q", "b", 0)
    send(engine, "q", "c", 0)
    assert rec.pop() == [[{"k": "a", "n": 2, "s": 4, "eq": None}],
                         [{"k": "a", "n": 2, "s": None, "eq": 3}],
                         [{"k": "b", "n": 1, "s": 2, "eq": None}],
                         [{"k": "c", "n": 0, "s": None, "eq": None}]]
    send(engine, "cmd", "a", 2)             # deletes a's 3 only
    send(engine, "q", "a", 0)
    send(engine, "q", "b", 0)
    assert rec.pop() == [[{"k": "a", "n": 1, "s": 1, "eq": None}],
                         [{"k": "b", "n": 1, "s": 2, "eq": None}]]


def test_subquery_started_later_sees_the_current_contents(engine):
    for acct, amount in (("a", 1), ("a", 2), ("b", 9)):
        send(engine, "tx", acct, amount)
    rec = Rec(engine.epl("context ByAcct select (select sum(amount) from W) as s, "
                         "exists (select * from W where amount = q.lim) as has from Q as q"))
    send(engine, "q", "a", 2)
    send(engine, "q", "b", 2)
    assert rec.pop() == [[{"s": 3, "has": True}], [{"s": 9, "has": False}]]


def test_subquery_over_a_context_table_reads_partition_rows():
    e = Engine(time="simulated")
    e.advance_time(0)
    try:
        e.epl("create schema Tx(acct string, item string, amount int)")
        e.epl("create schema Q(acct string, item string)")
        e.epl("create context ByAcct partition by acct from Tx, acct from Q")
        e.epl("context ByAcct create table T(item string primary key, total sum(int))")
        e.epl("context ByAcct into table T select sum(amount) as total from Tx group by item")
        rec = Rec(e.epl("context ByAcct select context.key1 as k, (select count(*) from T) as n, "
                        "(select total from T where item = q.item) as t, "
                        "(select sum(total) from T(total > 2)) as big from Q as q"))
        for acct, item, amount in (("a", "x", 1), ("b", "x", 5), ("a", "x", 7), ("a", "y", 2)):
            e.send({"acct": acct, "item": item, "amount": amount}, "Tx")
        for acct, item in (("a", "x"), ("a", "y"), ("b", "x"), ("c", "x")):
            e.send({"acct": acct, "item": item}, "Q")
        assert rec.pop() == [[{"k": "a", "n": 2, "t": 8, "big": 8}],
                             [{"k": "a", "n": 2, "t": 2, "big": 8}],
                             [{"k": "b", "n": 1, "t": 5, "big": 5}],
                             [{"k": "c", "n": 0, "t": None, "big": None}]]
        with pytest.raises(EPLValidationError) as err:
            e.epl("select (select count(*) from T) as n from Q")
        assert MSG.format(name="T", kind="Table") in str(err.value)
    finally:
        e.close()


@pytest.mark.parametrize("epl", [
    "select (select count(*) from W) as n from Q",
    "select * from Q as q where exists (select * from W where amount = q.lim)",
    "context Other select (select count(*) from W) as n from Q",
])
def test_subquery_from_outside_the_context_is_an_error(engine, epl):
    engine.epl("create context Other partition by acct from Q")
    before = len(engine.statements)
    with pytest.raises(EPLValidationError) as err:
        engine.epl(epl)
    assert MSG.format(name="W", kind="Named window") in str(err.value)
    assert len(engine.statements) == before
    # nothing was left behind: the window still works for its own context
    rec = Rec(engine.epl("context ByAcct select (select count(*) from W) as n from Q"))
    send(engine, "tx", "a", 1)
    send(engine, "q", "a", 0)
    assert rec.pop() == [[{"n": 1}]]


def test_plain_stream_subquery_state_is_per_partition():
    """Each partition's statement instance has its own subquery window (not the last
    partition's)."""
    e = Engine(time="simulated")
    e.advance_time(0)
    try:
        e.epl("create schema Tx(acct string, amount int)")
        e.epl("create schema Q(acct string, lim int)")
        e.epl("create context ByAcct partition by acct from Tx, acct from Q")
        rec = Rec(e.epl("context ByAcct select context.key1 as k, "
                        "(select count(*) from Tx#keepall) as n from Q"))
        e.send({"acct": "a", "amount": 1}, "Tx")     # starts a: a's subquery sees it
        e.send({"acct": "b", "amount": 2}, "Tx")     # starts b; a's subquery, narrowed to
        e.send({"acct": "a", "amount": 3}, "Tx")     # a's key as in Esper, does not see it
        e.send({"acct": "a", "lim": 0}, "Q")
        e.send({"acct": "b", "lim": 0}, "Q")
        assert rec.pop() == [[{"k": "a", "n": 2}], [{"k": "b", "n": 1}]]
    finally:
        e.close()


# -- against a per-key model ---------------------------------------------------------------------

ACCTS = ("a", "b", "c")
ops = st.lists(st.one_of(
    st.tuples(st.just("tx"), st.sampled_from(ACCTS), st.integers(0, 9)),
    st.tuples(st.just("cmd"), st.sampled_from(ACCTS), st.integers(0, 9)),
    st.tuples(st.just("q"), st.sampled_from(ACCTS), st.integers(0, 9)),
    st.tuples(st.just("stop"), st.sampled_from(ACCTS), st.just(0)),
), max_size=40)


@settings(max_examples=120, deadline=None)
@given(ops)
def test_partition_subqueries_match_per_key_model(steps):
    e = build("#length(3)", " terminated by Stop")
    rec = Rec(e.epl(
        "context ByAcct select context.key1 as k, (select count(*) from W) as n, "
        "(select sum(amount) from W where amount > q.lim) as above, "
        "(select max(amount) from W(amount < 5)) as small, "
        "exists (select * from W where amount = q.lim) as has, "
        "q.lim in (select amount from W) as isin from Q as q"))
    model: dict[str, list[int]] = {}
    try:
        for kind, acct, value in steps:
            send(e, kind, acct, value)
            w = model.setdefault(acct, [])
            if kind == "tx":
                w.append(value)
                del w[:-3]
            elif kind == "cmd":
                w[:] = [v for v in w if v <= value]
            elif kind == "stop":
                model.pop(acct)
            else:
                above = [v for v in w if v > value]
                small = [v for v in w if v < 5]
                want = {"k": acct, "n": len(w), "above": sum(above) if above else None,
                        "small": max(small) if small else None, "has": value in w,
                        "isin": value in w}
                assert rec.pop() == [[want]]
            assert rec.pop() == []
    finally:
        e.close()

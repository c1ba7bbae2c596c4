"""Named windows declared with a context (`context X create window ...`): each partition has
its own window, statements of the context see their partition's contents, ending a
partition releases them; uses from outside the context are validation errors."""
from __future__ import annotations

import pytest

from engine import Engine
from epl.errors import EPLValidationError
from recording import Rec, rows


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema Tx(acct string, amount int)")
    e.epl("create schema Cmd(acct string, lim int)")
    e.epl("create schema Stop(acct string)")
    yield e
    e.close()


def keyed(engine, view="#keepall", terminated=""):
    engine.epl("create context ByAcct partition by acct from Tx, acct from Cmd, acct from Stop"
               + terminated)
    win = engine.epl(f"@name('W') context ByAcct create window W{view} as Tx")
    engine.epl("context ByAcct insert into W select * from Tx")
    return win


def send_tx(engine, *pairs):
    for acct, amount in pairs:
        engine.send({"acct": acct, "amount": amount}, "Tx")


def test_counts_per_account_are_independent(engine):
    keyed(engine)
    engine.epl("context ByAcct on Cmd delete from W where amount > lim")
    rec = Rec(engine.epl("context ByAcct select context.key1 as k, count(*) as n from W"))
    send_tx(engine, ("a", 1), ("b", 5), ("a", 7), ("a", 2))
    assert rec.pop() == [[{"k": "a", "n": 1}], [{"k": "b", "n": 1}], [{"k": "a", "n": 2}],
                         [{"k": "a", "n": 3}]]
    engine.send({"acct": "a", "lim": 1}, "Cmd")       # deletes a's 7 and 2, not b's 5
    assert rec.pop() == [[{"k": "a", "n": 1}]]
    engine.send({"acct": "b", "lim": 10}, "Cmd")      # nothing above 10 in b's window
    assert rec.pop() == []
    engine.send({"acct": "c", "lim": 0}, "Cmd")       # a new, empty partition
    assert sorted((r["acct"], r["amount"]) for r in rows(engine.execute_query("select * from W"))) \
        == [("a", 1), ("b", 5)]


def test_create_statement_sees_every_partition_and_its_listeners_the_changes(engine):
    win = keyed(engine, "#length(1)")
    got = []
    win.add_listener(lambda new, old: got.append((rows(new), rows(old))))
    send_tx(engine, ("a", 1), ("b", 2), ("a", 3))
    # a's length(1) window pushes out a's first event only
    assert got == [([{"acct": "a", "amount": 1}], []), ([{"acct": "b", "amount": 2}], []),
                   ([{"acct": "a", "amount": 3}], [{"acct": "a", "amount": 1}])]
    assert sorted(r["amount"] for r in rows(win)) == [2, 3]


def test_on_select_and_on_update_act_on_the_partition_window(engine):
    keyed(engine)
    upd = Rec(engine.epl("context ByAcct on Cmd as c update W as w set amount = w.amount * 10 "
                         "where w.amount > c.lim"))
    sel = Rec(engine.epl("context ByAcct on Cmd as c select context.key1 as k, sum(w.amount) as s "
                         "from W as w"))
    send_tx(engine, ("a", 1), ("a", 5), ("b", 7))
    engine.send({"acct": "a", "lim": 2}, "Cmd")
    assert upd.pop() == [[{"acct": "a", "amount": 50}]]
    # on-select was created after on-update: it sees the update made for the same trigger
    assert sel.pop() == [[{"k": "a", "s": 51}]]
    engine.send({"acct": "b", "lim": 0}, "Cmd")
    assert upd.pop() == [[{"acct": "b", "amount": 70}]]
    assert sel.pop() == [[{"k": "b", "s": 70}]]


def test_on_merge_per_partition(engine):
    keyed(engine)
    engine.epl("context ByAcct on Cmd as c merge W as w where w.amount = c.lim "
               "when matched then delete "
               "when not matched then insert select c.acct as acct, c.lim as amount")
    send_tx(engine, ("a", 1), ("b", 1))
    engine.send({"acct": "a", "lim": 1}, "Cmd")       # a's 1 deleted; b keeps its 1
    engine.send({"acct": "b", "lim": 4}, "Cmd")       # b gets a 4
    assert sorted((r["acct"], r["amount"]) for r in rows(engine.execute_query("select * from W"))) \
        == [("b", 1), ("b", 4)]


def test_terminated_partition_releases_its_window(engine):
    win = keyed(engine, terminated=" terminated by Stop")
    rec = Rec(engine.epl("context ByAcct select context.key1 as k, count(*) as n from W"))
    send_tx(engine, ("a", 1), ("b", 2), ("a", 3))
    infra = engine.services["named_windows"].get("W")
    assert infra.instance_count() == 2
    engine.send({"acct": "a"}, "Stop")
    assert infra.instance_count() == 1
    assert rows(win) == [{"acct": "b", "amount": 2}]
    assert rows(engine.execute_query("select * from W")) == [{"acct": "b", "amount": 2}]
    rec.pop()
    send_tx(engine, ("a", 9))                          # a new partition for a: a fresh window
    assert rec.pop() == [[{"k": "a", "n": 1}]]
    engine.send({"acct": "a"}, "Stop")
    engine.send({"acct": "b"}, "Stop")
    assert infra.instance_count() == 0 and rows(win) == []
    assert engine.services["contexts"].partition_count("ByAcct") == 0


def test_destroying_the_statements_releases_everything(engine):
    win = keyed(engine, "#time(10 sec)")
    send_tx(engine, ("a", 1), ("b", 2))
    filters = engine.filter_count()
    for s in list(engine.statements):
        if s.name not in ("W",) and s.kind != "create-schema" and s.kind != "create-context":
            s.destroy()
    win.destroy()
    assert engine.services["named_windows"].get("W") is None
    assert engine.filter_count() < filters
    engine.advance_time(20_000)                        # no expiry callbacks left behind


def test_consumer_outside_the_context_sees_every_partition(engine):
    keyed(engine)
    rec = Rec(engine.epl("select count(*) as n from W"))
    send_tx(engine, ("a", 1), ("b", 2), ("a", 3))
    assert rec.pop() == [[{"n": 1}], [{"n": 2}], [{"n": 3}]]


def test_fire_and_forget_over_all_partitions_or_per_partition(engine):
    keyed(engine)
    send_tx(engine, ("a", 1), ("b", 2), ("a", 3))
    assert rows(engine.execute_query("select count(*) as n, sum(amount) as s from W")) == [{"n": 3, "s": 6}]
    assert rows(engine.execute_query("context ByAcct select context.key1 as k, count(*) as n from W")) \
        == [{"k": "a", "n": 2}, {"k": "b", "n": 1}]
    assert rows(engine.execute_query("delete from W where amount > 1")) \
        == [{"acct": "a", "amount": 3}, {"acct": "b", "amount": 2}]
    assert rows(engine.execute_query("update W set amount = 0")) == [{"acct": "a", "amount": 0}]
    assert rows(engine.execute_query("context ByAcct select context.key1 as k, count(*) as n from W")) \
        == [{"k": "a", "n": 1}, {"k": "b", "n": 0}]


def test_category_context_window_and_fire_and_forget_with_labels(engine):
    engine.epl("create context Sign group by amount < 0 as neg, group by amount > 0 as pos from Tx")
    engine.epl("context Sign create window W#keepall as Tx")
    engine.epl("context Sign insert into W select * from Tx")
    send_tx(engine, ("a", -1), ("b", 5), ("c", 7), ("d", -3), ("e", 0))
    assert rows(engine.execute_query("context Sign select context.label as l, count(*) as n, "
                                     "sum(amount) as s from W")) \
        == [{"l": "neg", "n": 2, "s": -4}, {"l": "pos", "n": 2, "s": 12}]


def test_hash_context_window_per_bucket(engine):
    engine.epl("create context H coalesce by consistent_hash_crc32(acct) from Tx granularity 4")
    engine.epl("context H create window W#length(2) as Tx")
    engine.epl("context H insert into W select * from Tx")
    accts = [f"E{i % 5}" for i in range(12)]
    for i, a in enumerate(accts):
        engine.send({"acct": a, "amount": i}, "Tx")
    from engine.contexts.hashed import consistent_hash_crc32
    expected: dict[int, list] = {}
    for i, a in enumerate(accts):
        expected.setdefault(consistent_hash_crc32(a) % 4, []).append(i)
    want = sorted(sorted(v[-2:]) for v in expected.values())
    got = rows(engine.execute_query("context H select window(amount) as w from W"))
    assert sorted(sorted(r["w"]) for r in got) == want


def test_overlapping_temporal_context_window(engine):
    engine.epl("create schema S(id int)")
    engine.epl("create schema X(id int)")
    engine.epl("create context Sess initiated by S as s terminated by X(id = s.id)")
    win = engine.epl("context Sess create window W#keepall as Tx")
    engine.epl("context Sess insert into W select * from Tx")
    engine.send({"id": 1}, "S")
    send_tx(engine, ("a", 1))
    engine.send({"id": 2}, "S")
    send_tx(engine, ("b", 2))
    q = "context Sess select context.s.id as sid, count(*) as n from W"
    assert rows(engine.execute_query(q)) == [{"sid": 1, "n": 2}, {"sid": 2, "n": 1}]
    engine.send({"id": 1}, "X")
    assert rows(engine.execute_query(q)) == [{"sid": 2, "n": 1}]
    assert rows(win) == [{"acct": "b", "amount": 2}]


def test_start_end_context_window_starts_empty_each_time(engine):
    engine.epl("create context Shift start @now end after 10 sec")
    engine.epl("context Shift create window W#keepall as Tx")
    engine.epl("context Shift insert into W select * from Tx")
    rec = Rec(engine.epl("context Shift select count(*) as n from W"))
    send_tx(engine, ("a", 1), ("a", 2))
    engine.advance_time(10_000)                       # the shift ends; the next one starts
    send_tx(engine, ("a", 3))
    assert rec.pop() == [[{"n": 1}], [{"n": 2}], [{"n": 1}]]


@pytest.mark.parametrize("epl, message", [
    ("insert into W select * from Tx",
     "Named window by name 'W' has been declared for context 'ByAcct' and can only be used within the same context"),
    ("on Cmd delete from W",
     "Cannot create on-trigger expression: Named window 'W' was declared with context 'ByAcct', please declare the same context name"),
    ("context Other on Tx delete from W",
     "Cannot create on-trigger expression: Named window 'W' was declared with context 'ByAcct', please use the same context instead"),
    ("context Other insert into W select * from Tx",
     "Named window by name 'W' has been declared for context 'ByAcct' and can only be used within the same context"),
])
def test_uses_outside_the_context_are_validation_errors(engine, epl, message):
    keyed(engine)
    engine.epl("create context Other partition by acct from Tx")
    with pytest.raises(EPLValidationError, match=message.replace("(", r"\(")) as err:
        engine.epl(epl)
    assert epl in str(err.value)              # the message names the statement


def test_fire_and_forget_errors(engine):
    keyed(engine)
    engine.epl("create window G#keepall as Tx")
    with pytest.raises(EPLValidationError, match="'G' is declared without context"):
        engine.execute_query("context ByAcct select * from G")
    with pytest.raises(EPLValidationError, match="no partition to insert into"):
        engine.execute_query("insert into W values ('a', 1)")

"""`update istream T set ... [where ...]`: events of T (sent or inserted) change before any
statement sees them; listeners of the update statement get the updated and the original
event (Esper's "Updating an Insert Stream")."""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from recording import Recorder

from engine import Engine
from epl.errors import EPLValidationError


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.deploy("create schema Tick(sym string, price double, vol int);"
             "create schema Alert(reason string, severity string)")
    return e


def tick(e, sym, price, vol=0):
    e.send({"sym": sym, "price": price, "vol": vol}, "Tick")


def test_statements_and_filters_see_the_updated_event(engine):
    engine.epl("update istream Tick set price = price * 2 where sym = 'A'")
    rec = Recorder(engine.epl("@name('s') select sym, price from Tick(price > 3)"))
    tick(engine, "A", 2.0)          # updated to 4.0: passes the filter
    tick(engine, "B", 2.0)          # not updated: filtered out
    tick(engine, "B", 5.0)
    rec.assert_streams(new=[{"sym": "A", "price": 4.0}, {"sym": "B", "price": 5.0}])


def test_listener_gets_new_and_old_and_the_sent_object_is_not_modified(engine):
    upd = Recorder(engine.epl("@name('u') update istream Alert set severity = 'high' "
                              "where severity = 'medium' and reason like '%withdrawal limit%'"))
    seen = Recorder(engine.epl("@name('s') select * from Alert"))
    sent = {"reason": "over withdrawal limit", "severity": "medium"}
    engine.send(sent, "Alert")
    engine.send({"reason": "other", "severity": "medium"}, "Alert")
    assert sent == {"reason": "over withdrawal limit", "severity": "medium"}
    upd.assert_deliveries([([{"reason": "over withdrawal limit", "severity": "high"}],
                            [{"reason": "over withdrawal limit", "severity": "medium"}])])
    seen.assert_streams(new=[{"reason": "over withdrawal limit", "severity": "high"},
                             {"reason": "other", "severity": "medium"}])


def test_assignments_read_the_event_before_this_statements_change(engine):
    engine.epl("update istream Tick set price = vol, vol = 7")
    rec = Recorder(engine.epl("select price, vol from Tick"))
    tick(engine, "A", 1.0, 3)
    rec.assert_streams(new=[{"price": 3.0, "vol": 7}])


def test_several_updates_apply_in_creation_order(engine):
    engine.epl("update istream Tick set sym = sym || '1'")
    engine.epl("update istream Tick set sym = sym || '2'")
    rec = Recorder(engine.epl("select sym from Tick"))
    tick(engine, "A", 1.0)
    rec.assert_streams(new=[{"sym": "A12"}])


def test_priority_orders_updates_the_highest_applies_last(engine):
    engine.epl("@priority(5) update istream Tick set sym = sym || '1', price = 5")
    engine.epl("update istream Tick set sym = sym || '2', price = 2")
    rec = Recorder(engine.epl("select sym, price from Tick"))
    tick(engine, "A", 1.0)
    rec.assert_streams(new=[{"sym": "A21", "price": 5.0}])


def test_drop_applies_before_other_updates_of_its_priority(engine):
    engine.epl("update istream Tick set sym = 'X'")
    engine.epl("@drop update istream Tick set price = 0 where sym = 'X'")
    rec = Recorder(engine.epl("select sym from Tick"))
    tick(engine, "X", 1.0)         # dropped before the first update turns it into X
    tick(engine, "A", 1.0)         # not dropped: the drop saw A
    rec.assert_streams(new=[{"sym": "X"}])


def test_a_later_update_sees_an_earlier_ones_change_in_its_where_clause(engine):
    engine.epl("update istream Tick set vol = 1 where sym = 'A'")
    second = Recorder(engine.epl("@name('u2') update istream Tick set price = 0 where vol = 1"))
    rec = Recorder(engine.epl("select sym, price, vol from Tick"))
    tick(engine, "A", 5.0)
    tick(engine, "B", 5.0)
    rec.assert_streams(new=[{"sym": "A", "price": 0.0, "vol": 1}, {"sym": "B", "price": 5.0, "vol": 0}])
    second.assert_deliveries([([{"sym": "A", "price": 0.0, "vol": 1}], [{"sym": "A", "price": 5.0, "vol": 1}])])


def test_insert_into_stream_is_updated(engine):
    engine.epl("insert into Big select sym, price from Tick where price > 10")
    engine.epl("update istream Big set price = -1 where sym = 'X'")
    rec = Recorder(engine.epl("select sym, price from Big"))
    tick(engine, "X", 20.0)
    tick(engine, "Y", 30.0)
    tick(engine, "X", 5.0)
    rec.assert_streams(new=[{"sym": "X", "price": -1.0}, {"sym": "Y", "price": 30.0}])


def test_alias_qualified_assignment_and_send_many(engine):
    engine.epl("update istream Tick as t set t.vol = t.vol + 1")
    rec = Recorder(engine.epl("select vol from Tick(vol >= 2)"))
    engine.send_many([{"sym": "A", "price": 1.0, "vol": v} for v in range(3)], "Tick")
    rec.assert_streams(new=[{"vol": 2}, {"vol": 3}])


def test_stop_and_destroy_take_the_update_away(engine):
    upd = engine.epl("update istream Tick set price = 0")
    rec = Recorder(engine.epl("select price from Tick"))
    tick(engine, "A", 1.0)
    upd.stop()
    tick(engine, "A", 2.0)
    upd.start()
    tick(engine, "A", 3.0)
    upd.destroy()
    tick(engine, "A", 4.0)
    rec.assert_streams(new=[{"price": 0.0}, {"price": 2.0}, {"price": 0.0}, {"price": 4.0}])


def test_drop_annotation_drops_updated_events(engine):
    engine.epl("@drop update istream Tick set price = 0 where sym = 'X'")
    rec = Recorder(engine.epl("select sym from Tick"))
    tick(engine, "X", 1.0)
    tick(engine, "Y", 1.0)
    rec.assert_streams(new=[{"sym": "Y"}])


@dataclass
class Quote:
    sym: str
    price: float


def test_class_events_are_copied():
    e = Engine(time="simulated")
    e.register_type(Quote)
    e.epl("update istream Quote set price = 9.0")
    rec = Recorder(e.epl("select sym, price from Quote"))
    q = Quote("A", 1.0)
    e.send(q)
    assert q.price == 1.0
    rec.assert_streams(new=[{"sym": "A", "price": 9.0}])


def test_pattern_sees_updated_event(engine):
    engine.epl("update istream Tick set sym = 'Z' where price > 100")
    rec = Recorder(engine.epl("select a.sym as s from pattern[every a=Tick(sym = 'Z')]"))
    tick(engine, "A", 500.0)
    tick(engine, "A", 5.0)
    rec.assert_streams(new=[{"s": "Z"}])


@pytest.mark.parametrize("text, message", [
    ("update istream Nope set a = 1", "Failed to resolve event type, named window or table by name 'Nope'"),
    ("update istream Tick set nope = 1", "Property 'nope' is not available for write access"),
    ("update istream Tick set price = 'x'", "Invalid assignment of column 'price'"),
    ("update istream Tick set price = sum(price)", "Aggregation functions are not allowed"),
])
def test_validation(engine, text, message):
    with pytest.raises(EPLValidationError, match=message):
        engine.epl(text)


def test_subqueries_in_set_and_where(engine):
    engine.epl("create schema Cap(sym string, cap double)")
    engine.epl("update istream Tick as t set price = (select cap from Cap#unique(sym) as l where l.sym = t.sym) "
               "where price > (select cap from Cap#unique(sym) as l where l.sym = t.sym)")
    rec = Recorder(engine.epl("select sym, price from Tick"))
    engine.send({"sym": "A", "cap": 10.0}, "Cap")
    tick(engine, "A", 50.0)
    tick(engine, "A", 5.0)
    tick(engine, "B", 50.0)
    engine.send({"sym": "A", "cap": 20.0}, "Cap")
    tick(engine, "A", 50.0)
    rec.assert_streams(new=[{"sym": "A", "price": 10.0}, {"sym": "A", "price": 5.0},
                            {"sym": "B", "price": 50.0}, {"sym": "A", "price": 20.0}])


def test_context_partitions_started_by_an_updated_event(engine):
    engine.epl("create context ByVol partition by vol from Tick")
    upd = Recorder(engine.epl("@name('u') update istream Tick set vol = 1 where sym = 'A'"))
    rec = Recorder(engine.epl("context ByVol select sym, vol, count(*) as c from Tick"))
    tick(engine, "A", 1.0, 5)
    tick(engine, "B", 1.0, 1)
    rec.assert_streams(new=[{"sym": "A", "vol": 1, "c": 1}, {"sym": "B", "vol": 1, "c": 2}])
    assert len(upd.new_rows()) == 1


def test_initiated_context_started_by_an_updated_event(engine):
    engine.epl("create context Win initiated by Tick(sym = 'Z') as t terminated after 10 sec")
    upd = Recorder(engine.epl("@name('u') update istream Tick set sym = 'Z' where sym = 'A'"))
    rec = Recorder(engine.epl("context Win select context.t.sym as s, count(*) as c from Tick"))
    tick(engine, "A", 1.0)
    tick(engine, "B", 1.0)
    rec.assert_streams(new=[{"s": "Z", "c": 1}, {"s": "Z", "c": 2}])
    assert len(upd.new_rows()) == 1


@dataclass
class Withdrawal:
    account: str
    amount: int


@dataclass
class LargeWithdrawal(Withdrawal):
    flagged: bool = False


def test_updates_apply_to_subtypes_registered_before_and_after():
    e = Engine(time="simulated")
    e.register_type(Withdrawal)
    e.epl("update istream Withdrawal set amount = amount * 10")
    rec = Recorder(e.epl("select account, amount from Withdrawal"))
    e.send(Withdrawal("a", 1))
    e.send(LargeWithdrawal("b", 2))        # registered as a subtype on first send
    e.register_type(LargeWithdrawal)
    e.send(LargeWithdrawal("c", 3))
    rec.assert_streams(new=[{"account": "a", "amount": 10}, {"account": "b", "amount": 20},
                            {"account": "c", "amount": 30}])

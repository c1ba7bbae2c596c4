"""Isolated services: their own time and events; statements moved in and out."""
from __future__ import annotations

import pytest

from engine import Engine
from engine.errors import EngineError
from recording import Rec


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema T(k string, v int)")
    yield e
    e.close()


def test_events_are_visible_only_where_sent(engine):
    moved = engine.epl("select k from T")
    stays = engine.epl("select k from T")
    r_moved, r_stays = Rec(moved), Rec(stays)
    iso = engine.isolated("iso")
    iso.add(moved)
    engine.send({"k": "engine", "v": 0}, "T")
    iso.send({"k": "isolated", "v": 0}, "T")
    assert r_moved.pop() == [[{"k": "isolated"}]]
    assert r_stays.pop() == [[{"k": "engine"}]]
    iso.remove(moved)
    engine.send({"k": "back", "v": 0}, "T")
    assert r_moved.pop() == [[{"k": "back"}]]
    assert iso.statements == []


def test_own_time(engine):
    s = engine.epl("select rstream k from T#time(10 sec)")
    rec = Rec(s)
    iso = engine.isolated("replay")
    iso.add(s)
    iso.send({"k": "a", "v": 0}, "T")
    engine.advance_time(60_000)          # engine time does not move the isolated statement
    assert rec.pop() == []
    iso.advance_time(10_000)
    assert rec.pop() == [[{"k": "a"}]]
    assert iso.now == 10_000 and engine.now == 60_000


def test_insert_into_stays_inside(engine):
    producer = engine.epl("insert into Derived select k from T")
    inside = engine.epl("select k from Derived")
    outside = engine.epl("select k from Derived")
    r_in, r_out = Rec(inside), Rec(outside)
    iso = engine.isolated("iso")
    iso.add(producer)
    iso.add(inside)
    iso.send({"k": "x", "v": 0}, "T")
    assert r_in.pop() == [[{"k": "x"}]]
    assert r_out.pop() == []


def test_stop_start_keeps_statement_isolated_and_destroy(engine):
    s = engine.epl("select k from T")
    rec = Rec(s)
    iso = engine.isolated("iso")
    iso.add(s)
    s.stop()
    s.start()
    engine.send({"k": "engine", "v": 0}, "T")
    iso.send({"k": "iso", "v": 0}, "T")
    assert rec.pop() == [[{"k": "iso"}]]
    other = engine.isolated("other")
    with pytest.raises(EngineError, match="already in isolated service"):
        other.add(s)
    iso.destroy()
    engine.send({"k": "engine", "v": 0}, "T")
    assert rec.pop() == [[{"k": "engine"}]]
    with pytest.raises(EngineError, match="destroyed"):
        iso.send({"k": "x", "v": 0}, "T")
    assert engine.isolated("iso") is not iso


# -- moves keep the statement's state -------------------------------------------------------------

def test_catch_up_from_historical_data(engine):
    s = engine.epl("select irstream k, count(*) as c from T#length(3) group by k")
    rec = Rec(s)
    base_filters = engine.filter_count()
    iso = engine.isolated("history")
    iso.add(s)
    assert engine.filter_count() == base_filters - 1 and iso.filter_count() == 1
    for k in ("a", "a", "b"):
        iso.send({"k": k, "v": 0}, "T")
    assert [r[0]["c"] for r in rec.pop()] == [1, 2, 1]
    iso.remove(s)
    assert engine.filter_count() == base_filters and iso.filter_count() == 0
    assert engine.schedule_count() == 0 and iso.schedule_count() == 0
    engine.send({"k": "a", "v": 0}, "T")   # pushes out the oldest "a": a stays at 2
    engine.send({"k": "b", "v": 0}, "T")   # pushes out the second "a"
    assert rec.pop() == [[{"k": "a", "c": 2}], [{"k": "a", "c": 1}, {"k": "b", "c": 2}]]


def test_time_window_expires_in_new_home(engine):
    s = engine.epl("select rstream k from T#time(10 sec)")
    rec = Rec(s)
    engine.send({"k": "e", "v": 0}, "T")          # due at 10 000 (engine time 0)
    assert engine.schedule_count() == 1
    iso = engine.isolated("iso")
    iso.advance_time(5_000)
    iso.add(s)
    assert engine.schedule_count() == 0 and iso.schedule_count() == 1
    engine.advance_time(20_000)                   # the engine's time no longer reaches it
    assert rec.pop() == []
    # moved at the service's 5 s, the pending expiry keeps its 10 s left from the engine's 0:
    # due at 15 000 on the service's clock (Esper shifts schedules by the clocks' gap), and the
    # statement's own time runs 5 s behind the service's, so "i" leaves with "e"
    iso.send({"k": "i", "v": 0}, "T")
    iso.advance_time(14_999)
    assert rec.pop() == []
    iso.advance_time(15_000)
    assert rec.pop() == [[{"k": "e"}, {"k": "i"}]]
    iso.send({"k": "j", "v": 0}, "T")            # 10 s to live
    iso.remove(s)                                 # still 10 s: due at the engine's 30 000
    assert engine.schedule_count() == 1 and iso.schedule_count() == 0
    engine.advance_time(29_999)
    assert rec.pop() == []
    engine.advance_time(30_000)
    assert rec.pop() == [[{"k": "j"}]]
    assert engine.schedule_count() == 0


def test_time_window_round_trip_keeps_expiry_order(engine):
    s = engine.epl("select rstream k from T#time(10 sec)")
    rec = Rec(s)
    iso = engine.isolated("iso")
    engine.send({"k": "a", "v": 0}, "T")          # due at 10 000
    iso.add(s)
    iso.send({"k": "b", "v": 0}, "T")            # iso time 0: due at 10 000 too
    iso.remove(s)
    engine.advance_time(5_000)
    engine.send({"k": "c", "v": 0}, "T")          # due at 15 000
    engine.advance_time(10_000)
    assert rec.pop() == [[{"k": "a"}, {"k": "b"}]]
    engine.advance_time(15_000)
    assert rec.pop() == [[{"k": "c"}]]


def test_pattern_state_moves(engine):
    s = engine.epl("select a.k as ak, b.k as bk from pattern [every a=T(v=1) -> b=T(v=2)]")
    rec = Rec(s)
    base = engine.filter_count()
    engine.send({"k": "x", "v": 1}, "T")
    live = engine.filter_count()
    assert live == base + 1                       # waiting for b after x
    iso = engine.isolated("iso")
    iso.add(s)
    assert engine.filter_count() == 0 and iso.filter_count() == live
    engine.send({"k": "engine", "v": 2}, "T")
    assert rec.pop() == []
    iso.send({"k": "y", "v": 2}, "T")
    assert rec.pop() == [[{"ak": "x", "bk": "y"}]]
    iso.send({"k": "z", "v": 1}, "T")
    iso.remove(s)
    assert iso.filter_count() == 0
    engine.send({"k": "w", "v": 2}, "T")
    assert rec.pop() == [[{"ak": "z", "bk": "w"}]]
    s.destroy()
    assert engine.filter_count() == 0 and engine.schedule_count() == 0


def test_pattern_timer_moves(engine):
    s = engine.epl("select a.k as ak from pattern [every a=T -> timer:interval(10 sec)]")
    rec = Rec(s)
    engine.send({"k": "x", "v": 0}, "T")          # fires at 10 000
    iso = engine.isolated("iso")
    iso.add(s)
    assert engine.schedule_count() == 0 and iso.schedule_count() == 1
    engine.advance_time(10_000)
    assert rec.pop() == []
    iso.advance_time(10_000)
    assert rec.pop() == [[{"ak": "x"}]]
    iso.remove(s)
    s.destroy()
    assert engine.filter_count() == 0 and engine.schedule_count() == 0


def test_pending_output_moves(engine):
    s = engine.epl("select count(*) as c from T output last every 10 sec")
    rec = Rec(s)
    engine.send({"k": "a", "v": 0}, "T")
    iso = engine.isolated("iso")
    iso.add(s)
    iso.send({"k": "b", "v": 0}, "T")
    engine.advance_time(10_000)
    assert rec.pop() == []
    iso.advance_time(10_000)
    assert rec.pop() == [[{"c": 2}]]


def test_subquery_and_join_state_moves(engine):
    engine.epl("create schema U(k string, w int)")
    sub = engine.epl("select k, (select count(*) from U#keepall) as n from T")
    join = engine.epl("select t.k as k, u.w as w from T#lastevent as t, U#keepall as u where t.k = u.k")
    r_sub, r_join = Rec(sub), Rec(join)
    engine.send({"k": "a", "w": 1}, "U")
    iso = engine.isolated("iso")
    iso.add(sub)
    iso.add(join)
    assert engine.filter_count() == 0
    iso.send({"k": "b", "w": 2}, "U")
    iso.send({"k": "b", "v": 0}, "T")
    assert r_sub.pop() == [[{"k": "b", "n": 2}]]
    assert r_join.pop() == [[{"k": "b", "w": 2}]]
    iso.remove(sub)
    iso.remove(join)
    engine.send({"k": "a", "v": 0}, "T")
    assert r_sub.pop() == [[{"k": "a", "n": 2}]]
    assert r_join.pop() == [[{"k": "a", "w": 1}]]
    sub.destroy()
    join.destroy()
    assert engine.filter_count() == 0 and iso.filter_count() == 0


def test_pattern_matches_keep_their_order_after_a_move(engine):
    s = engine.epl("select a.k as ak from pattern [every a=T(v=1) -> b=T(v=2)]")
    rec = Rec(s)
    keys = [f"a{i}" for i in range(30)]
    for k in keys:
        engine.send({"k": k, "v": 1}, "T")
    iso = engine.isolated("iso")
    iso.add(s)
    iso.remove(s)
    iso.add(s)
    iso.send({"k": "b", "v": 2}, "T")
    assert [r["ak"] for r in rec.pop()[0]] == keys

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

"""Contained-event selection: `Type(filter)[property]` streams the events a property holds."""
from __future__ import annotations

import pytest
from recording import Rec

from engine import Engine
from epl.errors import EPLValidationError


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.deploy("create schema Item(sku string, qty int); "
             "create schema Ord(id string, items Item[], first Item, note string)")
    return e


ORDER1 = {"id": "o1", "items": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 2}],
          "first": {"sku": "z", "qty": 0}}


def test_array_property_events_in_one_delivery(engine):
    rec = Rec(engine.epl("select * from Ord(id != 'x')[items]"))
    engine.send(ORDER1, "Ord")
    engine.send({"id": "x", "items": [{"sku": "a", "qty": 1}]}, "Ord")     # filtered out
    engine.send({"id": "o3"}, "Ord")                                        # no items: nothing
    assert rec.pop() == [[{"sku": "a", "qty": 1}, {"sku": "b", "qty": 2}]]


def test_contained_events_enter_views_and_aggregation(engine):
    rec = Rec(engine.epl("select sku, sum(qty) as t from Ord[items]#length(2) as it group by sku"))
    engine.send(ORDER1, "Ord")
    engine.send({"id": "o2", "items": [{"sku": "a", "qty": 5}]}, "Ord")     # a(1) leaves the window
    assert rec.pop()[-1] == [{"sku": "a", "t": 5}]


def test_single_event_property(engine):
    rec = Rec(engine.epl("select sku from Ord[first]"))
    engine.send(ORDER1, "Ord")
    assert rec.pop() == [[{"sku": "z"}]]


def test_property_that_holds_no_events_is_refused(engine):
    with pytest.raises(EPLValidationError, match="fragment"):
        engine.epl("select * from Ord[note]")
    with pytest.raises(EPLValidationError, match="could not be resolved"):
        engine.epl("select * from Ord[nope]")

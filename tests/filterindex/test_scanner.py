"""The batch scanner: one generated loop over many events, stopping at those a filter wants."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from engine.bean import EventBean
from engine.event_types import EventTypeRegistry
from filterindex import STALE, FilterIndex, FilterOp, FilterParam, FilterSpec


def _tick():
    return EventTypeRegistry().register_map("Tick", {"symbol": "string", "price": "double"})


def _spec(t, symbol, price):
    return FilterSpec(t, ((FilterParam("symbol", FilterOp.EQ, symbol, t.getter("symbol")),
                           FilterParam("price", FilterOp.GT, price, t.getter("price"))),))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["A", "B", "C"]), st.one_of(st.none(), st.integers(0, 10))),
                max_size=30))
def test_scanner_stops_exactly_where_match_finds_handles(rows):
    t = _tick()
    index = FilterIndex()
    index.add(_spec(t, "A", 5), "a")
    index.add(_spec(t, "B", 2), "b")
    events = [{"symbol": s, "price": p} for s, p in rows]
    expected = [(k, index.match(EventBean(t, e))) for k, e in enumerate(events)]
    expected = [(k, list(h)) for k, h in expected if h]
    probe = EventBean(t, None)
    got = [(j, list(h)) for j, h in index.scanner(t)(events, 0, len(events), probe)]
    assert got == expected


def test_non_mapping_event_is_yielded_without_handles():
    t = _tick()
    index = FilterIndex()
    index.add(_spec(t, "A", 5), "a")
    events = [{"symbol": "B", "price": 1}, 42, {"symbol": "A", "price": 9}]
    got = list(index.scanner(t)(events, 0, 3, EventBean(t, None)))
    assert got == [(1, None), (2, ["a"])]


def test_a_filter_change_while_an_event_is_held_makes_the_scan_stale():
    t = _tick()
    index = FilterIndex()
    index.add(_spec(t, "A", 5), "a")
    events = [{"symbol": "A", "price": 9}, {"symbol": "B", "price": 1}]
    scan = index.scanner(t)(events, 0, 2, EventBean(t, None))
    assert next(scan) == (0, ["a"])
    index.add(_spec(t, "B", 0), "b")          # e.g. a listener creates a statement
    assert next(scan) == (1, STALE)            # resume at event 1 with the current scanner
    assert list(scan) == []
    assert list(index.scanner(t)(events, 1, 2, EventBean(t, None))) == [(1, ["b"])]
    assert list(index.scanner(t)(events, 0, 2, EventBean(t, None)))[0][1] is not STALE

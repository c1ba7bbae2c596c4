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
    got, i, probe = [], 0, EventBean(t, None)
    while i < len(events):
        j, handles = index.scanner(t)(events, i, len(events), probe)
        if j >= len(events):
            break
        got.append((j, list(handles)))
        i = j + 1
    assert got == expected


def test_non_mapping_event_stops_the_scan_and_changes_make_it_stale():
    t = _tick()
    index = FilterIndex()
    index.add(_spec(t, "A", 5), "a")
    scan = index.scanner(t)
    events = [{"symbol": "B", "price": 1}, 42, {"symbol": "A", "price": 9}]
    assert scan(events, 0, 3, EventBean(t, None)) == (1, None)
    index.add(_spec(t, "B", 0), "b")
    assert scan(events, 0, 3, EventBean(t, None))[1] is STALE
    assert index.scanner(t)(events, 0, 3, EventBean(t, None)) == (0, ["b"])

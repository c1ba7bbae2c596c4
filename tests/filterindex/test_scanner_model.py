"""The batch scanner against a linear scan of every registered spec (hypothesis): the same
state machine as test_index_model.py (random registrations and removals, many sharing
values), with batches scanned after every step: lists and tuples, from any start, up to any
end, with non-mappings among the events, and a scan held across a change going stale."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import rule, run_state_machine_as_test

import filterindex.codegen as codegen
from engine.bean import EventBean
from filterindex import STALE, FilterIndex, FilterOp, FilterParam, FilterSpec
from filterindex.tree import _scan_discard

from test_index_model import PROBES, PROPS, VALUES, FilterIndexModel, events, naive_matches

# what is not a mapping: the scanner yields it without handles (the caller reports it)
NOT_MAPPINGS = [42, "symbol", ["symbol"], None]
# events with unhashable values too: equal to no constant, whatever an index does with them
odd_events = st.fixed_dictionaries(
    {}, optional={p: st.sampled_from(VALUES + [["a"], [1], {"k": 1}]) for p in PROPS})


def expected_scan(live: dict, t, batch: list, i: int, n: int, index=None) -> list:
    """What the scanner yields for the mappings among `batch[i:n]`."""
    if index is not None and index.scanner(t) is _scan_discard:
        return []       # no tree sees the type: every event is discarded unread
    out = []
    for j in range(i, n):
        ev = batch[j]
        if isinstance(ev, dict):
            bean = EventBean(t, ev)
            hs = {id(h) for spec, h in live.values() if naive_matches(spec, bean)}
            if hs:
                out.append((j, hs))
    return out


def scanned(index: FilterIndex, t, batch, i: int, n: int) -> list:
    """What the scanner yields for the mappings; a non-mapping is yielded without handles
    when a filter reads it (the caller reports it) and may be yielded with handles when
    only unconditional filters see it (the caller checks what it is)."""
    got = []
    for j, hs in index.scanner(t)(batch, i, n, EventBean(t, None)):
        assert hs is not STALE and i <= j < n
        if not isinstance(batch[j], dict):
            continue
        assert hs is not None
        assert len(hs) == len(set(map(id, hs))), f"duplicates in {hs}"
        got.append((j, {id(h) for h in hs}))
    return got


class ScannerModel(FilterIndexModel):

    @rule(on_sub=st.booleans(),
          batch=st.lists(st.one_of(events, events, odd_events, st.sampled_from(NOT_MAPPINGS)),
                         max_size=12),
          as_tuple=st.booleans(), start=st.integers(0, 12), cut=st.integers(0, 12))
    def scan(self, on_sub, batch, as_tuple, start, cut):
        t = self.sub if on_sub else self.tick
        n = max(len(batch) - cut, 0)
        i = min(start, n)
        seq = tuple(batch) if as_tuple else batch
        assert scanned(self.index, t, seq, i, n) == expected_scan(self.live, t, batch, i, n, self.index)

    @rule(on_sub=st.booleans(), batch=st.lists(events, min_size=2, max_size=8),
          spec_paths=st.sampled_from([((FilterParam("symbol", FilterOp.EQ, "a"),),),
                                      ((FilterParam("symbol", FilterOp.EQ, "c"),),),
                                      ((FilterParam("price", FilterOp.GT, 0),),)]))
    def change_while_scanning(self, on_sub, batch, spec_paths):
        # a listener adds a filter while the caller holds an event: the rest of the batch
        # meets the new filter, through the held scan (a change its code reads live) or, once
        # that yields STALE, through the current scanner started at the next event
        t = self.sub if on_sub else self.tick
        scan = self.index.scanner(t)(batch, 0, len(batch), EventBean(t, None))
        first = next(scan, None)
        spec = FilterSpec(t, spec_paths)
        handle = object()
        self.index.add(spec, handle)
        self.next_id += 1
        self.live[self.next_id] = (spec, handle)
        if first is None:
            return
        j = first[0]
        rest = []
        for k, hs in scan:
            if hs is STALE:
                assert k == j + 1 and next(scan, None) is None
                rest += scanned(self.index, t, batch, k, len(batch))
                break
            rest.append((k, {id(h) for h in hs}))
        assert rest == expected_scan(self.live, t, batch, j + 1, len(batch))

    @rule()
    def scan_probes(self):
        for t in (self.tick, self.sub):
            assert scanned(self.index, t, PROBES, 0, len(PROBES)) == \
                expected_scan(self.live, t, PROBES, 0, len(PROBES), self.index)


SETTINGS = settings(max_examples=100, stateful_step_count=30, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def test_scanner_matches_linear_scan():
    run_state_machine_as_test(ScannerModel, settings=SETTINGS)


@pytest.mark.parametrize("hit,gap", [(0, 0), (1, 2), (12, 1), (3, 12)])
def test_scanner_matches_linear_scan_switching_loops_often(monkeypatch, hit, gap):
    # the sparse and dense loops hand over at other distances between wanted events
    monkeypatch.setitem(codegen._NAMESPACE, "DENSE_HIT", hit)
    monkeypatch.setitem(codegen._NAMESPACE, "DENSE_GAP", gap)
    run_state_machine_as_test(ScannerModel, settings=settings(SETTINGS, max_examples=25))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 150)), min_size=1, max_size=8),
       st.integers(0, 20), st.booleans())
def test_long_batches_of_dense_and_sparse_runs(runs, start, with_non_mappings):
    # runs of wanted ("a", "b") and unwanted events, long enough for both loops to take
    # turns; positions must come out right in each
    reg_t = _tick_types()
    index = FilterIndex()
    index.add(FilterSpec(reg_t, ((FilterParam("symbol", FilterOp.EQ, "a"),),)), "A")
    index.add(FilterSpec(reg_t, ((FilterParam("symbol", FilterOp.EQ, "b"),),)), "B")
    index.add(FilterSpec(reg_t, ((FilterParam("symbol", FilterOp.EQ, "c"),),)), "C")
    batch: list = []
    for kind, length in runs:
        for k in range(length):
            if kind == 0:
                batch.append({"symbol": "x"})
            elif kind == 1:
                batch.append({"symbol": "a" if k % 2 else "b"})
            elif kind == 2:
                batch.append({"symbol": "c" if k % 9 == 0 else "y"})
            else:
                batch.append(7 if with_non_mappings and k % 5 == 0 else {"symbol": "a"})
    i = min(start, len(batch))
    got = list(index.scanner(reg_t)(batch, i, len(batch), EventBean(reg_t, None)))
    want = []
    for j in range(i, len(batch)):
        ev = batch[j]
        if not isinstance(ev, dict):
            want.append((j, None))
        elif ev["symbol"] in ("a", "b", "c"):
            want.append((j, [ev["symbol"].upper()]))
    assert got == want


def _tick_types():
    from engine.event_types import EventTypeRegistry
    return EventTypeRegistry().register_map("Tick", {"symbol": "string"})


@pytest.mark.parametrize("budget,depth", [(0, 0), (2, 1)])
def test_scanner_matches_linear_scan_with_little_inlining(monkeypatch, budget, depth):
    # children are then called through their own functions, which read the probe bean
    monkeypatch.setattr(codegen, "MAX_INLINE", budget)
    monkeypatch.setattr(codegen, "MAX_DEPTH", depth)
    run_state_machine_as_test(ScannerModel, settings=settings(SETTINGS, max_examples=30))


def test_many_equal_values_and_one_more_share_one_set_lookup(types):
    tick, _, _ = types
    index = FilterIndex()
    for k in range(50):     # 50 statements on 'S7', 50 on other symbols no event carries
        index.add(FilterSpec(tick, ((FilterParam("symbol", FilterOp.EQ, "S7"),),)), ("s7", k))
        index.add(FilterSpec(tick, ((FilterParam("symbol", FilterOp.EQ, f"X{k}"),),)), ("x", k))
    batch = [{"symbol": s} for s in ("S7", "S8", None, "X3")] + [{}, {"symbol": ["S7"]}]
    got = [(j, sorted(hs)) for j, hs in index.scanner(tick)(batch, 0, len(batch),
                                                             EventBean(tick, None))]
    assert got == [(0, [("s7", k) for k in range(50)]), (3, [("x", 3)])]


def test_a_batch_that_grows_while_an_event_is_held_ends_where_it_ended(types):
    tick, _, _ = types
    index = FilterIndex()
    index.add(FilterSpec(tick, ((FilterParam("symbol", FilterOp.EQ, "a"),),)), "h")
    batch = [{"symbol": "a"}, {"symbol": "b"}]
    scan = index.scanner(tick)(batch, 0, 2, EventBean(tick, None))
    assert next(scan) == (0, ["h"])
    batch.append({"symbol": "a"})       # e.g. a listener appends to the list being sent
    assert list(scan) == []


def test_a_removed_constant_among_several_is_no_longer_wanted(types):
    tick, _, _ = types
    index = FilterIndex()
    tokens = {s: index.add(FilterSpec(tick, ((FilterParam("symbol", FilterOp.EQ, s),),)), s)
              for s in ("a", "b", "c")}
    batch = [{"symbol": s} for s in ("a", "b", "c")]
    probe = EventBean(tick, None)
    assert [j for j, _ in index.scanner(tick)(batch, 0, 3, probe)] == [0, 1, 2]
    index.remove(tokens["b"])      # two entries left: the code reading the index stays
    assert [(j, hs) for j, hs in index.scanner(tick)(batch, 0, 3, probe)] == [(0, ["a"]), (2, ["c"])]
    assert index.match(EventBean(tick, {"symbol": "b"})) == ()


def test_an_unhashable_value_where_the_scanner_tests_a_set_first(types):
    # the scanner's first test (symbol among several constants) is unguarded; an
    # unhashable symbol equals none of them, and every other filter still sees the event
    tick, _, _ = types
    index = FilterIndex()
    for s in ("a", "b", "c"):
        index.add(FilterSpec(tick, ((FilterParam("symbol", FilterOp.EQ, s),),)), s)
    index.add(FilterSpec(tick, ((),)), "all")
    index.add(FilterSpec(tick, ((FilterParam("price", FilterOp.GT, 1),),)), "p")
    index.add(FilterSpec(tick, ((FilterParam("symbol", FilterOp.NE, "a"),),)), "ne")
    batch = [{"symbol": ["a"], "price": 2}, {"symbol": "a", "price": 0}, {"symbol": {}},
             {"symbol": "z", "price": 5}]
    got = [(j, sorted(hs)) for j, hs in index.scanner(tick)(batch, 0, 4, EventBean(tick, None))]
    assert got == [(0, ["all", "ne", "p"]), (1, ["a", "all"]), (2, ["all", "ne"]),
                   (3, ["all", "ne", "p"])]
    for j, hs in got:
        assert sorted(index.match(EventBean(tick, batch[j]))) == hs


def test_a_type_error_of_a_predicate_still_propagates_once(types):
    tick, _, _ = types
    index = FilterIndex()
    calls = []

    def pred(bean):
        calls.append(1)
        raise TypeError("from the predicate")
    for s in ("a", "b"):
        index.add(FilterSpec(tick, ((FilterParam("symbol", FilterOp.EQ, s),
                                     FilterParam("", FilterOp.BOOL_EXPR, pred, key="p")),)), s)
    scan = index.scanner(tick)([{"symbol": "x"}, {"symbol": "a"}], 0, 2, EventBean(tick, None))
    with pytest.raises(TypeError, match="from the predicate"):
        next(scan)
    assert calls == [1]

"""Esper's aggregation forms: filtered parameters (positional and `filter:`), applied on
enter and on remove; per-aggregation grouping (`group_by: x`, `group_by: (a, b)`,
`group_by: ()`); first/last with indexes, window, countever/firstever/lastever, nth,
leaving, maxby/minby/sorted returning events. Checked against a list model of the window."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine
from epl.errors import EPLValidationError

EVENTS = st.lists(st.tuples(st.sampled_from("XYZ"), st.integers(-5, 30)), max_size=14)


def run(epl: str, events, irstream: bool = False):
    eng = Engine(time="simulated")
    eng.epl("create schema T(sym string, price int)")
    stmt = eng.epl(epl)
    out = []
    stmt.add_listener(lambda new, old: out.append(([b.to_dict() for b in new or ()],
                                                   [b.to_dict() for b in old or ()])))
    for sym, price in events:
        eng.send({"sym": sym, "price": price}, "T")
    return out


def _avg(xs):
    return sum(xs) / len(xs) if xs else None


@settings(max_examples=120, deadline=None)
@given(st.integers(1, 4), EVENTS)
def test_filtered_aggregations_against_window_model(size, events):
    out = run(f"select count(*, price > 10) as c, sum(price, sym = 'X') as s, avg(price, sym != 'Y') as a, "
              f"count(*, filter: price < 0) as n, countever(*, sym = 'Z') as ce, "
              f"firstever(price, price > 20) as fe from T#length({size})", events)
    window: list = []
    expected = []
    seen: list = []
    for e in events:
        window = (window + [e])[-size:]
        seen.append(e)
        xs = [p for s, p in window if s == "X"]
        fe = [p for _, p in seen if p > 20]
        expected.append({"c": sum(1 for _, p in window if p > 10), "s": sum(xs) if xs else None,
                         "a": _avg([p for s, p in window if s != "Y"]),
                         "n": sum(1 for _, p in window if p < 0),
                         "ce": sum(1 for s, _ in seen if s == "Z"), "fe": fe[0] if fe else None})
    assert [n[0] for n, _ in out] == expected


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 4), EVENTS)
def test_filter_applies_on_remove_stream_irstream(size, events):
    out = run(f"select irstream count(*, price > 10) as c from T#length({size})", events)
    window: list = []
    prev = 0
    for (new, old), e in zip(out, events):
        window = (window + [e])[-size:]
        now = sum(1 for _, p in window if p > 10)
        assert new == [{"c": now}] and old == [{"c": prev}]
        prev = now


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 4), EVENTS)
def test_per_aggregation_group_by(size, events):
    out = run(f"select sym, sum(price) as s, sum(price, group_by: ()) as tot, "
              f"count(*, group_by: sym) as cs from T#length({size}) group by sym", events)
    window: list = []
    for (new, _), e in zip(out, events):
        window = (window + [e])[-size:]
        for r in new:
            mine = [p for s, p in window if s == r["sym"]]
            assert r["tot"] == sum(p for _, p in window)
            assert r["s"] == (sum(mine) if mine else None)
            assert r["cs"] == len(mine)


def test_group_by_tuple_in_ungrouped_statement():
    # a row per event (the statement also selects a property): each row's own key
    out = run("select price, count(*, group_by: (sym, price)) as c from T#keepall",
              [("X", 1), ("X", 1), ("Y", 1), ("X", 2)])
    assert [n[0]["c"] for n, _ in out] == [1, 2, 1, 1]


def test_first_last_window_with_indexes():
    out = run("select first(price) as f, first(price, 1) as f1, last(price) as l, last(price, 2) as l2, "
              "window(price) as w, first(price, filter: price > 10) as ff from T#length(3)",
              [("X", 5), ("Y", 20), ("X", 30), ("Y", 1)])
    assert [n[0] for n, _ in out] == [
        {"f": 5, "f1": None, "l": 5, "l2": None, "w": [5], "ff": None},
        {"f": 5, "f1": 20, "l": 20, "l2": None, "w": [5, 20], "ff": 20},
        {"f": 5, "f1": 20, "l": 30, "l2": 5, "w": [5, 20, 30], "ff": 20},
        {"f": 20, "f1": 30, "l": 1, "l2": 20, "w": [20, 30, 1], "ff": 20},
    ]


def test_event_aggregations_return_events():
    eng = Engine(time="simulated")
    eng.epl("create schema T(sym string, price int)")
    stmt = eng.epl("select maxby(price).sym as mb, minby(price) as mn, sorted(price) as so, "
                   "last(*) as l, window(*) as w, nth(price, 1) as n1, leaving() as lv from T#length(2)")
    got = []
    stmt.add_listener(lambda new, old: got.extend(new))
    for sym, price in (("X", 5), ("Y", 20), ("Z", 1)):
        eng.send({"sym": sym, "price": price}, "T")
    last = got[-1]
    assert last.get("mb") == "Y"
    assert last.get("mn").get("sym") == "Z"
    assert [b.get("price") for b in last.get("so")] == [1, 20]
    assert last.get("l").get("sym") == "Z"
    assert [b.get("sym") for b in last.get("w")] == ["Y", "Z"]
    assert last.get("n1") == 20
    assert last.get("lv") is True
    assert got[0].get("lv") is False


def test_non_boolean_filter_refused():
    with pytest.raises(EPLValidationError, match="expected to return a boolean value but returns Integer"):
        run("select count(*, price) as c from T", [])


def test_group_by_round_trips_through_the_printer():
    from epl import parse, to_epl
    for text in ("select sum(price, group_by: ()) from T", "select sum(price, group_by: (sym, price)) from T"):
        assert to_epl(parse(text)) == text


def test_maxbyever_minbyever_keep_the_best_ever():
    eng = Engine(time="simulated")
    eng.epl("create schema T(sym string, price int)")
    stmt = eng.epl("select maxbyever(price).sym as mx, minbyever(price).sym as mn, maxby(price).sym as mb "
                   "from T#length(1)")
    got = []
    stmt.add_listener(lambda new, old: got.extend(b.to_dict() for b in new))
    for sym, price in (("A", 5), ("B", 9), ("C", 1), ("D", 9)):
        eng.send({"sym": sym, "price": price}, "T")
    assert got[-1] == {"mx": "B", "mn": "C", "mb": "D"}


SHAPES = [
    "select irstream {aggs} from T{win}",                                  # fully aggregated, ungrouped
    "select irstream price, {aggs} from T{win}",                           # aggregated, ungrouped
    "select irstream sym, {aggs} from T{win} group by sym",                # fully aggregated, grouped
    "select irstream sym, price, {aggs} from T{win} group by sym",         # aggregated, grouped
    "select irstream sym, {aggs} from T{win} group by sym output snapshot every 3 events",
]
WINDOWS = ["#length(3)", "#length_batch(2)", "#keepall", "#unique(sym)"]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(SHAPES), st.sampled_from(WINDOWS), EVENTS)
def test_filter_parameter_equals_case_expression(shape, win, events):
    """count(*, p), sum(x, p) and avg(x, p) are count/sum/avg over `case when p then x end`,
    in every result-set kind, on enter and on remove."""
    filtered = "count(*, price > 10) as c, sum(price, sym = 'X') as s, avg(price, sym != 'Y') as a"
    spelled = ("count(case when price > 10 then 1 end) as c, "
               "sum(case when sym = 'X' then price end) as s, avg(case when sym != 'Y' then price end) as a")
    got = run(shape.format(aggs=filtered, win=win), events)
    want = run(shape.format(aggs=spelled, win=win), events)
    assert got == want

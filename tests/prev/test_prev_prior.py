"""prev, prevtail, prevwindow, prevcount and prior over Esper's data windows, against a
list model of the window (index 0 the newest; sorted windows in sort order; batches
relative to the evaluated event)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine
from epl.errors import EPLValidationError

COLS = ("prev(0, v) as p0, prev(1, v) as p1, prev(2, v) as p2, prevtail(0, v) as t0, "
        "prevtail(1, v) as t1, prevcount(v) as pc, prevwindow(v) as pw, prior(1, v) as r1, "
        "prior(2, v) as r2")


def run(window: str, values, *, cols: str = COLS, irstream: bool = False, schema="v int, g string",
        events=None, engine=None):
    eng = engine or Engine(time="simulated")
    eng.epl(f"create schema S({schema})")
    stmt = eng.epl(f"select {'irstream ' if irstream else ''}{cols} from S{window}")
    out = []
    stmt.add_listener(lambda new, old: out.append(([b.to_dict() for b in new or ()],
                                                   [b.to_dict() for b in old or ()])))
    for e in events if events is not None else ({"v": v, "g": "a"} for v in values):
        eng.send(e, "S")
    return out


def at(seq, i):
    return seq[i] if 0 <= i < len(seq) else None


def model_row(newest_first, arrived, idx):
    return {"p0": at(newest_first, 0), "p1": at(newest_first, 1), "p2": at(newest_first, 2),
            "t0": at(newest_first[::-1], 0), "t1": at(newest_first[::-1], 1),
            "pc": len(newest_first), "pw": list(newest_first) or None,
            "r1": arrived[idx - 1] if idx >= 1 else None, "r2": arrived[idx - 2] if idx >= 2 else None}


@settings(max_examples=120, deadline=None)
@given(st.integers(1, 5), st.lists(st.integers(-50, 50), max_size=15))
def test_length_window_against_list_model(size, values):
    out = run(f"#length({size})", values)
    window: list = []
    expected = []
    for i, v in enumerate(values):
        window.append(v)
        window = window[-size:]
        expected.append(([model_row(window[::-1], values, i)], []))
    assert out == expected


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 4), st.lists(st.integers(0, 9), max_size=12))
def test_sort_window_indexes_in_sort_order(size, values):
    out = run(f"#sort({size}, v desc)", values,
              cols="prev(0, v) as p0, prev(1, v) as p1, prevtail(0, v) as t0, prevwindow(v) as pw")
    window: list = []
    expected = []
    for v in values:
        # newest first among equals (stable sort of the newest-first list)
        window = sorted([v] + window, key=lambda x: -x)[:size]
        expected.append(([{"p0": at(window, 0), "p1": at(window, 1), "t0": at(window[::-1], 0),
                           "pw": list(window)}], []))
    assert out == expected


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 4), st.lists(st.integers(0, 99), max_size=14))
def test_length_batch_relative_to_the_event(size, values):
    out = run(f"#length_batch({size})", values,
              cols="v, prev(1, v) as p1, prevtail(0, v) as t0, prevcount(v) as pc, prior(1, v) as r1")
    expected = []
    for start in range(0, len(values) - size + 1, size):
        batch = values[start:start + size]
        rows = [{"v": v, "p1": batch[j - 1] if j >= 1 else None, "t0": batch[0], "pc": size,
                 "r1": values[start + j - 1] if start + j >= 1 else None}
                for j, v in enumerate(batch)]
        expected.append((rows, []))
    assert out == expected


def test_groupwin_prev_per_group():
    events = [{"v": 1, "g": "a"}, {"v": 2, "g": "b"}, {"v": 3, "g": "a"}, {"v": 4, "g": "b"},
              {"v": 5, "g": "a"}]
    out = run("#groupwin(g)#length(2)", None, events=events,
              cols="v, prev(1, v) as p1, prevcount(v) as pc, prior(1, v) as r1")
    assert [n for n, _ in out] == [
        [{"v": 1, "p1": None, "pc": 1, "r1": None}],
        [{"v": 2, "p1": None, "pc": 1, "r1": 1}],
        [{"v": 3, "p1": 1, "pc": 2, "r1": 2}],
        [{"v": 4, "p1": 2, "pc": 2, "r1": 3}],
        [{"v": 5, "p1": 3, "pc": 2, "r1": 4}],
    ]


def test_time_window_and_expiry_remove_stream():
    eng = Engine(time="simulated")
    eng.epl("create schema S(v int)")
    stmt = eng.epl("select irstream v, prev(1, v) as p1, prior(1, v) as r1, prevcount(v) as pc "
                   "from S#time(10 sec)")
    out = []
    stmt.add_listener(lambda new, old: out.append(([b.to_dict() for b in new or ()],
                                                   [b.to_dict() for b in old or ()])))
    eng.send({"v": 1}, "S")
    eng.advance_time(5000)
    eng.send({"v": 2}, "S")
    eng.advance_time(10000)
    assert out[0] == ([{"v": 1, "p1": None, "r1": None, "pc": 1}], [])
    assert out[1] == ([{"v": 2, "p1": 1, "r1": 1, "pc": 2}], [])
    # the removed event keeps its prior; prev and kin give null for the remove stream (Esper
    # evaluates them with isNewData false)
    assert out[2] == ([], [{"v": 1, "p1": None, "r1": None, "pc": None}])


def test_prev_of_events_and_variable_index():
    eng = Engine(time="simulated")
    eng.epl("create schema S(v int, i int)")
    stmt = eng.epl("select prev(1, s).v as e1, prev(1, s.*) as e2, prev(i, v) as pi, "
                   "prevwindow(s) as w from S#length(3) as s")
    got = []
    stmt.add_listener(lambda new, old: got.extend(new))
    eng.send({"v": 10, "i": 0}, "S")
    eng.send({"v": 20, "i": 1}, "S")
    eng.send({"v": 30, "i": 5}, "S")
    last = got[-1]
    assert last.get("e1") == 20
    assert last.get("e2").get("v") == 20
    assert last.get("pi") is None          # out of range: null
    assert [b.get("v") for b in last.get("w")] == [30, 20, 10]
    assert got[1].get("pi") == 10


def test_prior_without_data_window():
    out = run("", [1, 2, 3], cols="v, prior(1, v) as r1, prior(2, v) as r2")
    assert [n for n, _ in out] == [[{"v": 1, "r1": None, "r2": None}],
                                   [{"v": 2, "r1": 1, "r2": None}],
                                   [{"v": 3, "r1": 2, "r2": 1}]]


def test_prev_with_aggregation_and_where():
    out = run("#length(3)", [5, 6, 7, 8], cols="sum(v) as s, prev(1, v) as p1")
    assert [n for n, _ in out] == [[{"s": 5, "p1": None}], [{"s": 11, "p1": 5}],
                                   [{"s": 18, "p1": 6}], [{"s": 21, "p1": 7}]]


@pytest.mark.parametrize("epl, message", [
    ("select prev(1, v) from S", "Required data window not found for the 'prev' function"),
    ("select prior(v, v) from S", "constant-value integer-typed index"),
    ("select prior(1.5, v) from S", "constant-value integer-typed index"),
    ("select prior(1) from S", "Prior node must have 2 parameters"),
    ("select prev(1, v, v) from S#length(2)", "Previous node must have 1 or 2 child nodes"),
    ("select prev('a', v) from S#length(2)", "integer index parameter or expression"),
    ("select prev(-1, v) from S#length(2)", "non-negative"),
    ("select prevwindow(v, v) from S#length(2)", "single parameter"),
])
def test_validation_errors(epl, message):
    eng = Engine(time="simulated")
    eng.epl("create schema S(v int)")
    with pytest.raises(EPLValidationError, match=message):
        eng.epl(epl)


def test_contexts_have_their_own_windows():
    eng = Engine(time="simulated")
    eng.epl("create schema S(v int, g string)")
    eng.epl("create context ByG partition by g from S")
    stmt = eng.epl("context ByG select v, prev(1, v) as p1, prior(1, v) as r1 from S#length(3)")
    got = []
    stmt.add_listener(lambda new, old: got.extend(b.to_dict() for b in new))
    for v, g in ((1, "a"), (2, "b"), (3, "a"), (4, "b")):
        eng.send({"v": v, "g": g}, "S")
    assert got == [{"v": 1, "p1": None, "r1": None}, {"v": 2, "p1": None, "r1": None},
                   {"v": 3, "p1": 1, "r1": 1}, {"v": 4, "p1": 2, "r1": 2}]


def test_snapshot_and_restore_keep_window_access():
    from engine.state import restore, snapshot
    eng = Engine(time="simulated")
    eng.epl("create schema S(v int, g string)")
    eng.epl("@name('x') select irstream v, prev(1, v) as p1, prior(1, v) as r1, istream() as i "
            "from S#groupwin(g)#length(2)")
    for i, g in enumerate("abab"):
        eng.send({"v": i, "g": g}, "S")
    eng2 = restore(snapshot(eng))
    stmt = next(s for s in eng2.statements if s.name == "x")
    got = []
    stmt.add_listener(lambda new, old: got.append(([b.to_dict() for b in new or ()],
                                                   [b.to_dict() for b in old or ()])))
    eng2.send({"v": 9, "g": "a"}, "S")
    assert got == [([{"v": 9, "p1": 2, "r1": 3, "i": True}], [{"v": 0, "p1": None, "r1": None, "i": False}])]


def test_batch_window_remove_stream_has_no_relative_access():
    out = run("#length_batch(2)", [1, 2, 3, 4], irstream=True,
              cols="v, prev(1, v) as p1, prevtail(0, v) as t0, prevcount(v) as pc, prior(1, v) as r1")
    assert out[1] == ([{"v": 3, "p1": None, "t0": 3, "pc": 2, "r1": 2},
                       {"v": 4, "p1": 3, "t0": 3, "pc": 2, "r1": 3}],
                      [{"v": 1, "p1": None, "t0": None, "pc": None, "r1": None},
                       {"v": 2, "p1": None, "t0": None, "pc": None, "r1": 1}])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2500), st.integers(0, 9)), max_size=12))
def test_time_window_against_list_model(steps):
    """#time(2 sec): each delivery's prev/prevtail/prevcount read the events that arrived
    within the last 2 seconds, newest first; the remove stream reads null."""
    eng = Engine(time="simulated")
    eng.epl("create schema S(v int)")
    stmt = eng.epl("select irstream v, prev(1, v) as p1, prevtail(0, v) as t0, prevcount(v) as pc "
                   "from S#time(2 sec)")
    out = []
    stmt.add_listener(lambda new, old: out.append(([b.to_dict() for b in new or ()],
                                                   [b.to_dict() for b in old or ()])))
    now, held, expected = 0, [], []
    for gap, v in steps:
        now += gap
        eng.advance_time(now)
        gone = [x for x in held if x[0] + 2000 <= now]
        held = [x for x in held if x[0] + 2000 > now]
        if gone:
            newest_first = [x[1] for x in reversed(held)]
            expected.append(([], [{"v": x[1], "p1": None, "t0": None, "pc": None} for x in gone]))
        held.append((now, v))
        eng.send({"v": v}, "S")
        newest_first = [x[1] for x in reversed(held)]
        expected.append(([{"v": v, "p1": at(newest_first, 1), "t0": newest_first[-1], "pc": len(held)}], []))
    assert out == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("ab"), st.integers(0, 9)), max_size=14))
def test_groupwin_against_per_group_model(events):
    out = run("#groupwin(g)#length(2)", None, events=[{"v": v, "g": g} for g, v in events],
              cols="v, prev(1, v) as p1, prevcount(v) as pc, prevwindow(v) as pw, prior(1, v) as r1")
    groups: dict = {}
    expected = []
    for i, (g, v) in enumerate(events):
        w = groups.setdefault(g, [])
        w.append(v)
        del w[:-2]
        nf = w[::-1]
        expected.append([{"v": v, "p1": at(nf, 1), "pc": len(w), "pw": nf,
                          "r1": events[i - 1][1] if i else None}])
    assert [n for n, _ in out] == expected

"""prev, prevtail, prevwindow and prevcount over the data windows Esper allows them on
(time_order and timetolive in timestamp order, ext_timed, expr, keepall, time_accum in arrival
order), Esper's refusals for the others, and null for the remove stream."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine
from epl.errors import EPLValidationError

COLS = ("v, prev(0, v) as p0, prev(1, v) as p1, prevtail(0, v) as t0, prevtail(1, v) as t1, "
        "prevcount(v) as pc, prevwindow(v) as pw")
VALUES = ("p0", "p1", "t0", "t1", "pc", "pw")


def at(seq, i):
    return seq[i] if 0 <= i < len(seq) else None


def row(v, seq):
    """The expected row for `v` given the window in index order (index 0 first)."""
    return {"v": v, "p0": at(seq, 0), "p1": at(seq, 1), "t0": at(seq[::-1], 0),
            "t1": at(seq[::-1], 1), "pc": len(seq), "pw": list(seq) or None}


def start(window: str, schema: str = "v int, ts long"):
    eng = Engine(time="simulated")
    eng.epl(f"create schema S({schema})")
    stmt = eng.epl(f"select irstream {COLS} from S{window}")
    out: list = []
    stmt.add_listener(lambda new, old: out.append(([b.to_dict() for b in new or ()],
                                                   [b.to_dict() for b in old or ()])))
    return eng, out


def split(out):
    news = [r for n, _ in out for r in n]
    olds = [r for _, o in out for r in o]
    return news, olds


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4000), st.integers(-9000, 5000), st.integers(0, 99)),
                max_size=14))
def test_time_order_in_timestamp_order(steps):
    """#time_order(ts, 10 sec): index 0 is the event with the oldest timestamp (equal
    timestamps in arrival order); events leave at ts + 10 s; the remove stream reads null."""
    eng, out = start("#time_order(ts, 10 sec)")
    eng.advance_time(0)
    now, seq, held, expected = 0, 0, [], []
    for gap, offset, v in steps:
        now += gap
        eng.advance_time(now)
        held = [h for h in held if h[0] + 10_000 > now]
        ts = max(now + offset, 0)
        if ts + 10_000 <= now:
            ts = now - 9_999
        held.append((ts, seq, v))
        seq += 1
        held.sort()
        eng.send({"v": v, "ts": ts}, "S")
        expected.append(row(v, [h[2] for h in held]))
    news, olds = split(out)
    assert news == expected
    assert all(all(r[k] is None for k in VALUES) for r in olds)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 8000), st.integers(0, 99)),
                max_size=14))
def test_timetolive_in_timestamp_order(steps):
    """#timetolive(ts): an event stays until engine time reaches ts, ordered by ts."""
    eng, out = start("#timetolive(ts)")
    eng.advance_time(0)
    now, seq, held, expected = 0, 0, [], []
    for gap, ahead, v in steps:
        now += gap
        eng.advance_time(now)
        held = [h for h in held if h[0] > now]
        ts = now + 1 + ahead
        held.append((ts, seq, v))
        seq += 1
        held.sort()
        eng.send({"v": v, "ts": ts}, "S")
        expected.append(row(v, [h[2] for h in held]))
    assert split(out)[0] == expected


def test_time_order_event_arriving_expired_is_not_in_the_window():
    eng, out = start("#time_order(ts, 10 sec)")
    eng.advance_time(20_000)
    eng.send({"v": 1, "ts": 15_000}, "S")
    eng.send({"v": 2, "ts": 5_000}, "S")      # older than the window's tail
    assert out[0] == ([row(1, [1])], [])
    assert out[1][0] == [row(2, [1])]
    assert [r["v"] for r in out[1][1]] == [2]


@pytest.mark.parametrize("window", ["#keepall", "#ext_timed(ts, 10 sec)",
                                    "#expr(current_count <= 3)", "#time_accum(10 sec)",
                                    "#length(3)", "#time(10 sec)"])
@settings(max_examples=40, deadline=None)
@given(values=st.lists(st.integers(0, 99), max_size=10))
def test_arrival_ordered_windows(window, values):
    """Windows in arrival order: index 0 is the newest event."""
    eng, out = start(window)
    eng.advance_time(0)
    held, expected = [], []
    for i, v in enumerate(values):
        eng.send({"v": v, "ts": i}, "S")
        held.append(v)
        if window in ("#length(3)", "#expr(current_count <= 3)"):
            held = held[-3:]
        expected.append(row(v, held[::-1]))
    news, olds = split(out)
    assert news == expected
    assert all(all(r[k] is None for k in VALUES) for r in olds)


def test_groupwin_over_time_order_per_group():
    eng, out = start("#groupwin(g)#time_order(ts, 10 sec)", "v int, g string, ts long")
    eng.advance_time(0)
    for v, g, ts in ((1, "a", 500), (2, "b", 300), (3, "a", 100), (4, "a", 900)):
        eng.send({"v": v, "g": g, "ts": ts}, "S")
    news, _ = split(out)
    assert news == [row(1, [1]), row(2, [2]), row(3, [3, 1]), row(4, [3, 1, 4])]


def test_remove_stream_of_length_window_reads_null():
    eng, out = start("#length(2)")
    for v in (1, 2, 3):
        eng.send({"v": v, "ts": 0}, "S")
    assert out[2] == ([row(3, [3, 2])], [dict({k: None for k in VALUES}, v=1)])


NO_WINDOW = ("Required data window not found for the 'prev' function, specify a data window "
             "for which previous events are retained")
SINGLE = "Previous function requires a single data window view onto the stream"


@pytest.mark.parametrize("views, message", [
    ("#unique(v)", NO_WINDOW),
    ("#firstunique(v)", NO_WINDOW),
    ("#firstlength(3)", NO_WINDOW),
    ("#firsttime(10 sec)", NO_WINDOW),
    ("#firstevent", NO_WINDOW),
    ("#lastevent", NO_WINDOW),
    ("#length(3)#unique(v)", NO_WINDOW),          # an intersection
    ("#groupwin(v)#length(3)#unique(ts)", NO_WINDOW),
    ("", NO_WINDOW),
    ("#length(3)#uni(v)", SINGLE),
])
def test_refused_windows(views, message):
    eng = Engine(time="simulated")
    eng.epl("create schema S(v int, ts long)")
    with pytest.raises(EPLValidationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        eng.epl(f"select prev(1, {'average' if 'uni(' in views else 'v'}) from S{views}")
    # prior needs no data window
    eng.epl(f"select prior(1, v) from S{views if 'uni(' not in views else ''}")


@pytest.mark.parametrize("clause", ["where prev(0, v) = 5", "having prevcount(v) > 1",
                                    "having prevtail(0, v) = 1", "where prevwindow(v) is null"])
def test_prev_refused_in_where_and_having_with_aggregation(clause):
    eng = Engine(time="simulated")
    eng.epl("create schema S(v int)")
    name = clause.split()[1].split("(")[0]
    with pytest.raises(EPLValidationError, match=f"The '{name}' function may not occur in the "
                                                 f"where-clause or having-clause of a statement "
                                                 f"with aggregations"):
        eng.epl(f"select count(*) from S#keepall {clause}")
    eng.epl(f"select v from S#keepall {clause.replace('having', 'where')}")   # no aggregation: fine


def test_index_forms():
    eng = Engine(time="simulated")
    eng.epl("create schema S(v int, d double)")
    stmt = eng.epl("select prev(v, 1) as swapped, prev(d, v) as by_double from S#length(5)")
    got = []
    stmt.add_listener(lambda new, old: got.extend(b.to_dict() for b in new))
    eng.send({"v": 10, "d": 1.7}, "S")
    eng.send({"v": 20, "d": 1.7}, "S")
    # prev(v, 1) is prev(1, v); a double index truncates like Java's intValue()
    assert got[1] == {"swapped": 10, "by_double": 10}
    with pytest.raises(EPLValidationError, match="Previous function requires an event property as parameter"):
        eng.epl("select prev(1, v * 2) from S#length(5)")


def test_prior_index_may_be_a_constant_variable():
    eng = Engine(time="simulated")
    eng.epl("create schema S(v int)")
    eng.epl("create constant variable int N = 1")
    eng.epl("create variable int M = 1")
    stmt = eng.epl("select prior(N, v) as r from S#length(2)")
    got = []
    stmt.add_listener(lambda new, old: got.extend(b.get("r") for b in new))
    eng.send({"v": 1}, "S")
    eng.send({"v": 2}, "S")
    assert got == [None, 1]
    with pytest.raises(EPLValidationError, match="Prior function requires a constant-value integer-typed index"):
        eng.epl("select prior(M, v) from S#length(2)")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcde"), st.integers(0, 10_000)), max_size=12,
                unique_by=lambda t: t[1]))
def test_rank_window_in_rank_order(events):
    """#rank(g, 3, v): the last event per g, the 3 lowest v; index 0 is the lowest."""
    eng, out = start("#rank(g, 3, v)", "v int, g string, ts long")
    current: dict = {}
    expected = []
    for g, v in events:
        current[g] = v
        kept = sorted(current.items(), key=lambda kv: kv[1])[:3]
        current = dict(kept)
        eng.send({"v": v, "g": g, "ts": 0}, "S")
        # an event ranked out at once is still in the insert stream (and the remove stream)
        expected.append(row(v, [x[1] for x in kept]))
    news, _ = split(out)
    assert news == expected

"""prev, prevtail, prevwindow and prevcount on the remove-stream row of an event a window posts
as new and as old in the same update (#sort/#rank evicting the arriving event at once,
#time_order receiving an already expired event): null, as Esper evaluates that row with
isNewData false; the insert-stream row keeps its values."""
from __future__ import annotations

import pytest

from engine import Engine
from tests.recording import Recorder

COLS = ("sym, prev(1, price) as p1, prev(0, price) as p0, prevtail(0, price) as t0, "
        "prevcount(price) as pc, prevwindow(price) as pw")
NULLS = {"p1": None, "p0": None, "t0": None, "pc": None, "pw": None}


def run(window: str, events, where: str = ""):
    eng = Engine(time="simulated")
    eng.epl("create schema T(sym string, price double, ts long)")
    rec = Recorder(eng.epl(f"select irstream {COLS} from T{window} {where}"))
    eng.advance_time(20_000)
    for sym, price, ts in events:
        eng.send({"sym": sym, "price": price, "ts": ts}, "T")
    return rec.pop()


EVENTS = (("a", 1.0, 15_000), ("b", 2.0, 16_000), ("c", 3.0, 1_000))


@pytest.mark.parametrize("window", ["#sort(2, price)", "#rank(sym, 2, price)",
                                    "#time_order(ts, 10 sec)"])
def test_remove_stream_row_of_event_posted_new_and_old_is_null(window):
    # c: the sort and rank windows keep the two lowest prices; time_order: ts 1000 is expired
    last = run(window, EVENTS)[-1]
    assert list(last.new) == [{"sym": "c", "p1": 2.0, "p0": 1.0, "t0": 2.0, "pc": 2,
                               "pw": [1.0, 2.0]}]
    assert list(last.old) == [dict(NULLS, sym="c")]


def test_where_clause_sees_the_remove_stream_row_as_removed():
    last = run("#sort(2, price)", EVENTS, "where prevcount(price) is null or sym = 'c'")[-1]
    assert [r["sym"] for r in last.new] == ["c"]
    assert list(last.old) == [dict(NULLS, sym="c")]


def test_sort_evicting_an_older_event_and_the_arrival_in_one_update():
    # #sort(1, price) with a higher price: the arrival is evicted at once; with a lower one the
    # held event leaves: both remove-stream rows are null
    got = run("#sort(1, price)", (("a", 2.0, 0), ("b", 5.0, 0), ("c", 1.0, 0)))
    assert list(got[1].old) == [dict(NULLS, sym="b")]
    assert list(got[2].new) == [{"sym": "c", "p1": None, "p0": 1.0, "t0": 1.0, "pc": 1,
                                 "pw": [1.0]}]
    assert list(got[2].old) == [dict(NULLS, sym="a")]


def test_output_every_event_limiter_evaluates_the_remove_stream_as_such():
    last = run("#sort(2, price)", EVENTS, "output every 1 events")[-1]
    assert list(last.old) == [dict(NULLS, sym="c")]

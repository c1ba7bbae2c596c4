"""`#time_order` and `#timetolive`, through EPL: Esper's documented behaviour and a
sorted-list model."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from engine import Engine


def _engine(view: str):
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema T(id int, ts long)")
    stmt = e.epl(f"select irstream id from T{view}")
    calls = []
    stmt.add_listener(lambda new, old: calls.append(([x["id"] for x in new or []], [x["id"] for x in old or []])))
    return e, stmt, calls


def test_events_leave_in_timestamp_order():
    e, stmt, calls = _engine("#time_order(ts, 10 sec)")
    e.advance_time(20_000)
    e.send({"id": 1, "ts": 20_000}, "T")
    e.send({"id": 2, "ts": 15_000}, "T")     # older: leaves first, at 25 sec
    e.send({"id": 3, "ts": 5_000}, "T")      # already expired: new and old at once
    e.send({"id": 4, "ts": 10_000}, "T")     # expires exactly now: new and old as well
    assert [r["id"] for r in stmt] == [2, 1]
    e.advance_time(25_000)
    e.advance_time(30_000)
    assert calls == [([1], []), ([2], []), ([3], [3]), ([4], [4]), ([], [2]), ([], [1])]


def test_both_syntaxes_and_timetolive():
    e, stmt, calls = _engine(".ext:time_order(ts, 1 sec)")
    e.send({"id": 1, "ts": 0}, "T")
    e.advance_time(1000)
    assert calls == [([1], []), ([], [1])]
    e, stmt, calls = _engine("#timetolive(ts)")
    e.send({"id": 1, "ts": 3000}, "T")
    e.send({"id": 2, "ts": 2000}, "T")
    e.advance_time(2500)
    e.advance_time(3000)
    e.send({"id": 3, "ts": 3000}, "T")       # its time is now: in and out at once (Esper)
    assert calls == [([1], []), ([2], []), ([], [2]), ([], [1]), ([3], [3])]


def test_time_order_needs_a_timestamp_and_period():
    import pytest
    from epl.errors import EPLValidationError
    e = Engine(time="simulated")
    e.epl("create schema T(id int, ts long)")
    with pytest.raises(EPLValidationError, match="time_order"):
        e.epl("select * from T#time_order(ts)")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.tuples(st.just("send"), st.integers(-12, 4)),
                          st.tuples(st.just("time"), st.integers(0, 8))), max_size=40))
def test_time_order_matches_a_sorted_list_model(ops):
    period = 5000
    e, stmt, calls = _engine("#time_order(ts, 5 sec)")
    now, held, expected, n = 0, [], [], 0
    for op, x in ops:
        if op == "send":
            ts = now + x * 1000 + 1           # never exactly at a window edge
            n += 1
            if ts + period < now:
                expected.append(([n], [n]))
            else:
                held.append((ts, n))
                expected.append(([n], []))
            e.send({"id": n, "ts": ts}, "T")
        else:
            now += x * 500
            e.advance_time(now)
            gone = sorted(h for h in held if h[0] + period <= now)
            held = [h for h in held if h[0] + period > now]
            if gone:
                expected.append(([], [g[1] for g in gone]))
        assert [r["id"] for r in stmt] == [h[1] for h in sorted(held)]
    assert calls == expected


def test_month_scoped_period_follows_the_calendar():
    import datetime as dt

    def ms(s):
        return int(dt.datetime.fromisoformat(s).replace(tzinfo=dt.timezone.utc).timestamp() * 1000)
    e = Engine(time="simulated")
    e.advance_time(ms("2002-02-01T09:00:00"))
    e.epl("create schema T(id string, ts long)")
    got = []
    e.epl("select rstream * from T#time_order(ts, 1 month)").add_listener(
        lambda n, o: got.append([x["id"] for x in n or ()]))
    e.send({"id": "E1", "ts": ms("2002-02-01T09:00:00")}, "T")
    e.advance_time(ms("2002-03-01T09:00:00") - 1)       # February 2002 has 28 days
    assert got == []
    e.advance_time(ms("2002-03-01T09:00:00"))
    assert got == [["E1"]]

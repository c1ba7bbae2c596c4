"""`output all` for grouped and rollup statements and `output first` with rollup, against the
outputs of Esper's own regression suite (its MarketData sequence: 200 IBM 25, 800 MSFT 9,
1500 IBM 24 and YAH 1, 2100 IBM 26, 3500 YAH 2, 4300 IBM 22, 4900 YAH 3, 5900 YAH 1, over a
5.5 second time window, output every second from 1200)."""
from __future__ import annotations

import pytest

from engine import Engine

MD = [(200, "IBM", 100, 25.0), (800, "MSFT", 5000, 9.0), (1500, "IBM", 150, 24.0),
      (1500, "YAH", 10000, 1.0), (2100, "IBM", 155, 26.0), (3500, "YAH", 11000, 2.0),
      (4300, "IBM", 150, 22.0), (4900, "YAH", 11500, 3.0), (5900, "YAH", 10500, 1.0)]


def _rows(beans):
    return [tuple(b.to_dict().values()) for b in beans or ()]


def _run_market(epl: str, join: bool = False) -> dict:
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema MarketData(symbol string, volume long, price double)")
    e.epl("create schema SupportBean(theString string, intPrimitive int)")
    stmt = e.epl(epl)
    out: dict = {}
    stmt.add_listener(lambda n, o: out.setdefault(e.scheduler.now, []).append((_rows(n), _rows(o))))
    if join:
        for s in ("IBM", "MSFT", "YAH"):
            e.send({"theString": s, "intPrimitive": 0}, "SupportBean")
    for t in range(0, 7300, 100):
        e.advance_time(t)
        for et, sym, vol, price in MD:
            if et == t:
                e.send({"symbol": sym, "volume": vol, "price": price}, "MarketData")
    return out


ROW_PER_GROUP_ALL = {
    1200: ([("IBM", 25.0), ("MSFT", 9.0)], [("IBM", None), ("MSFT", None)]),
    2200: ([("IBM", 75.0), ("MSFT", 9.0), ("YAH", 1.0)], [("IBM", 25.0), ("MSFT", 9.0), ("YAH", None)]),
    3200: ([("IBM", 75.0), ("MSFT", 9.0), ("YAH", 1.0)], [("IBM", 75.0), ("MSFT", 9.0), ("YAH", 1.0)]),
    6200: ([("IBM", 72.0), ("MSFT", 9.0), ("YAH", 7.0)], [("IBM", 97.0), ("MSFT", 9.0), ("YAH", 6.0)]),
    # MSFT's aggregation ended at 6300: output once more, with a fresh sum
    7200: ([("IBM", 48.0), ("MSFT", None), ("YAH", 6.0)], [("IBM", 72.0), ("MSFT", 9.0), ("YAH", 7.0)]),
}


@pytest.mark.parametrize("join", [False, True])
@pytest.mark.parametrize("order_by", ["", " order by symbol"])
def test_row_per_group_output_all(join, order_by):
    src = "MarketData#time(5.5 sec), SupportBean#keepall where theString=symbol" if join \
        else "MarketData#time(5.5 sec)"
    out = _run_market(f"select irstream symbol, sum(price) from {src} group by symbol "
                      f"output all every 1 seconds{order_by}", join)
    for t, (new, old) in ROW_PER_GROUP_ALL.items():
        assert sorted(out[t][0][0], key=str) == sorted(new, key=str), t
        assert sorted(out[t][0][1], key=str) == sorted(old, key=str), t


def test_aggregated_grouped_output_all_ordered():
    out = _run_market("select irstream symbol, volume, sum(price) from MarketData#time(5.5 sec) "
                      "group by symbol output all every 1 seconds order by symbol")
    assert out[2200][0] == ([("IBM", 150, 49.0), ("IBM", 155, 75.0), ("MSFT", 5000, 9.0),
                             ("YAH", 10000, 1.0)], [])
    assert out[6200][0] == ([("IBM", 150, 72.0), ("MSFT", 5000, 9.0), ("YAH", 10500, 7.0)],
                            [("IBM", 100, 72.0)])
    assert out[7200][0] == ([("IBM", 150, 48.0), ("MSFT", 5000, None), ("YAH", 10500, 6.0)],
                            [("IBM", 150, 48.0), ("MSFT", 5000, None), ("YAH", 10000, 6.0)])


@pytest.mark.parametrize("hint", ["", "@hint('disable_outputlimit_opt') ", "@hint('enable_outputlimit_opt') "])
def test_rollup_output_all(hint):
    out = _run_market(f"{hint}select irstream symbol, sum(price) from MarketData#time(5.5 sec) "
                      f"group by rollup(symbol) output all every 1 seconds")
    assert out[1200][0] == ([("IBM", 25.0), ("MSFT", 9.0), (None, 34.0)],
                            [("IBM", None), ("MSFT", None), (None, None)])
    assert out[2200][0] == ([("IBM", 75.0), ("MSFT", 9.0), ("YAH", 1.0), (None, 85.0)],
                            [("IBM", 25.0), ("MSFT", 9.0), ("YAH", None), (None, 34.0)])
    assert out[3200][0] == ([("IBM", 75.0), ("MSFT", 9.0), ("YAH", 1.0), (None, 85.0)],
                            [("IBM", 75.0), ("MSFT", 9.0), ("YAH", 1.0), (None, 85.0)])
    assert out[7200][0] == ([("IBM", 48.0), ("MSFT", None), ("YAH", 6.0), (None, 54.0)],
                            [("IBM", 72.0), ("MSFT", 9.0), ("YAH", 7.0), (None, 88.0)])


def test_rollup_output_first_keeps_a_condition_per_group_and_level():
    out = _run_market("select irstream symbol, sum(price) from MarketData#time(5.5 sec) "
                      "group by rollup(symbol) output first every 1 seconds")
    assert out == {
        200: [([("IBM", 25.0), (None, 25.0)], [("IBM", None), (None, None)])],
        800: [([("MSFT", 9.0)], [("MSFT", None)])],
        1500: [([("IBM", 49.0), (None, 58.0)], [("IBM", 25.0), (None, 34.0)]),
               ([("YAH", 1.0)], [("YAH", None)])],
        3500: [([("YAH", 3.0), (None, 87.0)], [("YAH", 1.0), (None, 85.0)])],
        4300: [([("IBM", 97.0)], [("IBM", 75.0)])],
        4900: [([("YAH", 6.0), (None, 112.0)], [("YAH", 3.0), (None, 109.0)])],
        5700: [([("IBM", 72.0)], [("IBM", 97.0)])],
        5900: [([("YAH", 7.0), (None, 88.0)], [("YAH", 6.0), (None, 87.0)])],
        6300: [([("MSFT", None)], [("MSFT", 9.0)])],
        7000: [([("IBM", 48.0), ("YAH", 6.0), (None, 54.0)], [("IBM", 72.0), ("YAH", 7.0), (None, 79.0)])],
    }


def _bean_engine(epl: str):
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema SupportBean(theString string, intPrimitive int, longPrimitive long)")
    e.epl("create schema SupportBean_S0(id int)")
    stmt = e.epl(epl)
    calls = []
    stmt.add_listener(lambda n, o: calls.append((_rows(n), _rows(o))))
    e.send({"id": 1}, "SupportBean_S0")
    return e, calls


def _send(e, s, i, v):
    e.send({"theString": s, "intPrimitive": i, "longPrimitive": v}, "SupportBean")


@pytest.mark.parametrize("join", [False, True])
def test_rollup_output_first_two_levels(join):
    e, calls = _bean_engine("select irstream theString as c0, intPrimitive as c1, sum(longPrimitive) as c2 "
                            "from SupportBean#time(3.5 sec)" + (", SupportBean_S0#lastevent " if join else " ") +
                            "group by rollup(theString, intPrimitive) output first every 1 second")
    _send(e, "E1", 1, 10)
    assert calls.pop() == ([("E1", 1, 10), ("E1", None, 10), (None, None, 10)],
                           [("E1", 1, None), ("E1", None, None), (None, None, None)])
    _send(e, "E1", 2, 20)
    assert calls.pop() == ([("E1", 2, 20)], [("E1", 2, None)])
    _send(e, "E1", 1, 30)
    e.advance_time(1000)
    assert calls == []
    _send(e, "E2", 1, 40)
    assert calls.pop() == ([("E2", 1, 40), ("E2", None, 40), (None, None, 100)],
                           [("E2", 1, None), ("E2", None, None), (None, None, 60)])
    _send(e, "E1", 2, 50)
    assert calls.pop() == ([("E1", 2, 70), ("E1", None, 110)], [("E1", 2, 20), ("E1", None, 60)])
    e.advance_time(2000)
    _send(e, "E1", 1, 60)
    assert calls.pop() == ([("E1", 1, 100), ("E1", None, 170), (None, None, 210)],
                           [("E1", 1, 40), ("E1", None, 110), (None, None, 150)])
    e.advance_time(3000)
    _send(e, "E1", 1, 70)
    calls.clear()
    e.advance_time(4000)
    assert calls.pop() == ([("E1", 1, 130), ("E1", 2, 50), ("E1", None, 180), (None, None, 220)],
                           [("E1", 1, 170), ("E1", 2, 70), ("E1", None, 240), (None, None, 280)])
    _send(e, "E1", 1, 80)
    assert calls == []
    e.advance_time(5000)
    assert calls.pop() == ([("E2", 1, None), ("E1", 2, None), ("E2", None, None), ("E1", None, 210),
                            (None, None, 210)],
                           [("E2", 1, 40), ("E1", 2, 50), ("E2", None, 40), ("E1", None, 260),
                            (None, None, 300)])


@pytest.mark.parametrize("join", [False, True])
def test_rollup_output_first_with_having(join):
    e, calls = _bean_engine("select irstream theString as c0, intPrimitive as c1, sum(longPrimitive) as c2 "
                            "from SupportBean#time(3.5 sec)" + (", SupportBean_S0#lastevent " if join else " ") +
                            "group by rollup(theString, intPrimitive) having sum(longPrimitive) > 100 "
                            "output first every 1 second")
    _send(e, "E1", 1, 10)
    _send(e, "E1", 2, 20)
    _send(e, "E1", 1, 30)
    e.advance_time(1000)
    _send(e, "E2", 1, 40)
    assert calls == []
    _send(e, "E1", 2, 50)
    rows = [("E1", None, 110), (None, None, 150)]
    assert calls.pop() == (rows, rows)
    e.advance_time(2000)
    assert calls == []
    _send(e, "E1", 1, 60)
    rows = [("E1", None, 170), (None, None, 210)]
    assert calls.pop() == (rows, rows)
    e.advance_time(3000)
    _send(e, "E1", 1, 70)
    rows = [("E1", 1, 170), ("E1", None, 240), (None, None, 280)]
    assert calls.pop() == (rows, rows)
    e.advance_time(4000)
    rows = [("E1", 1, 130), ("E1", None, 180), (None, None, 220)]
    assert calls.pop() == (rows, rows)
    _send(e, "E1", 1, 80)
    assert calls == []
    e.advance_time(5000)
    rows = [("E1", None, 210), (None, None, 210)]
    assert calls.pop() == (rows, rows)
    _send(e, "E1", 1, 90)
    rows = [("E1", 1, 300)]
    assert calls.pop() == (rows, rows)


@pytest.mark.parametrize("join", [False, True])
def test_row_per_group_output_last_keeps_groups_whose_rows_expired(join):
    src = "MarketData#time(5.5 sec), SupportBean#keepall where theString=symbol" if join \
        else "MarketData#time(5.5 sec)"
    out = _run_market(f"select irstream symbol, sum(price) from {src} group by symbol "
                      f"output last every 1 seconds", join)
    assert out[2200] == [([("IBM", 75.0), ("YAH", 1.0)], [("IBM", 25.0), ("YAH", None)])]
    assert out[3200] == [([], [])]
    assert out[6200] == [([("IBM", 72.0), ("YAH", 7.0)], [("IBM", 97.0), ("YAH", 6.0)])]
    # MSFT's only event left at 6300: its group is output with a fresh sum
    assert sorted(out[7200][0][0], key=str) == [("IBM", 48.0), ("MSFT", None), ("YAH", 6.0)]
    assert sorted(out[7200][0][1], key=str) == [("IBM", 72.0), ("MSFT", 9.0), ("YAH", 7.0)]

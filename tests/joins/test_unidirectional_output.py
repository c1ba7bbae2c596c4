"""Unidirectional joins under output rate limiting, as Esper computes them: its buffered
output forms (`output every`, `output first`, `output all|last` with order by) start the
aggregation afresh for each triggering event; its default non-buffered `output all|last`
helpers (no order by) of fully aggregated and grouped statements apply each triggering
event's rows to the aggregation without a reset and remember every group touched since the
last output (the aggregated-ungrouped helpers process each event with the reset)."""
from __future__ import annotations

from engine import Engine

JOIN = "from MD unidirectional, SB#keepall where theString = symbol"


def _run(text):
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema SB(theString string, intPrimitive int)")
    e.epl("create schema MD(symbol string, volume long)")
    calls = []
    e.epl(text).add_listener(lambda new, old: calls.append(
        ([b.to_dict() for b in new or ()], [b.to_dict() for b in old or ()])))
    for s, i in [("E1", 10), ("E2", 20), ("E1", 30)]:
        e.send({"theString": s, "intPrimitive": i}, "SB")
    e.send({"symbol": "E1", "volume": 1}, "MD")
    e.send({"symbol": "E2", "volume": 2}, "MD")
    e.advance_time(500)
    e.send({"symbol": "E1", "volume": 3}, "MD")
    e.advance_time(1000)
    e.send({"symbol": "E2", "volume": 4}, "MD")
    e.advance_time(2000)
    return calls


def test_grouped_output_last_keeps_every_group_touched_in_the_interval():
    calls = _run(f"select irstream symbol, count(*) as cnt, sum(intPrimitive) as s {JOIN} "
                 f"group by symbol output last every 1 sec")
    assert calls == [
        ([{"symbol": "E1", "cnt": 4, "s": 80}, {"symbol": "E2", "cnt": 1, "s": 20}],
         [{"symbol": "E1", "cnt": 0, "s": None}, {"symbol": "E2", "cnt": 0, "s": None}]),
        ([{"symbol": "E2", "cnt": 2, "s": 40}], [{"symbol": "E2", "cnt": 1, "s": 20}]),
    ]


def test_grouped_output_all_outputs_every_group_with_its_aggregation():
    calls = _run(f"select symbol, count(*) as cnt {JOIN} group by symbol output all every 1 sec")
    assert [c[0] for c in calls] == [
        [{"symbol": "E1", "cnt": 4}, {"symbol": "E2", "cnt": 1}],
        [{"symbol": "E1", "cnt": 4}, {"symbol": "E2", "cnt": 2}],
    ]


def test_ungrouped_output_last_accumulates():
    calls = _run(f"select count(*) as cnt {JOIN} output last every 1 sec")
    assert [c[0] for c in calls] == [[{"cnt": 5}], [{"cnt": 6}]]


def test_grouped_output_last_with_order_by_is_per_trigger():
    """With order by Esper buffers: each triggering event's rows are aggregated afresh, the
    last row per group comes out."""
    calls = _run(f"select symbol, count(*) as cnt {JOIN} group by symbol "
                 f"output last every 1 sec order by symbol")
    assert [c[0] for c in calls] == [
        [{"symbol": "E1", "cnt": 2}, {"symbol": "E2", "cnt": 0}],
        [{"symbol": "E2", "cnt": 1}],
    ]


def test_output_every_is_per_trigger():
    calls = _run(f"select count(*) as cnt {JOIN} output every 1 sec")
    assert [c[0] for c in calls] == [[{"cnt": 2}, {"cnt": 1}, {"cnt": 2}], [{"cnt": 1}]]


def test_pattern_triggered_join_output_every_two_minutes():
    """Esper's regression scenario (EPLJoinPatternJoinOutputRate): a timer:at pattern as the
    unidirectional side, output every 2 minutes: two rows, each counting the join once."""
    e = Engine(time="simulated")
    e.advance_time(1000)
    e.epl("create schema SupportBean(theString string, intPrimitive int)")
    got = []
    e.epl("select count(*) as num from pattern [every timer:at(*/1,*,*,*,*)] unidirectional, "
          "SupportBean(intPrimitive=1)#unique(theString) a, "
          "SupportBean(intPrimitive=2)#unique(theString) b "
          "where a.theString = b.theString output every 2 minutes").add_listener(
        lambda new, old: got.append([b["num"] for b in new or ()]))
    for s, i in [("A", 1), ("A", 2), ("B", 1), ("B", 2)]:
        e.send({"theString": s, "intPrimitive": i}, "SupportBean")
    assert got == []
    e.advance_time(70000)
    e.advance_time(140000)
    e.advance_time(210000)
    assert got and got[-1][:2] == [2, 2]          # Esper's assertion: rows 0 and 1 count 2


def test_aggregated_ungrouped_output_last_and_all_are_per_trigger():
    """Esper's aggregated-ungrouped helpers process each triggering event as an unlimited
    statement would: the aggregation starts afresh each time."""
    calls = _run(f"select symbol, count(*) as cnt {JOIN} output last every 1 sec")
    assert [c[0] for c in calls] == [[{"symbol": "E1", "cnt": 2}], [{"symbol": "E2", "cnt": 1}]]
    calls = _run(f"select symbol, count(*) as cnt {JOIN} output all every 1 sec")
    assert [c[0] for c in calls][0] == [{"symbol": "E1", "cnt": 2}, {"symbol": "E1", "cnt": 2},
                                        {"symbol": "E2", "cnt": 1}, {"symbol": "E1", "cnt": 2},
                                        {"symbol": "E1", "cnt": 2}]

"""Context behaviours from Esper's regression tests: a keyed partition's terminating event is
not counted by it; an end pattern reads the initiating pattern's tags; `initiated by
distinct(...)`; initiated-by contexts without a terminating condition."""
from __future__ import annotations

from engine import Engine


def _engine():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema SB(theString string, intPrimitive int)")
    e.epl("create schema S0(id int)")
    e.epl("create schema S1(id int)")
    e.epl("create schema S0x(p00 string)")
    return e


def _rows(stmt):
    out = []
    stmt.add_listener(lambda new, old: out.append([b.to_dict() for b in new or ()]))
    return out


def _sb(e, s, v):
    e.send({"theString": s, "intPrimitive": v}, "SB")


def test_keyed_terminating_event_is_not_counted():
    e = _engine()
    e.epl("create context P partition by theString from SB terminated by SB(intPrimitive < 0)")
    rows = _rows(e.epl("context P select context.key1 as k, count(*) as c, sum(intPrimitive) as s "
                       "from SB output last when terminated"))
    for s, v in (("A", 1), ("B", 2), ("A", 3), ("A", -1), ("A", 5), ("B", -2), ("A", -3)):
        _sb(e, s, v)
    assert rows == [[{"k": "A", "c": 2, "s": 4}], [{"k": "B", "c": 1, "s": 2}],
                    [{"k": "A", "c": 1, "s": 5}]]


def test_end_pattern_reads_the_initiating_patterns_tags():
    e = _engine()
    e.epl("create context C initiated by pattern [every s0=S0] terminated by pattern [S1(id = s0.id)]")
    rows = _rows(e.epl("context C select context.s0.id as ctxid, count(*) as c from SB"))
    e.send({"id": 1}, "S0")
    _sb(e, "E1", 10)
    e.send({"id": 2}, "S0")
    e.send({"id": 1}, "S1")
    _sb(e, "E2", 20)
    e.send({"id": 2}, "S1")
    _sb(e, "E3", 30)
    assert rows == [[{"ctxid": 1, "c": 1}], [{"ctxid": 2, "c": 1}]]


def test_initiated_by_distinct_starts_one_partition_per_running_value():
    e = _engine()
    e.epl("create context C initiated by distinct(a.theString) SB as a terminated by S1(id = a.intPrimitive)")
    rows = _rows(e.epl("context C select context.a.theString as k, count(*) as c from SB"))
    _sb(e, "A", 1)
    _sb(e, "A", 2)           # A runs: no second partition
    e.send({"id": 1}, "S1")   # A's partition ends
    _sb(e, "A", 3)           # a new one
    assert rows == [[{"k": "A", "c": 1}], [{"k": "A", "c": 2}], [{"k": "A", "c": 1}]]


def test_initiated_without_terminating_condition_never_ends():
    e = _engine()
    e.epl("create context C initiated by S0 as s0")
    rows = _rows(e.epl("context C select context.s0.id as k, count(*) as c from SB"))
    e.send({"id": 1}, "S0")
    _sb(e, "x", 1)
    e.send({"id": 2}, "S0")
    _sb(e, "x", 1)
    assert rows == [[{"k": 1, "c": 1}], [{"k": 1, "c": 2}, {"k": 2, "c": 1}]]


def test_overlapping_crontab_initiated_partitions_all_run():
    e = _engine()
    e.epl("create context C initiated by (*, *, *, *, *) terminated after 150 sec")
    rows = _rows(e.epl("context C select context.startTime as st, count(*) as c from SB"))
    for t in (60_000, 120_000, 180_000, 240_000):
        e.advance_time(t)
        _sb(e, "a", 1)
    assert rows == [[{"st": 60_000, "c": 1}],
                    [{"st": 60_000, "c": 2}, {"st": 120_000, "c": 1}],
                    [{"st": 60_000, "c": 3}, {"st": 120_000, "c": 2}, {"st": 180_000, "c": 1}],
                    [{"st": 120_000, "c": 3}, {"st": 180_000, "c": 2}, {"st": 240_000, "c": 1}]]


def test_partitioned_on_select_aggregate_over_an_empty_partition():
    e = _engine()
    e.epl("create context P partition by theString from SB, p00 from S0x")
    e.epl("context P create window W#keepall as SB")
    e.epl("context P insert into W select * from SB")
    rows = _rows(e.epl("context P on S0x select count(*) as c, sum(intPrimitive) as s from W"))
    e.send({"p00": "zz"}, "S0x")
    _sb(e, "k", 1)
    e.send({"p00": "k"}, "S0x")
    assert rows == [[{"c": 0, "s": None}], [{"c": 1, "s": 1}]]


def test_keyed_partition_narrows_subqueries_over_listed_types_only():
    e = _engine()
    e.epl("create schema Other(theString string, v int)")
    e.epl("create context P partition by theString from SB, p00 from S0x")
    rows = _rows(e.epl("context P select context.key1 as k, "
                       "(select sum(intPrimitive) from SB#keepall) as s, "
                       "(select sum(v) from Other#keepall) as o from S0x"))
    _sb(e, "a", 1)
    _sb(e, "b", 10)
    e.send({"theString": "a", "v": 100}, "Other")
    _sb(e, "a", 2)
    e.send({"p00": "a"}, "S0x")
    e.send({"p00": "b"}, "S0x")
    assert rows == [[{"k": "a", "s": 3, "o": 100}], [{"k": "b", "s": 10, "o": 100}]]


def test_output_snapshot_when_terminated_in_an_overlapping_context():
    e = _engine()
    e.epl("create context C initiated by S0 as s0 terminated by S1(id = s0.id)")
    rows = _rows(e.epl("context C select context.s0.id as k, sum(intPrimitive) as s from SB "
                       "output snapshot when terminated"))
    e.send({"id": 1}, "S0")
    _sb(e, "x", 1)
    e.send({"id": 2}, "S0")
    _sb(e, "x", 2)
    e.send({"id": 1}, "S1")
    _sb(e, "x", 3)
    e.send({"id": 2}, "S1")
    assert rows == [[{"k": 1, "s": 3}], [{"k": 2, "s": 5}]]

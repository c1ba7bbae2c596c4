"""Category, hash, non-overlapping, overlapping and nested contexts."""
from __future__ import annotations

import pytest

from engine import Engine
from epl.errors import EPLValidationError
from recording import Rec


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema A(id string, x int)")
    e.epl("create schema B(id string, x int)")
    yield e
    e.close()


def parts(engine, name):
    return engine.services["contexts"].partition_count(name)


def test_category_overlapping_labels(engine):
    engine.epl("create context Cat group by x < 10 as low, group by x > 5 as high from A(id != 'skip')")
    rec = Rec(engine.epl("context Cat select context.label as label, count(*) as c from A"))
    for i, x in enumerate((1, 7, 20)):
        engine.send({"id": str(i), "x": x}, "A")
    engine.send({"id": "skip", "x": 1}, "A")
    got = [r for call in rec.pop() for r in call]
    assert got == [{"label": "low", "c": 1}, {"label": "low", "c": 2}, {"label": "high", "c": 1},
                   {"label": "high", "c": 2}]
    assert parts(engine, "Cat") == 2


def test_hash_context_buckets(engine):
    engine.epl("create context H coalesce by consistent_hash_crc32(id) from A granularity 4")
    s = engine.epl("context H select id, count(*) as c from A")
    rec = Rec(s)
    for k in ("a", "b", "a", "c", "d", "e", "a"):
        engine.send({"id": k, "x": 0}, "A")
    counts = {}
    for call in rec.pop():
        for r in call:
            counts[r["id"]] = r["c"]
    assert parts(engine, "H") <= 4
    # events with the same id always land in the same bucket
    assert counts["a"] >= 3


def test_hash_preallocate(engine):
    engine.epl("create context H coalesce by hash_code(x) from A granularity 3 preallocate")
    engine.epl("context H select count(*) as c from A")
    assert parts(engine, "H") == 3


def test_non_overlapping_start_end_events_with_alias(engine):
    engine.epl("create context SE start A as a end B(id = a.id)")
    rec = Rec(engine.epl("context SE select context.a.id as aid, context.startTime as st, x from B"))
    engine.send({"id": "p", "x": 1}, "B")            # before any start
    engine.advance_time(1_000)
    engine.send({"id": "q", "x": 0}, "A")
    engine.send({"id": "r", "x": 2}, "A")            # ignored: a partition is running
    engine.send({"id": "z", "x": 3}, "B")
    engine.send({"id": "q", "x": 4}, "B")            # ends it (and is seen by it)
    engine.send({"id": "q", "x": 5}, "B")
    assert rec.pop() == [[{"aid": "q", "st": 1000, "x": 3}], [{"aid": "q", "st": 1000, "x": 4}]]
    assert parts(engine, "SE") == 0


def test_now_with_after_restarts_and_outputs_when_terminated(engine):
    engine.epl("create context Every10 start @now end after 10 sec")
    rec = Rec(engine.epl("context Every10 select context.id as cid, context.endTime as et, count(*) as c "
                         "from A output snapshot when terminated"))
    engine.send({"id": "1", "x": 0}, "A")
    engine.send({"id": "2", "x": 0}, "A")
    engine.advance_time(10_000)
    engine.send({"id": "3", "x": 0}, "A")
    engine.advance_time(20_000)
    assert rec.pop() == [[{"cid": 0, "et": 10_000, "c": 2}], [{"cid": 1, "et": 20_000, "c": 1}]]
    assert parts(engine, "Every10") == 1


def test_crontab_start_and_end():
    e = Engine(time="simulated", start_time=8 * 3600_000)      # 08:00 UTC, 1970-01-01
    e.epl("create schema A(id string, x int)")
    e.epl("create context NineToFive start (0, 9, *, *, *) end (0, 17, *, *, *)")
    rec = Rec(e.epl("context NineToFive select id from A"))
    e.send({"id": "early", "x": 0}, "A")
    e.advance_time(9 * 3600_000)
    e.send({"id": "morning", "x": 0}, "A")
    e.advance_time(17 * 3600_000)
    e.send({"id": "evening", "x": 0}, "A")
    assert rec.pop() == [[{"id": "morning"}]]
    late = Engine(time="simulated", start_time=10 * 3600_000)    # created inside the range
    late.epl("create schema A(id string, x int)")
    late.epl("create context NineToFive start (0, 9, *, *, *) end (0, 17, *, *, *)")
    late.epl("context NineToFive select id from A")
    assert late.services["contexts"].partition_count("NineToFive") == 1


def test_overlapping_initiated_terminated_after(engine):
    engine.epl("create context Ov initiated by A as a terminated after 5 sec")
    rec = Rec(engine.epl("context Ov select context.a.id as aid, count(*) as c from B(id = context.a.id)"))
    engine.send({"id": "r", "x": 0}, "A")
    engine.advance_time(1_000)
    engine.send({"id": "s", "x": 0}, "A")
    engine.send({"id": "r", "x": 0}, "B")
    engine.send({"id": "s", "x": 0}, "B")
    assert parts(engine, "Ov") == 2
    engine.advance_time(5_000)
    engine.send({"id": "r", "x": 0}, "B")
    engine.send({"id": "s", "x": 0}, "B")
    engine.advance_time(6_000)
    engine.send({"id": "s", "x": 0}, "B")
    assert rec.pop() == [[{"aid": "r", "c": 1}], [{"aid": "s", "c": 1}], [{"aid": "s", "c": 2}]]
    assert parts(engine, "Ov") == 0


def test_overlapping_initiating_event_is_processed(engine):
    engine.epl("create context PerA initiated by A as a terminated by B")
    rec = Rec(engine.epl("context PerA select id from A"))
    engine.send({"id": "1", "x": 0}, "A")
    engine.send({"id": "2", "x": 0}, "A")
    assert rec.pop() == [[{"id": "1"}], [{"id": "2"}, {"id": "2"}]]   # both partitions see it


def test_pattern_start_condition(engine):
    engine.epl("create context Pat start pattern [a=A -> b=B(id = a.id)] end after 1 sec")
    rec = Rec(engine.epl("context Pat select context.a.id as aid, context.b.x as bx, x from A"))
    engine.send({"id": "k", "x": 1}, "A")
    engine.send({"id": "k", "x": 2}, "B")
    engine.send({"id": "z", "x": 3}, "A")
    assert rec.pop() == [[{"aid": "k", "bx": 2, "x": 3}]]


def test_nested_keyed_then_temporal(engine):
    engine.epl("create context N context K partition by id from A, context T start @now end after 1 sec")
    rec = Rec(engine.epl("context N select context.K.key1 as k, context.T.startTime as st, count(*) as c from A"))
    engine.send({"id": "n1", "x": 0}, "A")
    engine.send({"id": "n1", "x": 0}, "A")
    engine.send({"id": "n2", "x": 0}, "A")
    assert parts(engine, "N") == 2
    engine.advance_time(1_000)
    engine.send({"id": "n1", "x": 0}, "A")
    assert rec.pop() == [[{"k": "n1", "st": 0, "c": 1}], [{"k": "n1", "st": 0, "c": 2}],
                         [{"k": "n2", "st": 0, "c": 1}], [{"k": "n1", "st": 1000, "c": 1}]]


def test_nested_category_then_keyed(engine):
    engine.epl("create context CK context C group by x > 0 as pos, group by x <= 0 as neg from A, "
               "context K partition by id from A")
    rec = Rec(engine.epl("context CK select context.C.label as l, context.K.key1 as k, count(*) as c from A"))
    for k, x in (("a", 1), ("a", -1), ("a", 2), ("b", 1)):
        engine.send({"id": k, "x": x}, "A")
    assert rec.pop() == [[{"l": "pos", "k": "a", "c": 1}], [{"l": "neg", "k": "a", "c": 1}],
                         [{"l": "pos", "k": "a", "c": 2}], [{"l": "pos", "k": "b", "c": 1}]]
    assert parts(engine, "CK") == 3


def test_errors(engine):
    # an initiated-by context without terminating condition is Esper's (partitions never end)
    engine.epl("create context X initiated by A").destroy()
    with pytest.raises(EPLValidationError, match="granularity"):
        engine.epl("create context X coalesce by hash_code(x) from A granularity 0")

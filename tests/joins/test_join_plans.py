"""The compiler picks event indexes from the join conditions: hash indexes for equalities,
sorted indexes for ranges, a scan only without a usable condition. Checked through the
plan description and the lookup counters of the running join."""
from __future__ import annotations

import pytest

from engine import Engine


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.epl("create schema A(id int, x int, s string)")
    e.epl("create schema B(id int, y int, s string)")
    e.epl("create schema C(id int, z int)")
    return e


def join_of(stmt):
    return stmt._instances[0].join


def describe(stmt) -> list[str]:
    return stmt.plan.join.describe()


def test_equality_uses_hash_index_both_ways(engine):
    stmt = engine.epl("select * from A#keepall as a, B#keepall as b where a.id = b.id")
    assert describe(stmt) == ["from stream 0: hash stream 1 on b.id = a.id",
                              "from stream 1: hash stream 0 on a.id = b.id"]


def test_composite_equality_is_one_hash_key(engine):
    stmt = engine.epl("select * from A#keepall as a, B#keepall as b "
                      "where a.id = b.id and b.s = a.s and a.x > 3")
    assert describe(stmt)[0] == "from stream 0: hash stream 1 on b.id = a.id and b.s = a.s"


def test_range_uses_sorted_index(engine):
    stmt = engine.epl("select * from A#keepall as a, B#keepall as b where a.x < b.y")
    assert describe(stmt) == ["from stream 0: sorted stream 1 on range of b.y",
                              "from stream 1: sorted stream 0 on range of a.x"]


def test_between_uses_sorted_index(engine):
    stmt = engine.epl("select * from A#keepall as a, B#keepall as b where b.y between a.id and a.x")
    assert describe(stmt)[0] == "from stream 0: sorted stream 1 on range of b.y"


def test_no_condition_scans(engine):
    stmt = engine.epl("select * from A#keepall as a, B#keepall as b where a.x + b.y > 10")
    assert describe(stmt) == ["from stream 0: scan stream 1", "from stream 1: scan stream 0"]


def test_three_streams_follow_the_equalities(engine):
    stmt = engine.epl("select * from A#keepall as a, B#keepall as b, C#keepall as c "
                      "where a.id = b.id and b.id = c.id")
    assert describe(stmt) == [
        "from stream 0: hash stream 1 on b.id = a.id",
        "from stream 0: hash stream 2 on c.id = b.id",
        "from stream 1: hash stream 0 on a.id = b.id",
        "from stream 1: hash stream 2 on c.id = b.id",
        "from stream 2: hash stream 1 on b.id = c.id",
        "from stream 2: hash stream 0 on a.id = b.id",
    ]


def test_outer_join_indexes_both_sides(engine):
    stmt = engine.epl("select * from A#keepall as a left outer join B#keepall as b on a.id = b.id")
    assert describe(stmt) == ["extend to stream 1: hash stream 1 on b.id = a.id",
                              "stream 1 to earlier: hash stream 0 on a.id = b.id"]


def test_equality_lookups_do_not_scan(engine):
    stmt = engine.epl("select a.x as x, b.y as y from A#keepall as a, B#keepall as b where a.id = b.id")
    got = []
    stmt.add_listener(lambda new, old: got.extend(r.to_dict() for r in new))
    for i in range(200):
        engine.send({"id": i, "y": i * 10, "s": "b"}, "B")
    engine.send({"id": 123, "x": 1, "s": "a"}, "A")
    assert got == [{"x": 1, "y": 1230}]
    join = join_of(stmt)
    assert all(store.scans == 0 for store in join.stores)
    hash_b = [ix for ix in join.stores[1].indexes]
    assert len(hash_b) == 1 and hash_b[0].probes == 1 and len(hash_b[0]) == 200


def test_range_lookups_do_not_scan(engine):
    stmt = engine.epl("select a.x as x, b.y as y from A#keepall as a, B#keepall as b "
                      "where b.y > a.x and b.y <= a.id")
    got = []
    stmt.add_listener(lambda new, old: got.extend((r["x"], r["y"]) for r in new))
    for i in range(100):
        engine.send({"id": 0, "y": i, "s": "b"}, "B")
    engine.send({"id": 50, "x": 47, "s": "a"}, "A")
    assert got == [(47, 48), (47, 49), (47, 50)]
    assert join_of(stmt).stores[1].scans == 0


def test_without_condition_the_stream_is_scanned(engine):
    stmt = engine.epl("select a.x as x from A#keepall as a, B#keepall as b where a.x + b.y = 3")
    got = []
    stmt.add_listener(lambda new, old: got.extend(r["x"] for r in new))
    for i in range(5):
        engine.send({"id": 0, "y": i, "s": "b"}, "B")
    engine.send({"id": 0, "x": 1, "s": "a"}, "A")
    assert got == [1]
    assert join_of(stmt).stores[1].scans == 1

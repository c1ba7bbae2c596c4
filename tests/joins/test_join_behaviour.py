"""Join behaviour on the engine: unidirectional joins, outer joins posting null rows, self
joins of one event type, pattern streams, time windows, lifecycle and errors."""
from __future__ import annotations

import pytest

from engine import Engine
from epl import EPLValidationError


class Recorder:
    def __init__(self, stmt):
        self.calls = []
        stmt.add_listener(self)

    def __call__(self, new, old):
        self.calls.append(([r.to_dict() for r in new or ()], [r.to_dict() for r in old or ()]))

    def take(self):
        out, self.calls = self.calls, []
        return out


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.epl("create schema A(id int, x int)")
    e.epl("create schema B(id int, y int)")
    e.epl("create schema C(id int, z int)")
    return e


def test_unidirectional_only_its_stream_triggers(engine):
    rec = Recorder(engine.epl("select irstream a.x as x, b.y as y from A as a unidirectional, "
                              "B#length(2) as b where a.id = b.id"))
    engine.send({"id": 1, "y": 10}, "B")
    engine.send({"id": 1, "x": 1}, "A")
    engine.send({"id": 1, "y": 11}, "B")
    engine.send({"id": 1, "y": 12}, "B")      # pushes y=10 out: no remove stream
    assert rec.take() == [([{"x": 1, "y": 10}], [])]
    engine.send({"id": 1, "x": 2}, "A")
    assert rec.take() == [([{"x": 2, "y": 11}, {"x": 2, "y": 12}], [])]


def test_unidirectional_outer_join_posts_unmatched(engine):
    rec = Recorder(engine.epl("select a.x as x, b.y as y from A as a unidirectional "
                              "left outer join B#keepall as b on a.id = b.id"))
    engine.send({"id": 2, "x": 1}, "A")
    engine.send({"id": 2, "y": 5}, "B")
    engine.send({"id": 2, "x": 3}, "A")
    assert rec.take() == [([{"x": 1, "y": None}], []), ([{"x": 3, "y": 5}], [])]


def test_unidirectional_join_is_not_iterable(engine):
    stmt = engine.epl("select * from A as a unidirectional, B#keepall as b where a.id = b.id")
    engine.send({"id": 1, "y": 1}, "B")
    engine.send({"id": 1, "x": 1}, "A")
    assert list(stmt) == []


def test_left_outer_join_then_match_arrives(engine):
    rec = Recorder(engine.epl("select irstream a.x as x, b.y as y from A#length(2) as a "
                              "left outer join B#length(2) as b on a.id = b.id"))
    engine.send({"id": 1, "x": 1}, "A")
    assert rec.take() == [([{"x": 1, "y": None}], [])]
    engine.send({"id": 1, "y": 7}, "B")
    assert rec.take() == [([{"x": 1, "y": 7}], [])]     # the null row is not retracted
    engine.send({"id": 9, "y": 8}, "B")                  # no partner on the outer side: nothing
    assert rec.take() == []
    engine.send({"id": 9, "y": 9}, "B")                  # y=7 leaves with its joined row
    assert rec.take() == [([], [{"x": 1, "y": 7}])]


def test_full_outer_join_posts_both_sides(engine):
    rec = Recorder(engine.epl("select a.x as x, b.y as y from A#keepall as a "
                              "full outer join B#keepall as b on a.id = b.id"))
    engine.send({"id": 1, "y": 7}, "B")
    engine.send({"id": 2, "x": 3}, "A")
    engine.send({"id": 1, "x": 4}, "A")
    assert rec.take() == [([{"x": None, "y": 7}], []), ([{"x": 3, "y": None}], []),
                          ([{"x": 4, "y": 7}], [])]


def test_self_join_sees_each_event_in_both_streams_at_once(engine):
    """The same event enters both windows before the join runs (Esper's dispatch)."""
    rec = Recorder(engine.epl("select a.id as aid, b.id as bid from A#lastevent as a, "
                              "A#length(3) as b where a.id != b.id"))
    for i in range(1, 5):
        engine.send({"id": i, "x": 0}, "A")
    assert rec.take() == [
        ([{"aid": 2, "bid": 1}], []),
        ([{"aid": 3, "bid": 1}, {"aid": 3, "bid": 2}], []),
        ([{"aid": 4, "bid": 2}, {"aid": 4, "bid": 3}], []),
    ]


def test_self_join_on_equal_ids_has_no_duplicate_rows(engine):
    rec = Recorder(engine.epl("select a.x as ax, b.x as bx from A#keepall as a, "
                              "A#keepall as b where a.id = b.id"))
    engine.send({"id": 1, "x": 1}, "A")
    assert rec.take() == [([{"ax": 1, "bx": 1}], [])]
    engine.send({"id": 1, "x": 2}, "A")
    assert rec.take() == [([{"ax": 2, "bx": 1}, {"ax": 2, "bx": 2}, {"ax": 1, "bx": 2}], [])]


def test_three_stream_join(engine):
    rec = Recorder(engine.epl("select a.x as x, b.y as y, c.z as z from A#lastevent as a, "
                              "B#lastevent as b, C#lastevent as c where a.id = b.id and b.id = c.id"))
    engine.send({"id": 1, "x": 1}, "A")
    engine.send({"id": 1, "y": 2}, "B")
    engine.send({"id": 2, "z": 3}, "C")
    engine.send({"id": 1, "z": 4}, "C")
    assert rec.take() == [([{"x": 1, "y": 2, "z": 4}], [])]


def test_time_windows_post_remove_stream_when_events_expire(engine):
    rec = Recorder(engine.epl("select irstream a.x as x, b.y as y from A#time(10 sec) as a, "
                              "B#keepall as b where a.id = b.id"))
    engine.send({"id": 1, "y": 5}, "B")
    engine.send({"id": 1, "x": 1}, "A")
    engine.advance_time(5_000)
    engine.send({"id": 1, "x": 2}, "A")
    engine.advance_time(10_000)
    assert rec.take() == [([{"x": 1, "y": 5}], []), ([{"x": 2, "y": 5}], []),
                          ([], [{"x": 1, "y": 5}])]
    engine.advance_time(15_000)
    assert rec.take() == [([], [{"x": 2, "y": 5}])]


def test_batch_window_joins_the_batch(engine):
    rec = Recorder(engine.epl("select irstream a.x as x, b.y as y from A#keepall as a, "
                              "B#length_batch(2) as b where a.id = b.id"))
    engine.send({"id": 1, "x": 1}, "A")
    engine.send({"id": 1, "y": 1}, "B")
    engine.send({"id": 1, "y": 2}, "B")
    engine.send({"id": 1, "y": 3}, "B")
    engine.send({"id": 1, "y": 4}, "B")
    assert rec.take() == [
        ([{"x": 1, "y": 1}, {"x": 1, "y": 2}], []),
        ([{"x": 1, "y": 3}, {"x": 1, "y": 4}], [{"x": 1, "y": 1}, {"x": 1, "y": 2}]),
    ]


def test_join_with_aggregation(engine):
    rec = Recorder(engine.epl("select sum(b.y) as total from A#lastevent as a, B#keepall as b "
                              "where a.id = b.id"))
    engine.send({"id": 1, "y": 5}, "B")
    engine.send({"id": 1, "y": 6}, "B")
    engine.send({"id": 1, "x": 0}, "A")
    engine.send({"id": 2, "x": 0}, "A")
    assert rec.take() == [([{"total": 11}], []), ([{"total": None}], [])]


def test_join_with_pattern_stream(engine):
    from epl.compiler.patterns import install
    install(engine)
    rec = Recorder(engine.epl("select p.a.x as x, b.y as y from pattern [every a=A] as p "
                              "unidirectional, B#keepall as b where p.a.id = b.id"))
    engine.send({"id": 1, "y": 5}, "B")
    engine.send({"id": 1, "x": 1}, "A")
    engine.send({"id": 2, "x": 2}, "A")
    assert rec.take() == [([{"x": 1, "y": 5}], [])]


def test_stop_start_and_destroy_release_filters(engine):
    before = engine.filter_count()
    stmt = engine.epl("select * from A#lastevent as a, A#length(2) as b where a.id = b.id")
    assert engine.filter_count() > before
    stmt.stop()
    assert engine.filter_count() == before
    stmt.start()
    rec = Recorder(stmt)
    engine.send({"id": 1, "x": 1}, "A")
    assert len(rec.take()) == 1
    stmt.destroy()
    assert engine.filter_count() == before


def test_iteration_gives_the_current_join(engine):
    stmt = engine.epl("select a.x as x, b.y as y from A#length(2) as a, B#length(2) as b "
                      "where a.id = b.id")
    for i, ev in enumerate([{"id": 1, "x": 1}, {"id": 1, "x": 2}, {"id": 1, "x": 3}]):
        engine.send(ev, "A")
    engine.send({"id": 1, "y": 9}, "B")
    assert [r.to_dict() for r in stmt] == [{"x": 2, "y": 9}, {"x": 3, "y": 9}]


def test_stream_without_window_is_refused(engine):
    with pytest.raises(EPLValidationError, match="at least one view"):
        engine.epl("select * from A as a, B#keepall as b where a.id = b.id")


def test_two_unidirectional_streams_are_refused(engine):
    with pytest.raises(EPLValidationError, match="unidirectional"):
        engine.epl("select * from A as a unidirectional, B as b unidirectional where a.id = b.id")


def test_on_clause_cannot_name_a_later_stream(engine):
    with pytest.raises(EPLValidationError, match="joined later"):
        engine.epl("select * from A#keepall as a left outer join B#keepall as b on a.id = c.id "
                   "left outer join C#keepall as c on a.id = c.id")


def test_batches_released_at_the_same_instant_join_once(engine):
    """Both time batches release at t=1000 and t=2000: each new batch joins the other's new
    batch, never the other's previous one."""
    rec = Recorder(engine.epl("select irstream a.x as x, b.y as y from A#time_batch(1 sec) as a, "
                              "B#time_batch(1 sec) as b where a.id = b.id"))
    engine.send({"id": 1, "x": 1}, "A")
    engine.send({"id": 1, "y": 1}, "B")
    engine.advance_time(1_000)
    assert rec.take() == [([{"x": 1, "y": 1}], [])]
    engine.send({"id": 1, "x": 2}, "A")
    engine.send({"id": 1, "y": 2}, "B")
    engine.advance_time(2_000)
    assert rec.take() == [([{"x": 2, "y": 2}], [{"x": 1, "y": 1}])]
    engine.advance_time(3_000)
    assert rec.take() == [([], [{"x": 2, "y": 2}])]

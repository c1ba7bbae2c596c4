"""Output limiting per result-set kind and output kind (first, last, all, snapshot), beyond the
appendix cases: per-group first, order by / limit / distinct over a whole batch, rstream,
insert into, and iteration of a limited statement."""
from __future__ import annotations


def send(engine, *events):
    for k, a in events:
        engine.send({"k": k, "a": a}, "T")


def test_simple_first_every_events(engine, rec) -> None:
    engine.epl("select a from T output first every 2 events").add_listener(rec)
    send(engine, *[("x", i) for i in range(1, 6)])
    assert rec.take() == [([{"a": 1}], []), ([{"a": 3}], []), ([{"a": 5}], [])]


def test_simple_first_every_time(engine, rec) -> None:
    engine.epl("select a from T output first every 1 sec").add_listener(rec)
    send(engine, ("x", 1))
    engine.advance_time(500)
    send(engine, ("x", 2))
    engine.advance_time(1200)
    send(engine, ("x", 3))
    engine.advance_time(1900)
    send(engine, ("x", 4))
    assert rec.take() == [([{"a": 1}], []), ([{"a": 3}], [])]


def test_first_with_group_by_decides_per_group(engine, rec) -> None:
    engine.epl("select k, count(*) as c from T group by k output first every 2 events").add_listener(rec)
    send(engine, ("A", 0), ("A", 0), ("A", 0), ("B", 0), ("A", 0), ("B", 0))
    assert rec.take() == [([{"k": "A", "c": 1}], []), ([{"k": "A", "c": 3}], []), ([{"k": "B", "c": 1}], [])]


def test_first_aggregated_grouped(engine, rec) -> None:
    engine.epl("select k, a, count(*) as c from T group by k output first every 2 events").add_listener(rec)
    send(engine, ("A", 1), ("A", 2), ("A", 3))
    assert rec.take() == [([{"k": "A", "a": 1, "c": 1}], []), ([{"k": "A", "a": 3, "c": 3}], [])]


def test_snapshot_every_events(engine, rec) -> None:
    stmt = engine.epl("select a from T#length(3) output snapshot every 2 events")
    stmt.add_listener(rec)
    send(engine, ("x", 1), ("x", 2), ("x", 3), ("x", 4))
    assert rec.take() == [([{"a": 1}, {"a": 2}], []), ([{"a": 2}, {"a": 3}, {"a": 4}], [])]


def test_snapshot_of_an_aggregate(engine, rec) -> None:
    engine.epl("select count(*) as c from T#length(3) output snapshot every 2 events").add_listener(rec)
    send(engine, ("x", 1), ("x", 2), ("x", 3), ("x", 4))
    assert rec.take() == [([{"c": 2}], []), ([{"c": 3}], [])]


def test_order_by_limit_and_distinct_apply_to_the_whole_batch(engine, rec) -> None:
    engine.epl("select a from T output every 3 events order by a desc").add_listener(rec)
    engine.epl("select a from T output every 3 events order by a desc limit 2").add_listener(rec)
    engine.epl("select distinct a from T output every 3 events").add_listener(rec)
    send(engine, ("x", 2), ("x", 5), ("x", 2))
    # statements with order by take an event after the others (docs/dispatch-order.md)
    assert rec.take() == [([{"a": 2}, {"a": 5}], []), ([{"a": 5}, {"a": 2}, {"a": 2}], []),
                          ([{"a": 5}, {"a": 2}], [])]


def test_rstream(engine, rec) -> None:
    engine.epl("select rstream a from T#length(1) output every 2 events").add_listener(rec)
    send(engine, ("x", 1), ("x", 2))
    assert rec.take() == [([{"a": 1}], [])]


def test_row_per_group_output_all(engine, rec) -> None:
    engine.epl("select irstream k, sum(a) as s from T group by k output all every 2 events").add_listener(rec)
    send(engine, ("x", 1), ("y", 2))
    assert rec.take() == [([{"k": "x", "s": 1}, {"k": "y", "s": 2}],
                           [{"k": "x", "s": None}, {"k": "y", "s": None}])]
    send(engine, ("x", 3), ("x", 4))
    # every group, also y that had no events; the remove stream is each group before the batch
    assert rec.take() == [([{"k": "x", "s": 8}, {"k": "y", "s": 2}],
                           [{"k": "x", "s": 1}, {"k": "y", "s": 2}])]


def test_row_per_group_output_last_without_order_by(engine, rec) -> None:
    engine.epl("select irstream k, sum(a) as s from T group by k output last every 2 events").add_listener(rec)
    send(engine, ("y", 1), ("x", 2))
    assert rec.take() == [([{"k": "y", "s": 1}, {"k": "x", "s": 2}],
                           [{"k": "y", "s": None}, {"k": "x", "s": None}])]
    send(engine, ("x", 3), ("x", 4))
    # the remove stream holds the rows of this batch's groups only (the conformance case
    # output-last-time-grouped-irstream, recorded from Esper 9, shows no earlier batch's rows)
    assert rec.take() == [([{"k": "x", "s": 9}], [{"k": "x", "s": 2}])]


def test_row_per_group_output_last_with_order_by(engine, rec) -> None:
    engine.epl("select irstream k, sum(a) as s from T group by k output last every 2 events "
               "order by k").add_listener(rec)
    send(engine, ("y", 1), ("x", 2))
    send(engine, ("x", 3), ("x", 4))
    assert rec.take() == [([{"k": "x", "s": 2}, {"k": "y", "s": 1}], [{"k": "x", "s": None}, {"k": "y", "s": None}]),
                          ([{"k": "x", "s": 9}], [{"k": "x", "s": 2}])]


def test_aggregated_grouped_output_all(engine, rec) -> None:
    engine.epl("select k, a, sum(a) as s from T group by k output all every 2 events").add_listener(rec)
    engine.epl("select k, a, sum(a) as s from T group by k output all every 2 events order by k desc").add_listener(rec)
    send(engine, ("x", 1), ("y", 2), ("x", 3), ("x", 4))
    calls = rec.take()
    assert calls[0] == ([{"k": "x", "a": 1, "s": 1}, {"k": "y", "a": 2, "s": 2}], [])
    assert calls[1] == ([{"k": "y", "a": 2, "s": 2}, {"k": "x", "a": 1, "s": 1}], [])
    assert calls[2] == ([{"k": "x", "a": 3, "s": 4}, {"k": "x", "a": 4, "s": 8}, {"k": "y", "a": 2, "s": 2}], [])
    assert calls[3] == ([{"k": "y", "a": 2, "s": 2}, {"k": "x", "a": 3, "s": 4}, {"k": "x", "a": 4, "s": 8}], [])


def test_aggregated_grouped_output_last(engine, rec) -> None:
    engine.epl("select k, a, sum(a) as s from T group by k output last every 3 events").add_listener(rec)
    send(engine, ("x", 1), ("y", 2), ("x", 3))
    assert rec.take() == [([{"k": "x", "a": 3, "s": 4}, {"k": "y", "a": 2, "s": 2}], [])]


def test_having_is_evaluated_per_update(engine, rec) -> None:
    engine.epl("select k, sum(a) as s from T group by k having sum(a) > 2 output every 3 events").add_listener(rec)
    send(engine, ("x", 1), ("x", 2), ("y", 5))
    assert rec.take() == [([{"k": "x", "s": 3}, {"k": "y", "s": 5}], [])]


def test_row_for_all_last_and_empty_batches(engine, rec) -> None:
    engine.epl("select irstream sum(a) as s from T output last every 1 sec").add_listener(rec)
    send(engine, ("x", 1), ("x", 2))
    engine.advance_time(1000)
    # the row before the batch's first update, and the current row
    assert rec.take() == [([{"s": 3}], [{"s": None}])]
    engine.advance_time(2000)
    assert rec.take() == [([{"s": 3}], [{"s": 3}])]


def test_insert_into_receives_limited_rows(engine, rec) -> None:
    engine.epl("insert into Out select a from T output every 2 events")
    engine.epl("select a from Out").add_listener(rec)
    send(engine, ("x", 1))
    assert rec.take() == []
    send(engine, ("x", 2))
    assert rec.take() == [([{"a": 1}], []), ([{"a": 2}], [])]


def test_iterating_a_limited_statement(engine) -> None:
    stmt = engine.epl("select sum(a) as s from T output every 10 events")
    send(engine, ("x", 1), ("x", 2))
    assert [r.to_dict() for r in stmt] == [{"s": 3}]

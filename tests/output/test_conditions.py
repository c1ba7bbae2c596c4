"""Output conditions end to end: every N events, every time period, at crontab, when (with
built-in properties), after, when terminated; statement stop cancels their schedules."""
from __future__ import annotations

import pytest

from epl.errors import EPLValidationError


def send(engine, *values, k="x"):
    for a in values:
        engine.send({"k": k, "a": a}, "T")


def rows(*values):
    return [{"a": v} for v in values]


def test_every_n_events_counts_insert_and_remove_events(engine, rec) -> None:
    engine.epl("select irstream a from T#length(2) output every 2 events").add_listener(rec)
    send(engine, 1)
    assert rec.take() == []
    send(engine, 2)
    assert rec.take() == [(rows(1, 2), [])]
    send(engine, 3, 4)
    assert rec.take() == [(rows(3, 4), rows(1, 2))]


def test_every_n_events_does_not_call_listeners_for_empty_batches(engine, rec) -> None:
    # istream only: two removals fire the condition, but there is nothing to deliver
    engine.epl("select a from T#length(1) output every 2 events").add_listener(rec)
    send(engine, 1, 2)
    assert rec.take() == [(rows(1, 2), [])]


def test_every_time_period_runs_on_a_grid_from_the_first_update(engine, rec) -> None:
    engine.epl("select a from T output every 1 sec").add_listener(rec)
    engine.advance_time(300)
    assert rec.take() == []          # the condition starts with the first update
    engine.advance_time(500)
    send(engine, 1, 2)
    engine.advance_time(1499)
    assert rec.take() == []
    engine.advance_time(1500)
    assert rec.take() == [(rows(1, 2), [])]
    engine.advance_time(2500)
    assert rec.take() == [([], [])]  # time-driven output calls listeners even with nothing
    send(engine, 3)
    engine.advance_time(5200)        # a jump: one output, then the grid goes on from now
    assert rec.take() == [(rows(3), [])]
    engine.advance_time(5500)
    assert rec.take() == [([], [])]


def test_output_at_crontab(engine, rec) -> None:
    engine.epl("select a from T output at (*, *, *, *, *, */10)").add_listener(rec)
    engine.advance_time(3000)
    send(engine, 1)
    engine.advance_time(9999)
    assert rec.take() == []
    engine.advance_time(10_000)
    assert rec.take() == [(rows(1), [])]
    engine.advance_time(20_000)
    assert rec.take() == [([], [])]


def test_output_when_with_builtin_counters(engine, rec) -> None:
    engine.epl("select a from T output when count_insert >= 3").add_listener(rec)
    send(engine, 1, 2)
    assert rec.take() == []
    send(engine, 3)
    assert rec.take() == [(rows(1, 2, 3), [])]
    send(engine, 4, 5, 6)
    assert rec.take() == [(rows(4, 5, 6), [])]


def test_output_when_total_counter_and_timestamp(engine, rec) -> None:
    engine.epl("select a from T output when count_insert_total > 2").add_listener(rec)
    send(engine, 1, 2, 3)
    assert rec.take() == [(rows(1, 2, 3), [])]
    send(engine, 4)
    assert rec.take() == [(rows(4), [])]


def test_output_after_events_alone(engine, rec) -> None:
    engine.epl("select a from T output after 2 events").add_listener(rec)
    send(engine, 1, 2, 3, 4)
    assert rec.take() == [(rows(3), []), (rows(4), [])]


def test_output_after_events_with_condition_drops_earlier_events(engine, rec) -> None:
    engine.epl("select a from T output after 3 events every 2 events").add_listener(rec)
    send(engine, 1, 2, 3, 4)
    assert rec.take() == []
    send(engine, 5)
    assert rec.take() == [(rows(4, 5), [])]


def test_output_after_time(engine, rec) -> None:
    engine.advance_time(1000)
    engine.epl("select a from T output after 2 sec").add_listener(rec)
    send(engine, 1)
    engine.advance_time(2999)
    send(engine, 2)
    engine.advance_time(3000)
    send(engine, 3)
    assert rec.take() == [(rows(3), [])]


def test_aggregated_statement_keeps_updates_before_after(engine, rec) -> None:
    # Esper keeps them in the batch: they count towards the aggregate and come out later
    engine.epl("select sum(a) as s from T output after 2 events every 2 events").add_listener(rec)
    send(engine, 1, 2, 3, 4)
    assert rec.take() == [([{"s": 1}, {"s": 3}, {"s": 6}, {"s": 10}], [])]


def test_when_terminated(engine, rec) -> None:
    stmt = engine.epl("select a from T output when terminated")
    stmt.add_listener(rec)
    send(engine, 1, 2)
    assert rec.take() == []
    stmt._instances[0].output.terminated()
    engine.drain()
    assert rec.take() == [(rows(1, 2), [])]


def test_every_events_and_when_terminated(engine, rec) -> None:
    stmt = engine.epl("select a from T output every 3 events and when terminated")
    stmt.add_listener(rec)
    send(engine, 1, 2)
    stmt._instances[0].output.terminated()
    engine.drain()
    assert rec.take() == [(rows(1, 2), [])]


def test_stop_cancels_the_schedule(engine, rec) -> None:
    before = engine.scheduler.pending_count()
    stmt = engine.epl("select a from T output every 1 sec")
    stmt.add_listener(rec)
    send(engine, 1)
    assert engine.scheduler.pending_count() == before + 1
    stmt.stop()
    assert engine.scheduler.pending_count() == before
    engine.advance_time(5000)
    assert rec.take() == []


def test_restarted_statement_starts_over(engine, rec) -> None:
    stmt = engine.epl("select a from T output every 2 events")
    stmt.add_listener(rec)
    send(engine, 1)
    stmt.stop()
    stmt.start()
    send(engine, 2)
    assert rec.take() == []
    send(engine, 3)
    assert rec.take() == [(rows(2, 3), [])]


@pytest.mark.parametrize("text, message", [
    ("select a from T output every 0 events", "positive integer"),
    ("select a from T output every -1 sec", "positive"),
    ("select a from T output at (*, *, *, *)", "number of crontab parameters"),
    ("select a from T output at (61, *, *, *, *)", "between 0 and 59"),
    ("select a from T output when a > 1", "property named 'a'"),
    ("select a from T output every 2 events then set", None),
])
def test_invalid_output_clauses(engine, text, message) -> None:
    with pytest.raises(Exception) as info:
        engine.epl(text)
    if message is not None:
        assert isinstance(info.value, EPLValidationError)
        assert message in str(info.value)

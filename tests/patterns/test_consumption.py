"""@SuppressOverlappingMatches and @DiscardPartialsOnMatch (pattern-level or statement-level)."""
from __future__ import annotations

import pytest

PATTERN = "select a.id as a, b.id as b from pattern {ann} [every a=A -> every b=B]"


def _run(engine, listen, epl):
    rows = listen(epl)
    for t, i in (("A", 1), ("A", 2), ("B", 3), ("B", 4)):
        engine.send({"id": i, "v": 0}, t)
    return rows


def test_without_annotations_every_pair_matches(engine, listen):
    rows = _run(engine, listen, PATTERN.format(ann=""))
    assert rows.rows == [{"a": 1, "b": 3}, {"a": 2, "b": 3}, {"a": 1, "b": 4}, {"a": 2, "b": 4}]


def test_suppress_keeps_the_first_of_overlapping_matches(engine, listen):
    rows = _run(engine, listen, PATTERN.format(ann="@SuppressOverlappingMatches"))
    assert rows.calls == [[{"a": 1, "b": 3}], [{"a": 1, "b": 4}]]


def test_discard_removes_partials_sharing_events(engine, listen):
    rows = _run(engine, listen, PATTERN.format(ann="@DiscardPartialsOnMatch"))
    # both matches of B3 are delivered together; the partials holding A1 and A2 are gone
    assert rows.calls == [[{"a": 1, "b": 3}, {"a": 2, "b": 3}]]


def test_both_annotations(engine, listen):
    rows = _run(engine, listen, PATTERN.format(ann="@DiscardPartialsOnMatch @SuppressOverlappingMatches"))
    assert rows.rows == [{"a": 1, "b": 3}]


def test_statement_level_annotation(engine, listen):
    rows = _run(engine, listen, "@SuppressOverlappingMatches " + PATTERN.format(ann=""))
    assert rows.rows == [{"a": 1, "b": 3}, {"a": 1, "b": 4}]


def test_discard_keeps_unrelated_partials(engine, listen):
    rows = listen("select a.id as a, b.id as b from pattern @DiscardPartialsOnMatch "
                  "[every a=A -> b=B(id = a.id)]")
    for t, i in (("A", 1), ("A", 2), ("A", 1), ("B", 1), ("B", 2), ("B", 1)):
        engine.send({"id": i, "v": 0}, t)
    assert rows.rows == [{"a": 1, "b": 1}, {"a": 1, "b": 1}, {"a": 2, "b": 2}]


def test_discard_on_timer_match(engine, listen):
    rows = listen("select a.id as a from pattern @DiscardPartialsOnMatch "
                  "[every a=A -> (timer:interval(1 sec) or b=B(id = a.id))]")
    engine.send({"id": 1, "v": 0}, "A")
    engine.advance_time(1000)
    engine.send({"id": 1, "v": 0}, "B")
    assert rows.rows == [{"a": 1}]
    assert engine.schedule_count() == 0


@pytest.mark.parametrize("ann", ["@SuppressOverlappingMatches", "@DiscardPartialsOnMatch"])
def test_released_on_stop(engine, ann):
    stmt = engine.epl(PATTERN.format(ann=ann))
    engine.send({"id": 1, "v": 0}, "A")
    stmt.destroy()
    assert engine.filter_count() == 0 and engine.schedule_count() == 0

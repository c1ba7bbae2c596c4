"""The engine-wide limit on pattern sub-expression instances."""
from __future__ import annotations

import logging

import pytest

from engine.fastpath_switch import set_fast_paths
from engine.patterns import pattern_limit, set_pattern_limit


@pytest.mark.parametrize("fast", [False, True])
def test_limit_prevents_new_instances_and_reports(engine, listen, caplog, fast):
    set_fast_paths(engine, fast)      # the keyed fast path counts waiting A events the same
    set_pattern_limit(engine, 2)
    seen = []
    engine.signals.pattern_limit.connect(lambda sender, **kw: seen.append(kw), weak=False)
    rows = listen("@name('p') select a.id as a from pattern [every a=A -> b=B(id = a.id)]")
    with caplog.at_level(logging.WARNING, logger="epl.engine.patterns"):
        for i in (1, 2, 3, 4):
            engine.send({"id": i, "v": 0}, "A")
    # general: every a=A and two instances; fast: one filter per type
    assert engine.filter_count() == (2 if fast else 3)
    assert [(kw["statement"].name, kw["count"], kw["limit"]) for kw in seen] == [("p", 2, 2), ("p", 2, 2)]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "limit of 2" in warnings[0].getMessage()
    assert "'p': 2" in warnings[0].getMessage()
    engine.send({"id": 3, "v": 0}, "B")               # never started
    engine.send({"id": 1, "v": 0}, "B")
    engine.send({"id": 5, "v": 0}, "A")               # room again
    engine.send({"id": 5, "v": 0}, "B")
    assert rows.rows == [{"a": 1}, {"a": 5}]
    assert pattern_limit(engine).count == 1


def test_limit_is_engine_wide(engine):
    engine.services["pattern_limit"] = 3
    s1 = engine.epl("select * from pattern [every a=A -> b=B(id = a.id)]")
    s2 = engine.epl("select * from pattern [every c=C -> b=B(id = c.id)]")
    for i in range(3):
        engine.send({"id": i, "v": 0}, "A")
        engine.send({"id": i, "v": 0}, "C")
    assert pattern_limit(engine).count == 3
    assert pattern_limit(engine).per_statement == {s1.name: 2, s2.name: 1}
    s1.destroy()
    s2.destroy()
    assert pattern_limit(engine).count == 0


def test_limit_without_prevent_start_only_reports(engine, listen):
    set_pattern_limit(engine, 1, prevent_start=False)
    seen = []
    engine.signals.pattern_limit.connect(lambda sender, **kw: seen.append(kw), weak=False)
    rows = listen("select a.id as a from pattern [every a=A -> b=B(id = a.id)]")
    for i in (1, 2):
        engine.send({"id": i, "v": 0}, "A")
    for i in (1, 2):
        engine.send({"id": i, "v": 0}, "B")
    assert rows.rows == [{"a": 1}, {"a": 2}]
    assert len(seen) == 1


def test_blocked_instance_lets_every_start_over(engine, listen):
    set_pattern_limit(engine, 0)
    rows = listen("select a.id as a from pattern [every (a=A -> b=B)]")
    engine.send({"id": 1, "v": 0}, "A")
    set_pattern_limit(engine, None)
    engine.send({"id": 2, "v": 0}, "A")
    engine.send({"id": 3, "v": 0}, "B")
    assert rows.rows == [{"a": 2}]

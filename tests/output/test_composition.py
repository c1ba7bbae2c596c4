"""Output limiting is composed, not patched in: the statement's result-set processor keeps its
class (no generated subclass), and a limited statement survives a checkpoint and restore with
its batch half collected."""
from __future__ import annotations

from engine import Engine
from engine.resultset import processors as P


def _processor_classes() -> set:
    return {c for c in vars(P).values() if isinstance(c, type)}


def test_limited_statement_keeps_its_processor_class(engine, rec) -> None:
    before = _processor_classes()
    for epl in ("select k, count(*) as c from T group by k output every 2 events",
                "select a from T output last every 2 events",
                "select count(*) as c from T output snapshot every 2 events"):
        engine.epl(epl).add_listener(rec)
    engine.send({"k": "A", "a": 1}, "T")
    engine.send({"k": "A", "a": 2}, "T")
    assert rec.take()
    assert _processor_classes() == before
    assert not any(c.__name__.startswith("OutputLimited")
                   for c in P.SimpleProcessor.__subclasses__())


def test_checkpoint_keeps_a_half_collected_batch() -> None:
    e = Engine(time="simulated")
    e.epl("create schema T(k string, a int)")
    e.epl("@name('s') select k, sum(a) as s from T group by k output every 3 events")
    e.send({"k": "A", "a": 1}, "T")
    e.send({"k": "B", "a": 2}, "T")
    got = []
    restored = Engine.restore(e.checkpoint())
    restored.statement("s").add_listener(lambda new, old: got.append(
        sorted((r["k"], r["s"]) for r in new)))
    restored.send({"k": "A", "a": 4}, "T")
    assert got == [[("A", 1), ("A", 5), ("B", 2)]]

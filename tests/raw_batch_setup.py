"""What the raw time batch tests share (tests/engine/test_raw_batch_split.py,
tests/send_many_times/test_time_batch_split.py): the schemas and an engine with them, rows
as comparable lists, and counters of calls into generated code (how many sends took the
front's lock, how many batch ends split their batch themselves)."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from engine import Engine

SCHEMA = ["create schema T(k string, v int, n long, x double)", "create schema T2(extra int) inherits T"]


def schema_engine(fusion: bool, **options: Any) -> Engine:
    """A simulated-time engine with the schemas, fusion on or off."""
    engine = Engine(time="simulated", **options)
    engine.fusion = fusion
    for s in SCHEMA:
        engine.epl(s)
    return engine


def rows(beans: Any) -> Any:
    """Delivered rows as sorted item lists (None stays None)."""
    return None if beans is None else [sorted(b.to_dict().items()) for b in beans]


def count_calls(ns: dict, name: str) -> list[int]:
    """Replaces the function `name` of a generated namespace by one that counts its calls
    in the returned list's first item, for the rest of the engine's life."""
    real = ns[name]
    count = [0]

    def counted(*args: Any) -> Any:
        count[0] += 1
        return real(*args)
    ns[name] = counted
    return count


@contextmanager
def counted_acquires(engine: Engine) -> Iterator[list[int]]:
    """While inside, `count[0]` is how many times send's front took the lock."""
    ns = engine._lean.ns
    real = ns["_acquire"]
    try:
        yield count_calls(ns, "_acquire")
    finally:
        ns["_acquire"] = real

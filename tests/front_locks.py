"""Counting how many per-event sends took the engine's lock in send's generated front (its
`_acquire`): tests of the fronts' lock-free paths observe which events went around them."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from engine import Engine


@contextmanager
def counted_acquires(engine: Engine) -> Iterator[list[int]]:
    """While inside, `count[0]` is how many times send's front took the lock."""
    ns = engine._lean.ns
    real = ns["_acquire"]
    count = [0]

    def acquire() -> bool:
        count[0] += 1
        return real()
    ns["_acquire"] = acquire
    try:
        yield count
    finally:
        ns["_acquire"] = real

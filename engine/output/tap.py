"""Routes a result-set processor's view updates to its output limiter.

With output rate limiting Esper's output view, not the processor, decides what an update
produces (it buffers the view updates and asks the processor at output time). The statement
plumbing calls `processor.process(new, old)` and hands the result to the limiter's `deliver`;
a tapped processor answers with the raw update instead (`ViewUpdate`), and the limiter does the
processing. The processor's iteration (`for row in statement`) is unchanged.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

Eps = Sequence[Any]


class ViewUpdate:
    """One view (or join) update as the processor received it."""

    __slots__ = ("new", "old")

    def __init__(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        self.new = new or ()
        self.old = old or ()


def _hand_over(self: Any, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[ViewUpdate, None]:
    return ViewUpdate(new, old), None


_TAPPED: dict[type, type] = {}


def tap(processor: Any) -> Callable[[Sequence[Eps], Sequence[Eps]], tuple]:
    """Make `processor.process` hand over raw updates; returns the original processing
    (rows for one update, aggregation applied) bound to this processor."""
    cls = type(processor)
    if cls in _TAPPED.values():
        original = cls.__mro__[1]
    else:
        original = cls
        sub = _TAPPED.get(cls)
        if sub is None:
            # same slots, so the instance can switch class; only `process` differs
            sub = type(f"OutputLimited{cls.__name__}", (cls,), {"__slots__": (), "process": _hand_over})
            _TAPPED[cls] = sub
        processor.__class__ = sub
    process = original.process

    def run(new: Sequence[Eps], old: Sequence[Eps]) -> tuple:
        return process(processor, new, old)
    return run

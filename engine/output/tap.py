"""Routes a result-set processor's view updates to its output limiter.

With output rate limiting Esper's output view, not the processor, decides what an update
produces (it buffers the view updates and asks the processor at output time). The statement
plumbing calls `processor.process(new, old)` and hands the result to the limiter's `deliver`;
under output rate limiting it holds the limiter's `HandOver` in the processor's place, whose
`process` answers with the raw update (`ViewUpdate`), and the limiter does the processing with
the processor itself. Iteration (`for row in statement`) and `reset` are the processor's.
"""
from __future__ import annotations

from typing import Any, Sequence

Eps = Sequence[Any]


class ViewUpdate:
    """One view (or join) update as the processor received it."""

    __slots__ = ("new", "old")

    def __init__(self, new: Sequence[Eps], old: Sequence[Eps]) -> None:
        self.new = new or ()
        self.old = old or ()


class HandOver:
    """Stands in for `processor` in the statement's plumbing when the statement has an output
    clause: `process` hands the update over untouched, the rest delegates."""

    __slots__ = ("processor",)

    def __init__(self, processor: Any) -> None:
        self.processor = processor

    def process(self, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[ViewUpdate, None]:
        return ViewUpdate(new, old), None

    def iterate(self, events: Any) -> Any:
        return self.processor.iterate(events)

    @property
    def reset(self) -> Any:
        # a processor without `reset` has none here either (the join plumbing asks hasattr)
        return self.processor.reset

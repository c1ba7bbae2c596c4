"""`distinct` for any value aggregation: reference-count the present values and pass on only
a value's first arrival and its last departure."""
from __future__ import annotations

from typing import Any, Callable

from engine.contracts.aggregation import Aggregator


def _hashable(v: Any) -> Any:
    # Arrays arrive as lists; equal arrays are the same distinct value.
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return frozenset((k, _hashable(x)) for k, x in v.items())
    return v


class DistinctAggregator:
    """Wraps an aggregator so it sees each distinct non-null value once.

    With `tupled`, values may be argument tuples whose first element is the distinct key
    (`nth(distinct x, 2)` gets `(x, 2)`)."""

    __slots__ = ("inner", "counts", "tupled")

    def __init__(self, inner: Aggregator, tupled: bool = False) -> None:
        self.inner = inner
        self.counts: dict[Any, int] = {}
        self.tupled = tupled

    def enter(self, value: Any) -> None:
        key = value[0] if self.tupled and type(value) is tuple else value
        if key is None:
            return
        try:
            n = self.counts.get(key, 0)
        except TypeError:
            key = _hashable(key)
            n = self.counts.get(key, 0)
        self.counts[key] = n + 1
        if n == 0:
            self.inner.enter(value)

    def leave(self, value: Any) -> None:
        key = value[0] if self.tupled and type(value) is tuple else value
        if key is None:
            return
        try:
            n = self.counts.get(key)
        except TypeError:
            key = _hashable(key)
            n = self.counts.get(key)
        if n is None:
            return
        if n == 1:
            del self.counts[key]
            self.inner.leave(value)
        else:
            self.counts[key] = n - 1

    def value(self) -> Any:
        return self.inner.value()

    def clear(self) -> None:
        self.counts.clear()
        self.inner.clear()


def distinct_maker(maker: Callable[[], Aggregator], tupled: bool = False) -> Callable[[], Aggregator]:
    """A maker of distinct-wrapped aggregators."""
    def make() -> Aggregator:
        return DistinctAggregator(maker(), tupled)
    return make

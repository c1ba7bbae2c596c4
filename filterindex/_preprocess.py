"""Routing through a per-type preprocessor: a function that may replace an event before
any filter sees it (Esper's `update istream`), the handles then taking the replacement."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Iterator, Optional, Sequence

# `pre(bean)` returns the bean itself (nothing changed), a replacement bean, or None (the
# event is dropped before any filter sees it).
Preprocessor = Callable[[Any], Optional[Any]]


class BoundHandle:
    """A matched handle that takes the replacement event whatever bean the caller passes:
    the engine builds its own bean for the event it was sent, the filters saw the
    replacement."""

    __slots__ = ("inner", "bean", "order", "statement", "drop", "stream_index")

    def __init__(self, inner: Any, bean: Any) -> None:
        self.inner = inner
        self.bean = bean
        self.order = inner.order
        self.statement = inner.statement
        self.drop = inner.drop
        self.stream_index = getattr(inner, "stream_index", None)

    def on_event(self, bean: Any) -> None:
        self.inner.on_event(self.bean)


def preprocessed_route(owner: Any, pre: Preprocessor, inner: Callable[[Any], Sequence],
                       empty: Sequence) -> Callable[[Any], Sequence]:
    """`fn(bean)`: the route `inner` over what `pre` makes of the event. Once retired
    (`fn.stale = True`) it forwards to `owner.fn`, the current one, as generated routes do."""
    def route(bean: Any) -> Sequence:
        if route.stale:                         # type: ignore[attr-defined]
            return owner.fn(bean)
        b = pre(bean)
        if b is bean:
            return inner(bean)
        if b is None:
            return empty
        handles = inner(b)
        if not handles:
            return empty
        return [BoundHandle(h, b) for h in handles]
    route.stale = False                         # type: ignore[attr-defined]
    return route


def preprocessed_scan(route: Any) -> Callable:
    """Batch routing (see codegen.build_scan_fn) one event at a time through `route.fn`,
    read per event: a preprocessed type takes no generated loop."""
    def scan(events: Any, i: int, n: int, bean: Any) -> Iterator[tuple]:
        for j in range(i, n):
            u = events[j]
            if type(u) is not dict and not isinstance(u, Mapping):
                yield j, None
                continue
            bean.underlying = u
            out = route.fn(bean)
            bean.underlying = None
            if out:
                yield j, out
    return scan

"""The select clause at runtime: events per stream in, one output event out."""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from engine.bean import EventBean
from engine.event_types import EventType


class SelectEvaluator:
    """Builds output events. `passthrough` (a single-stream `select *`) hands on the incoming
    event itself, as Esper does; otherwise a map event of `out_type` with one value per column."""

    __slots__ = ("names", "fns", "out_type", "passthrough", "wildcard_streams")

    def __init__(self, names: Sequence[str], fns: Sequence[Callable[[Any], Any]],
                 out_type: EventType, passthrough: bool = False,
                 wildcard_streams: Sequence[tuple[int, Optional[str]]] = ()) -> None:
        self.names = tuple(names)
        self.fns = tuple(fns)
        self.out_type = out_type
        self.passthrough = passthrough
        self.wildcard_streams = tuple(wildcard_streams)

    def __call__(self, eps: Sequence[Optional[EventBean]]) -> EventBean:
        if self.passthrough:
            return eps[0]
        if self.wildcard_streams:
            values: dict[str, Any] = {}
            for index, alias in self.wildcard_streams:
                bean = eps[index]
                if alias is None:  # `select *, x` of one stream: its properties plus columns
                    if bean is not None:
                        values.update(bean.to_dict())
                else:
                    values[alias] = bean
            for n, f in zip(self.names, self.fns):
                values[n] = f(eps)
            return EventBean(self.out_type, values)
        return EventBean(self.out_type, dict(zip(self.names, [f(eps) for f in self.fns])))

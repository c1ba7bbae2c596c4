"""The select clause at runtime: events per stream in, one output event out."""
from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable, Optional, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.event_types import EventType


class SelectEvaluator:
    """Builds output events. `passthrough` (a single-stream `select *`) hands on the incoming
    event itself, as Esper does; otherwise a map event of `out_type` with one value per column."""

    __slots__ = ("names", "fns", "out_type", "passthrough", "wildcard_streams", "build")

    def __init__(self, names: Sequence[str], fns: Sequence[Callable[[Any], Any]],
                 out_type: EventType, passthrough: bool = False,
                 wildcard_streams: Sequence[tuple[int, Optional[str]]] = ()) -> None:
        self.names = tuple(names)
        self.fns = tuple(fns)
        self.out_type = out_type
        self.passthrough = passthrough
        self.wildcard_streams = tuple(wildcard_streams)
        # `build(eps)` is `self(eps)` without the dispatch: what the processors call per row
        self.build: Callable[[Sequence[Optional[EventBean]]], EventBean] = _builder(self)

    def __call__(self, eps: Sequence[Optional[EventBean]]) -> EventBean:
        return self.build(eps)

    def _general(self, eps: Sequence[Optional[EventBean]]) -> EventBean:
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


def _builder(ev: SelectEvaluator) -> Callable[[Sequence[Optional[EventBean]]], EventBean]:
    """The row builder of a select clause: the event itself for `select *`, else a map event
    built by a closure made for the column count (a dict display beats dict(zip(...)) by
    about two); values are computed in column order, a repeated name keeps the last value."""
    if ev.passthrough:
        return itemgetter(0)
    if ev.wildcard_streams or len(ev.fns) > 4 or len(ev.fns) != len(ev.names):
        return ev._general
    bean, t, names, fns = EventBean, ev.out_type, ev.names, ev.fns
    if len(fns) == 1:
        (n0,), (f0,) = names, fns
        return lambda eps: bean(t, {n0: f0(eps)})
    if len(fns) == 2:
        (n0, n1), (f0, f1) = names, fns
        return lambda eps: bean(t, {n0: f0(eps), n1: f1(eps)})
    if len(fns) == 3:
        (n0, n1, n2), (f0, f1, f2) = names, fns
        return lambda eps: bean(t, {n0: f0(eps), n1: f1(eps), n2: f2(eps)})
    if len(fns) == 4:
        (n0, n1, n2, n3), (f0, f1, f2, f3) = names, fns
        return lambda eps: bean(t, {n0: f0(eps), n1: f1(eps), n2: f2(eps), n3: f3(eps)})
    return ev._general

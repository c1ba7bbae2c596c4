"""Test support for views: ViewArg builders, a recording sink, and events of a test type."""
from __future__ import annotations

from typing import Any, Callable, Optional

from engine.bean import EventBean
from engine.event_types import EventTypeRegistry
from views import SimulatedViewContext, ViewArg, create_factories, make_chain

REGISTRY = EventTypeRegistry()
EV = REGISTRY.register_map("ViewTestEvent", {"id": "int", "k": "int", "v": "int", "ts": "long"})


def ev(i: int, k: int = 0, v: int = 0, ts: int = 0) -> EventBean:
    return EventBean(EV, {"id": i, "k": k, "v": v, "ts": ts})


def const(value: Any, text: Optional[str] = None) -> ViewArg:
    return ViewArg(text if text is not None else repr(value), value=value)


def period(msec: float, text: Optional[str] = None) -> ViewArg:
    return ViewArg(text or f"{msec} msec", value=msec, is_time_period=True)


def prop(name: str, descending: bool = False) -> ViewArg:
    return ViewArg(name + (" desc" if descending else ""), evaluate=lambda b: b.get(name),
                   descending=descending)


def expr(text: str, fn: Callable[[Optional[EventBean], dict], Any]) -> ViewArg:
    return ViewArg(text, compile_with=lambda names: fn)


def ids(events: Optional[list]) -> Optional[list]:
    return [e.get("id") for e in events] if events else None


class Recorder:
    """A sink recording every update as (tag, new ids, old ids)."""

    def __init__(self) -> None:
        self.calls: list = []
        self.tag: Any = None

    def update(self, new: Optional[list], old: Optional[list]) -> None:
        self.calls.append((self.tag, ids(new), ids(old)))


def chain(specs: list, start: int = 0):
    """(ctx, first view, all views, recorder) for a chain of (name, args) specs."""
    ctx = SimulatedViewContext(start)
    rec = Recorder()
    first, views = make_chain(create_factories(specs), ctx, rec)
    return ctx, first, views, rec

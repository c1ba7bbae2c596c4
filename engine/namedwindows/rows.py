"""Rows of a named window's or table's type made from column values (on-action inserts and
updates, fire-and-forget inserts)."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.event_types import EventType


def row_maker(event_type: EventType,
              columns: Sequence[tuple[str, Callable[[Any], Any]]]) -> Callable[[Any], EventBean]:
    """`make(eps)`: a new row of `event_type` from `(column, value fn)` pairs; the columns not
    named are null."""
    names = event_type.property_names
    fns = tuple(columns)

    def make(eps: Any) -> EventBean:
        u = dict.fromkeys(names)
        for n, f in fns:
            u[n] = f(eps)
        return EventBean(event_type, u)
    return make

"""`insert into` a variant stream: which events it admits and how its events are built."""
from __future__ import annotations

from typing import Any

from engine.contracts.event_types import EventType, Representation
from engine.contracts.plans import InsertIntoPlan
from engine.contracts.schema_types import admits

from engine.contracts.errors import EPLValidationError


def insert_into_variant(target: EventType, out_type: EventType, src: list, cols: list,
                        selector: str, passthrough: bool, text: str) -> InsertIntoPlan:
    """`insert into V select * from T` wraps T's events (T must be a member type unless V
    takes any type); `insert into V select a, b ...` builds the member type whose properties
    hold the columns (or a map event for a variant of any type), then wraps it."""
    if passthrough:
        if not admits(target, out_type):
            raise EPLValidationError(
                f"Selected event type is not a valid event type of the variant stream "
                f"'{target.name}'", text)
        return InsertIntoPlan(target, tuple(zip(src, cols)), selector, passthrough=True)
    if target.variant_members is None:
        member = EventType(f"{target.name}_member", Representation.MAP,
                           {c: out_type.properties.get(s) or out_type.property_type(s)
                            for s, c in zip(src, cols) if out_type.property_type(s) is not None})
    else:
        member = next((m for m in target.variant_members
                       if m.representation is Representation.MAP
                       and all(m.property_type(c) is not None for c in cols)), None)
        if member is None:
            raise EPLValidationError(
                f"Selected event type is not a valid event type of the variant stream "
                f"'{target.name}'", text)
    inner = InsertIntoPlan(member, tuple(zip(src, cols)), selector)
    return InsertIntoPlan(target, tuple(zip(src, cols)), selector, member=inner)

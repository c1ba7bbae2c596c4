"""Event types beyond plain maps: object-array and JSON types (map types that also take
lists or JSON text) and variant streams (events of several types under one name)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Iterable, Optional

import engine.contracts.epl_types as T
from engine.contracts.epl_types import PropertyType
from engine.contracts.errors import EventTypeError
from engine.contracts.event_types import EventType, Representation


def make_objectarray(event_type: EventType) -> EventType:
    """Events arrive as lists or tuples holding the values in property order (supertypes'
    properties first, as Esper orders them); nested object-array properties convert too."""
    names = event_type.property_names
    nested = _nested_converters(event_type)
    n = len(names)
    tname = event_type.name

    def convert(values: Any) -> Any:
        if isinstance(values, Mapping):
            return values
        if not isinstance(values, (list, tuple)):
            raise EventTypeError(f"Event type '{tname}' is an object-array type: expected a list "
                                 f"or tuple, got {type(values).__name__}")
        if len(values) > n:
            raise EventTypeError(f"Event type '{tname}' has {n} properties, the object array "
                                 f"has {len(values)} values")
        out = dict(zip(names, values))
        for name, conv in nested:
            v = out.get(name)
            if v is not None:
                out[name] = conv(v)
        return out
    event_type.wire = "objectarray"
    event_type.convert = convert
    return event_type


def make_json(event_type: EventType) -> EventType:
    """Events arrive as dicts or as JSON text (an object); nested JSON types are plain dicts
    inside, read through the nested type's properties."""
    from json import loads   # here, when a JSON type is declared: 1 ms of every cold start
    tname = event_type.name

    def convert(event: Any) -> Any:
        if isinstance(event, (str, bytes, bytearray)):
            try:
                event = loads(event)
            except ValueError as e:
                raise EventTypeError(f"Failed to parse JSON for event type '{tname}': {e}") from None
        if not isinstance(event, Mapping):
            raise EventTypeError(f"Event type '{tname}' is a JSON type: expected a JSON object "
                                 f"(text or dict), got {type(event).__name__}")
        return event
    event_type.wire = "json"
    event_type.convert = convert
    return event_type


def _nested_converters(event_type: EventType) -> list[tuple[str, Callable[[Any], Any]]]:
    out = []
    for name, pt in event_type.properties.items():
        inner = pt.event_type if pt.kind is T.EPLType.EVENT else (
            pt.element.event_type if pt.kind is T.EPLType.ARRAY and pt.element is not None
            and pt.element.kind is T.EPLType.EVENT else None)
        if inner is None or inner.convert is None:
            continue
        conv = inner.convert
        if pt.kind is T.EPLType.ARRAY:
            out.append((name, lambda v, _c=conv: [_c(x) if x is not None else None for x in v]))
        else:
            out.append((name, conv))
    return out


def make_variant(name: str, members: Optional[Iterable[EventType]]) -> EventType:
    """A variant stream over `members` (None: any type). Properties every member has are
    typed (Object where their types differ); any other property is read dynamically."""
    props: dict[str, PropertyType] = {}
    member_list = None if members is None else tuple(members)
    if member_list:
        first, rest = member_list[0], member_list[1:]
        for pname, pt in first.properties.items():
            others = [m.property_type(pname) for m in rest]
            if all(o is not None for o in others):
                props[pname] = pt if all(o == pt for o in others) else T.OBJECT
    vt = EventType(name, Representation.VARIANT, props, (), dynamic=True)
    vt.variant_members = member_list
    return vt


def admits(variant: EventType, event_type: EventType) -> bool:
    """Whether events of `event_type` may be inserted into the variant stream."""
    if variant.variant_members is None:
        return True
    if event_type.representation is Representation.VARIANT:     # a variant of members only
        return event_type.variant_members is not None and all(
            admits(variant, m) for m in event_type.variant_members)
    return any(event_type is m or event_type.is_subtype_of(m) for m in variant.variant_members)

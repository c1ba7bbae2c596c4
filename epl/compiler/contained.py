"""Contained-event selection, `Order(filter)[items]`: the stream's events are the events
held in a property of the container event (an event-typed property or an array of them)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable

import engine.contracts.epl_types as T
from engine.contracts.bean import EventBean
from engine.contracts.event_types import EventType

from engine.contracts.errors import EPLValidationError
from .scope import StreamInfo


def contained_stream(index: int, spec: Any, container: EventType, text: str
                     ) -> tuple[StreamInfo, tuple[StreamInfo, Callable[[EventBean], list]]]:
    """The stream's info (the contained type under the stream's alias) and, for the filter,
    the container's info with the function splitting a container event."""
    path = spec.contained
    pt = container.property_type(path)
    if pt is None:
        raise EPLValidationError(
            f"Property expression '{path}' against type '{container.name}' could not be resolved: "
            f"property named '{path}' is not valid", text)
    many = pt.kind is T.EPLType.ARRAY
    inner = pt.element if many else pt
    if inner is None or inner.kind is not T.EPLType.EVENT or inner.event_type is None:
        raise EPLValidationError(
            f"Property expression '{path}' against type '{container.name}' does not return a "
            f"fragmentable property value", text)
    item_type = inner.event_type
    getter = container.getter(path)
    convert = item_type.convert

    def split(bean: EventBean, _get=getter, _t=item_type, _many=many) -> list:
        value = _get(bean.underlying)
        if value is None:
            return []
        values = value if _many else (value,)
        out = []
        for v in values:
            if v is None:
                continue
            if isinstance(v, EventBean):
                out.append(v)
            elif convert is not None and not isinstance(v, Mapping):
                out.append(EventBean(_t, convert(v)))
            else:
                out.append(EventBean(_t, v))
        return out

    info = StreamInfo(index, item_type, spec.alias, item_type.name)
    container_info = StreamInfo(index, container, spec.alias, spec.event_filter.type_name)
    return info, (container_info, split)
